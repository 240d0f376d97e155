"""What a seat can infer from its observation: card counting, known voids, the contracts.

Everything here is computed from an ``Observation`` alone, so any bot (the heuristic, the
expert's sampler and rollouts, hint engines) can use it without being able to cheat. The
facts are hot data: card sets are masks of up to 54 bits (jokers are cards 52 and 53), voids
a 4-bit mask of suits per seat.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from spades.cards import card_text
from spades.legal import STANDARD, Deck, deck_of
from spades.observation import BidView, Observation

SUITS = range(4)


@dataclass(frozen=True, slots=True)
class CardTables:
    """Per-card facts of one deck, derived from ``spades.legal``'s tables once per deck, so
    every bot asks "what suit, how strong, what beats it" the same way in every rule set
    (jokers are spades above the ace; the ``jjdd`` 2D is a spade; removed twos are absent).

    ``power[c]`` is the card's strength within its suit in play; ``above[c]`` / ``below[c]``
    the deck's cards of that suit that beat it / that it beats; ``level[c]`` places it on the
    familiar A..2 scale counted from the top of its suit (12 for the best card, 11 for the
    next, ...; negative for the low spades of a 15-spade deck), so "a king or better" reads
    the same with jokers; ``spade[c]`` says it is a trump."""

    deck: Deck
    power: tuple[int, ...]
    above: tuple[int, ...]
    below: tuple[int, ...]
    level: tuple[int, ...]
    spade: tuple[bool, ...]
    spades: int
    """The deck's trumps as a mask."""


_TABLES: dict[int, tuple[Deck, CardTables]] = {}


def tables_of(deck: Deck) -> CardTables:
    """The ``CardTables`` of ``deck`` (cached: decks are a handful of shared values)."""
    hit = _TABLES.get(id(deck))
    if hit is not None and hit[0] is deck:
        return hit[1]
    suit_of = deck.suit_of
    power = [
        -1 if suit_of[c] < 0 else deck.trick_keys[suit_of[c]][c] - (100 if suit_of[c] == 0 else 0)
        for c in range(len(suit_of))
    ]
    above, below = [0] * len(power), [0] * len(power)
    for c in deck.cards:
        for d in deck.cards:
            if suit_of[d] == suit_of[c]:
                if power[d] > power[c]:
                    above[c] |= 1 << d
                elif power[d] < power[c]:
                    below[c] |= 1 << d
    t = CardTables(
        deck=deck,
        power=tuple(power),
        above=tuple(above),
        below=tuple(below),
        level=tuple(12 - above[c].bit_count() if suit_of[c] >= 0 else -99 for c in range(len(power))),
        spade=tuple(s == 0 for s in suit_of),
        spades=deck.suit_masks[0],
    )
    _TABLES[id(deck)] = (deck, t)
    return t


STANDARD_TABLES = tables_of(STANDARD)


def bid_number(view: BidView) -> int | None:
    """A bid as tricks (Nil and Blind Nil are 0), or ``None`` if not made yet."""
    return None if view is None else view.tricks


def is_nil(view: BidView) -> bool:
    return view is not None and view.is_nil


def is_blind(view: BidView) -> bool:
    return view is not None and view.blind


def trick_winner_index(cards: Sequence[int], deck: Deck = STANDARD) -> int:
    """Index in ``cards`` of the card now winning the trick (the first card leads)."""
    keys = deck.trick_keys[deck.suit_of[cards[0]]]
    best_i = 0
    for i in range(1, len(cards)):
        if keys[cards[i]] > keys[cards[best_i]]:
            best_i = i
    return best_i


def beats(card: int, best: int, lead: int, deck: Deck = STANDARD) -> bool:
    """Does ``card`` beat the trick's current best card ``best`` when ``lead`` was led?"""
    keys = deck.trick_keys[lead]
    return keys[card] > keys[best]


def rank_text(card: int) -> str:
    """The rank part of a card's text ("A" of "AS"; a joker is its whole text)."""
    text = card_text(card)
    return text if card >= 52 else text[:-1]


