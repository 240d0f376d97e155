"""``spades match``: its report agrees with the records it saves, duplicate runs share their
deals, and bad input fails with one line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from spades import record
from spades.cli import cli, main
from spades.match import a_seats_of, bootstrap_ratio, run_match, tasks_for, wilson
from spades.rules import PRESETS, Rules
from spades.scoring import side_seats


def recompute(folder: Path) -> dict[str, float]:
    """Points per hand, win rate and Nil counts from the saved records alone."""
    diff = 0.0
    hands = 0
    wins = 0.0
    games = 0
    nil_a = nil_a_made = blind_a = 0
    for path in sorted(folder.glob("*.json")):
        rep = record.load(path)
        game = rep.game
        rules = game.rules
        info = rep.extra["match"]
        a_seats = set(info["a_seats"])
        assert all(rep.players[s].startswith("A " if s in a_seats else "B ") for s in range(game.n))
        a_sides = sorted({rules.side_of(s) for s in a_seats})
        b_sides = sorted({rules.side_of(s) for s in range(game.n) if s not in a_seats})
        for score in game.scores:
            a_pts = sum(score.points[s] for s in a_sides) / len(a_sides)
            b_pts = sum(score.points[s] for s in b_sides) / len(b_sides)
            diff += a_pts - b_pts
            hands += 1
            for side in a_sides:
                for s in side_seats(rules, side):
                    if score.bids[s].is_nil:
                        nil_a += 1
                        blind_a += score.bids[s].blind
                        nil_a_made += score.tricks[s] == 0
        games += 1
        best_a = max(game.totals[s] for s in a_sides)
        best_b = max(game.totals[s] for s in b_sides)
        if game.winner is not None and len(game.scores) > 1:
            wins += 1.0 if game.winner in a_sides else 0.0
        else:
            wins += 1.0 if best_a > best_b else 0.0 if best_b > best_a else 0.5
    return {
        "points_per_hand": diff / hands,
        "hands": hands,
        "games": games,
        "a_win_rate": wins / games,
        "nil_bids": nil_a,
        "nil_made": nil_a_made,
        "blind_nil_bids": blind_a,
    }


@pytest.mark.parametrize(
    ("rules", "kind"),
    [
        (Rules(target=150), "games"),
        (Rules(), "hands"),
        (PRESETS["bicycle"].replace(target=100), "games"),
        (PRESETS["cutthroat3"].replace(target=120), "games"),
        (PRESETS["jokers"], "hands"),
    ],
)
def test_report_matches_the_saved_records(tmp_path: Path, rules: Rules, kind: str) -> None:
    count = {"games": 4} if kind == "games" else {"hands": 3}
    rep = run_match("heuristic", "random", rules, seed=5, jobs=1, out=tmp_path, **count)  # type: ignore[arg-type]
    again = recompute(tmp_path)
    assert rep["games"] == again["games"] == len(list(tmp_path.glob("*.json")))
    assert rep["hands"] == again["hands"]
    assert rep["points_per_hand"] == pytest.approx(again["points_per_hand"])
    assert rep["a_win_rate"] == pytest.approx(again["a_win_rate"])
    assert rep["sides"]["a"]["nil_bids"] == again["nil_bids"]
    assert rep["sides"]["a"]["nil_made"] == again["nil_made"]
    assert rep["sides"]["a"]["blind_nil_bids"] == again["blind_nil_bids"]
    lo, hi = rep["points_per_hand_ci95"]
    assert lo <= rep["points_per_hand"] <= hi
    wlo, whi = rep["a_win_rate_ci95"]
    assert wlo <= rep["a_win_rate"] <= whi


def test_duplicate_runs_share_their_deals(tmp_path: Path) -> None:
    run_match("heuristic", "random", Rules(target=200), games=2, seed=9, jobs=1, out=tmp_path)
    first, second = sorted(tmp_path.glob("deal00000-*.json"))
    a, b = record.load(first), record.load(second)
    assert a.extra["match"]["a_seats"] == [0, 2] and b.extra["match"]["a_seats"] == [1, 3]
    shared = min(len(a.game.logs), len(b.game.logs))
    assert shared >= 1
    for la, lb in zip(a.game.logs[:shared], b.game.logs[:shared], strict=True):
        assert la.dealt == lb.dealt and la.dealer == lb.dealer


def test_two_player_seats_alternate() -> None:
    tasks = tasks_for("heuristic", "random", PRESETS["two_player"], hands=2)
    assert [a_seats_of(PRESETS["two_player"], t.swapped) for t in tasks] == [(0,), (1,), (0,), (1,)]
    rep = run_match("heuristic", "random", PRESETS["two_player"], hands=2, jobs=1)
    assert rep["games"] == 4 and rep["hands"] == 4


def test_three_players_rotate_a_through_every_seat(tmp_path: Path) -> None:
    """Each for himself with three: A holds one seat against two B's, and in duplicate each
    deal sequence is played three times with A's seat rotating, on the same cards."""
    rules = PRESETS["cutthroat3"]
    tasks = tasks_for("heuristic", "random", rules, hands=2)
    assert [a_seats_of(rules, t.swapped, t.rotation) for t in tasks] == [(0,), (1,), (2,)] * 2
    assert [t.deal for t in tasks] == [0, 0, 0, 1, 1, 1]
    rep = run_match("heuristic", "random", rules, hands=1, jobs=1, out=tmp_path)
    assert rep["games"] == 3 and rep["hands"] == 3 and rep["players"] == 3
    runs = [record.load(p) for p in sorted(tmp_path.glob("deal00000-r*.json"))]
    assert [r.extra["match"]["a_seats"] for r in runs] == [[0], [1], [2]]
    assert all(r.game.logs[0].dealt == runs[0].game.logs[0].dealt for r in runs)


