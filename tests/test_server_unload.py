"""Finished tables leave the server's memory and are loaded back from the store on demand.

Each test plays a short game to its end through the app (TestClient, no network), waits for
the manager to unload the table, then checks that every way of reaching a finished table
(REST view, record, lobby listing, websocket) still serves exactly the same game.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, update

from spades.server.app import create_app
from spades.server.manager import TableManager
from spades.server.store import Store, tables_t

IDLE_S = 0.3
KEYS = ("status", "hand", "totals", "bags", "winner", "players", "sheet", "proofs", "tricks_won")


def app_client(db: Path) -> TestClient:
    return TestClient(create_app(f"sqlite:///{db}", idle_s=IDLE_S))


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with app_client(tmp_path / "unload.db") as c:
        yield c


def manager(c: TestClient) -> TableManager:
    m: TableManager = c.app.state.manager  # type: ignore[attr-defined]
    return m


def until(pred: Callable[[], bool], timeout: float = 30) -> bool:
    end = time.monotonic() + timeout
    while not pred():
        if time.monotonic() > end:
            return False
        time.sleep(0.02)
    return True


def finished_game(c: TestClient) -> tuple[str, str]:
    """A two-player game (one person, away, so the stand-in plays him) played to its end:
    returns the table id and the person's seat token."""
    r = c.post(
        "/api/tables",
        json={
            "rules": {"preset": "two_player", "target": 100},
            "seats": [{"open": True, "name": "Ann"}, {"bot": "heuristic"}],
            "bot_delay_ms": 0,
            "away_s": 1,
        },
    )
    assert r.status_code == 200, r.text
    tid, token = r.json()["id"], r.json()["seats"][0]["token"]
    # Polling the table through the app would keep it in use: watch the manager instead (a
    # table leaves memory only once over, so its absence means over too).
    tables = manager(c).tables
    assert until(lambda: getattr(tables.get(tid), "status", "over") == "over", timeout=60)
    return tid, token


def unloaded(c: TestClient, tid: str) -> bool:
    return until(lambda: tid not in manager(c).tables, timeout=10)


def state(ws: Any) -> dict[str, Any]:
    while True:
        msg: dict[str, Any] = ws.receive_json()
        assert msg["type"] != "error", msg
        if msg["type"] == "state":
            return msg


def test_a_finished_table_leaves_memory_and_every_view_still_serves_it(client: TestClient) -> None:
    tid, _ = finished_game(client)
    before = client.get(f"/api/tables/{tid}").json()
    record = client.get(f"/api/tables/{tid}/record").json()
    assert before["status"] == "over" and before["winner"] is not None
    assert unloaded(client, tid), "the finished table stayed in memory"

    after = client.get(f"/api/tables/{tid}").json()
    assert {k: after[k] for k in KEYS} == {k: before[k] for k in KEYS}
    assert client.get(f"/api/tables/{tid}/record").json() == record
    assert unloaded(client, tid)
    # The record download and the replay page's check work from the store as well.
    download = client.get(f"/api/tables/{tid}/record?download=1")
    assert download.json() == record and "attachment" in download.headers["content-disposition"]
    view = client.post("/api/replay", json=record).json()
    assert view["error"] is None and len(view["hands"]) == before["hand"]
    assert unloaded(client, tid)

    # The lobby lists it from its line in the store, without loading the game.
    for status in ("over", "all"):
        lines = {t["id"]: t for t in client.get(f"/api/tables?status={status}").json()}
        assert lines[tid]["status"] == "over" and lines[tid]["totals"] == before["totals"]
        assert [s["name"] for s in lines[tid]["seats"]] == ["Ann", before["players"][1]]
        assert lines[tid]["hand"] == before["hand"]
    assert tid not in {t["id"] for t in client.get("/api/tables?status=waiting").json()}
    assert tid not in manager(client).tables


def test_a_websocket_reattaches_to_an_unloaded_table_and_keeps_it_while_attached(
    client: TestClient,
) -> None:
    tid, token = finished_game(client)
    totals = client.get(f"/api/tables/{tid}").json()["totals"]
    assert unloaded(client, tid)
    with client.websocket_connect(f"/ws/{tid}") as ws:
        ws.send_json({"type": "hello", "token": token})
        st = state(ws)
        assert st["you"] == 0 and st["table"]["status"] == "over" and st["table"]["totals"] == totals
        time.sleep(IDLE_S * 4)
        assert tid in manager(client).tables, "a table with a connection was unloaded"
        ws.send_json({"type": "play", "card": "AS"})
        err = ws.receive_json()
        assert err == {"type": "error", "message": "the game is over"}
    assert unloaded(client, tid)
    with client.websocket_connect(f"/ws/{tid}") as ws:
        ws.send_json({"type": "hello"})
        st = state(ws)
        assert st["you"] is None and st["table"]["totals"] == totals


