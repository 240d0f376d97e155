"""Positions where a partner's play can sabotage his side, found in real hands.

A hand is dealt from a seed, bid by the heuristic (a chosen seat bids Nil on a low hand), and
played out by the heuristic; every position met on the way where a kind of partnership duty
applies is handed out with the facts the duty is about. Tests then ask the bot under test
for its card there and check the duty (``test_bots_partner``). Positions come from the
engine's public API only (``Game``, observations), and the facts are computed here from the
seat's own observation (its hand, the cards played): nothing a player could not know.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass

from spades.actions import Action, Bid, Play
from spades.bots import Bot, make_bot
from spades.bots.knowledge import beats
from spades.cards import card_text
from spades.driver import apply_decision
from spades.legal import STANDARD
from spades.observation import Observation, bid_value
from spades.rules import PRESETS, Rules
from spades.state import Game

RULES = PRESETS["standard"].replace(blind_nil=False)
"""Standard rules without Blind Nil (no exchange: each seat's hand is the deal's)."""


@dataclass(frozen=True, slots=True)
class Spot:
    """A seat to play, and what its own observation says about the trick."""

    obs: Observation
    legal: tuple[Action, ...]
    seat: int
    partner: int
    best: int
    """The card now winning the trick."""
    winner: int
    """The seat that played it."""
    lead: int
    """The suit led."""
    last: bool
    """This seat plays the trick's last card."""
    sure: bool
    """No card this seat cannot see (not in its hand, not played) beats ``best``: whoever is
    still to play, ``best`` wins unless this seat beats it."""
    beaters: frozenset[int]
    """Legal cards of this seat that beat ``best``."""
    others: frozenset[int]
    """Legal cards that do not."""


def _nil_hand(rng: random.Random) -> tuple[int, list[int]]:
    """A hand fit for Nil (no spade above the 7, no side card above the 9) and the rest."""
    low = [c for c in range(52) if (c % 13 <= 5 if c < 13 else c % 13 <= 7)]
    rng.shuffle(low)
    mask = 0
    for c in low[:13]:
        mask |= 1 << c
    rest = [c for c in range(52) if not mask >> c & 1]
    rng.shuffle(rest)
    return mask, rest


def deal_hand(seed: int, nil_seat: int | None = None, rules: Rules = RULES) -> Game:
    """A game after the bidding: seat ``nil_seat`` (if any) holds a low hand and bids Nil, the
    others bid numbers as the heuristic counts them (no other Nil)."""
    rng = random.Random(seed)
    dealer = rng.randrange(4)
    game = Game(rules, first_dealer=dealer, auto_deal=False)
    if nil_seat is None:
        cards = list(range(52))
        rng.shuffle(cards)
        hands = [sum(1 << c for c in cards[13 * s : 13 * s + 13]) for s in range(4)]
    else:
        mask, rest = _nil_hand(rng)
        hands = []
        for s in range(4):
            if s == nil_seat:
                hands.append(mask)
            else:
                take, rest = rest[:13], rest[13:]
                hands.append(sum(1 << c for c in take))
    game.deal(hands)
    bidder = make_bot("heuristic:nil=false,blind_nil=false", seed=seed)
    while game.phase.value == "bid":
        seat = game.to_move
        assert seat is not None
        if seat == nil_seat:
            game.make_bid(Bid(0), seat)
            continue
        legal = game.legal_actions(seat)
        apply_decision(game, seat, bidder.decide(game.observation(seat), legal).action)
    return game


def spots(game: Game) -> Iterator[Spot]:
    """Every position of the hand's play where a seat follows to a trick, the hand played
    out by the heuristic. A ``Spot`` holds the seat's observation and legal actions: a test
    may ask any bot there."""
    driver = [make_bot("heuristic", seed=s) for s in range(4)]
    hand_no = len(game.scores)
    while len(game.scores) == hand_no and not game.is_over:
        seat = game.to_move
        assert seat is not None
        obs = game.observation(seat)
        legal = game.legal_actions(seat)
        cards = [a.card for a in legal if isinstance(a, Play)]
        if obs.trick and len(cards) > 1:
            yield _spot(game, seat, cards)
        apply_decision(game, seat, driver[seat].decide(obs, legal).action)


def _spot(game: Game, seat: int, cards: list[int]) -> Spot:
    obs = game.observation(seat)
    trick = list(obs.trick)
    lead = STANDARD.suit_of[trick[0]]
    i_best = 0
    for i, c in enumerate(trick):
        if beats(c, trick[i_best], lead):
            i_best = i
    best = trick[i_best]
    winner = (obs.trick_leader + i_best) % 4
    assert obs.hand is not None
    seen = obs.hand.mask
    for t in obs.tricks:
        for c in t.cards:
            seen |= 1 << c
    for c in trick:
        seen |= 1 << c
    unseen = [c for c in range(52) if not seen >> c & 1]
    last = len(trick) == 3
    sure = last or not any(beats(c, best, lead) for c in unseen)
    partner = (seat + 2) % 4
    return Spot(
        obs=obs,
        legal=tuple(game.legal_actions(seat)),
        seat=seat,
        partner=partner,
        best=best,
        winner=winner,
        lead=lead,
        last=last,
        sure=sure,
        beaters=frozenset(c for c in cards if beats(c, best, lead)),
        others=frozenset(c for c in cards if not beats(c, best, lead)),
    )


def card_of(bot: Bot, spot: Spot) -> tuple[int, str]:
    """The card the bot plays at ``spot``, and its reason."""
    decision = bot.decide(spot.obs, spot.legal)
    assert isinstance(decision.action, Play)
    return decision.action.card, decision.why


def describe(spot: Spot) -> str:
    """The position in a line, for a failed assertion."""
    o = spot.obs
    assert o.hand is not None
    return (
        f"seat {spot.seat} holds {o.hand}, trick {' '.join(card_text(c) for c in o.trick)} "
        f"(led by {o.trick_leader}), bids {[bid_value(b) for b in o.bids]}, won {list(o.tricks_won)}, "
        f"trick {len(o.tricks) + 1}"
    )
