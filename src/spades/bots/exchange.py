"""The Blind Nil exchange, searched: which cards to pass, valued over sampled deals.

After a Blind Nil the bidder's partner passes ``k`` cards to him, then the bidder, looking at
his cards for the first time, passes ``k`` back. A fixed rule (the partner's lowest cards,
the bidder's most dangerous ones back) is what most players do, but the best pass depends on
the hand: a partner long in a suit keeps its low cards to lead under his bidder, a bidder
short in a suit may give it all away and discard his high cards on it, and a high spade the
partner needs for his contract is worth more to him than to the bidder.

So each candidate pass is tried on the same sampled deals (common random numbers, so that
two candidates differ by their own effect, not by the luck of their deals): the cards move,
the rest of the exchange follows the fixed rule, and the hand is played out by the expert's
rollout policy (``expert_play.rollout``, or ``generic.rollout`` on a jokers deck) and scored
by its ``Scorer``. The candidate with the
best mean wins; the fixed rule's own pass is always a candidate and wins ties.

Candidates are drawn from the cards a pass could sensibly hold, not all ``C(13, 3)`` subsets:
for the partner the two lowest cards of each suit, for the bidder his most dangerous cards
and the whole of any suit short enough to be given away (a void to discard on).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import combinations

from spades.bots.expert_play import Scorer
from spades.bots.knowledge import CardTables, cards_of, suit_length
from spades.cards import bits

GIVER_LOW_PER_SUIT = 2
"""The partner's candidate cards: this many of the lowest in each suit."""
RETURNER_DANGER = 6
"""The bidder's candidate cards: this many of his most dangerous..."""
RETURNER_VOID_MAX = 3
"""...and every card of a suit he holds this many cards of or fewer (a void to discard on)."""
POOL_MAX = 9
"""At most this many candidate cards (C(9, 3) = 84 passes), the most dangerous or lowest first."""


@dataclass(frozen=True, slots=True)
class ExchangeChoice:
    """The pass chosen, its mean value over the deals, the fixed rule's, and the deals used."""

    cards: int
    value: float
    rule_value: float
    deals: int
    candidates: int


def low_first(t: CardTables) -> Callable[[int], tuple[int, bool]]:
    """Order of the cards a Blind Nil's partner passes by the fixed rule: lowest first, counted
    from the bottom of the card's suit in play (the 2 of any suit is 0), side suits first."""
    return lambda c: (t.below[c].bit_count(), t.spade[c])


def danger_first(t: CardTables) -> Callable[[int], int]:
    """Order of the cards a Blind Nil bidder passes back by the fixed rule: high spades, then
    aces, kings..."""
    return lambda c: -(t.level[c] + (6 if t.spade[c] else 0))


def _mask(cards: Sequence[int]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def rule_pass(hand: int, k: int, giving: bool, t: CardTables) -> int:
    """The fixed rule's ``k`` cards of ``hand``: the lowest when ``giving`` (the partner), the
    most dangerous when passing back (the bidder)."""
    cards = list(bits(hand))
    if giving:
        cards.sort(key=low_first(t))
    else:
        cards.sort(key=danger_first(t))
    return _mask(cards[:k])


def complete_by_rule(hand: int, k: int, chosen: int, giving: bool, t: CardTables) -> int:
    """The cards ``chosen`` so far and the rest of a ``k``-card pass by the fixed rule."""
    return chosen | rule_pass(hand & ~chosen, k - chosen.bit_count(), giving, t)


def giver_pool(hand: int, t: CardTables) -> list[int]:
    """The partner's candidate cards: the lowest of each suit, lowest overall first."""
    pool = [c for u in range(4) for c in cards_of(hand, u, t.deck)[:GIVER_LOW_PER_SUIT]]
    pool.sort(key=low_first(t))
    return pool[:POOL_MAX]


def returner_pool(hand: int, k: int, t: CardTables) -> list[int]:
    """The bidder's candidate cards: the most dangerous, then whole short suits."""
    pool = sorted(bits(hand), key=danger_first(t))[:RETURNER_DANGER]
    for u in range(4):
        if 0 < suit_length(hand, u, t.deck) <= min(k, RETURNER_VOID_MAX):
            pool.extend(c for c in cards_of(hand, u, t.deck) if c not in pool)
    pool.sort(key=danger_first(t))
    return pool[:POOL_MAX]


def candidates(pool: Sequence[int], k: int, chosen: int, rule: int) -> list[int]:
    """Every ``k``-card pass from ``pool`` holding the cards already ``chosen``, the fixed
    rule's pass (which holds them) first."""
    out = [rule]
    free = [c for c in pool if not chosen >> c & 1]
    for extra in combinations(free, k - chosen.bit_count()):
        m = chosen | _mask(extra)
        if m != rule:
            out.append(m)
    return out


def search_exchange(
    *,
    seat: int,
    bidder: int,
    hand: int,
    k: int,
    chosen: int,
    deals: Sequence[list[int]],
    play_out: Callable[[list[int]], Sequence[int]],
    scorer: Scorer,
    tables: CardTables,
    deadline: float = 0.0,
) -> ExchangeChoice:
    """The best ``k``-card pass for ``seat`` (the bidder, or his partner) over ``deals``.

    ``hand`` is the seat's hand before this pass (the cards ``chosen`` so far included);
    ``deals`` are sampled deals in which ``seat`` holds ``hand``; ``play_out`` plays a deal's
    hands to the end (the expert's rollout policy, compiled for the 52-card deck or
    ``spades.search.generic``'s) and returns the tricks per seat. When ``seat`` is the partner
    the bidder answers by the fixed rule. ``deadline`` (a ``perf_counter`` time, 0 for none)
    stops after the deal in progress, every candidate having seen the same deals."""
    partner = (seat + 2) % 4
    giving = seat != bidder
    pool = giver_pool(hand, tables) if giving else returner_pool(hand, k, tables)
    rule = complete_by_rule(hand, k, chosen, giving, tables)
    cands = candidates(pool, k, chosen, rule)
    if len(cands) == 1 or not deals:
        return ExchangeChoice(cands[0], 0.0, 0.0, 0, len(cands))
    totals = [0.0] * len(cands)
    used = 0
    for deal in deals:
        for i, cand in enumerate(cands):
            hands = list(deal)
            hands[seat] = hand & ~cand
            hands[partner] |= cand
            if giving:
                back = rule_pass(hands[partner], k, False, tables)
                hands[partner] &= ~back
                hands[seat] |= back
            won = play_out(hands)
            totals[i] += scorer.value(won)
        used += 1
        if deadline and time.perf_counter() > deadline:
            break
    best = max(range(len(cands)), key=lambda i: (totals[i], i == 0))
    return ExchangeChoice(cands[best], totals[best] / used, totals[0] / used, used, len(cands))


__all__ = [
    "ExchangeChoice",
    "candidates",
    "complete_by_rule",
    "danger_first",
    "giver_pool",
    "low_first",
    "returner_pool",
    "rule_pass",
    "search_exchange",
]