def test_a_restart_leaves_finished_tables_in_the_store_until_asked_for(tmp_path: Path) -> None:
    db = tmp_path / "restart.db"
    with app_client(db) as c:
        tid, _ = finished_game(c)
        record = c.get(f"/api/tables/{tid}/record").json()
    with app_client(db) as c:
        assert tid not in manager(c).tables  # not loaded at start
        assert c.get(f"/api/tables/{tid}/record").json() == record
        assert c.get("/api/tables/nope").status_code == 404


def test_a_table_finished_by_an_older_server_is_listed_and_gets_its_lobby_line(tmp_path: Path) -> None:
    db = tmp_path / "old.db"
    with app_client(db) as c:
        tid, _ = finished_game(c)
        totals = c.get(f"/api/tables/{tid}").json()["totals"]
    store = Store(f"sqlite:///{db}")
    with store.engine.begin() as conn:  # as revision 0001 left it: no lobby line
        conn.execute(update(tables_t).where(tables_t.c.id == tid).values(summary=None))
    assert store.finished(10) == [(tid, store.finished(10)[0][1], None)]
    with app_client(db) as c:
        lines = c.get("/api/tables?status=over").json()
        assert [t["id"] for t in lines] == [tid] and lines[0]["totals"] == totals
    line = store.finished(10)[0][2]
    assert line is not None and line["totals"] == totals
    store.close()


def test_listings_are_newest_first_and_bounded(client: TestClient) -> None:
    ids = []
    for _ in range(3):
        r = client.post(
            "/api/tables", json={"seats": [{"open": True}, {"open": True}], "rules": "two_player"}
        )
        ids.append(r.json()["id"])
    assert [t["id"] for t in client.get("/api/tables?status=waiting").json()] == ids[::-1]
    assert [t["id"] for t in client.get("/api/tables?status=all&limit=2").json()] == ids[:0:-1]
    bad = client.get("/api/tables?limit=0")
    assert bad.status_code == 400 and "limit 0" in bad.json()["error"]


def test_a_store_that_cannot_read_is_a_one_line_error_not_a_crash(
    client: TestClient, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    tid, _ = finished_game(client)
    assert unloaded(client, tid)
    store: Store = client.app.state.store  # type: ignore[attr-defined]
    monkeypatch.setattr(store, "engine", create_engine(f"sqlite:///{tmp_path}/no/such/dir/x.db"))
    r = client.get(f"/api/tables/{tid}")
    assert r.status_code == 400 and r.json()["error"].startswith("the database refused a read: ")
    assert "\n" not in r.json()["error"]
    with client.websocket_connect(f"/ws/{tid}") as ws:
        msg = ws.receive_json()
        assert msg["type"] == "error" and msg["message"].startswith("the database refused a read: ")
    monkeypatch.undo()
    assert client.get(f"/api/tables/{tid}").json()["status"] == "over"


def test_spades_serve_passes_its_idle_time(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """``spades serve --idle SECONDS`` sets how long a finished table stays in memory (and
    ``--waiting-ttl``, ``--tables-per-address`` reach the app the same way)."""
    import uvicorn
    from click.testing import CliRunner

    from spades.cli import cli
    from spades.commands import serve

    seen: dict[str, Any] = {}

    def fake_run(app: Any, **kwargs: Any) -> None:
        seen["app"] = app

    monkeypatch.setattr(uvicorn, "run", fake_run)
    monkeypatch.setenv(serve.CONFIG_ENV, "{}")  # restored after the test: the command sets it
    made: list[dict[str, Any]] = []
    import spades.server.app as app_module

    real = app_module.create_app

    def spy(*args: Any, **kwargs: Any) -> Any:
        made.append(kwargs)
        return real(*args, **kwargs)

    monkeypatch.setattr(app_module, "create_app", spy)
    db = f"sqlite:///{tmp_path / 'serve.db'}"
    args = ["serve", "--db", db, "--idle", "5", "--waiting-ttl", "7", "--tables-per-address", "3"]
    result = CliRunner().invoke(cli, [*args, "--bot-processes", "0"])
    assert result.exit_code == 0, result.output
    # uvicorn builds each worker's app from the environment the command wrote.
    assert seen["app"] == "spades.commands.serve:app_from_env"
    app = serve.app_from_env()
    assert app is not None and len(made) == 1
    assert made[0]["idle_s"] == 5.0 and made[0]["waiting_ttl"] == 7.0
    assert made[0]["limits"].create_per_window == 3
    made[0]["store"].close()
    bad = CliRunner().invoke(cli, ["serve", "--db", db, "--idle", "-1"])
    assert bad.exit_code == 2 and "--idle" in bad.output
