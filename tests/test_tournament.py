"""Tournaments: a run killed with SIGKILL and run again reports exactly what an uninterrupted
run does (and writes the same records); the report does not depend on the order of the bots
or the number of processes; records are real records whose outcome matches their replay;
bad input is one line."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from spades import record
from spades.cli import main
from spades.commands.tournament import report_text
from spades.rules import PRESETS
from spades.tournament import (
    MANIFEST,
    Report,
    local_runner,
    records,
    run_tournament,
)

BOTS = ["random", "heuristic", "heuristic:aggression=0.8"]


def _files(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): p.read_text() for p in records(folder)}


def test_a_killed_tournament_resumed_equals_an_uninterrupted_one(tmp_path: Path) -> None:
    games = 10  # 3 pairs x 10 games: a few seconds, long enough to be killed in the middle
    ref = run_tournament(BOTS, out=tmp_path / "ref", games=games, seed=5, runner=local_runner(1))
    out = tmp_path / "killed"
    argv = ["tournament", *BOTS, "--games", str(games), "--seed", "5", "--out", str(out), "-j", "2"]
    cmd = [sys.executable, "-m", "spades", *argv, "--no-progress"]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    deadline = time.monotonic() + 60
    while len(list(out.glob("*/deal*.json"))) < 3 and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.005)
    os.killpg(proc.pid, signal.SIGKILL)  # the parent and its pool workers, mid-run
    proc.communicate()
    assert proc.returncode == -signal.SIGKILL
    left = len(list(records(out)))
    assert 3 <= left < 3 * games, left  # killed in the middle, not before nor after
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert f"Resuming: {left} of {3 * games} games were played by an earlier run" in done.stderr
    assert done.stdout.strip() == report_text(ref)
    assert _files(out) == _files(tmp_path / "ref")


def test_the_report_ignores_bot_order_and_processes(tmp_path: Path) -> None:
    one = run_tournament(BOTS, out=tmp_path / "a", hands=3, seed=2, runner=local_runner(1))
    two = run_tournament(BOTS[::-1], out=tmp_path / "b", hands=3, seed=2, runner=local_runner(2))
    assert one.pairs == two.pairs and one.ratings == two.ratings
    assert _files(tmp_path / "a") == _files(tmp_path / "b")
    pair = one.pair("random", "heuristic")
    assert pair == one.pair("heuristic", "random").flipped()
    assert pair.games == 6 and pair.points_per_hand < 0  # three deals, each played twice


def test_more_games_later_extend_the_same_games(tmp_path: Path) -> None:
    seen: list[str] = []
    run_tournament(BOTS[:2], out=tmp_path / "x", hands=2, seed=1, runner=local_runner(1))
    more = run_tournament(BOTS[:2], out=tmp_path / "x", hands=4, seed=1, on_game=seen.append)
    fresh = run_tournament(BOTS[:2], out=tmp_path / "y", hands=4, seed=1, runner=local_runner(1))
    assert len(seen) == 4 and all("deal00002" in s or "deal00003" in s for s in seen)
    assert more == fresh


def test_records_replay_to_their_outcome(tmp_path: Path) -> None:
    rep = run_tournament(["random", "heuristic"], out=tmp_path, hands=2, seed=3, runner=local_runner(1))
    assert isinstance(rep, Report) and rep.games == 4
    for path in records(tmp_path):
        r = record.load(path)
        outcome = r.extra["tournament"]
        a_seats = r.extra["match"]["a_seats"]
        totals = r.game.totals
        a = sum(totals[s] for s in a_seats if s in (0, 1))
        b = sum(totals[s] for s in (0, 1) if s not in a_seats)
        assert outcome["diff"] == a - b and outcome["hands"] == len(r.game.scores) == 1
    manifest = json.loads((tmp_path / MANIFEST).read_text())
    assert manifest["seed"] == 3 and manifest["single_hand"] is True


def test_ratings_put_the_heuristic_above_random(tmp_path: Path) -> None:
    rep = run_tournament(["random", "heuristic"], out=tmp_path, hands=4, seed=0, runner=local_runner(1))
    (first, r1), (second, r2) = rep.ratings
    assert first == "heuristic" and second == "random" and r1.mu > r2.mu and r1.games == 8


def test_three_players(tmp_path: Path) -> None:
    rules = PRESETS["cutthroat3"]
    rep = run_tournament(BOTS[:2], rules, out=tmp_path, hands=2, seed=0, runner=local_runner(1))
    assert rep.pairs[0].games == 6  # each deal three times, the lone seat rotating
    assert {p.name for p in next(iter(tmp_path.glob("*__*"))).iterdir()} >= {"deal00000-r2.json"}


# ---------------------------------------------------------------------- bad input
def one_line(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and err.startswith("spades: ") and "Traceback" not in err, err
    return err.strip()


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["random", "nosuchbot"], "unknown bot 'nosuchbot'"),
        (["random", "heuristic:aggression=abc"], "aggression='abc' must be a number"),
        (["random", "heuristic", "--games", "0"], "--games 0: must be at least 1"),
        (["random", "heuristic", "--hands", "-2"], "--hands -2: must be at least 1"),
        (["random", "heuristic", "--jobs", "0"], "--jobs 0: must be at least 1"),
        (["random"], "at least two bots (given: 1)"),
        (["heuristic:nil=false,aggression=1", "heuristic:aggression=1,nil=false"], "is given twice"),
        (["random", "heuristic", "--rules", "nosuch"], "unknown preset 'nosuch'"),
        (["random", "heuristic", "--games", "2", "--hands", "2"], "--games or --hands, not both"),
        (["random", "heuristic", "--jobs", "2", "--ray"], "--jobs or --ray, not both"),
        (["--ray", "random", "heuristic"], "--ray random: not a Ray address"),
    ],
)
def test_bad_input_is_one_line(
    args: list[str], words: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    line = one_line(["tournament", *args, "--out", str(tmp_path / "o"), "--no-progress"], capsys)
    assert words in line, line


def test_an_unwritable_folder_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    line = one_line(["tournament", "random", "heuristic", "--out", str(blocker / "sub")], capsys)
    assert f"cannot write to {blocker / 'sub'}" in line, line


def test_another_tournaments_folder_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tournament", "random", "heuristic", "--hands", "1", "--out", str(tmp_path), "-j", "1"]) == 0
    capsys.readouterr()
    argv = ["tournament", "random", "heuristic", "--hands", "1", "--out", str(tmp_path), "--seed", "9"]
    assert "holds a tournament with seed 0, not 9" in one_line(argv, capsys)


def test_ray_missing_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray now raises ImportError
    line = one_line(["tournament", "random", "heuristic", "--out", str(tmp_path), "--ray"], capsys)
    assert "--ray needs the ray package: pip install 'spades[ray]'" in line


def test_bot_statistics_add_up_each_bots_seats(tmp_path: Path) -> None:
    rep = run_tournament(BOTS, out=tmp_path, hands=2, seed=6, runner=local_runner(1), stats=True)
    by_bot = dict(rep.stats)
    assert list(by_bot) == BOTS
    hands = {b: 0 for b in BOTS}
    nil_bids = {b: 0 for b in BOTS}
    for path in records(tmp_path):
        r = record.load(path)
        info = r.extra["match"]
        for seat in range(4):
            spec = info["a"] if seat in info["a_seats"] else info["b"]
            hands[spec] += len(r.game.scores)
            nil_bids[spec] += sum(s.bids[seat].is_nil and not s.bids[seat].blind for s in r.game.scores)
    assert {b: st.hands for b, st in by_bot.items()} == hands  # 2 pairs x 4 games x 2 seats x 1 hand
    assert all(h == 16 for h in hands.values())
    assert {b: st.nil_bids for b, st in by_bot.items()} == nil_bids
    assert all(st.series == () for st in by_bot.values())
    assert set(rep.to_dict()["stats"]) == set(BOTS)
    assert "bid accuracy" in report_text(rep) and "Play of each bot" in report_text(rep)
    plain = run_tournament(BOTS, out=tmp_path, hands=2, seed=6, runner=local_runner(1))
    assert plain.stats == () and "stats" not in plain.to_dict()
