"""Memory per live table in one server worker: RSS before and after N tables.

Starts one ``spades serve`` worker (SQLite in a temporary directory, no compute processes),
reads its resident memory (RSS, from /proc), creates ``--waiting`` tables of four open seats
(nobody joins), reads it again, then fills ``--playing`` more tables with four websocket
players each (invite, join: the first hand is dealt, the bidding waits), and reads it a last
time. The differences per table are the memory figures ``docs/deploy.md`` scales to 100,000
tables. Sockets stay open while measuring, so a playing table's figure includes its four
connections on the server side.

    python bench/server_memory.py --waiting 1000 --playing 250
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from server_load import free_port, post, proc_rss_mb, tree


def rss(root: int) -> float:
    """RSS of the worker: the whole tree less the parent (a one-worker server is one process)."""
    return sum(proc_rss_mb(p) for p in tree(root))


def create(base: str, n: int) -> list[dict[str, Any]]:
    body = {"seats": [{"open": True} for _ in range(4)], "away_s": 3600, "hints": False}
    with ThreadPoolExecutor(4) as ex:
        return list(ex.map(lambda _: post(base + "/api/tables", body), range(n)))


async def seat(url: str, invite: str, joined: asyncio.Event, hold: asyncio.Event) -> None:
    from websockets.asyncio.client import connect

    async with connect(url, compression=None, open_timeout=60) as ws:
        await ws.send(json.dumps({"type": "hello", "invite": invite}))
        async for raw in ws:
            assert isinstance(raw, str)
            if raw.startswith('{"type":"state"'):
                await ws.send(json.dumps({"type": "join", "name": "P"}))
                joined.set()
                break
        await hold.wait()


async def fill(base: str, tables: list[dict[str, Any]], settle: float, measure: Any) -> float:
    ws = base.replace("http://", "ws://")
    hold = asyncio.Event()
    events: list[asyncio.Event] = []
    tasks = []
    for t in tables:
        for s in t["seats"]:
            e = asyncio.Event()
            events.append(e)
            tasks.append(asyncio.create_task(seat(f"{ws}/ws/{t['id']}", s["invite"], e, hold)))
        await asyncio.sleep(0.01)
    await asyncio.wait_for(asyncio.gather(*(e.wait() for e in events)), 300)
    await asyncio.sleep(settle)
    value = float(measure())
    hold.set()
    await asyncio.gather(*tasks, return_exceptions=True)
    return value


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--waiting", type=int, default=1000)
    ap.add_argument("--playing", type=int, default=250)
    ap.add_argument("--settle", type=float, default=3.0, help="seconds to wait before each reading")
    args = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="spades-bench-mem-")
    port = free_port()
    cmd = [sys.executable, "-m", "spades", "serve", "--port", str(port), "--bot-processes", "0"]
    cmd += ["--db", f"sqlite:///{tmp}/m.db", "--tables-per-address", "0", "--sockets-per-address", "0"]
    cmd += ["--connections-per-address", "0"]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(300):
            try:
                urllib.request.urlopen(base + "/api/info", timeout=1).read()
                break
            except OSError:
                time.sleep(0.1)
        create(base, 5)  # code paths warmed before the first reading
        time.sleep(args.settle)
        gc.collect()
        r0 = rss(proc.pid)
        create(base, args.waiting)
        time.sleep(args.settle)
        r1 = rss(proc.pid)
        tables = create(base, args.playing)
        r2 = asyncio.run(fill(base, tables, args.settle, lambda: rss(proc.pid)))
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(15)
        shutil.rmtree(tmp, ignore_errors=True)
    per_wait = (r1 - r0) * 1024 / max(1, args.waiting)
    per_play = (r2 - r1) * 1024 / max(1, args.playing)
    print(f"server_memory: one worker, pid tree RSS, {os.cpu_count()} cores")
    print(f"  RSS at start (5 tables)            {r0:8.1f} MB")
    print(f"  + {args.waiting:5d} waiting tables          {r1:8.1f} MB   {per_wait:6.1f} kB per table")
    print(
        f"  + {args.playing:5d} playing tables, 4 sockets {r2:8.1f} MB   {per_play:6.1f} kB per table"
        " (first hand dealt, sockets open)"
    )


if __name__ == "__main__":
    main()
