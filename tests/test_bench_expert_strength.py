"""``bench/expert_strength.py``'s figure with bags at their cost: a single hand from 0-0 pays
a bag as a point, a game charges each its share of the penalty; the bench reports both."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

from spades.match import GameResult, SideStats
from spades.rules import Rules

BENCH = Path(__file__).resolve().parents[1] / "bench" / "expert_strength.py"


def _bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("expert_strength_bench", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def _game(deal: int, swapped: bool, diff: float, a_bags: int, b_bags: int) -> GameResult:
    return GameResult(
        deal=deal,
        swapped=swapped,
        a_seats=(1, 3) if swapped else (0, 2),
        hands=1,
        a_score=1.0 if diff > 0 else 0.0,
        diff=diff,
        finished=True,
        a=SideStats(bags=a_bags),
        b=SideStats(bags=b_bags),
    )


def test_each_bag_is_charged_its_share_of_the_penalty() -> None:
    """Standard rules: 100 points per 10 bags, 10 a bag. A side that wins by 4 points while
    taking 3 bags more has lost 26 once they are charged."""
    games = [_game(0, False, 4.0, 3, 0), _game(0, True, 4.0, 0, 0)]
    rep = _bench().bags_at_cost(games, Rules.from_spec({"preset": "standard"}), seed=1)
    assert rep["bag_cost"] == 10.0
    assert rep["points_per_hand_bags_at_cost"] == (4.0 - 30.0 + 4.0) / 2


def test_no_penalty_no_charge() -> None:
    games = [_game(0, False, 7.0, 5, 1), _game(0, True, -3.0, 0, 2)]
    rep = _bench().bags_at_cost(games, Rules.from_spec({"bag_penalty": 0}), seed=1)
    assert rep["points_per_hand_bags_at_cost"] == 2.0
    lo, hi = rep["points_per_hand_bags_at_cost_ci95"]
    assert lo == hi == 2.0
