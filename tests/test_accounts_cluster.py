"""Accounts on a many-worker service: two real ``spades serve --redis`` processes on one
PostgreSQL. A session made on one worker is good on the other, a seat bound on the owner
opens through the other (a replica), and signing out everywhere on one ends it on both.
PostgreSQL and Redis come from ``. scripts/services``; without them this skips (CI fails)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("argon2")
pytest.importorskip("redis")
pytest.importorskip("httpx")

import httpx
from websockets.asyncio.client import connect

from test_server_cluster import Worker, db_url  # noqa: F401  (the database fixture)


def _seat_over_socket(worker: Worker, tid: str, cookie: str) -> Any:
    async def go() -> Any:
        url = worker.url.replace("http", "ws") + f"/ws/{tid}"
        headers = {"cookie": cookie, "origin": worker.url}
        async with connect(url, additional_headers=headers) as ws:
            await ws.send(json.dumps({"type": "hello"}))
            while True:
                msg = json.loads(await asyncio.wait_for(ws.recv(), 30))
                if msg["type"] in ("state", "error"):
                    return msg

    return asyncio.run(go())


def test_sessions_and_bound_seats_work_on_every_worker(db_url: str, tmp_path: Path) -> None:  # noqa: F811
    a, b = Worker(db_url, tmp_path, "a"), Worker(db_url, tmp_path, "b")
    a.start()
    b.start()
    try:
        with httpx.Client(timeout=30) as c:  # one browser: 127.0.0.1's cookies go to both ports
            token = c.get(f"{a.url}/api/account").json()["csrf"]
            r = c.post(
                f"{a.url}/api/account/signup",
                json={"name": "clusterer", "password": "correct horse"},
                headers={"x-csrf-token": token},
            )
            assert r.status_code == 201, r.text
            csrf = r.json()["csrf"]
            assert c.get(f"{b.url}/api/account").json()["account"]["name"] == "clusterer"
            body = {
                "seats": [{"open": True, "name": "x"}, {"bot": "random"}, {"open": True}, {"bot": "random"}]
            }
            r = c.post(f"{a.url}/api/tables", json=body, headers={"x-csrf-token": csrf})
            assert r.status_code == 200, r.text
            tid = r.json()["id"]
            cookie = "; ".join(f"{k}={v}" for k, v in c.cookies.items())
            state = _seat_over_socket(b, tid, cookie)  # b holds a replica of a's table
            assert state["type"] == "state" and state["you"] == 0
            assert [g["id"] for g in c.get(f"{b.url}/api/history").json()["games"]] == [tid]
            r = c.post(f"{b.url}/api/account/signout-all", headers={"x-csrf-token": csrf})
            assert r.status_code == 200 and r.json()["ended"] == 1
        with httpx.Client(timeout=30) as old:  # the session cookie as it was: dead on a too
            assert old.get(f"{a.url}/api/account", headers={"cookie": cookie}).json()["account"] is None
    finally:
        a.stop()
        b.stop()


def _until(fetch: Any, want: Any, what: str, tries: int = 150) -> None:
    """Poll until ``fetch()`` gives ``want`` (the bus is asynchronous; no timing is asserted)."""
    import time

    got = None
    for _ in range(tries):
        got = fetch()
        if got == want:
            return
        time.sleep(0.1)
    raise AssertionError(f"{what}: {got!r}, not {want!r}")


def test_a_deleted_accounts_name_leaves_every_worker_at_once(db_url: str, tmp_path: Path) -> None:  # noqa: F811
    a, b = Worker(db_url, tmp_path, "a"), Worker(db_url, tmp_path, "b")
    a.start()
    b.start()
    try:
        with httpx.Client(timeout=30) as c:
            token = c.get(f"{a.url}/api/account").json()["csrf"]
            r = c.post(
                f"{a.url}/api/account/signup",
                json={"name": "leaver", "password": "correct horse"},
                headers={"x-csrf-token": token},
            )
            assert r.status_code == 201, r.text
            csrf = r.json()["csrf"]
            body = {
                "seats": [{"open": True, "name": "x"}, {"bot": "random"}, {"open": True}, {"bot": "random"}]
            }
            r = c.post(f"{a.url}/api/tables", json=body, headers={"x-csrf-token": csrf})
            assert r.status_code == 200, r.text
            tid = r.json()["id"]  # a owns it; b holds a replica once asked
            assert c.get(f"{b.url}/api/tables/{tid}").json()["players"][0] == "leaver"
            assert c.get(f"{a.url}/api/tables/{tid}").json()["players"][0] == "leaver"
            r = c.post(
                f"{b.url}/api/account/delete",
                json={"password": "correct horse"},
                headers={"x-csrf-token": csrf},
            )
            assert r.status_code == 200, r.text
            # b rewrote the store and its own copy; a (the owner) heard it through the bus.
            assert c.get(f"{b.url}/api/tables/{tid}").json()["players"][0] == "deleted player"
            _until(
                lambda: c.get(f"{a.url}/api/tables/{tid}").json()["players"][0],
                "deleted player",
                "the owner's copy",
            )
        with httpx.Client(timeout=30) as guest:  # the owner's next lobby line keeps the new name
            r = guest.post(f"{b.url}/api/tables/{tid}/claim", json={"seat": 2, "name": "late"})
            assert r.status_code == 200, r.text
            _until(
                lambda: [
                    t["seats"][0]["name"]
                    for t in guest.get(f"{a.url}/api/tables?status=all").json()
                    if t["id"] == tid
                ],
                ["deleted player"],
                "the lobby line",
            )
    finally:
        a.stop()
        b.stop()
