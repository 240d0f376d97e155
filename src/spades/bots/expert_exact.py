"""The expert's exact endgame in four-player partnership games: the numba score-mode solver.

``Solver`` in ``expert_play`` searches the last tricks in plain Python, one candidate card at
a time; ``spades.search.ScoreSolver`` gives every legal card's value in one call and is fast
enough to take over several tricks earlier. Both maximise the same thing, the deciding
seat's ``Scorer.value``, so this module only turns that scorer into the solver's payoff
table: North/South maximise the table and East/West minimise it, so the table is the
scorer's value for a North/South seat and its negative for an East/West one. Values are
fixed-point (``SCALE``) because the solver works on integers; the scorer's values (points,
fractions of a bag penalty, the game bonus) keep three decimals.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from spades.bots.expert_play import Scorer

if TYPE_CHECKING:  # the solver (numba) loads on first use, not when the bots are imported
    from spades.search import ScoreSolver

SCALE = 1000
"""Fixed-point factor of the payoff table (the scorer's values are floats)."""

TABLE_BITS = 16
"""The solver's table: 2**16 entries (a few MB) is plenty for endgames of up to 8 tricks."""

_local = threading.local()
_warm = threading.Lock()
_warmed = False


def warm() -> None:
    """Load the solver's compiled kernels once per process, before any decision is timed."""
    global _warmed
    with _warm:
        if not _warmed:
            from spades.search import warm_up

            warm_up()
            _warmed = True


def _solver() -> ScoreSolver:
    """One solver per thread (a solver is not thread-safe; its tables outlive a decision, and
    a hand's decisions share one payoff table, so they reuse each other's bounds)."""
    from spades.search import ScoreSolver

    s: ScoreSolver | None = getattr(_local, "solver", None)
    if s is None:
        s = ScoreSolver(TABLE_BITS)
        _local.solver = s
    return s


class ExactEndgame:
    """Every legal card's exact worth to the deciding seat on a fully known (sampled) deal."""

    def __init__(self, scorer: Scorer) -> None:
        self.sign = 1 if scorer.my_side == 0 else -1
        table = np.zeros((14, 14, 14, 14), dtype=np.int64)
        for n in range(14):
            for e in range(14 - n):
                for s in range(14 - n - e):
                    w = 13 - n - e - s
                    table[n, e, s, w] = self.sign * round(scorer.value((n, e, s, w)) * SCALE)
        self.table = table

    def card_values(
        self,
        hands: Sequence[int],
        trick: Sequence[int],
        leader: int,
        broken: bool,
        won: Sequence[int],
    ) -> dict[int, float]:
        """The scorer's value after each legal card of the seat to move, with best play by all."""
        sol = _solver().solve(hands, leader, self.table, trick, broken, won)
        return {c: self.sign * v / SCALE for c, v in sol.card_values.items()}
