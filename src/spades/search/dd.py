"""The double-dummy solver's public face: positions in, North/South tricks and card values out.

All four hands are known. ``solve`` returns the tricks North/South take from here with best
play by everyone, and, for every legal card of the seat to move, that figure if the card is
played. The work is done by ``_dd_kernel`` (numba); the transposition table lives in a
``Solver`` and is reused across calls, since its keys are exact positions.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from spades.cards import card_text
from spades.search._dd_kernel import NF, TUSE_LEN, _clear_table, _solve
from spades.search.positions import InvalidPosition

DEFAULT_TABLE_BITS = 21
"""2**21 table entries and 2**19 shapes (about 100 MB): a hard 13-card deal with every card's
value fills up to a million (a shape's block doubles as it grows); when they run out the
table starts afresh, which is sound but slower."""


@dataclass(frozen=True, slots=True)
class Solution:
    """North/South's tricks still to come with best play, and per legal card of the seat to
    move the same figure if that card is played."""

    ns_tricks: int
    card_values: dict[int, int] = field(default_factory=dict)
    nodes: int = 0
    ms: float = 0.0


def _check(hands: Sequence[int], leader: int, trick: Sequence[int]) -> None:
    if len(hands) != 4:
        raise InvalidPosition(f"a position needs 4 hands, not {len(hands)}")
    if not 0 <= leader < 4:
        raise InvalidPosition(f"leader {leader} is not a seat 0..3")
    if len(trick) > 3:
        raise InvalidPosition(f"a trick in progress holds at most 3 cards, not {len(trick)}")
    seen = 0
    for c in trick:
        if not isinstance(c, (int, np.integer)) or not 0 <= c < 52 or seen >> c & 1:
            raise InvalidPosition(f"bad or repeated card {c} in the trick")
        seen |= 1 << c
    for seat, h in enumerate(hands):
        if not isinstance(h, (int, np.integer)) or not 0 <= h < 1 << 52:
            raise InvalidPosition(f"hand {seat} is not a 52-bit mask")
        if h & seen:
            dup = int(h & seen)
            raise InvalidPosition(f"card {card_text(dup.bit_length() - 1)} is in two places")
        seen |= h
    hands = [int(h) for h in hands]
    sizes = [h.bit_count() + (1 if (seat - leader) % 4 < len(trick) else 0) for seat, h in enumerate(hands)]
    if len(set(sizes)) != 1:
        raise InvalidPosition(f"hands must hold equal numbers of cards (counting the trick), not {sizes}")


class Solver:
    """A double-dummy solver with its own transposition table (not thread-safe: one per thread)."""

    def __init__(self, table_bits: int = DEFAULT_TABLE_BITS) -> None:
        size = 1 << table_bits
        self._tkey = np.full((size >> 2, 4), -1, dtype=np.int64)
        self._epat = np.zeros((size, 5), dtype=np.int64)
        self._tuse = np.zeros(TUSE_LEN, dtype=np.int64)
        _clear_table(self._tkey, self._tuse)
        self._kill = np.full((1 << 16, 2), -1, dtype=np.int64)
        self._fr = np.zeros((54, NF), dtype=np.int64)
        self._ftc = np.zeros((54, 4), dtype=np.int64)
        self._ffl = np.zeros((54, 8), dtype=np.int64)
        self._mvs = np.zeros((54, 16), dtype=np.int64)
        self._scs = np.zeros((54, 16), dtype=np.int64)
        self._rel = np.zeros(4, dtype=np.int64)
        self._tmp = np.zeros(8, dtype=np.int64)
        self._stats = np.zeros(24, dtype=np.int64)

    def solve(
        self,
        hands: Sequence[int],
        leader: int,
        trick: Sequence[int] = (),
        spades_broken: bool = True,
        *,
        values: bool = True,
    ) -> Solution:
        """Solve the position where ``leader`` led ``trick`` (the seat to move is
        ``(leader + len(trick)) % 4``); ``values=False`` skips the per-card figures."""
        _check(hands, leader, trick)
        h = np.array([int(x) for x in hands], dtype=np.int64)
        tc = np.full(4, -1, dtype=np.int64)
        tc[: len(trick)] = list(trick)
        vals = np.full(52, -1, dtype=np.int64)
        self._stats[0] = 0
        t0 = time.perf_counter()
        v = _solve(
            h,
            tc,
            len(trick),
            leader,
            bool(spades_broken),
            values,
            vals,
            *self._buffers(),
        )
        ms = (time.perf_counter() - t0) * 1000
        cv = {c: int(vals[c]) for c in range(52) if vals[c] >= 0} if values else {}
        return Solution(int(v), cv, int(self._stats[0]), ms)

    def _buffers(self) -> tuple[np.ndarray[Any, Any], ...]:
        return (
            self._tkey,
            self._epat,
            self._tuse,
            self._kill,
            self._fr,
            self._ftc,
            self._ffl,
            self._mvs,
            self._scs,
            self._rel,
            self._tmp,
            self._stats,
        )

    def clear(self) -> None:
        """Forget every stored bound (only to measure a cold start; entries never go stale)."""
        _clear_table(self._tkey, self._tuse)
        self._kill.fill(-1)


_default: Solver | None = None


def default_solver() -> Solver:
    """The process-wide solver, made on first use."""
    global _default
    if _default is None:
        _default = Solver()
    return _default


def solve(
    hands: Sequence[int],
    leader: int,
    trick: Sequence[int] = (),
    spades_broken: bool = True,
    *,
    values: bool = True,
) -> Solution:
    """``Solver.solve`` on the process-wide solver."""
    return default_solver().solve(hands, leader, trick, spades_broken, values=values)
