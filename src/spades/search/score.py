"""Double dummy for the score: the best Spades score of a hand for given bids, not raw tricks.

A side bidding 4 with 6 sure tricks may prefer to give two away rather than take bags, and a
Nil bidder's partner must cover him; raw trick counts miss both. ``best_score`` plays every
card to maximise North/South's hand score minus East/West's (contract, Nil and Blind Nil
bonuses, bags and their penalty, from ``spades.scoring``), East/West minimising it.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from spades.rules import Rules
from spades.scoring import SeatBid, score_hand
from spades.search._dd_kernel import TUSE_LEN, _clear_table
from spades.search._score_kernel import (
    INF,
    LO_COLS,
    NOT_BEST,
    NS_FIELDS,
    PAYOFF_LIMIT,
    SE_COLS,
    _score_solve,
    split_bounds,
)
from spades.search.dd import Solver, _check
from spades.search.positions import InvalidPosition

_ENDINGS = np.array(
    [
        np.ravel_multi_index((n, e, k, 13 - n - e - k), (14, 14, 14, 14))
        for n in range(14)
        for e in range(14 - n)
        for k in range(14 - n - e)
    ],
    dtype=np.int64,
)
"""Flat indices of the 560 ways 13 tricks can end up split among four seats: the only entries
of a payoff table the solver reads, so the only ones that tell two tables apart (hashing
these is a thousandth of the cost of hashing the whole array, per call)."""

DEFAULT_TABLE_BITS = 21
"""2**21 table entries (about 137 MB with the payoff ranges and the cut-off cards, and 26 MB
for the trick solver inside): the hardest 13-card Nil deals fill 2**20 and then search up to
half again as many nodes (seed 12's worst deal of ``bench/score_speed.py``: 55M nodes
against 87M)."""


def payoff_table(
    rules: Rules,
    bids: Sequence[SeatBid],
    totals_before: Sequence[int] = (0, 0),
    bags_before: Sequence[int] = (0, 0),
) -> np.ndarray[Any, np.dtype[np.int64]]:
    """``table[n, e, s, w]``: North/South's hand points minus East/West's for those tricks."""
    if rules.players != 4 or not rules.teams:
        raise InvalidPosition("score mode needs a four-player partnership game")
    if len(bids) != 4:
        raise InvalidPosition("score mode needs the four bids")
    table = np.zeros((14, 14, 14, 14), dtype=np.int64)
    for n in range(14):
        for e in range(14 - n):
            for s in range(14 - n - e):
                w = 13 - n - e - s
                hs = score_hand(rules, 0, bids, (n, e, s, w), totals_before, bags_before)
                table[n, e, s, w] = hs.points[0] - hs.points[1]
    return table


@dataclass(frozen=True, slots=True)
class ScoreSolution:
    """North/South's hand score minus East/West's with best play, and after each legal card."""

    value: int
    card_values: dict[int, int] = field(default_factory=dict)
    nodes: int = 0


@dataclass(frozen=True, slots=True)
class CardJudgement:
    """A played card judged by score (``ScoreSolver.judge``): the position's best payoff
    (North/South's hand score minus East/West's), the payoff after the card, the cards that
    reach the best payoff and every legal card."""

    value: int
    card_value: int
    best_cards: tuple[int, ...]
    legal: tuple[int, ...]
    nodes: int = 0


class ScoreSolver:
    """Score-mode solver with its own tables (not thread-safe: one per thread).

    Its transposition table (exact keys, tricks won per seat included) holds bounds on the
    payoffs of one table, so solving with a different payoff table empties it first; keep one
    solver per bid set (e.g. one per hand being played) to reuse it across positions.
    ``use_dd`` (default true): bound the payoff by the trick solver's figures first (set it
    false only to test the search alone)."""

    def __init__(self, table_bits: int = DEFAULT_TABLE_BITS) -> None:
        size = 1 << table_bits
        self._tkey = np.full((size >> 2, 5), -1, dtype=np.int64)
        self._epat = np.zeros((size, SE_COLS), dtype=np.int64)
        self._tuse = np.zeros(TUSE_LEN, dtype=np.int64)
        _clear_table(self._tkey, self._tuse)
        # Cut-off cards: 2**20 at the default size (2**18 searched 5% more nodes on fresh Nil
        # deals), 2**18 for the expert's small endgame tables.
        self._kill = np.full((1 << max(18, min(20, table_bits - 1)), 2), -1, dtype=np.int64)
        self._lo = np.zeros((1 << 16, LO_COLS), dtype=np.int64)
        self._hi = np.zeros((1 << 16, 14), dtype=np.int64)
        self._fr = np.zeros((54, NS_FIELDS), dtype=np.int64)
        self._ftc = np.zeros((54, 4), dtype=np.int64)
        self._ffl = np.zeros((54, 8), dtype=np.int64)
        self._mvs = np.zeros((54, 16), dtype=np.int64)
        self._scs = np.zeros((54, 16), dtype=np.int64)
        self._rel = np.zeros(4, dtype=np.int64)
        self._tmp = np.zeros(12, dtype=np.int64)
        self._stats = np.zeros(8, dtype=np.int64)
        self._table_id = b""
        self.use_dd = True
        self._dd = Solver(max(10, table_bits - 2))

    def solve(
        self,
        hands: Sequence[int],
        leader: int,
        payoff: np.ndarray[Any, np.dtype[np.int64]],
        trick: Sequence[int] = (),
        spades_broken: bool = True,
        tricks_won: Sequence[int] = (0, 0, 0, 0),
        *,
        values: bool = True,
    ) -> ScoreSolution:
        """Best payoff from the position (``payoff`` from ``payoff_table``); ``values=False``
        skips the per-card figures (``card_values`` is then empty), which is faster."""
        v, vals, nodes = self._run(hands, leader, payoff, trick, spades_broken, tricks_won, values, -1, None)
        cv = {c: int(vals[c]) for c in range(52) if vals[c] > -INF - 1} if values else {}
        return ScoreSolution(v, cv, nodes)

    def judge(
        self,
        hands: Sequence[int],
        leader: int,
        payoff: np.ndarray[Any, np.dtype[np.int64]],
        card: int,
        trick: Sequence[int] = (),
        spades_broken: bool = True,
        tricks_won: Sequence[int] = (0, 0, 0, 0),
        *,
        hint: int | None = None,
    ) -> CardJudgement:
        """What an analysis of a played card needs, for less than ``solve``'s every card: the
        best payoff, the payoff after ``card`` (exact), and which legal cards reach the best
        (one null-window probe each rather than each one's exact payoff). An illegal ``card``
        gives ``card_value`` = ``value`` and is not among ``legal``: check it there. ``hint``:
        a guess at the best payoff (the previous decision's ``card_value``: where the card
        played left the position), the first one probed; any guess gives the same answers."""
        v, vals, nodes = self._run(hands, leader, payoff, trick, spades_broken, tricks_won, True, card, hint)
        legal = tuple(c for c in range(52) if vals[c] > -INF - 1 or vals[c] == NOT_BEST)
        best = tuple(c for c in legal if vals[c] == v)
        cv = int(vals[card]) if card in legal and vals[card] != NOT_BEST else v
        return CardJudgement(v, cv, best, legal, nodes)

    def _run(
        self,
        hands: Sequence[int],
        leader: int,
        payoff: np.ndarray[Any, np.dtype[np.int64]],
        trick: Sequence[int],
        spades_broken: bool,
        tricks_won: Sequence[int],
        values: bool,
        only: int,
        hint: int | None,
    ) -> tuple[int, np.ndarray[Any, np.dtype[np.int64]], int]:
        """Check the position and run the kernel: the best payoff, each card's figure (with
        ``values``; ``only``, ``hint``: see ``_score_solve``) and the nodes searched."""
        _check(hands, leader, trick)
        payoff = np.ascontiguousarray(payoff, dtype=np.int64)
        if payoff.shape != (14, 14, 14, 14):
            raise InvalidPosition("payoff must have shape (14, 14, 14, 14)")
        if int(np.abs(payoff).max()) >= PAYOFF_LIMIT:
            raise InvalidPosition(f"payoffs must lie within +-{PAYOFF_LIMIT - 1:,}")
        if len(tricks_won) != 4 or any(not 0 <= int(t) <= 13 for t in tricks_won):
            raise InvalidPosition(f"tricks_won must be 4 counts of 0..13, not {tuple(tricks_won)}")
        if sum(tricks_won) + int(hands[(leader + len(trick)) % 4]).bit_count() != 13:
            raise InvalidPosition("tricks_won and the cards left must add up to 13 tricks")
        table_id = hashlib.blake2b(payoff.ravel()[_ENDINGS].tobytes(), digest_size=16).digest()
        if table_id != self._table_id:
            _clear_table(self._tkey, self._tuse)
            split_bounds(payoff, self._lo, self._hi)
            self._table_id = table_id
        h = np.array([int(x) for x in hands], dtype=np.int64)
        tc = np.full(4, -1, dtype=np.int64)
        tc[: len(trick)] = list(trick)
        tw = sum(int(t) << (4 * i) for i, t in enumerate(tricks_won))
        vals = np.zeros(52, dtype=np.int64)
        # The trick solver's figure (fast) gives the first payoff to probe.
        ddv = np.full(52, -1, dtype=np.int64)
        dd = -1
        if self.use_dd:
            ds = self._dd.solve(hands, leader, trick, spades_broken, values=values)
            dd = ds.ns_tricks
            for c, j in ds.card_values.items():
                ddv[c] = j
        self._stats[0] = 0
        self._stats[1] = 0
        guess = -INF if hint is None else int(hint)
        v = _score_solve(
            h, tc, len(trick), leader, bool(spades_broken), tw, payoff, dd, ddv, values, only, guess, vals,
            self._lo, self._hi, self._tkey, self._epat, self._tuse, self._kill,
            self._fr, self._ftc, self._ffl, self._mvs, self._scs, self._rel, self._tmp, self._stats,
        )  # fmt: skip
        return int(v), vals, int(self._stats[0])

    def clear(self) -> None:
        """Forget every stored bound and cut-off card (only to measure a cold start)."""
        _clear_table(self._tkey, self._tuse)
        self._kill.fill(-1)
        self._dd.clear()


def best_score(
    hands: Sequence[int],
    leader: int,
    rules: Rules,
    bids: Sequence[SeatBid],
    trick: Sequence[int] = (),
    spades_broken: bool = True,
    tricks_won: Sequence[int] = (0, 0, 0, 0),
    *,
    totals_before: Sequence[int] = (0, 0),
    bags_before: Sequence[int] = (0, 0),
) -> ScoreSolution:
    """One-off score-mode solve (a fresh table); for many calls keep a ``ScoreSolver``."""
    table = payoff_table(rules, bids, totals_before, bags_before)
    return ScoreSolver(16).solve(hands, leader, table, trick, spades_broken, tricks_won)
