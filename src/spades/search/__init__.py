"""The fast search core: playouts and a double-dummy solver on bit masks (see docs/search.md)."""

from spades.search.playout import (
    POLICIES,
    playout,
    playout_batch,
    playout_cards,
    reference_playout,
)

__all__ = [
    "POLICIES",
    "playout",
    "playout_batch",
    "playout_cards",
    "reference_playout",
]
