"""What a seat can infer from its observation: card counting, known voids, the contracts.

Everything here is computed from an ``Observation`` alone, so any bot (the heuristic, the
expert's sampler and rollouts, hint engines) can use it without being able to cheat. The
facts are hot data: card sets are 52-bit masks, voids a 4-bit mask of suits per seat.
"""

from __future__ import annotations

from dataclasses import dataclass

from spades.cards import FULL_DECK, SPADE_MASK, SUIT_MASKS
from spades.observation import BidView, Observation

SUITS = range(4)
RANK_NAMES = "23456789TJQKA"


def bid_number(view: BidView) -> int | None:
    """A bid as tricks (Nil and Blind Nil are 0), or ``None`` if not made yet."""
    if view is None:
        return None
    if isinstance(view, str):
        return 0
    return int(view)


def is_nil(view: BidView) -> bool:
    return view == "nil" or view == "blind_nil" or view == 0


def trick_winner_index(cards: tuple[int, ...] | list[int]) -> int:
    """Index in ``cards`` of the card now winning the trick (the first card leads)."""
    lead = cards[0] // 13
    best_i, best_key = 0, -1
    for i, c in enumerate(cards):
        key = c + 100 if c < 13 else (c if c // 13 == lead else -1)
        if key > best_key:
            best_i, best_key = i, key
    return best_i


def beats(card: int, best: int, lead: int) -> bool:
    """Does ``card`` beat the trick's current best card ``best`` when ``lead`` was led?"""
    cs, bs = card // 13, best // 13
    if cs == bs:
        return card > best
    return cs == 0


def rank_text(card: int) -> str:
    return RANK_NAMES[card % 13]


@dataclass(slots=True)
class Knowledge:
    """The facts one seat knows. Build with ``Knowledge.of(obs)``.

    ``unseen`` is every card the seat has not seen: the other hands plus, in the two-player
    game, the cards out of play it never saw. ``known[s]`` are cards known to sit in seat
    ``s``'s hand (cards this seat passed to its partner and that are still unplayed).
    """

    seat: int
    n: int
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
        hand = obs.hand.mask if obs.hand is not None else 0
        played = 0
        voids = [0] * n
        broken = False
        for t in obs.tricks:
            _walk_trick(t.leader, t.cards, n, voids, broken)
            for c in t.cards:
                played |= 1 << c
                if c < 13:
                    broken = True
        if obs.trick:
            _walk_trick(obs.trick_leader, obs.trick, n, voids, broken)
            for c in obs.trick:
                played |= 1 << c
        unseen = FULL_DECK & ~hand & ~played
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
            teams=obs.rules.teams,
            partner=partner,
            hand=hand,
            played=played,
            unseen=unseen,
            voids=voids,
            known=known,
            bids=bids,
            nil=[b is not None and is_nil(b) for b in obs.bids],
            blind=[b == "blind_nil" for b in obs.bids],
            tricks_won=list(obs.tricks_won),
            tricks_left=13 - len(obs.tricks),
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
        suit = card // 13
        above = ((1 << 13) - 1) << (card + 1)
        return self.unseen & SUIT_MASKS[suit] & above & FULL_DECK

    def is_master(self, card: int) -> bool:
        """No unseen card of its suit is higher: it wins the suit unless trumped."""
        return not self.higher_unseen(card)

    def unseen_in(self, suit: int) -> int:
        return (self.unseen & SUIT_MASKS[suit]).bit_count()

    def may_hold(self, seat: int, suit: int) -> bool:
        """Could ``seat`` still hold a card of ``suit``?"""
        if self.voids[seat] >> suit & 1:
            return False
        return bool(self.unseen & SUIT_MASKS[suit]) or bool(self.known[seat] & SUIT_MASKS[suit])

    def to_play_after_me(self) -> list[int]:
        """Seats still to play to the current trick after this seat."""
        played = len(self.trick)
        return [(self.trick_leader + i) % self.n for i in range(played + 1, self.n)]

    def current_winner(self) -> tuple[int, int] | None:
        """(seat, card) now winning the current trick, or ``None`` before the lead."""
        if not self.trick:
            return None
        i = trick_winner_index(self.trick)
        return (self.trick_leader + i) % self.n, self.trick[i]

    def would_hold(self, card: int, best: int | None = None) -> bool:
        """Would ``card``, played now and winning, stay the winner against the seats after me?

        True when no seat still to play can beat it as far as this seat knows: no unseen higher
        card of its suit held by a seat not void in it, and no trump from a seat void in the
        led suit (for a non-spade card)."""
        later = self.to_play_after_me()
        lead = self.trick[0] // 13 if self.trick else card // 13
        if best is not None and not beats(card, best, lead):
            return False
        suit = card // 13
        higher = self.higher_unseen(card)
        for s in later:
            can_follow = not self.voids[s] >> lead & 1
            if suit == lead:
                if higher and can_follow:
                    return False
                if suit != 0 and not can_follow and self.unseen & SPADE_MASK and not self.voids[s] & 1:
                    return False
            elif higher and not self.voids[s] & 1 and (not can_follow or self.unseen_in(lead) <= 1):
                # I trumped: an over-trump needs a void in the led suit (likely when few are out).
                return False
        return True


def _walk_trick(leader: int, cards: tuple[int, ...], n: int, voids: list[int], broken: bool) -> None:
    """Mark the voids a trick shows: not following the led suit; leading spades unbroken."""
    if not cards:
        return
    lead = cards[0] // 13
    if lead == 0 and not broken:
        voids[leader] |= 0b1110  # led spades before they were broken: holds only spades
    for i, c in enumerate(cards[1:], 1):
        if c // 13 != lead:
            voids[(leader + i) % n] |= 1 << lead


def suit_length(hand: int, suit: int) -> int:
    return (hand & SUIT_MASKS[suit]).bit_count()


def cards_of(hand: int, suit: int) -> list[int]:
    """The cards of ``suit`` in ``hand``, lowest first."""
    field = (hand >> (13 * suit)) & 0x1FFF
    out = []
    r = 0
    while field:
        if field & 1:
            out.append(suit * 13 + r)
        field >>= 1
        r += 1
    return out


__all__ = [
    "SUITS",
    "Knowledge",
    "beats",
    "bid_number",
    "cards_of",
    "is_nil",
    "rank_text",
    "suit_length",
    "trick_winner_index",
]
