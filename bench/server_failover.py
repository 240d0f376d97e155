"""Failover of a many-worker service: how long the tables of a worker that dies stand still.

Starts two ``spades serve --redis`` processes (A and B) on one database, creates ``--tables``
tables through A (A owns them), connects all four players of each to B (every action is
forwarded to A through Redis), lets them play (think ``--think-ms``), then stops A, once with
``kill -9`` and once with SIGTERM (a graceful stop, as systemd does), each on a fresh pair.
For each table it measures the longest time without a state update around the stop (the
table stands still until B holds its lease and has rebuilt it from the log), and checks that
every table moves on afterwards.

    python bench/server_failover.py --tables 20
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import os
import random
import signal
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from server_load import ERROR_PREFIXES, STATE_PREFIX, Database, Redis, choose, create_tables, server


async def player(url: str, invite: str, times: list[float], errors: list[str], stop: asyncio.Event) -> None:
    from websockets.asyncio.client import connect

    async with connect(url, compression=None, open_timeout=30) as ws:
        await ws.send(json.dumps({"type": "hello", "invite": invite}))
        joined = False
        acted = -1  # act once per event number: presence updates repeat a state
        recv = asyncio.ensure_future(ws.recv())
        while not stop.is_set():
            done, _ = await asyncio.wait({recv}, timeout=0.2)
            if not done:
                continue
            raw = recv.result()
            recv = asyncio.ensure_future(ws.recv())
            assert isinstance(raw, str)
            if raw.startswith(ERROR_PREFIXES):
                errors.append(raw[:160])
                continue
            if not raw.startswith(STATE_PREFIX):
                continue
            times.append(time.monotonic())
            msg = json.loads(raw)
            if not joined:
                await ws.send(json.dumps({"type": "join", "name": "P"}))
                joined = True
                continue
            if msg["table"]["status"] != "playing" or msg["seq"] <= acted:
                continue
            action = choose(msg)
            if action is not None:
                acted = msg["seq"]
                await asyncio.sleep(random.uniform(0.5, 1.5) * THINK[0])
                await ws.send(json.dumps(action))
        recv.cancel()


THINK = [0.05]


async def play(
    b_base: str, tables: list[dict[str, Any]], kill_at: float, run_s: float, victim: int, sig: int
) -> tuple[list[float], int, list[str]]:
    ws = b_base.replace("http://", "ws://")
    stop = asyncio.Event()
    times: list[list[float]] = [[] for _ in tables]
    errors: list[str] = []
    tasks = [
        asyncio.create_task(player(f"{ws}/ws/{t['id']}", s["invite"], times[i], errors, stop))
        for i, t in enumerate(tables)
        for s in t["seats"]
    ]
    await asyncio.sleep(kill_at)
    killed = time.monotonic()
    os.kill(victim, sig)
    await asyncio.sleep(run_s)
    stop.set()
    await asyncio.gather(*tasks, return_exceptions=True)
    gaps, moved_on = [], 0
    for ts in times:
        around = [t for t in ts if t >= killed - 2.0]
        gap = max((b - a for a, b in itertools.pairwise(around)), default=float("inf"))
        gaps.append(gap)
        moved_on += any(t > killed + 0.01 for t in ts)
    return gaps, moved_on, errors


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tables", type=int, default=20)
    ap.add_argument("--think-ms", type=float, default=50.0)
    ap.add_argument("--db", choices=("sqlite", "postgresql"), default="sqlite")
    ap.add_argument(
        "--pg-url", default=os.environ.get("SPADES_BENCH_PG_URL") or os.environ.get("SPADES_TEST_PG_URL")
    )
    ap.add_argument("--redis-url", default=os.environ.get("SPADES_BENCH_REDIS_URL"))
    args = ap.parse_args()
    THINK[0] = args.think_ms / 1000
    redis = Redis(args.redis_url)
    try:
        print(f"server_failover: {args.tables} tables owned by A, players on B, {args.db}")
        for name, sig in (("kill -9", signal.SIGKILL), ("SIGTERM", signal.SIGTERM)):
            db = Database(args.db, args.pg_url)
            try:
                with server(db.url, 1, redis.url, processes=2) as servers:
                    (a_base, a_pid), (b_base, _) = servers
                    tables = create_tables(a_base, args.tables)
                    gaps, moved_on, errors = asyncio.run(play(b_base, tables, 3.0, 8.0, a_pid, sig))
            finally:
                db.drop()
            fin = sorted(g for g in gaps if g != float("inf"))
            med = statistics.median(fin) if fin else float("nan")
            print(
                f"  {name:8}: longest stand-still per table: median {med:.2f} s, "
                f"max {max(fin, default=0):.2f} s;"
                f" {moved_on}/{args.tables} tables moved on after the stop; {len(errors)} errors"
                + (f", e.g. {errors[0]}" if errors else "")
            )
    finally:
        redis.close()


if __name__ == "__main__":
    main()
