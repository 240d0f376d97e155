"""A plain-Python double-dummy solver: slow and obvious, the yardstick of the fast one.

Full minimax over every legal card with a memo of whole positions; fit for hands of a few
cards (the tests use up to 5 or 6 cards a seat). North/South maximise their tricks.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache, lru_cache


def _winner_offset(table: Sequence[int]) -> int:
    best = 0
    for i in range(1, len(table)):
        c, b = table[i], table[best]
        if (c // 13 == b // 13 and c > b) or (c // 13 == 0 and b // 13 != 0):
            best = i
    return best


def _legal(hand: frozenset[int], table: tuple[int, ...], broken: bool) -> list[int]:
    if table:
        follow = [c for c in hand if c // 13 == table[0] // 13]
        return sorted(follow or hand)
    if broken:
        return sorted(hand)
    return sorted([c for c in hand if c >= 13] or hand)


@lru_cache(maxsize=1 << 20)
def _value(hands: tuple[frozenset[int], ...], leader: int, table: tuple[int, ...], broken: bool) -> int:
    seat = (leader + len(table)) % 4
    if not hands[seat]:
        return 0
    values = [_after(hands, leader, table, broken, c) for c in _legal(hands[seat], table, broken)]
    return max(values) if seat % 2 == 0 else min(values)


def _after(
    hands: tuple[frozenset[int], ...], leader: int, table: tuple[int, ...], broken: bool, card: int
) -> int:
    seat = (leader + len(table)) % 4
    if card < 13 and (not table or table[0] >= 13):
        broken = True
    new_hands = tuple(h - {card} if i == seat else h for i, h in enumerate(hands))
    new_table = (*table, card)
    if len(new_table) < 4:
        return _value(new_hands, leader, new_table, broken)
    winner = (leader + _winner_offset(new_table)) % 4
    return (1 if winner % 2 == 0 else 0) + _value(new_hands, winner, (), broken)


def _sets(hands: Sequence[int]) -> tuple[frozenset[int], ...]:
    return tuple(frozenset(c for c in range(52) if h >> c & 1) for h in hands)


def reference_solve(
    hands: Sequence[int], leader: int, trick: Sequence[int] = (), spades_broken: bool = True
) -> tuple[int, dict[int, int]]:
    """North/South tricks still to come with best play, and that figure after each legal card
    of the seat to move (``leader`` led the ``trick`` in progress)."""
    hs = _sets(hands)
    table = tuple(trick)
    seat = (leader + len(table)) % 4
    values = {c: _after(hs, leader, table, spades_broken, c) for c in _legal(hs[seat], table, spades_broken)}
    best = max(values.values()) if seat % 2 == 0 else min(values.values())
    return best, values


def reference_best_score(
    hands: Sequence[int],
    leader: int,
    payoff: Sequence[Sequence[Sequence[Sequence[int]]]],
    trick: Sequence[int] = (),
    spades_broken: bool = True,
    tricks_won: Sequence[int] = (0, 0, 0, 0),
) -> tuple[int, dict[int, int]]:
    """Score mode: North/South maximise ``payoff[n][e][s][w]`` of the final trick counts per
    seat, East/West minimise it; the value, and the value after each legal card."""
    hs = _sets(hands)
    table = tuple(trick)

    @cache
    def value(
        hands: tuple[frozenset[int], ...],
        leader: int,
        table: tuple[int, ...],
        broken: bool,
        won: tuple[int, ...],
    ) -> int:
        seat = (leader + len(table)) % 4
        if not hands[seat]:
            return payoff[won[0]][won[1]][won[2]][won[3]]
        vals = [after(hands, leader, table, broken, won, c) for c in _legal(hands[seat], table, broken)]
        return max(vals) if seat % 2 == 0 else min(vals)

    def after(
        hands: tuple[frozenset[int], ...],
        leader: int,
        table: tuple[int, ...],
        broken: bool,
        won: tuple[int, ...],
        card: int,
    ) -> int:
        seat = (leader + len(table)) % 4
        if card < 13 and (not table or table[0] >= 13):
            broken = True
        new_hands = tuple(h - {card} if i == seat else h for i, h in enumerate(hands))
        new_table = (*table, card)
        if len(new_table) < 4:
            return value(new_hands, leader, new_table, broken, won)
        winner = (leader + _winner_offset(new_table)) % 4
        new_won = tuple(w + (1 if i == winner else 0) for i, w in enumerate(won))
        return value(new_hands, winner, (), broken, new_won)

    seat = (leader + len(table)) % 4
    won0 = tuple(tricks_won)
    values = {
        c: after(hs, leader, table, spades_broken, won0, c) for c in _legal(hs[seat], table, spades_broken)
    }
    best = max(values.values()) if seat % 2 == 0 else min(values.values())
    return best, values
