"""Rated games a dead worker never rated are rated when a worker starts (issue 15, gap a).

The death is made exact, with no timing: the rating hook (``rated.game_over``) is switched
off while the game is played, which is what a process killed between the last move's write
and the rating write leaves behind. A second table also loses its lobby line's last write
(its row still says ``playing``, as when the process died right after the event). A new
server on the same database must rate both, once, with the numbers ``rated.new_ratings``
gives from scratch; a third start changes nothing.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("argon2")
pytest.importorskip("openskill")

import sqlalchemy
from fastapi.testclient import TestClient

from spades.server import rated
from spades.server.app import create_app
from spades.server.sessions import AccountSettings
from spades.server.tables import TableActor

FAST = {"rules": {"preset": "standard", "target": 120}, "bot_delay_ms": 0, "away_s": 1}


def _app(db: Path) -> Any:
    app = create_app(f"sqlite:///{db}", waiting_ttl=None)
    app.state.accounts.configure(AccountSettings(time_cost=1, memory_cost=8, parallelism=1))
    return app


def _rows(app: Any, sql: str) -> list[Any]:
    return list(app.state.store._read(sqlalchemy.text(sql)))


def _wait(app: Any, sql: str, n: int, timeout: float = 20) -> list[Any]:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        got = _rows(app, sql)
        if len(got) >= n:
            return got
        time.sleep(0.05)
    raise AssertionError(f"{sql!r} gave fewer than {n} rows in {timeout} s")


def _play(app: Any, client: TestClient, name: str) -> str:
    b = TestClient(app)
    b.portal = client.portal
    csrf = b.get("/api/account").json()["csrf"]
    r = b.post(
        "/api/account/signup",
        json={"name": name, "password": "correct horse"},
        headers={"x-csrf-token": csrf},
    )
    assert r.status_code == 201, r.text
    csrf = r.json()["csrf"]
    seats = [{"open": True, "name": name}, {"bot": "random"}, {"bot": "heuristic"}, {"bot": "heuristic"}]
    body = {**FAST, "rated": True, "seats": seats}
    r = b.post("/api/tables", json=body, headers={"x-csrf-token": csrf})
    assert r.status_code == 200, r.text
    tid: str = r.json()["id"]
    end = time.monotonic() + 90
    while client.get(f"/api/tables/{tid}").json()["status"] in ("waiting", "playing"):
        assert time.monotonic() < end, "the game did not finish"
        time.sleep(0.2)
    return tid


def _in_order(results: list[Any]) -> dict[str, tuple[float, float]]:
    """The ratings after rating ``results`` in that order, from scratch (the oracle)."""
    from spades.server.accountdb import Rating

    book: dict[str, tuple[float, float]] = {}
    games: dict[str, int] = {}
    for result in results:
        assert result is not None
        current = {s: Rating(s, result.family, *book[s], games[s]) for s in result.subjects() if s in book}
        for s, r in rated.new_ratings(result, current).items():
            book[s] = r
            games[s] = games.get(s, 0) + 1
    return book


@pytest.fixture
def db(tmp_path: Path) -> Iterator[Path]:
    yield tmp_path / "c.db"


def test_games_left_unrated_by_a_dead_worker_are_rated_at_the_next_start(
    db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(rated, "game_over", lambda actor: None)  # the process "dies" before rating
    app = _app(db)
    with TestClient(app) as client:
        one = _play(app, client, "ann")
        two = _play(app, client, "bob")
        time.sleep(0.2)
        assert _rows(app, "SELECT * FROM spades_ratings") == []
        results = [rated.result_of(TableActor.from_stored(app.state.store.load(t))) for t in (one, two)]
    monkeypatch.undo()
    # The second table's lobby line never said it was over.
    eng = sqlalchemy.create_engine(f"sqlite:///{db}")
    with eng.begin() as conn:
        conn.execute(sqlalchemy.text("UPDATE spades_tables SET status='playing' WHERE id=:t"), {"t": two})
    eng.dispose()

    app = _app(db)
    with TestClient(app):
        marks = _wait(app, "SELECT table_id FROM spades_rated_games", 2)
        assert {m[0] for m in marks} == {one, two}
        got = _wait(app, "SELECT subject, mu, sigma, games FROM spades_ratings", 3)
        status = _rows(app, f"SELECT status FROM spades_tables WHERE id='{two}'")
    # The two late games are rated one after the other, in either order; the heuristic bot
    # sits on both sides, so it is left out.
    orders = [_in_order([results[0], results[1]]), _in_order([results[1], results[0]])]
    now = {s: (mu, sigma) for s, mu, sigma, _g in got}
    assert any(now.keys() == o.keys() and all(now[k] == pytest.approx(o[k]) for k in o) for o in orders)
    assert sorted(g for *_x, g in got) == [1, 1, 2]  # ann, bob once each; bot:random twice
    assert status[0][0] == "over"

    app = _app(db)  # a third start: nothing is rated twice
    with TestClient(app):
        time.sleep(0.3)
        again = _rows(app, "SELECT subject, mu, sigma, games FROM spades_ratings")
        hist = _rows(app, "SELECT count(*) FROM spades_rating_history")
    assert sorted(again) == sorted(got) and hist[0][0] == 4
