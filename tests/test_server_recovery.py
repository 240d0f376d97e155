"""Crash recovery: ``spades serve`` is killed with SIGKILL mid-hand and started again.

Nothing the server accepted may be lost: every action a client saw acknowledged is in the
restarted table, the bots-only table carries on from where it was, and the person's seat
token still works.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("uvicorn")
from websockets.sync.client import connect

from wsmsg import first_choice, own_part


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(port: int, db: str) -> subprocess.Popen[bytes]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "spades", "serve", "--port", str(port), "--db", db],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    end = time.monotonic() + 30
    while time.monotonic() < end:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/api/info", timeout=1).read()
            return proc
        except OSError:
            if proc.poll() is not None:
                raise RuntimeError(proc.stderr.read().decode() if proc.stderr else "server died") from None
            time.sleep(0.1)
    proc.kill()
    raise RuntimeError("the server did not start")


def api(port: int, path: str, body: Any = None) -> Any:
    req = urllib.request.Request(
        f"http://127.0.0.1:{port}{path}",
        data=None if body is None else json.dumps(body).encode(),
        headers={"content-type": "application/json"},
    )
    with urllib.request.urlopen(req, timeout=10) as r:
        return json.loads(r.read())


def next_state(ws: Any) -> dict[str, Any]:
    while True:
        msg = json.loads(ws.recv(timeout=10))
        assert msg["type"] != "error", msg
        if msg["type"] == "state":
            return msg  # type: ignore[no-any-return]


def play_some(ws: Any, actions: int) -> tuple[list[str], dict[str, Any]]:
    """Answer every turn of seat 0 with its first choice; return what was acknowledged (an
    action counts once a state shows it)."""
    done: list[str] = []
    st = next_state(ws)
    acted_on = None
    while len(done) < actions:
        if own_part(st) != acted_on:
            sent = first_choice(st)
            if sent is not None:
                acted_on = own_part(st)
                ws.send(json.dumps(sent))
                while own_part(st) == acted_on:
                    st = next_state(ws)
                done.append(json.dumps(sent))
                continue
        st = next_state(ws)
    return done, st


def test_kill_9_loses_nothing_and_everyone_reconnects(tmp_path: Path) -> None:
    port = free_port()
    db = f"sqlite:///{tmp_path / 'crash.db'}"
    proc = start_server(port, db)
    try:
        human = api(
            port,
            "/api/tables",
            {
                "seats": [{"open": True, "name": "Ann"}] + [{"bot": "heuristic"}] * 3,
                "bot_delay_ms": 0,
                "away_s": 600,
            },
        )
        bots = api(port, "/api/tables", {"seats": [{"bot": "heuristic"}] * 4, "bot_delay_ms": 20})
        tid, token = human["id"], human["seats"][0]["token"]
        with connect(f"ws://127.0.0.1:{port}/ws/{tid}") as ws:
            ws.send(json.dumps({"type": "hello", "token": token}))
            _, st = play_some(ws, 9)
        # Wait until the bots have answered and it is our turn again: nothing is in flight.
        for _ in range(200):
            before = api(port, f"/api/tables/{tid}")
            if before["to_move"] == 0:
                break
            time.sleep(0.02)
        bots_before = api(port, f"/api/tables/{bots['id']}")
        assert before["status"] == "playing" and len(before["plays"]) > 0
    finally:
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()

    proc = start_server(port, db)
    try:
        after = api(port, f"/api/tables/{tid}")
        for key in ("hand", "bids", "plays", "totals", "to_move", "tricks_won"):
            assert after[key] == before[key], key
        bots_after = api(port, f"/api/tables/{bots['id']}")
        assert (bots_after["hand"], len(bots_after["plays"])) >= (bots_before["hand"], 0)
        if bots_after["hand"] == bots_before["hand"]:
            assert bots_after["plays"][: len(bots_before["plays"])] == bots_before["plays"]
        # The bots' table resumes by itself.
        for _ in range(200):
            moved = api(port, f"/api/tables/{bots['id']}")
            if moved["plays"] != bots_after["plays"] or moved["hand"] != bots_after["hand"]:
                break
            time.sleep(0.05)
        assert moved["plays"] != bots_after["plays"] or moved["hand"] != bots_after["hand"]
        # The bots' deals, before and after the crash, pass the shuffle proof over HTTP.
        record_url = f"http://127.0.0.1:{port}/api/tables/{bots['id']}/record"
        for _ in range(300):
            if api(port, f"/api/tables/{bots['id']}/record")["hands"]:
                break
            time.sleep(0.1)
        check = subprocess.run(
            [sys.executable, "-m", "spades", "verify", record_url], capture_output=True, text=True, timeout=60
        )
        assert check.returncode == 0, check.stderr
        assert "verified" in check.stdout
        # The same seat token still works, and play goes on.
        with connect(f"ws://127.0.0.1:{port}/ws/{tid}") as ws:
            ws.send(json.dumps({"type": "hello", "token": token}))
            done, st = play_some(ws, 2)
            assert st["you"] == 0 and len(done) == 2
    finally:
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
