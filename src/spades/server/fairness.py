"""The fair-shuffle proof: decks from the OS's secure source, committed before, shown after.

At each deal the table publishes ``commit = sha256(deck_text + salt)`` where ``deck_text`` is
the cards of the rules' deck in dealing order (``"AS 7H ..."``, one space between cards: 52
cards, 51 for three players without the 2C, 54 with the jokers ``BJ``/``LJ``) and ``salt`` a
random hex string. After the hand it reveals both. Anyone can then check that the hash matches and
that dealing that deck one card at a time clockwise from the dealer's left gives the hands the
record shows: the deal was fixed before anyone bid. Records carry the proofs as an extra
``proofs`` field (record.md keeps unknown fields).
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from spades.cards import card_text, parse_card
from spades.errors import N_, InvalidCard, InvalidRecord, Text
from spades.legal import deck_of
from spades.record import Replay, replay
from spades.rules import Rules
from spades.state import Game

_sysrand = secrets.SystemRandom()


@dataclass(frozen=True, slots=True)
class Deck:
    """A deck in dealing order with its salt; text and commitment are computed once."""

    cards: tuple[int, ...]
    salt: str
    text: str
    commit: str

    @staticmethod
    def of(cards: Sequence[int], salt: str) -> Deck:
        text = deck_text(cards)
        return Deck(tuple(cards), salt, text, commitment(text, salt))


def new_deck(rules: Rules | None = None) -> Deck:
    """The cards of ``rules``' deck (``legal.deck_of``; the 52 without rules) shuffled by the
    operating system's secure generator, with a fresh salt."""
    cards = list(deck_of(rules).cards) if rules is not None else list(range(52))
    _sysrand.shuffle(cards)
    return Deck.of(cards, secrets.token_hex(16))


def deck_text(cards: Sequence[int]) -> str:
    return " ".join(card_text(c) for c in cards)


def commitment(text: str, salt: str) -> str:
    return hashlib.sha256((text + salt).encode("utf-8")).hexdigest()


def hands_from_deck(cards: Sequence[int], dealer: int, players: int) -> list[int]:
    """Deal one card at a time clockwise from the dealer's left (rules.md)."""
    masks = [0] * players
    first = (dealer + 1) % players
    for i, c in enumerate(cards):
        masks[(first + i) % players] |= 1 << c
    return masks


def deal_into(game: Game, deck: Deck) -> None:
    """Start the game's next hand from ``deck``: all of it dealt round (13 each, 17 each with
    three players), or the two-player stock."""
    if game.n == 2:
        game.deal(stock=list(deck.cards))
    else:
        game.deal(hands_from_deck(deck.cards, (game.dealer + 1) % game.n, game.n))


@dataclass(frozen=True, slots=True)
class HandCheck:
    hand: int
    commit: str
    ok: bool
    why: str


def verify_record(data: Any, *, replayed: Replay | None = None) -> tuple[Replay, list[HandCheck]]:
    """Replay a record (rules checked by the engine) and check every published proof.

    Raises ``InvalidRecord`` for a record that breaks a rule or has no readable proofs; a proof
    that does not match is a failed ``HandCheck`` naming the hand and what differs.
    ``replayed``: ``replay(data)`` already done by the caller (the replay page), not done twice."""
    rep = replayed if replayed is not None else replay(data)
    proofs = data.get("proofs") if isinstance(data, Mapping) else None
    if not isinstance(proofs, list) or not proofs:
        raise InvalidRecord(N_("the record holds no shuffle proofs (field proofs)"))
    game = rep.game
    checks: list[HandCheck] = []
    for i, p in enumerate(proofs):
        if not isinstance(p, Mapping):
            raise InvalidRecord(N_("proofs[{i}] must be an object"), i=i)
        number = p.get("hand")
        commit = p.get("commit")
        if not isinstance(number, int) or not 1 <= number <= len(game.logs) or not isinstance(commit, str):
            raise InvalidRecord(
                N_("proofs[{i}]: hand {hand} or commit {commit} is not valid"),
                i=i,
                hand=repr(number),
                commit=repr(commit),
            )
        checks.append(_check_one(game, number, commit, p.get("deck"), p.get("salt")))
    return rep, checks


def _check_one(game: Game, number: int, commit: str, text: Any, salt: Any) -> HandCheck:
    def fail(why: Text) -> HandCheck:
        return HandCheck(number, commit, False, Text(N_("hand {hand}: {why}"), hand=number, why=why))

    if not isinstance(text, str) or not isinstance(salt, str):
        return fail(Text(N_("the deck and salt were not revealed")))
    if commitment(text, salt) != commit:
        return fail(Text(N_("sha256(deck + salt) does not match the commitment published at the deal")))
    try:
        cards = [parse_card(t) for t in text.split(" ")]
    except InvalidCard as e:
        return fail(Text(N_("the revealed deck is not card text: {error}"), error=e.text))
    expected = deck_of(game.rules).cards
    if sorted(cards) != sorted(expected):
        return fail(
            Text(
                N_("the revealed deck does not hold each of the {n} cards of these rules once"),
                n=len(expected),
            )
        )
    log = game.logs[number - 1]
    if game.n == 2:
        if log.stock != cards:
            return fail(Text(N_("the revealed deck is not the stock of the record")))
    elif hands_from_deck(cards, log.dealer, game.n) != list(log.dealt):
        return fail(
            Text(N_("dealing the revealed deck from the dealer's left does not give the recorded hands"))
        )
    return HandCheck(
        number,
        commit,
        True,
        Text(N_("hand {hand}: deck and salt match the commitment and the deal"), hand=number),
    )


__all__ = ["Deck", "HandCheck", "commitment", "deal_into", "deck_text", "new_deck", "verify_record"]
