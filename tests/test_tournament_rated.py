"""``spades tournament … --rate-into URL``: a tournament's games move the server's bot ratings.

The oracle is the tournament's own report: its ratings come from the same games through the
same order, so an empty server database fed with them holds exactly those ratings; feeding it
again rates nothing twice, and more games later rate only the new ones. The server then shows
the bots on its leaderboard. Bad URLs are one line, before any game is played.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("openskill")

from fastapi.testclient import TestClient

from spades.cli import main
from spades.server.app import create_app

BOTS = ["random", "heuristic", "heuristic:aggression=0.8"]


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[dict[str, object], str]:
    assert main(["tournament", *BOTS, *args, "--json", "--no-progress", "-j", "1"]) == 0
    out, err = capsys.readouterr()
    return json.loads(out), err


def test_a_tournament_rates_into_the_servers_database(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = f"sqlite:///{tmp_path / 'server.db'}"
    folder = str(tmp_path / "t")
    rep, err = _run(capsys, "--hands", "2", "--seed", "3", "--out", folder, "--rate-into", url)
    assert "Rated 12 games into the server's database (0 were rated there before)" in err
    app = create_app(url, waiting_ttl=None)
    with TestClient(app) as client:
        board = client.get("/api/leaderboard?family=standard").json()
    rows = {r["subject"]: r for r in board["rows"]}
    ratings = rep["ratings"]
    assert isinstance(ratings, list)
    assert set(rows) == {r["id"] for r in ratings}
    for r in ratings:
        row = rows[r["id"]]
        assert row["bot"] and row["games"] == r["games"] == 8
        assert row["mu"] == pytest.approx(r["mu"]) and row["sigma"] == pytest.approx(r["sigma"])
    assert [r["subject"] for r in board["rows"]] == [r["id"] for r in ratings]  # the same order

    _rep, err = _run(capsys, "--hands", "2", "--seed", "3", "--out", folder, "--rate-into", url)
    assert "Rated 0 games into the server's database (12 were rated there before)" in err
    _rep, err = _run(capsys, "--hands", "3", "--seed", "3", "--out", folder, "--rate-into", url)
    assert "Rated 6 games into the server's database (12 were rated there before)" in err
    with TestClient(create_app(url, waiting_ttl=None)) as client:
        board = client.get("/api/leaderboard?family=standard").json()
    assert {r["games"] for r in board["rows"]} == {12}
    assert board["families"] == [{"family": "standard", "rules": '"standard"', "games": 18}]


def test_a_bad_database_url_is_one_line_before_any_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "t"
    assert main(["tournament", "random", "heuristic", "--out", str(out), "--rate-into", "mysql://x"]) != 0
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and err.startswith(
        "spades: --rate-into: database URL mysql://x: mysql is not supported"
    ), err
    assert not out.exists()


def test_a_cmd_bot_that_never_runs_is_reported_as_its_fallback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A ``cmd:`` program that cannot start is played by the fallback bot: the report must
    say so (before, it ranked the missing program as if it had played), and a resumed run
    reads the same count back from the records."""
    bots = ["random", f"cmd:{tmp_path / 'no-such-bot'}"]
    argv = ["tournament", *bots, "--hands", "1", "--out", str(tmp_path / "t"), "-j", "1", "--no-progress"]
    for _run_again in range(2):
        assert main([*argv, "--json"]) == 0
        rep = json.loads(capsys.readouterr().out)
        assert rep["faults"]["random"] == 0 and rep["faults"][bots[1]] >= 13  # 2 hands, 2 seats
    assert main(argv) == 0
    text = capsys.readouterr().out
    line = next(x for x in text.splitlines() if "fallback" in x)
    assert (
        line
        == f"{bots[1]}: {rep['faults'][bots[1]]} decisions were made by the fallback bot (the bot failed)"
    )


def test_a_ray_head_nobody_answers_is_one_line_at_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--ray HOST:PORT`` with nothing listening: one line naming the address, before Ray
    spends a minute retrying (and before any game is played)."""
    pytest.importorskip("ray")
    import socket

    with socket.socket() as s:  # a port that was free a moment ago: nothing listens on it
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    out = tmp_path / "t"
    argv = [
        "tournament",
        "random",
        "heuristic",
        "--hands",
        "1",
        "--out",
        str(out),
        "--ray",
        f"127.0.0.1:{port}",
    ]
    assert main(argv) != 0
    err = capsys.readouterr().err.strip()
    assert err == f"spades: --ray 127.0.0.1:{port}: cannot reach 127.0.0.1:{port}: Connection refused", err
    assert not list(out.glob("*/deal*.json"))


def test_a_zero_difference_reads_0_0_not_minus_0_0() -> None:
    """Two copies of one bot tie every game: the cross table read ``-0.0 [-0.0, -0.0]``."""
    from spades.commands.tournament import report_text
    from spades.ratings import Rating
    from spades.rules import Rules
    from spades.tournament import PairResult, Report

    pair = PairResult("a", "b", 2, 20, 0, -0.0, (-0.04, -0.0), 0.5, (0.5, 0.5))
    rep = Report(("a", "b"), Rules(), 0, (pair,), (("a", Rating()), ("b", Rating())))
    text = report_text(rep)
    assert "-0.0" not in text and "0.0 [0.0, 0.0]" in text, text
