"""The fast search core: playouts and a double-dummy solver on bit masks (see docs/search.md)."""

from spades.search.dd import Solution, Solver, solve
from spades.search.playout import (
    POLICIES,
    playout,
    playout_batch,
    playout_cards,
    reference_playout,
)
from spades.search.reference import reference_best_score, reference_solve
from spades.search.score import ScoreSolution, ScoreSolver, best_score, payoff_table
from spades.search.warm import warm_up

__all__ = [
    "POLICIES",
    "ScoreSolution",
    "ScoreSolver",
    "Solution",
    "Solver",
    "best_score",
    "payoff_table",
    "playout",
    "playout_batch",
    "playout_cards",
    "reference_best_score",
    "reference_playout",
    "reference_solve",
    "solve",
    "warm_up",
]
