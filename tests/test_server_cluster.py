"""Many workers, one service: real ``spades serve`` processes on one PostgreSQL and one Redis.

PostgreSQL comes from ``SPADES_TEST_PG_URL`` and Redis from ``SPADES_TEST_REDIS_URL``
(``.ci/run`` starts both); without them these tests skip locally and fail on CI.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import secrets
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("redis")
pytest.importorskip("websockets")
from websockets.asyncio.client import connect

from spades.server.fairness import verify_record
from spades.server.store import Store
from spades.server.tables import TableActor

PG_URL = os.environ.get("SPADES_TEST_PG_URL")
REDIS_URL = os.environ.get("SPADES_TEST_REDIS_URL")


def _need_services() -> None:
    if PG_URL and REDIS_URL:
        return
    if os.environ.get("CI"):
        pytest.fail("SPADES_TEST_PG_URL and SPADES_TEST_REDIS_URL must be set on CI (.ci/run starts both)")
    pytest.skip("no PostgreSQL or Redis: set SPADES_TEST_PG_URL and SPADES_TEST_REDIS_URL")


@pytest.fixture
def db_url() -> Iterator[str]:
    _need_services()
    assert PG_URL is not None
    from sqlalchemy import create_engine, text

    from spades.server.dburl import check_db_url

    name = "spades_cluster_" + secrets.token_hex(6)
    admin = create_engine(check_db_url(PG_URL), isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f"CREATE DATABASE {name}"))
    url = f"{PG_URL.rsplit('/', 1)[0]}/{name}"
    store = Store(url)
    store.migrate()
    store.close()
    yield url
    with admin.connect() as conn:
        conn.execute(text(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
    admin.dispose()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Worker:
    """One ``spades serve`` process of the service."""

    def __init__(self, db_url: str, log_dir: Path, name: str) -> None:
        self.db_url = db_url
        self.port = free_port()
        self.log = log_dir / f"{name}.log"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        assert REDIS_URL is not None
        cmd = [sys.executable, "-m", "spades.cli", "serve", "--port", str(self.port), "--db", self.db_url]
        cmd += ["--redis", REDIS_URL, "--bot-processes", "0", "--tables-per-address", "0"]
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT)
        end = time.monotonic() + 60
        while time.monotonic() < end:
            if self.proc.poll() is not None:
                raise AssertionError(f"worker exited: {self.log.read_text()[-2000:]}")
            with contextlib.suppress(OSError):
                urllib.request.urlopen(f"{self.url}/api/info", timeout=2).read()
                return
            time.sleep(0.2)
        raise AssertionError("worker did not start")

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.kill()

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None


@pytest.fixture
def workers(db_url: str, tmp_path: Path) -> Iterator[list[Worker]]:
    started: list[Worker] = []

    def make(n: int) -> list[Worker]:
        for _ in range(n):
            w = Worker(db_url, tmp_path, f"w{len(started)}")
            w.start()
            started.append(w)
        return started

    yield make  # type: ignore[misc]
    for w in started:
        w.stop()


def post(url: str, body: Any) -> Any:
    req = urllib.request.Request(url, json.dumps(body).encode(), {"content-type": "application/json"})
    with urllib.request.urlopen(req, timeout=30) as r:
        return json.loads(r.read())


def get(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=30) as r:
        return json.loads(r.read())


def choose(msg: dict[str, Any]) -> dict[str, Any] | None:
    can = msg.get("can") or {}
    if msg["table"]["to_move"] != msg["you"]:
        return None
    if can.get("look"):
        return {"type": "look"}
    if can.get("bids"):
        bids = can["bids"]
        return {"type": "bid", "bid": bids[min(3, len(bids) - 1)] or "nil"}
    if can.get("pass"):
        return {"type": "pass", "cards": msg["obs"]["hand"][: can["pass"]]}
    if can.get("cards"):
        return {"type": "play", "card": random.choice(can["cards"])}
    return None


async def person(ws_url: str, invite: str, seat: int, sent: list[tuple[int, str]]) -> dict[str, Any]:
    """A player who acts once per new state on his turn, and notes each action he sent."""
    async with connect(ws_url) as ws:
        await ws.send(json.dumps({"type": "hello", "invite": invite}))
        joined, last = False, -1
        while True:
            msg = json.loads(await asyncio.wait_for(ws.recv(), 60))
            if msg["type"] == "error":
                raise AssertionError(f"seat {seat}: {msg['message']}")
            if msg["type"] != "state":
                continue
            if not joined:
                await ws.send(json.dumps({"type": "join", "name": f"P{seat}"}))
                joined = True
                continue
            status = msg["table"]["status"]
            if status != "playing":
                if status in ("over", "failed", "expired"):
                    return dict(msg)
                continue
            if msg["seq"] == last:
                continue
            last = msg["seq"]
            action = choose(msg)
            if action is not None:
                await asyncio.sleep(0.03)  # under the 10 messages a second per connection
                sent.append((seat, json.dumps(action)))
                await ws.send(json.dumps(action))


def log_record(db_url: str, table_id: str) -> dict[str, Any]:
    """The record a single worker rebuilds from the event log alone."""
    store = Store(db_url)
    try:
        stored = store.load(table_id)
        assert stored is not None
        seqs = [e[0] for e in stored.events]
        assert seqs == list(range(1, len(seqs) + 1)), "the log has a gap"
        return TableActor.restore(stored).record()
    finally:
        store.close()


def test_a_table_played_through_two_workers_gives_the_single_worker_record(workers: Any, db_url: str) -> None:
    a, b = workers(2)
    table = post(
        f"{a.url}/api/tables", {"rules": {"target": 100, "lose_at": -100}, "seats": [{"open": True}] * 4}
    )
    tid = table["id"]
    sent: list[tuple[int, str]] = []

    async def play() -> list[dict[str, Any]]:
        # Seats 0 and 2 on the worker that owns the table, 1 and 3 on the other one.
        return await asyncio.gather(
            *[
                person(f"ws://127.0.0.1:{(a, b)[s % 2].port}/ws/{tid}", table["seats"][s]["invite"], s, sent)
                for s in range(4)
            ]
        )

    finals = asyncio.run(asyncio.wait_for(play(), 240))
    assert {f["table"]["status"] for f in finals} == {"over"}
    rec_a = get(f"{a.url}/api/tables/{tid}/record")
    rec_b = get(f"{b.url}/api/tables/{tid}/record")
    assert rec_a == rec_b == log_record(db_url, tid)
    _, checks = verify_record(rec_a)
    assert checks and all(c.ok for c in checks)
    # Every card a player sent was accepted exactly once, in the order sent: the record's
    # plays are exactly the players' play messages (a lost or doubled action would show).
    plays = [card for hand in rec_a["hands"] for card in hand["play"]]
    sent_plays = [json.loads(t)["card"] for _, t in sent if json.loads(t)["type"] == "play"]
    assert plays == sent_plays


def _wait_all_over(urls: list[str], tids: list[str], deadline: float) -> dict[str, dict[str, Any]]:
    views: dict[str, dict[str, Any]] = {}
    while time.monotonic() < deadline:
        for tid in tids:
            if tid in views:
                continue
            for url in urls:
                with contextlib.suppress(OSError, urllib.error.URLError, ValueError):
                    v = get(f"{url}/api/tables/{tid}")
                    if v["status"] in ("over", "failed", "expired"):
                        views[tid] = v
                    break
        if len(views) == len(tids):
            return views
        time.sleep(0.5)
    return views


def test_chaos_kill_9_workers_at_random_and_every_game_still_finishes(workers: Any, db_url: str) -> None:
    ws = workers(3)
    rng = random.Random(int(os.environ.get("SPADES_CHAOS_SEED", "0")) or None)
    tids = []
    for i in range(20):
        w = ws[i % 3]
        t = post(
            f"{w.url}/api/tables",
            {
                "rules": {"target": 150, "lose_at": -150},
                "seats": [{"bot": "heuristic"}] * 4,
                "bot_delay_ms": 20,
            },
        )
        tids.append(t["id"])
    deadline = time.monotonic() + 240
    kills = 0
    views: dict[str, dict[str, Any]] = {}
    while time.monotonic() < deadline and kills < 4:
        time.sleep(rng.uniform(1.0, 4.0))
        victim = rng.choice([w for w in ws if w.alive()])
        victim.kill()
        kills += 1
        time.sleep(rng.uniform(0.0, 2.0))
        victim.start()  # a fresh process on the same port: the others took its tables meanwhile
    views = _wait_all_over([w.url for w in ws if w.alive()], tids, deadline)
    assert len(views) == len(tids), f"unfinished: {set(tids) - set(views)}"
    assert {v["status"] for v in views.values()} == {"over"}
    for tid in tids:
        rec = log_record(db_url, tid)
        _, checks = verify_record(rec)
        assert checks and all(c.ok for c in checks)
        served = get(f"{ws[0].url}/api/tables/{tid}/record")
        assert served == rec
    assert kills >= 2
