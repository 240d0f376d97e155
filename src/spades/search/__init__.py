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

__all__ = [
    "POLICIES",
    "Solution",
    "Solver",
    "playout",
    "playout_batch",
    "playout_cards",
    "reference_best_score",
    "reference_playout",
    "reference_solve",
    "solve",
]
