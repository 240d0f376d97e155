"""Rated games at the server: when a game ends, the ratings written are OpenSkill's own.

Two accounts sit at a table with two bots and go away, so the stand-in plays for them; the
game runs to its end at the server's speed. The ratings in the store are then compared with
``openskill``'s Plackett-Luce ``rate`` called directly on the same teams and ranks (an
outside oracle: the server goes through ``spades.ratings``).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("argon2")
pytest.importorskip("openskill")

from fastapi.testclient import TestClient
from hypothesis import given, settings
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from spades.rules import PRESETS, Rules
from spades.server.accountdb import AccountDB, Rating
from spades.server.app import create_app
from spades.server.rated import Result, family_of, new_ratings, rate, result_of
from spades.server.sessions import AccountSettings
from spades.server.tables import TableActor

FAST = {"rules": {"preset": "standard", "target": 120}, "bot_delay_ms": 0, "away_s": 1}


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[Any, TestClient]]:
    app = create_app(f"sqlite:///{tmp_path / 'r.db'}", waiting_ttl=None)
    app.state.accounts.configure(AccountSettings(time_cost=1, memory_cost=8, parallelism=1))
    with TestClient(app) as c:
        yield app, c


def _signed_up(app: Any, client: TestClient, name: str) -> tuple[TestClient, str]:
    b = TestClient(app)
    b.portal = client.portal
    token = b.get("/api/account").json()["csrf"]
    r = b.post(
        "/api/account/signup",
        json={"name": name, "password": "correct horse"},
        headers={"x-csrf-token": token},
    )
    assert r.status_code == 201
    return b, str(r.json()["csrf"])


def _play_out(client: TestClient, tid: str, timeout: float = 90) -> dict[str, Any]:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        t: dict[str, Any] = client.get(f"/api/tables/{tid}").json()
        if t["status"] != "waiting" and t["status"] != "playing":
            return t
        time.sleep(0.2)
    raise AssertionError(f"table {tid} did not finish in {timeout} s")


def _ratings(app: Any) -> dict[str, tuple[float, float, int]]:
    rows = app.state.store._read(
        __import__("sqlalchemy").text("SELECT subject, mu, sigma, games FROM spades_ratings")
    )
    return {r[0]: (r[1], r[2], r[3]) for r in rows}


def _wait_rated(app: Any, n: int, timeout: float = 10) -> dict[str, tuple[float, float, int]]:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        got = _ratings(app)
        if len(got) >= n:
            return got
        time.sleep(0.05)
    return _ratings(app)


def test_a_rated_game_moves_ratings_as_openskill_does(served: tuple[Any, TestClient]) -> None:
    app, client = served
    ann, ann_csrf = _signed_up(app, client, "ann")
    bob, bob_csrf = _signed_up(app, client, "bob")
    body = {
        **FAST,
        "rated": True,
        "seats": [{"open": True, "name": "ann"}, {"open": True}, {"bot": "heuristic"}, {"bot": "random"}],
    }
    r = ann.post("/api/tables", json=body, headers={"x-csrf-token": ann_csrf})
    assert r.status_code == 200, r.text
    tid = r.json()["id"]
    r = bob.post(
        f"/api/tables/{tid}/claim", json={"seat": 1, "name": "b"}, headers={"x-csrf-token": bob_csrf}
    )
    assert r.status_code == 200, r.text
    ann_id = ann.get("/api/account").json()["account"]["id"]
    bob_id = bob.get("/api/account").json()["account"]["id"]
    table = _play_out(client, tid)
    assert table["status"] == "over" and table["winner"] in (0, 1)
    got = _wait_rated(app, 4)
    # The oracle: teams N-S (ann, heuristic) and E-W (bob, random), winner first.
    model = PlackettLuce()
    ranks = [1, 2] if table["winner"] == 0 else [2, 1]
    expected = model.rate([[model.rating(), model.rating()], [model.rating(), model.rating()]], ranks=ranks)
    want = {
        f"user:{ann_id}": expected[0][0],
        "bot:heuristic": expected[0][1],
        f"user:{bob_id}": expected[1][0],
        "bot:random": expected[1][1],
    }
    assert set(got) == set(want)
    for subject, rating in want.items():
        mu, sigma, games = got[subject]
        assert mu == pytest.approx(rating.mu, abs=1e-9) and sigma == pytest.approx(rating.sigma, abs=1e-9)
        assert games == 1
    winner_subject = f"user:{ann_id}" if table["winner"] == 0 else f"user:{bob_id}"
    loser_subject = f"user:{bob_id}" if table["winner"] == 0 else f"user:{ann_id}"
    assert got[winner_subject][0] > 25 > got[loser_subject][0]
    # Leaderboard, profile and plot read them back.
    family = family_of(Rules.from_spec(FAST["rules"]), True)
    board = client.get(f"/api/leaderboard?family={family}").json()
    assert board["families"][0]["family"] == family and board["families"][0]["games"] == 1
    assert {row["name"] for row in board["rows"]} == {"ann", "bob", "bot:heuristic", "bot:random"}
    assert board["rows"][0]["display"] >= board["rows"][-1]["display"]
    prof = client.get("/api/users/ann").json()
    assert prof["ratings"][0]["family"] == family and prof["stats"]["games"] == 1
    assert prof["ratings"][0]["rules"] == '{"preset":"standard","target":120}'  # named as on the board
    assert prof["stats"]["finished"] == 1 and prof["stats"]["wins"] == (1 if table["winner"] == 0 else 0)
    svg = client.get(f"/api/users/ann/rating.svg?family={family}")
    assert svg.headers["content-type"].startswith("image/svg+xml") and "<polyline" not in svg.text
    assert "<circle" in svg.text  # one rated game: one point
    today = datetime.now(UTC).strftime("%Y-%m-%d")  # the x axis is dated (a game just rated)
    assert (
        f">{today}</text>" in svg.text
        or ">" + (datetime.now(UTC) - timedelta(minutes=5)).strftime("%Y-%m-%d") in svg.text
    )
    hist = ann.get("/api/history").json()["games"]
    assert hist[0]["result"] == ("won" if table["winner"] == 0 else "lost")


def test_a_game_is_rated_once(served: tuple[Any, TestClient]) -> None:
    app, client = served
    ann, csrf = _signed_up(app, client, "solo")
    body = {
        **FAST,
        "rated": True,
        "seats": [
            {"open": True, "name": "x"},
            {"bot": "heuristic"},
            {"bot": "heuristic"},
            {"bot": "heuristic"},
        ],
    }
    tid = ann.post("/api/tables", json=body, headers={"x-csrf-token": csrf}).json()["id"]
    assert _play_out(client, tid)["status"] == "over"
    first = _wait_rated(app, 1)
    stored = app.state.store.load(tid)
    result = result_of(TableActor.from_stored(stored))
    assert result is not None
    # bot:heuristic sits on both sides: it plays at its rating and is not moved.
    assert "bot:heuristic" not in first and len(first) == 1
    again = client.portal.call(rate, AccountDB(app.state.store), result)
    assert again is None and _ratings(app) == first


def test_unmarked_house_rules_and_guest_tables_are_not_rated(served: tuple[Any, TestClient]) -> None:
    app, client = served
    house = {
        **FAST,
        "seats": [{"open": True, "name": "g"}, {"bot": "heuristic"}, {"bot": "heuristic"}, {"bot": "random"}],
    }
    tid = client.post("/api/tables", json=house).json()["id"]
    assert _play_out(client, tid)["status"] == "over"
    time.sleep(0.3)
    assert _ratings(app) == {}
    assert family_of(Rules.from_spec(FAST["rules"]), False) is None
    assert all(family_of(p, False) == name for name, p in PRESETS.items())


@settings(max_examples=60, deadline=None)
@given(
    sides=st.integers(2, 4),
    data=st.data(),
)
def test_new_ratings_are_openskills_rate_with_guests_fixed(sides: int, data: st.DataObject) -> None:
    """Any teams (partnership or one seat a side), any ranks, some guests, some players with a
    rating already: the server's update is OpenSkill's ``rate`` on the same teams and ranks,
    with each guest at the starting rating and left out of the answer."""
    per_team = 2 if sides == 2 else 1
    ids = iter(f"user:{i}" for i in range(8))
    teams: list[list[str | None]] = [
        [None if data.draw(st.booleans()) else next(ids) for _ in range(per_team)] for _ in range(sides)
    ]
    ranks = data.draw(st.lists(st.integers(1, sides), min_size=sides, max_size=sides))
    subjects = [s for team in teams for s in team if s is not None]
    current = {
        s: Rating(s, "standard", data.draw(st.floats(10, 40)), data.draw(st.floats(1, 8.3)), 3)
        for s in subjects
        if data.draw(st.booleans())
    }
    got = new_ratings(Result("t", "standard", '"standard"', teams, ranks), current)
    model = PlackettLuce()
    oracle_teams = [
        [
            model.rating(mu=current[s].mu, sigma=current[s].sigma) if s in current else model.rating()
            for s in team
        ]
        for team in teams
    ]
    want = model.rate(oracle_teams, ranks=[float(r) for r in ranks])
    assert set(got) == set(subjects)
    for i, team in enumerate(teams):
        for j, s in enumerate(team):
            if s is not None:
                assert got[s][0] == pytest.approx(want[i][j].mu, rel=1e-12)
                assert got[s][1] == pytest.approx(want[i][j].sigma, rel=1e-12)