@dataclass(slots=True)
class Knowledge:
    """The facts one seat knows. Build with ``Knowledge.of(obs)``.

    ``unseen`` is every card the seat has not seen: the other hands plus, in the two-player
    game, the cards out of play it never saw. ``known[s]`` are cards known to sit in seat
    ``s``'s hand (cards this seat passed to its partner and that are still unplayed).
    """

    seat: int
    n: int
    deck: Deck
    t: CardTables
    teams: bool
    partner: int | None
    hand: int
    played: int
    unseen: int
    voids: list[int]
    known: list[int]
    bids: list[int | None]
    nil: list[bool]
    blind: list[bool]
    tricks_won: list[int]
    tricks_left: int
    trick: tuple[int, ...]
    trick_leader: int
    spades_broken: bool

    @classmethod
    def of(cls, obs: Observation) -> Knowledge:
        n = obs.players
        seat = obs.seat
        deck = deck_of(obs.rules)
        tables = tables_of(deck)
        suit_of = deck.suit_of
        hand = obs.hand.mask if obs.hand is not None else 0
        played = 0
        voids = [0] * n
        # A spade led before spades were broken shows a hand of spades only, unless any lead is allowed.
        broken = obs.rules.spades_lead == "any"
        for t in obs.tricks:
            _walk_trick(t.leader, t.cards, n, voids, broken, deck)
            for c in t.cards:
                played |= 1 << c
                if suit_of[c] == 0:
                    broken = True
        if obs.trick:
            _walk_trick(obs.trick_leader, obs.trick, n, voids, broken, deck)
            for c in obs.trick:
                played |= 1 << c
        unseen = deck.mask & ~hand & ~played
        if obs.discarded is not None:
            unseen &= ~obs.discarded.mask
        known = [0] * n
        partner = obs.rules.partner_of(seat)
        if obs.given is not None and obs.received is not None and partner is not None:
            # What I gave my partner is in his hand unless he gave it back or played it.
            known[partner] = obs.given.mask & unseen
        bids = [bid_number(b) for b in obs.bids]
        return cls(
            seat=seat,
            n=n,
            deck=deck,
            t=tables,
            teams=obs.rules.teams,
            partner=partner,
            hand=hand,
            played=played,
            unseen=unseen,
            voids=voids,
            known=known,
            bids=bids,
            nil=[b is not None and is_nil(b) for b in obs.bids],
            blind=[is_blind(b) for b in obs.bids],
            tricks_won=list(obs.tricks_won),
            tricks_left=deck.hand_size - len(obs.tricks),
            trick=obs.trick,
            trick_leader=obs.trick_leader,
            spades_broken=obs.spades_broken,
        )

    # ------------------------------------------------------------------ seats and sides
    def side_seats(self, seat: int) -> tuple[int, ...]:
        if self.teams:
            return (seat % 2, seat % 2 + 2)
        return (seat,)

    def is_friend(self, seat: int) -> bool:
        return seat == self.seat or seat == self.partner

    def opponents(self) -> list[int]:
        return [s for s in range(self.n) if not self.is_friend(s)]

    def contract(self, seat: int) -> int:
        """The contract of ``seat``'s side (sum of its number bids made so far)."""
        return sum(self.bids[s] or 0 for s in self.side_seats(seat) if not self.nil[s])

    def taken(self, seat: int) -> int:
        """Tricks toward the contract of ``seat``'s side (a Nil bidder's tricks never count)."""
        return sum(self.tricks_won[s] for s in self.side_seats(seat) if not self.nil[s])

    def need(self, seat: int) -> int:
        return max(0, self.contract(seat) - self.taken(seat))

    def nil_alive(self, seat: int) -> bool:
        """``seat`` bid Nil (or Blind Nil) and has taken no trick yet."""
        return self.nil[seat] and self.tricks_won[seat] == 0

    # ------------------------------------------------------------------ the cards
    def others_not_void(self, seats: list[int], suit: int) -> list[int]:
        return [s for s in seats if not self.voids[s] >> suit & 1]

    def higher_unseen(self, card: int) -> int:
        """Unseen cards of ``card``'s suit that beat it, as a mask."""
        return self.unseen & self.t.above[card]

    def is_master(self, card: int) -> bool:
        """No unseen card of its suit is higher: it wins the suit unless trumped."""
        return not self.higher_unseen(card)

    def unseen_in(self, suit: int) -> int:
        return (self.unseen & self.deck.suit_masks[suit]).bit_count()

    def may_hold(self, seat: int, suit: int) -> bool:
        """Could ``seat`` still hold a card of ``suit``?"""
        if self.voids[seat] >> suit & 1:
            return False
        mask = self.deck.suit_masks[suit]
        return bool(self.unseen & mask) or bool(self.known[seat] & mask)

    def to_play_after_me(self) -> list[int]:
        """Seats still to play to the current trick after this seat."""
        played = len(self.trick)
        return [(self.trick_leader + i) % self.n for i in range(played + 1, self.n)]

    def current_winner(self) -> tuple[int, int] | None:
        """(seat, card) now winning the current trick, or ``None`` before the lead."""
        if not self.trick:
            return None
        i = trick_winner_index(self.trick, self.deck)
        return (self.trick_leader + i) % self.n, self.trick[i]

    def would_hold(self, card: int, best: int | None = None) -> bool:
        """Would ``card``, played now and winning, stay the winner against the seats after me?

        True when no seat still to play can beat it as far as this seat knows: no unseen higher
        card of its suit held by a seat not void in it, and no trump from a seat void in the
        led suit (for a non-spade card)."""
        later = self.to_play_after_me()
        suit_of = self.deck.suit_of
        lead = suit_of[self.trick[0]] if self.trick else suit_of[card]
        if best is not None and not beats(card, best, lead, self.deck):
            return False
        suit = suit_of[card]
        higher = self.higher_unseen(card)
        for s in later:
            can_follow = not self.voids[s] >> lead & 1
            if suit == lead:
                if higher and can_follow:
                    return False
                if suit != 0 and not can_follow and self.unseen & self.t.spades and not self.voids[s] & 1:
                    return False
            elif higher and not self.voids[s] & 1 and (not can_follow or self.unseen_in(lead) <= 1):
                # I trumped: an over-trump needs a void in the led suit (likely when few are out).
                return False
        return True


