"""Load (or, the first time on a machine, compile) every kernel before any decision is timed."""

from __future__ import annotations

import numpy as np

from spades.rules import Rules
from spades.scoring import SeatBid


def warm_up() -> None:
    """Run each kernel once on a tiny position; afterwards no call pays for compilation.

    numba keeps the compiled code on disk, so only the very first run on a machine compiles
    (tens of seconds); later processes just load it (about a second)."""
    from spades.search.dd import Solver
    from spades.search.playout import playout_batch, playout_cards
    from spades.search.score import ScoreSolver, payoff_table

    hands = [1 << 13 | 1, 1 << 14 | 2, 1 << 15 | 4, 1 << 16 | 8]
    playout_batch(np.array([hands]), 0, policy="random")
    playout_batch(np.array([hands]), 0, policy="greedy")
    playout_cards(hands, 0)
    Solver(10).solve(hands, 0, (), False)
    table = payoff_table(Rules(), [SeatBid(1)] * 4)
    ScoreSolver(10).solve(hands, 0, table, (), False, (3, 3, 3, 2))
