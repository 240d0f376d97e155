"""Load benchmark of the web server: N tables of four websocket players on loopback.

Starts ``spades serve`` (one process, SQLite store in a temporary directory) unless ``--url``
points at a running one, creates N tables of four open seats, connects four websocket
clients per table, and lets every client answer its own turns (after ``--think-ms``) for
``--seconds``. It prints actions per second and the p50/p99 latency from sending an action
to receiving the state update it causes, next to the target from the issue.

    python bench/server_load.py --tables 200 --seconds 20
    python bench/server_load.py --tables 200 --think-ms 0     # saturation: no think time
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

from websockets.asyncio.client import connect

TARGET_TABLES = 200
TARGET_P99_MS = 100.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def server_cpu(proc: subprocess.Popen[bytes] | None) -> float:
    """Seconds of CPU the started server has used (Linux /proc; 0 elsewhere)."""
    if proc is None:
        return 0.0
    try:
        fields = Path(f"/proc/{proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return 0.0


def post(url: str, body: Any) -> Any:
    req = urllib.request.Request(url, json.dumps(body).encode(), {"content-type": "application/json"})
    with urllib.request.urlopen(req, timeout=30) as r:
        return json.loads(r.read())


def choose(st: dict[str, Any]) -> dict[str, Any] | None:
    """Act only on one's own turn, so each table has one action in flight and the next state
    a player receives is the effect of his own action."""
    can = st.get("can") or {}
    if st["table"]["to_move"] != st["you"]:
        return None
    if can.get("look"):
        return {"type": "look"}
    if can.get("bids"):
        bids = can["bids"]
        return {"type": "bid", "bid": bids[min(3, len(bids) - 1)] or "nil"}
    if can.get("pass"):
        return {"type": "pass", "cards": st["obs"]["hand"][: can["pass"]]}
    if can.get("cards"):
        return {"type": "play", "card": random.choice(can["cards"])}
    if can.get("draw"):
        return {"type": "draw", "keep": True}
    return None


class Stats:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.errors = 0
        self.measuring = False


async def player(ws_url: str, token: str, think: float, stats: Stats, stop: asyncio.Event) -> None:
    """One seat. Only the seat to move acts, so the first state after its action is that
    action's effect; other states are skimmed, not parsed, to keep the players' CPU (which
    shares the machine with the server) small."""
    async with connect(ws_url, max_size=2**20) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        sent_at: float | None = None
        mine = ""
        async for raw in ws:  # until cancelled at the end of the run
            assert isinstance(raw, str)
            if raw.startswith('{"type":"error"'):
                stats.errors += 1
                sent_at = None
                continue
            if not raw.startswith('{"type":"state"'):
                continue
            if sent_at is not None:
                if stats.measuring:
                    stats.latencies.append(time.perf_counter() - sent_at)
                sent_at = None
            if mine and mine not in raw:
                continue
            msg = json.loads(raw)
            if not mine:
                mine = f'"to_move":{msg["you"]},'
            if msg["table"]["status"] != "playing":
                continue
            action = choose(msg)
            if action is None:
                continue
            if think:
                await asyncio.sleep(think * random.uniform(0.5, 1.5))
            sent_at = time.perf_counter()
            await ws.send(json.dumps(action))


async def run(base: str, tables: int, seconds: float, think: float, warmup: float) -> tuple[Stats, float]:
    stats = Stats()
    stop = asyncio.Event()
    tasks = []
    created: list[dict[str, Any]] = []
    ws_base = base.replace("http://", "ws://")
    for i in range(tables):
        t = await asyncio.to_thread(
            post,
            base + "/api/tables",
            {
                "rules": {"target": 2000},  # the most allowed: ~100 hands, far beyond a run
                "seats": [{"open": True, "name": f"P{i}.{s}"} for s in range(4)],
                "bot_delay_ms": 0,
                "away_s": 3600,
                "hints": False,
            },
        )
        created.append(t)
    # Every table exists before anyone plays, so creating them is not timed under load.
    for t in created:
        for seat in t["seats"]:
            tasks.append(
                asyncio.create_task(player(f"{ws_base}/ws/{t['id']}", seat["token"], think, stats, stop))
            )
    await asyncio.sleep(warmup)
    stats.measuring = True
    start = time.perf_counter()
    await asyncio.sleep(seconds)
    stats.measuring = False
    elapsed = time.perf_counter() - start
    stop.set()
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return stats, elapsed


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tables", type=int, default=TARGET_TABLES)
    ap.add_argument("--seconds", type=float, default=20.0)
    ap.add_argument("--warmup", type=float, default=3.0)
    ap.add_argument("--think-ms", type=float, default=500.0, help="each player's mean think time")
    ap.add_argument("--url", default=None, help="a running server (default: start one)")
    ap.add_argument("--db", default=None, help="store URL for the started server (default: temp SQLite)")
    args = ap.parse_args()
    proc = None
    base = args.url
    if base is None:
        port = free_port()
        tmp = tempfile.mkdtemp(prefix="spades-bench-")
        db = args.db or f"sqlite:///{os.path.join(tmp, 'bench.db')}"
        proc = subprocess.Popen(
            [sys.executable, "-m", "spades", "serve", "--port", str(port), "--db", db],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        base = f"http://127.0.0.1:{port}"
        for _ in range(300):
            try:
                urllib.request.urlopen(base + "/api/info", timeout=1).read()
                break
            except OSError:
                time.sleep(0.1)
    cpu_before = server_cpu(proc)
    coro = run(base, args.tables, args.seconds, args.think_ms / 1000, args.warmup)
    try:
        try:  # the players' side on uvloop where present, as the server runs
            import uvloop

            stats, elapsed = uvloop.run(coro)
        except ImportError:
            stats, elapsed = asyncio.run(coro)
        cpu_used = server_cpu(proc) - cpu_before
    finally:
        if proc is not None:
            proc.kill()
            proc.wait()
    lat = sorted(stats.latencies)
    if not lat:
        print("no action completed")
        sys.exit(1)
    p50 = statistics.median(lat) * 1000
    p99 = lat[min(len(lat) - 1, int(len(lat) * 0.99))] * 1000
    rate = len(lat) / elapsed
    ok = args.tables >= TARGET_TABLES and p99 <= TARGET_P99_MS
    print(
        f"server_load: {args.tables} tables x 4 websocket players, think {args.think_ms:.0f} ms, "
        f"{elapsed:.1f} s measured"
    )
    print(f"  actions/s {rate:8.1f}   p50 {p50:6.1f} ms   p99 {p99:6.1f} ms   errors {stats.errors}")
    if proc is not None and cpu_used > 0:
        print(f"  server CPU {cpu_used:.1f} s for the whole run (setup included)")
    print(
        f"  target    >= {TARGET_TABLES} tables with p99 <= {TARGET_P99_MS:.0f} ms: "
        f"{'met' if ok else 'NOT met'}"
    )


if __name__ == "__main__":
    main()
