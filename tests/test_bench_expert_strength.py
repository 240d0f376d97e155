"""``bench/expert_strength.py``'s figure with bags at their cost (a single hand from 0-0 pays
a bag as a point, a game charges each its share of the penalty; the bench reports both), and
its paired comparison of two versions on the same deals."""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from bench_modules import BENCH_DIR, load_bench
from spades.match import GameResult, SideStats
from spades.rules import Rules


def _bench() -> ModuleType:
    return load_bench("expert_strength")


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


def _log(path: Path, a: str, seed: int, games: list[GameResult]) -> Path:
    head = {"a": a, "b": "heuristic", "rules": {"preset": "standard"}, "seed": seed}
    lines = [json.dumps({"head": head})] + [json.dumps(dataclasses.asdict(g)) for g in games]
    path.write_text("\n".join(lines) + "\n")
    return path


def test_paired_is_new_minus_old_deal_by_deal(tmp_path: Path) -> None:
    """Two deals, both games done in both logs, and a third the new log has not finished:
    only the shared whole deals count, each its new points less its old."""
    old = [_game(0, False, 10.0, 0, 0), _game(0, True, -20.0, 0, 0)]
    old += [_game(1, False, 5.0, 0, 0), _game(1, True, 5.0, 0, 0)]
    old += [_game(2, False, 50.0, 0, 0), _game(2, True, 50.0, 0, 0)]
    new = [_game(0, False, 30.0, 0, 0), _game(0, True, -20.0, 0, 0)]
    new += [_game(1, False, 5.0, 0, 0), _game(1, True, 1.0, 0, 0)]
    new += [_game(2, False, -90.0, 0, 0)]
    rep = _bench().paired(
        _log(tmp_path / "old.jsonl", "expert", 7, old), _log(tmp_path / "new.jsonl", "x", 7, new)
    )
    assert (rep["deals"], rep["hands"]) == (2, 4)
    assert rep["paired_points_per_hand"] == (20.0 - 4.0) / 4
    lo, hi = rep["paired_ci95"]
    assert -2.0 <= lo <= rep["paired_points_per_hand"] <= hi <= 10.0


def test_paired_refuses_logs_of_other_deals(tmp_path: Path) -> None:
    games = [_game(0, False, 1.0, 0, 0), _game(0, True, 1.0, 0, 0)]
    old = _log(tmp_path / "old.jsonl", "expert", 7, games)
    other = _log(tmp_path / "other.jsonl", "expert", 8, games)
    with pytest.raises(SystemExit, match="not the deals of"):
        _bench().paired(old, other)
    with pytest.raises(SystemExit, match="in pairs"):
        _bench().paired(old)


def test_three_players_count_a_deal_once_its_three_games_are_done(tmp_path: Path) -> None:
    """With three players each deal is played once from each of A's seats: a deal with two of
    its three games done is left out, as a four-seat deal with one of two is (it counted
    nothing before: every deal was taken for unfinished)."""

    def seat_game(deal: int, seat: int, diff: float) -> GameResult:
        return dataclasses.replace(_game(deal, seat > 0, diff, 0, 0), a_seats=(seat,))

    games = [seat_game(0, s, d) for s, d in ((0, 9.0), (1, -3.0), (2, 3.0))]
    games += [seat_game(1, 0, 100.0), seat_game(1, 1, 100.0)]
    head = {"a": "expert", "b": "heuristic", "rules": {"preset": "cutthroat3"}, "seed": 3}
    lines = [json.dumps({"head": head})] + [json.dumps(dataclasses.asdict(g)) for g in games]
    log = tmp_path / "c3.jsonl"
    log.write_text("\n".join(lines) + "\n")
    rep = _bench().report(log)
    assert (rep["deals"], rep["hands"]) == (1, 3)
    assert rep["points_per_hand"] == 3.0
    assert _bench().paired(log, log)["deals"] == 1


@pytest.mark.parametrize("script", ["expert_strength", "dd_audit", "bot_strength"])
@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--hands", "0"], "the number of hands must be at least 1"),
        (["--hands", "1", "--rules", '{"players": 7}'], "players = 7"),
    ],
)
def test_the_match_benches_refuse_bad_input_in_one_line(
    script: str, args: list[str], says: str, tmp_path: Path
) -> None:
    """A bad count or rule set is a one-line error naming the script, not a traceback."""
    log = ["--log", str(tmp_path / "x.jsonl")] if script == "expert_strength" else []
    done = subprocess.run(
        [sys.executable, str(BENCH_DIR / f"{script}.py"), *args, *log],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 1
    assert len(lines) == 1 and lines[0].startswith(f"{script}.py: ") and says in lines[0]


def test_a_bot_that_faults_stops_the_run_and_its_game_is_not_logged(tmp_path: Path) -> None:
    """A ``cmd:`` bot that cannot run (here ``false``, which exits at once) has another bot
    decide for it: the figure would not be its own, so the bench stops with one line."""
    log = tmp_path / "x.jsonl"
    args = ["--hands", "1", "--jobs", "1", "--expert", "heuristic", "--opponent", "cmd:false"]
    done = subprocess.run(
        [sys.executable, str(BENCH_DIR / "expert_strength.py"), *args, "--log", str(log)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 1
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith("expert_strength.py: 'cmd:false' faulted in deal 0"), last
    assert [json.loads(x) for x in log.read_text().splitlines()][1:] == []