@pytest.mark.parametrize("preset", sorted(set(PRESETS) - {"standard", "bicycle", "hoyle", "two_player"}))
def test_cli_match_runs_on_every_house_preset(preset: str) -> None:
    """``spades match random heuristic --rules P --games 2`` completes for each house preset."""
    result = CliRunner().invoke(
        cli, ["match", "random", "heuristic", "--rules", preset, "--games", "2", "-j", "1", "--json"]
    )
    assert result.exit_code == 0, result.output
    rep = json.loads(result.output)
    assert rep["games"] >= 2 and rep["hands"] >= rep["games"]
    assert rep["sides"]["a"]["faults"] == rep["sides"]["b"]["faults"] == 0


def test_parallel_and_serial_agree() -> None:
    serial = run_match("heuristic", "random", Rules(), hands=4, seed=2, jobs=1)
    parallel = run_match("heuristic", "random", Rules(), hands=4, seed=2, jobs=2)
    for key in ("games", "hands", "a_win_rate", "points_per_hand", "points_per_hand_ci95"):
        assert serial[key] == parallel[key]


def test_cli_json_line_has_the_documented_fields(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        cli,
        ["match", "heuristic", "random:", "--hands", "2", "--jobs", "1", "--json", "--out", str(tmp_path)],
    )
    assert result.exit_code == 0, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1
    rep = json.loads(lines[0])
    for key in ("games", "hands", "a_win_rate", "a_win_rate_ci95", "points_per_hand", "points_per_hand_ci95"):
        assert key in rep
    assert set(rep["ms_per_decision"]) == {"a", "b"}
    assert set(rep["ms_per_decision"]["a"]) == {"median", "p99"}
    for side in ("a", "b"):
        for key in ("bid_accuracy", "set_rate", "bags_per_hand", "nil_bids", "nil_made", "opp_nils_broken"):
            assert key in rep["sides"][side]
        assert rep["sides"][side]["faults"] == 0
    assert recompute(tmp_path)["points_per_hand"] == pytest.approx(rep["points_per_hand"])


def test_cli_text_report() -> None:
    result = CliRunner().invoke(cli, ["match", "heuristic", "random", "--hands", "1", "-j", "1"])
    assert result.exit_code == 0, result.output
    assert "points per hand A-B" in result.output and "bid accuracy" in result.output


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["match", "nosuchbot", "random", "--hands", "1"], "unknown bot"),
        (["match", "heuristic:bogus=1", "random", "--hands", "1"], "unknown setting"),
        (["match", "heuristic", "random", "--rules", "nosuch", "--hands", "1"], "unknown preset"),
        (["match", "heuristic", "random", "--games", "2", "--hands", "1"], "not both"),
        (["match", "heuristic", "random", "--hands", "0"], "at least 1"),
    ],
)
def test_bad_input_is_one_line(args: list[str], words: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(args) == 1
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and words in err, err


def test_intervals() -> None:
    lo, hi = wilson(95, 100)
    assert 0.88 < lo < 0.95 < hi < 0.99
    assert wilson(0, 0) == (0.0, 1.0)
    lo2, hi2 = bootstrap_ratio([(10.0, 1), (30.0, 1), (20.0, 1)] * 20, seed=1)
    assert lo2 < 20 < hi2


def test_no_duplicate_and_json_rules(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        cli,
        [
            "match",
            "heuristic",
            "random",
            "--games",
            "3",
            "--no-duplicate",
            "--rules",
            '{"preset": "hoyle", "target": 150}',
            "-j",
            "1",
            "--json",
            "--out",
            str(tmp_path),
        ],
    )
    assert result.exit_code == 0, result.output
    rep = json.loads(result.output)
    assert rep["games"] == 3 and rep["duplicate"] is False
    assert rep["rules"] == {"preset": "hoyle", "target": 150}
    names = sorted(p.name for p in tmp_path.glob("*.json"))
    assert names == ["deal00000-ab.json", "deal00001-ba.json", "deal00002-ab.json"]
    again = recompute(tmp_path)
    assert again["games"] == 3 and again["points_per_hand"] == pytest.approx(rep["points_per_hand"])
