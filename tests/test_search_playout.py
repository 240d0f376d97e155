"""Playouts: the numba kernel, the plain-Python reference and the engine agree card for card."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spades.search import playout, playout_batch, playout_cards, reference_playout
from test_search_common import engine_position, table_args


@settings(max_examples=300, deadline=None)
@given(seed=st.integers(0, 2**31), policy=st.sampled_from(["random", "greedy"]))
def test_kernel_reference_and_engine_agree(seed: int, policy: str) -> None:
    game = engine_position(seed)
    args = table_args(game)
    cards, tricks = playout_cards(*args, policy=policy, seed=seed)
    assert (cards, tricks) == reference_playout(*args, policy=policy, seed=seed)
    hand = game.hand_number
    for card in cards:
        assert game.legal_play_mask() >> card & 1, f"illegal card {card}"
        game.play(card)
    assert game.hand_number != hand or game.is_over or len(game.scores) == 1
    assert tuple(game.scores[0].tricks) == tricks
    assert sum(tricks) == 13


def test_batch_rows_are_the_single_playouts() -> None:
    game = engine_position(11, min_left=20)
    args = table_args(game)
    rows = playout_batch(np.array([args[0]] * 50), *args[1:], seed=5)
    for i in range(50):
        assert tuple(rows[i]) == playout_cards(*args, seed=5, index=i)[1]
    assert tuple(rows[0]) == playout(*args, seed=5)
    assert len({tuple(r) for r in rows}) > 1, "rows should differ (independent streams)"


def test_bad_arguments_are_one_line_errors() -> None:
    with pytest.raises(ValueError, match="not to move"):
        playout([0, 0, 0, 0], 1, [5], 1)
    with pytest.raises(ValueError, match="unknown playout policy"):
        playout([0, 0, 0, 0], 0, policy="clever")
