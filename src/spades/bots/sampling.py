"""Deal sampling for the expert: hidden hands consistent with everything one seat knows.

A seat knows its own hand, every card played, the suits each player has shown void in (by
not following suit, or by leading a spade before spades were broken), the cards it passed
to its partner in a Blind Nil exchange, and in the two-player game the stock cards it saw
and threw away. ``Knowledge.of(obs)`` gathers those facts from an ``Observation`` alone, so
the sampler cannot cheat; ``sample_deal`` fills the other hands at random within them.

Hands are masks of the deck's cards (``spades.legal.deck_of``: 52 cards, or 54 with jokers,
or 51 for three players; suits are the suits in play, so jokers are spades). In the
two-player game the cards out of play form one more, unconstrained "seat" (index 2) so that
every unknown card has a home.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from spades.errors import SpadesError
from spades.legal import Deck, deck_of
from spades.observation import Observation

ALL_SUITS = 0b1111
NON_SPADE_SUITS = 0b1110


@dataclass(frozen=True, slots=True)
class Knowledge:
    """What ``seat`` knows about where the cards are, as masks.

    ``need[s]`` is how many unknown cards seat ``s`` still holds besides ``fixed[s]``;
    ``void[s]`` is a 4-bit mask of suits seat ``s`` cannot hold; ``played_by[s]`` are the
    cards ``s`` played this hand (a hand as it was at the bidding is its current cards plus
    these). Slot ``players`` (two-player only) is the pile of cards out of play.
    """

    seat: int
    players: int
    deck: Deck
    hand: int
    pool: int
    need: tuple[int, ...]
    fixed: tuple[int, ...]
    void: tuple[int, ...]
    played_by: tuple[int, ...]

    @property
    def slots(self) -> int:
        return len(self.need)

    @staticmethod
    def of(obs: Observation) -> Knowledge:
        """Read the facts from an observation; raise ``SpadesError`` if the seat has not looked."""
        if obs.hand is None:
            raise SpadesError(f"seat {obs.seat} has not looked at its cards: nothing to sample from")
        n = obs.players
        me = obs.seat
        deck = deck_of(obs.rules)
        suit_of = deck.suit_of
        hand = obs.hand.mask
        played_by = [0] * n
        void = [0] * n
        played_all = 0
        # With ``spades_lead: any`` a spade lead says nothing about the rest of the hand.
        broken = obs.rules.spades_lead == "any"
        tricks = [(t.leader, t.cards) for t in obs.tricks]
        if obs.trick:
            tricks.append((obs.trick_leader, obs.trick))
        for leader, cards in tricks:
            lead = suit_of[cards[0]]
            for i, c in enumerate(cards):
                s = (leader + i) % n
                played_by[s] |= 1 << c
                played_all |= 1 << c
                suit = suit_of[c]
                if i == 0:
                    if suit == 0 and not broken:
                        void[s] |= NON_SPADE_SUITS  # led a spade unbroken: held nothing else
                    if suit == 0:
                        broken = True
                elif suit != lead:
                    void[s] |= 1 << lead
                    if suit == 0:
                        broken = True
        fixed = [0] * n
        partner = obs.rules.partner_of(me)
        if obs.given is not None and partner is not None:
            # The partner holds whatever I passed him that is neither back in my hand nor played.
            fixed[partner] = obs.given.mask & ~hand & ~played_all
        unknown = deck.mask & ~hand & ~played_all
        for f in fixed:
            unknown &= ~f
        size = deck.hand_size
        need = [size - played_by[s].bit_count() - fixed[s].bit_count() for s in range(n)]
        need[me] = 0
        back = _passing_back(obs)
        if back is not None:
            # Half-way through an exchange the Blind Nil bidder passing back holds his
            # partner's cards besides his own, and the partner that many fewer: every seat
            # knows this from whose turn it is.
            bidder, k = back
            for s, extra in ((bidder, k), ((bidder + 2) % 4, -k)):
                if s != me:
                    need[s] += extra
        if n == 2:
            if obs.discarded is not None:
                unknown &= ~obs.discarded.mask
            need.append(unknown.bit_count() - need[1 - me])
            void.append(0)
            fixed.append(0)
            played_by.append(0)
        if any(x < 0 for x in need) or sum(need) != unknown.bit_count():
            raise SpadesError(
                f"seat {me}: the observation is inconsistent ({unknown.bit_count()} unknown cards "
                f"for {sum(need)} places)"
            )
        void[me] = 0
        return Knowledge(me, n, deck, hand, unknown, tuple(need), tuple(fixed), tuple(void), tuple(played_by))


def _passing_back(obs: Observation) -> tuple[int, int] | None:
    """(seat, cards) when a Blind Nil bidder is to pass cards back in an exchange: his
    partner has passed him that many already (an exchange runs partner first, one team at a
    time, and both partners bidding Blind Nil exchange nothing)."""
    t = obs.to_move
    if obs.phase != "exchange" or t is None or not obs.rules.teams or obs.players != 4:
        return None
    mine, partners = obs.bids[t], obs.bids[(t + 2) % 4]
    if mine is None or not mine.blind or (partners is not None and partners.blind):
        return None
    return t, obs.rules.blind_nil_exchange


def _pool_cards(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _hall_ok(need: Sequence[int], void: Sequence[int], suit_left: Sequence[int]) -> bool:
    """Can the remaining cards (``suit_left`` per suit) fill every seat's ``need``?

    Hall's condition on the seats: every set of seats needs no more cards than the suits open
    to at least one of them hold. Both sides have the same total, so this is exact."""
    slots = [s for s in range(len(need)) if need[s] > 0]
    for subset in range(1, 1 << len(slots)):
        total = 0
        open_suits = 0
        for i, s in enumerate(slots):
            if subset >> i & 1:
                total += need[s]
                open_suits |= ALL_SUITS & ~void[s]
        avail = sum(suit_left[u] for u in range(4) if open_suits >> u & 1)
        if total > avail:
            return False
    return True


def feasible(k: Knowledge) -> bool:
    suit_left = [(k.pool & k.deck.suit_masks[u]).bit_count() for u in range(4)]
    return _hall_ok(k.need, k.void, suit_left)


def sample_deal(k: Knowledge, rng: random.Random) -> list[int]:
    """One deal consistent with ``k``: a mask per slot (the seat's own slot is its hand).

    Without voids this is an exact uniform deal (shuffle and slice). With voids, cards of the
    most constrained suits are placed first, each on an open seat chosen in proportion to
    the room it has left; a dead end restarts, and after a few restarts every placement is
    checked against Hall's condition, so a consistent deal is always found when one exists.
    """
    cards = _pool_cards(k.pool)
    hands = [k.fixed[s] for s in range(k.slots)]
    hands[k.seat] = k.hand
    if not any(k.void[s] for s in range(k.slots) if k.need[s]):
        rng.shuffle(cards)
        i = 0
        for s in range(k.slots):
            m = 0
            for c in cards[i : i + k.need[s]]:
                m |= 1 << c
            hands[s] |= m
            i += k.need[s]
        return hands
    open_count = [sum(1 for s in range(k.slots) if k.need[s] and not k.void[s] >> u & 1) for u in range(4)]
    suit_of = k.deck.suit_of
    for attempt in range(12):
        checked = attempt >= 6
        rng.shuffle(cards)
        cards.sort(key=lambda c: open_count[suit_of[c]])
        need = list(k.need)
        suit_left = [(k.pool & k.deck.suit_masks[u]).bit_count() for u in range(4)]
        if checked and not _hall_ok(need, k.void, suit_left):
            break
        placed = [0] * k.slots
        ok = True
        for c in cards:
            u = suit_of[c]
            bit = 1 << u
            options = [s for s in range(k.slots) if need[s] and not k.void[s] & bit]
            suit_left[u] -= 1
            chosen = -1
            while options:
                total = sum(need[s] for s in options)
                r = rng.randrange(total)
                pick = options[-1]
                for s in options:
                    r -= need[s]
                    if r < 0:
                        pick = s
                        break
                need[pick] -= 1
                if not checked or _hall_ok(need, k.void, suit_left):
                    chosen = pick
                    break
                need[pick] += 1
                options.remove(pick)
            if chosen < 0:
                ok = False
                break
            placed[chosen] |= 1 << c
        if ok:
            return [hands[s] | placed[s] for s in range(k.slots)]
    raise SpadesError(f"seat {k.seat}: no deal is consistent with what it knows")


def sample_deals(k: Knowledge, rng: random.Random, count: int) -> list[list[int]]:
    return [sample_deal(k, rng) for _ in range(count)]


def resample(weights: Sequence[float], count: int, rng: random.Random) -> list[int]:
    """Systematic resampling: ``count`` indices drawn in proportion to ``weights``.

    Turns importance weights (how well a deal fits the bids) into an equally weighted set,
    so later stages just average. All-zero weights fall back to uniform."""
    total = float(sum(weights))
    m = len(weights)
    if m == 0:
        return []
    if total <= 0.0:
        return [i % m for i in range(count)]
    step = total / count
    u = rng.random() * step
    out: list[int] = []
    acc = weights[0]
    i = 0
    for _ in range(count):
        while u > acc and i < m - 1:
            i += 1
            acc += weights[i]
        out.append(i)
        u += step
    return out


__all__ = ["Knowledge", "feasible", "resample", "sample_deal", "sample_deals"]
