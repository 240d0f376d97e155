"""Holes the server rewrite closed: each test here failed on the server before it.

Seat secrets (the creator no longer holds his friends' tokens), strict messages, limits per
client address, tables that expire or fail instead of living for ever, websockets that never
say hello, damaged rows in the store, a private SQLite file, hostile replay bodies, and a
store write that waits on an outside lock without stalling the event loop.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import socket
import sqlite3
import stat
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
from fastapi.testclient import TestClient

import spades.server.app as app_module
from spades.server.app import create_app
from spades.server.limits import AddressLimits
from spades.server.manager import TableManager
from spades.server.schema import CreateTable, SeatSpec
from spades.server.store import SeqTaken, Store
from spades.server.tables import MAX_CONNS_PER_TABLE, TableActor

BOTS3 = [{"bot": "random"}] * 3
OPEN2 = {"rules": "two_player", "seats": [{"open": True}, {"open": True}]}
"""A table that waits for two people and does nothing meanwhile (no bot to drive)."""


def app_client(db: Path, **kwargs: Any) -> TestClient:
    return TestClient(create_app(f"sqlite:///{db}", **kwargs))


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with app_client(tmp_path / "holes.db") as c:
        yield c


def until(pred: Callable[[], bool], timeout: float = 20) -> bool:
    end = time.monotonic() + timeout
    while not pred():
        if time.monotonic() > end:
            return False
        time.sleep(0.02)
    return True


def one_line(text: str) -> bool:
    return bool(text) and "\n" not in text and "Traceback" not in text


# ---------------------------------------------------------------- (1) seat secrets
def test_the_creator_holds_no_secret_of_a_seat_he_did_not_name(client: TestClient) -> None:
    r = client.post(
        "/api/tables",
        json={"seats": [{"open": True, "name": "Creator"}, {"open": True}, *BOTS3[:2]], "bot_delay_ms": 0},
    )
    assert r.status_code == 200, r.text
    tid, seats = r.json()["id"], r.json()["seats"]
    assert seats[0]["token"] and seats[0]["invite"] is None  # he sits there
    assert seats[1]["token"] is None and seats[1]["invite"]  # his friend's: a ticket only
    assert all(s["token"] is None and s["invite"] is None for s in seats[2:])
    ticket = seats[1]["invite"]

    with client.websocket_connect(f"/ws/{tid}") as friend:
        friend.send_json({"type": "hello", "invite": ticket})
        got = friend.receive_json()
        assert got["type"] == "seat" and got["seat"] == 1
        friend_token = got["token"]
        assert friend_token not in json.dumps(r.json())
        st = friend.receive_json()
        assert st["type"] == "state" and st["you"] == 1
        friend.send_json({"type": "join", "name": "Friend"})
        while friend.receive_json()["table"]["players"][1] != "Friend":
            pass

    # The creator replays everything his create response holds: the spent ticket is refused,
    # and nothing in it opens the friend's seat or shows him the friend's hand.
    with client.websocket_connect(f"/ws/{tid}") as creator:
        creator.send_json({"type": "hello", "invite": ticket})
        assert creator.receive_json() == {
            "type": "error",
            "code": "seat_taken",
            "message": "the invite link for East was already used: it opens the seat only once",
        }
    views: list[dict[str, Any]] = []
    for secret in {v for s in seats for v in (s["token"], s["invite"]) if v}:
        for key in ("token", "invite"):
            with client.websocket_connect(f"/ws/{tid}") as creator:
                creator.send_json({"type": "hello", key: secret})
                msg = creator.receive_json()
                assert msg["type"] in ("state", "error"), msg  # never a "seat" with a new token
                if msg["type"] == "state":
                    views.append(msg)
    assert len(views) == 1 and views[0]["you"] == 0  # his own token, on his own seat
    obs = views[0]["obs"]
    assert obs["seat"] == 0 and views[0]["table"]["status"] == "playing"
    friend_hand = set(client.app.state.manager.tables[tid].game.observation(1).to_json()["hand"] or [])  # type: ignore[attr-defined]
    assert not friend_hand & set(obs["hand"] or [])
    # The friend's own token still opens his seat.
    with client.websocket_connect(f"/ws/{tid}") as friend:
        friend.send_json({"type": "hello", "token": friend_token})
        assert friend.receive_json()["you"] == 1


def test_a_seat_hello_gets_exactly_one_view(client: TestClient) -> None:
    """The first answer to a seat's hello is one ``state`` (not the same view twice: a client
    acting on each state would act twice)."""
    r = client.post(
        "/api/tables", json={"rules": "two_player", "seats": [{"open": True, "name": "A"}, {"open": True}]}
    )
    tid, token = r.json()["id"], r.json()["seats"][0]["token"]
    with client.websocket_connect(f"/ws/{tid}") as ws:
        ws.send_json({"type": "hello", "token": token})
        assert ws.receive_json()["type"] == "state"
        ws.send_json({"type": "ping"})
        assert ws.receive_json() == {"type": "pong"}


# ---------------------------------------------------------------- (2) strict messages
def test_a_bid_of_true_or_of_a_string_is_malformed(client: TestClient) -> None:
    r = client.post(
        "/api/tables", json={"seats": [{"open": True, "name": "Ann"}, *BOTS3], "bot_delay_ms": 10_000}
    )
    tid, token = r.json()["id"], r.json()["seats"][0]["token"]
    with client.websocket_connect(f"/ws/{tid}") as ws:
        ws.send_json({"type": "hello", "token": token})
        seq = ws.receive_json()["seq"]
        for bad in (True, "3", 3.0, [3]):
            ws.send_json({"type": "bid", "bid": bad})
            msg = ws.receive_json()
            assert msg["type"] == "error" and msg["message"].startswith("malformed message: bid"), (bad, msg)
        actor = client.app.state.manager.tables[tid]  # type: ignore[attr-defined]
        assert actor.seq == seq and client.get(f"/api/tables/{tid}").json()["bids"][0] is None
        # A real number reaches the engine (which may refuse it for its own reasons).
        ws.send_json({"type": "bid", "bid": 3})
        msg = ws.receive_json()
        assert msg["type"] == "state" or not msg["message"].startswith("malformed")


# ---------------------------------------------------------------- (3) creations per address
def test_the_31st_table_from_one_address_in_an_hour_is_refused(client: TestClient) -> None:
    for i in range(30):
        r = client.post("/api/tables", json=OPEN2)
        assert r.status_code == 200, (i, r.text)
    r = client.post("/api/tables", json=OPEN2)
    assert r.status_code == 429
    error = r.json()["error"]
    assert one_line(error) and error.startswith("too many tables created from your address (30 in 60")
    assert len(client.get("/api/tables?limit=100").json()) == 30
    # Others are not held back by this address (counted per address).
    limits = AddressLimits()
    for _ in range(30):
        assert asyncio.run(limits.create("203.0.113.9")) is None
    assert asyncio.run(limits.create("203.0.113.9")) is not None
    assert asyncio.run(limits.create("198.51.100.1")) is None


def test_the_limit_can_be_lifted_for_tests_and_tools(tmp_path: Path) -> None:
    with app_client(tmp_path / "many.db", limits=AddressLimits(create_per_window=0)) as c:
        for _ in range(32):
            assert c.post("/api/tables", json=OPEN2).status_code == 200


# ---------------------------------------------------------------- (4) waiting tables expire
def test_a_table_nobody_fills_expires_and_is_no_longer_live(tmp_path: Path) -> None:
    with app_client(tmp_path / "ttl.db", waiting_ttl=0.5) as c:
        store: Store = c.app.state.store  # type: ignore[attr-defined]
        r = c.post("/api/tables", json=OPEN2)
        tid, invite = r.json()["id"], r.json()["seats"][0]["invite"]
        assert store.count_live() == 1
        assert until(lambda: c.get(f"/api/tables/{tid}").json()["status"] == "expired", timeout=15)
        view = c.get(f"/api/tables/{tid}").json()
        assert one_line(view["why"]) and "nobody came" in view["why"]
        assert until(lambda: store.count_live() == 0, timeout=5)
        assert tid not in {t["id"] for t in c.get("/api/tables?status=waiting").json()}
        over = {t["id"]: t for t in c.get("/api/tables?status=over").json()}
        assert over[tid]["status"] == "expired"
        # Its invite no longer opens anything.
        with c.websocket_connect(f"/ws/{tid}") as ws:
            ws.send_json({"type": "hello", "invite": invite})
            msg = ws.receive_json()
            assert msg["type"] == "error" and msg["message"] == "the game is over"
    # A restart keeps it expired (the log says so) and does not load it.
    with app_client(tmp_path / "ttl.db", waiting_ttl=0.5) as c:
        assert tid not in c.app.state.manager.tables  # type: ignore[attr-defined]
        assert c.get(f"/api/tables/{tid}").json()["status"] == "expired"


# ---------------------------------------------------------------- (5) sockets that never say hello
def test_a_socket_that_never_says_hello_counts_and_is_closed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    limit = MAX_CONNS_PER_TABLE
    assert limit == 64
    # Long enough to open all 64 on a busy machine before the first one's time is up.
    monkeypatch.setattr(app_module, "HELLO_TIMEOUT_S", 2.0)
    with app_client(tmp_path / "hello.db", limits=AddressLimits(sockets=0)) as c:
        tid = c.post("/api/tables", json=OPEN2).json()["id"]
        actor = c.app.state.manager.tables[tid]  # type: ignore[attr-defined]
        silent = [c.websocket_connect(f"/ws/{tid}") for _ in range(limit)]
        started = time.monotonic()
        opened = [cm.__enter__() for cm in silent]
        try:
            assert until(lambda: len(actor.conns) == limit, timeout=5)
            assert time.monotonic() - started < 2.0, "too slow to open them all before the timeout"
            # The table is full of silent sockets: one more is refused at once.
            with c.websocket_connect(f"/ws/{tid}") as extra:
                msg = extra.receive_json()
                assert msg == {"type": "error", "message": f"this table already has {limit} connections"}
            # Each silent one is told and closed after the hello timeout.
            for ws in opened:
                msg = ws.receive_json()
                assert msg["type"] == "error" and msg["message"].startswith("no hello within")
                assert ws.receive()["type"] == "websocket.close"
        finally:
            for cm in silent:
                cm.__exit__(None, None, None)
        assert until(lambda: not actor.conns, timeout=5)
        with c.websocket_connect(f"/ws/{tid}") as ws:
            ws.send_json({"type": "hello"})
            assert ws.receive_json()["type"] == "state"


def test_sockets_per_address_are_limited(tmp_path: Path) -> None:
    with app_client(tmp_path / "addr.db", limits=AddressLimits(sockets=2)) as c:
        tid = c.post("/api/tables", json=OPEN2).json()["id"]
        with c.websocket_connect(f"/ws/{tid}") as a, c.websocket_connect(f"/ws/{tid}") as b:
            for ws in (a, b):
                ws.send_json({"type": "hello"})
                assert ws.receive_json()["type"] == "state"
            with c.websocket_connect(f"/ws/{tid}") as third:
                msg = third.receive_json()
                assert msg == {"type": "error", "message": "too many connections from your address (limit 2)"}
        # The count came back down, refused attempts included: the address has its 2 again.
        with c.websocket_connect(f"/ws/{tid}") as a, c.websocket_connect(f"/ws/{tid}") as b:
            for ws in (a, b):
                ws.send_json({"type": "hello"})
                assert ws.receive_json()["type"] == "state"


# ---------------------------------------------------------------- (6) a damaged row
def test_a_damaged_event_row_is_logged_once_and_the_rest_is_served(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    db = tmp_path / "bad.db"
    with app_client(db) as c:
        good = c.post("/api/tables", json=OPEN2).json()["id"]
        bad = c.post("/api/tables", json=OPEN2).json()["id"]
    with sqlite3.connect(db) as raw:
        raw.execute(
            "INSERT INTO spades_events (table_id, seq, kind, data) VALUES (?, 1, 'join', ?)",
            (bad, '{"seat": 0, "name": '),
        )
    caplog.set_level(logging.ERROR, logger="spades.server")
    with app_client(db) as c:
        lines = [r.getMessage() for r in caplog.records if bad in r.getMessage()]
        assert len(lines) == 1 and "event 1 is not valid JSON" in lines[0] and one_line(lines[0])
        assert all(r.exc_info is None for r in caplog.records)
        assert c.get(f"/api/tables/{good}").json()["status"] == "waiting"
        assert good in {t["id"] for t in c.get("/api/tables").json()}
        r = c.get(f"/api/tables/{bad}")
        assert r.status_code == 400 and r.headers["content-type"] == "application/json"
        assert r.json() == {"error": f"table {bad} cannot be read back: its log is damaged"}
        with c.websocket_connect(f"/ws/{bad}") as ws:
            msg = ws.receive_json()
            assert msg["type"] == "error" and one_line(msg["message"]) and "damaged" in msg["message"]
        assert c.get("/api/info").status_code == 200


def test_a_store_reads_a_damaged_row_as_bad_table_and_load_all_skips_it(tmp_path: Path) -> None:
    from spades.server.store import BadTable

    store = Store(f"sqlite:///{tmp_path / 'rows.db'}")
    store.migrate()
    store.create_table("ok", {})
    store.create_table("broken", {})
    store.append("broken", 1, "act", {"seat": 0})
    with sqlite3.connect(tmp_path / "rows.db") as raw:
        raw.execute("UPDATE spades_events SET data = '[1, 2]' WHERE table_id = 'broken'")
    with pytest.raises(BadTable, match=r"^table broken: event 1 is not a JSON object$"):
        store.load("broken")
    assert [t.id for t in store.load_all()] == ["ok"]
    store.close()


# ---------------------------------------------------------------- (7) a private database file
def test_the_sqlite_file_is_owner_only_after_the_app_starts(tmp_path: Path) -> None:
    old = os.umask(0o022)  # a usual umask would leave it world-readable
    try:
        db = tmp_path / "private" / "spades.db"
        with app_client(db) as c:
            c.post("/api/tables", json=OPEN2)
            assert stat.S_IMODE(db.stat().st_mode) == 0o600
            for extra in (db.with_name("spades.db-wal"), db.with_name("spades.db-shm")):
                if extra.exists():
                    assert stat.S_IMODE(extra.stat().st_mode) & 0o077 == 0, extra
    finally:
        os.umask(old)


# ---------------------------------------------------------------- (8) hostile replay bodies
@pytest.mark.parametrize(
    "body",
    [
        b"[" * 100_000,
        b'{"hands": [' * 50_000,
        b'{"rules": "standard", "players": ["a", "b", "c", "d"], "hands": [], "x": ' + b"9" * 5000 + b"}",
        b"-" + b"1" * 5000,
    ],
    ids=["nested-lists", "nested-objects", "huge-number-in-record", "huge-number"],
)
def test_a_hostile_replay_body_is_a_one_line_400(client: TestClient, body: bytes) -> None:
    r = client.post("/api/replay", content=body, headers={"content-type": "application/json"})
    assert r.status_code == 400, r.text[:200]
    assert one_line(r.json()["error"]) and len(r.json()["error"]) < 300


# ---------------------------------------------------------------- (9) a driver that dies
async def test_a_table_whose_driver_raises_ends_failed_and_stop_completes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def boom(self: TableActor, seat: int) -> None:
        raise RuntimeError("the bot exploded\nwith a second line")

    monkeypatch.setattr(TableActor, "_auto_move", boom)
    store = Store(f"sqlite:///{tmp_path / 'fail.db'}")
    store.migrate()
    mgr = TableManager(store, hint_level="heuristic")
    await mgr.open()
    actor, _ = await mgr.create(CreateTable(seats=[SeatSpec(bot="random")] * 4, bot_delay_ms=0))
    end = time.monotonic() + 15
    while actor.status != "failed" and time.monotonic() < end:
        await asyncio.sleep(0.02)
    assert actor.status == "failed"
    why = actor.public()["why"]
    assert why == "the table's driver failed: RuntimeError: the bot exploded"
    await asyncio.wait_for(mgr.stop(), 10)
    stored = await store.aread(store.load, actor.id)
    assert stored is not None
    assert [e[1] for e in stored.events][-1] == "end"
    again = TableActor.restore(stored)
    assert again.status == "failed" and again.why == why
    assert await store.aread(store.count_live) == 0
    listed = await store.aread(store.listing, ("failed",), 10)
    assert [t[0] for t in listed] == [actor.id]
    store.close()


# ---------------------------------------------------------------- store writes and cancellation
async def test_a_cancelled_write_does_not_stop_the_writer(tmp_path: Path) -> None:
    """A caller cancelled while its append waits (a table stopping) must not kill the writer
    thread: every later write would wait for ever."""
    store = Store(f"sqlite:///{tmp_path / 'cancel.db'}")
    store.migrate()
    store.create_table("t", {})
    for seq in range(1, 30):
        job = asyncio.ensure_future(store.aappend("t", seq, "act", {"seq": seq}))
        await asyncio.sleep(0)
        job.cancel()
    await asyncio.wait_for(store.aappend("t", 100, "act", {}), 5)
    await asyncio.wait_for(store.aset_status("t", "playing"), 5)
    stored = await store.aread(store.load, "t")
    assert stored is not None and stored.status == "playing" and stored.events[-1][0] == 100
    with pytest.raises(SeqTaken):
        await store.aappend("t", 100, "act", {})
    store.close()


# ---------------------------------------------------------------- (10) an outside lock
def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_an_outside_exclusive_lock_does_not_stall_the_event_loop(tmp_path: Path) -> None:
    uvicorn = pytest.importorskip("uvicorn")
    httpx = pytest.importorskip("httpx")
    from websockets.sync.client import connect

    db = tmp_path / "locked.db"
    port = _free_port()
    server = uvicorn.Server(
        uvicorn.Config(create_app(f"sqlite:///{db}"), host="127.0.0.1", port=port, log_level="warning")
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        assert until(lambda: server.started, timeout=20)
        base = f"http://127.0.0.1:{port}"
        body = {"seats": [{"open": True, "name": "Ann"}, *BOTS3], "bot_delay_ms": 10_000, "away_s": 3600}
        t = httpx.post(f"{base}/api/tables", json=body, timeout=10).json()
        with connect(f"ws://127.0.0.1:{port}/ws/{t['id']}") as ws:
            ws.send(json.dumps({"type": "hello", "token": t["seats"][0]["token"]}))
            st = json.loads(ws.recv(timeout=10))
            assert st["type"] == "state" and st["can"]["look"], st
            lock = sqlite3.connect(db, isolation_level=None, timeout=10)
            lock.execute("BEGIN EXCLUSIVE")
            locked_at = time.monotonic()
            ws.send(json.dumps({"type": "look"}))  # its write waits for the lock
            answered = []
            while time.monotonic() - locked_at < 2.5:
                start = time.monotonic()
                r = httpx.get(f"{base}/api/info", timeout=1.0)
                assert r.status_code == 200
                answered.append(time.monotonic() - start)
                time.sleep(0.2)
            assert len(answered) >= 5 and max(answered) < 1.0
            with pytest.raises(TimeoutError):  # the look is not through while the lock holds
                ws.recv(timeout=0.2)
            while time.monotonic() - locked_at < 3:
                time.sleep(0.05)
            lock.execute("COMMIT")
            lock.close()
            released_at = time.monotonic()
            msg = json.loads(ws.recv(timeout=10))
            assert msg["type"] == "state", msg
            assert msg["obs"]["looked"] is True and len(msg["obs"]["hand"]) == 13
            assert time.monotonic() >= released_at
    finally:
        server.should_exit = True
        thread.join(15)
    assert not thread.is_alive()