def _walk_trick(
    leader: int, cards: tuple[int, ...], n: int, voids: list[int], broken: bool, deck: Deck
) -> None:
    """Mark the voids a trick shows: not following the led suit; leading spades unbroken."""
    if not cards:
        return
    suit_of = deck.suit_of
    lead = suit_of[cards[0]]
    if lead == 0 and not broken:
        voids[leader] |= 0b1110  # led spades before they were broken: holds only spades
    for i, c in enumerate(cards[1:], 1):
        if suit_of[c] != lead:
            voids[(leader + i) % n] |= 1 << lead


def suit_length(hand: int, suit: int, deck: Deck = STANDARD) -> int:
    return (hand & deck.suit_masks[suit]).bit_count()


def cards_of(hand: int, suit: int, deck: Deck = STANDARD) -> list[int]:
    """The cards of ``suit`` (in play: jokers are spades) in ``hand``, weakest first."""
    m = hand & deck.suit_masks[suit]
    out = []
    while m:
        low = m & -m
        out.append(low.bit_length() - 1)
        m ^= low
    power = tables_of(deck).power
    out.sort(key=power.__getitem__)
    return out


__all__ = [
    "STANDARD_TABLES",
    "SUITS",
    "CardTables",
    "Knowledge",
    "beats",
    "bid_number",
    "cards_of",
    "is_nil",
    "rank_text",
    "suit_length",
    "tables_of",
    "trick_winner_index",
]
