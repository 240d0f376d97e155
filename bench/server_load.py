"""Load benchmark of the web service: N tables of four websocket players, 1/2/4 workers, SQLite/PostgreSQL.

For each configuration (store x worker count) it starts ``spades serve --workers N --redis URL``
on a fresh database (a temporary SQLite file, or a new database created in ``--pg-url``), creates
``--tables`` tables of four open seats, and connects four websocket players per table, each of
which redeems its seat's invite, joins, and answers its own turns with a random legal action.
Two runs per configuration, each on a fresh server:

- **latency** (``--think-ms 500``): players think 0.25-0.75 s. Prints p50/p99 from sending an
  action to receiving the state update it caused, and actions/s. Target: p99 <= 100 ms at
  200 tables on one worker.
- **saturation** (think 0): every table has one action in flight at all times, so actions/s
  is what the service sustains. Target: 2 workers >= 1.7x one worker.

Alongside: CPU per action of the server (every process of its tree, from /proc), of the
PostgreSQL backends and of Redis; rows inserted, transactions and Redis commands per action
(the per-action costs ``docs/deploy.md`` scales to 100,000 tables); the players' own CPU, so a
reader sees whether the client or the server ran out of the shared cores. The players run in
``--clients`` processes (each its own event loop, a share of the tables).

    python bench/server_load.py                                   # the full run: both stores, 1,2,4 workers
    python bench/server_load.py --db sqlite --workers 1 --seconds 10  # a quick look

Redis: ``--redis-url`` (or SPADES_BENCH_REDIS_URL); otherwise a private ``redis-server`` is
started, so its CPU and command counts are this benchmark's alone. PostgreSQL: ``--pg-url``
(or SPADES_BENCH_PG_URL / SPADES_TEST_PG_URL), a server where a database may be created.
Every run plays fresh random games (operating-system shuffles, random card choices).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing as mp
import os
import random
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

TARGET_TABLES = 200
TARGET_P99_MS = 100.0
TARGET_SPEEDUP_2W = 1.7
CLK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
STATE_PREFIX = '{"type":"state","seq":'
ERROR_PREFIXES = ('{"type":"error"', '{"type": "error"')


# ---------------------------------------------------------------------- helpers
def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def post(url: str, body: Any) -> Any:
    req = urllib.request.Request(url, json.dumps(body).encode(), {"content-type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=60) as r:
            return json.loads(r.read())
    except urllib.error.HTTPError as e:
        raise RuntimeError(f"POST {url}: {e.code} {e.read()[:300]!r}") from None


def _stat(pid: int) -> list[str] | None:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None


def proc_cpu(pid: int) -> float:
    """Seconds of CPU (user + system) of one process, from /proc; 0 if it is gone."""
    f = _stat(pid)
    return (int(f[11]) + int(f[12])) / CLK if f else 0.0


def proc_rss_mb(pid: int) -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def machine_busy() -> tuple[float, float]:
    """(busy, total) CPU seconds of the whole machine so far, from /proc/stat: what every
    process used, ours and the other tenants' of a shared machine."""
    try:
        f = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    except (OSError, ValueError):
        return 0.0, 0.0
    total = sum(f[:8])
    return (total - f[3] - f[4]) / CLK, total / CLK


def tree(root: int) -> list[int]:
    """``root`` and all its descendants (uvicorn's worker processes and whatever they spawn)."""
    children: dict[int, list[int]] = {}
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            f = _stat(int(d.name))
            if f:
                children.setdefault(int(f[1]), []).append(int(d.name))
    out, todo = [], [root]
    while todo:
        pid = todo.pop()
        out.append(pid)
        todo.extend(children.get(pid, []))
    return out


def choose(st: dict[str, Any]) -> dict[str, Any] | None:
    """A random legal action on one's own turn (only then: so each table has one action in
    flight, and the next state a player receives is the effect of his own action)."""
    can = st.get("can") or {}
    if st["table"]["to_move"] != st["you"]:
        return None
    if can.get("look"):
        return {"type": "look"}
    if can.get("bids"):
        bids = can["bids"]
        return {"type": "bid", "bid": random.choice(bids[: min(6, len(bids))]) or "nil"}
    if can.get("pass"):
        return {"type": "pass", "cards": random.sample(st["obs"]["hand"], can["pass"])}
    if can.get("cards"):
        return {"type": "play", "card": random.choice(can["cards"])}
    if can.get("draw"):
        return {"type": "draw", "keep": random.random() < 0.5}
    return None


# ---------------------------------------------------------------------- the players
@dataclass
class ChildResult:
    latencies: list[float] = field(default_factory=list)
    errors: int = 0
    error_samples: list[str] = field(default_factory=list)
    acts: dict[int, int] = field(default_factory=dict)
    finished: int = 0
    joined: int = 0
    cpu_s: float = 0.0


class Player:
    """One seat. States not addressed to the seat's turn are skimmed (a string search), not
    parsed, to keep the players' CPU small: they share the cores with the server."""

    def __init__(self, res: ChildResult, table: int, think: float) -> None:
        self.res = res
        self.table = table
        self.think = think
        self.window = (float("inf"), float("inf"))
        self.last = "not connected"
        """What the seat last heard before joining: why a seat never joined, if one does not."""

    async def run(self, url: str, invite: str, joined: asyncio.Event) -> None:
        from websockets.asyncio.client import connect

        res = self.res
        async with connect(url, max_size=2**22, compression=None, open_timeout=60) as ws:
            self.last = "connected, hello sent"
            await ws.send(json.dumps({"type": "hello", "invite": invite}))
            mine = ""
            sent_at: float | None = None
            sent_wall = 0.0
            sent_seq = -1
            last: dict[str, Any] | None = None
            retried = -1
            async for raw in ws:
                assert isinstance(raw, str)
                if not mine:
                    self.last = (self.last + " | " + raw[:160])[-400:]
                if raw.startswith(ERROR_PREFIXES):
                    res.errors += 1
                    if len(res.error_samples) < 5:
                        res.error_samples.append(raw[:200])
                    sent_at = None
                    # Once per state: an action refused because it was already applied (a
                    # forwarded command run twice) must not start a cascade of refusals.
                    if last is not None and last["seq"] != retried and (action := choose(last)) is not None:
                        retried = last["seq"]
                        sent_at, sent_wall = time.perf_counter(), time.time()
                        await ws.send(json.dumps(action))
                    continue
                if not raw.startswith(STATE_PREFIX):
                    continue
                seq = int(raw[len(STATE_PREFIX) : raw.index(",", len(STATE_PREFIX))])
                if not mine:
                    you = json.loads(raw)["you"]
                    mine = f'"to_move":{you},'
                    await ws.send(json.dumps({"type": "join", "name": f"P{self.table}.{you}"}))
                    res.joined += 1
                    joined.set()
                    continue
                if sent_at is not None:
                    if seq <= sent_seq:
                        continue  # a presence update, not the effect of our action
                    lo, hi = self.window
                    if lo <= sent_wall < hi:
                        res.latencies.append(time.perf_counter() - sent_at)
                        res.acts[self.table] = res.acts.get(self.table, 0) + 1
                    sent_at = None
                if mine not in raw and '"status":"playing"' in raw:
                    continue
                msg = json.loads(raw)
                status = msg["table"]["status"]
                if status != "playing":
                    if status in ("over", "failed", "expired"):
                        res.finished += 1
                        return
                    continue
                last = msg
                action = choose(msg)
                if action is None:
                    continue
                if self.think:
                    await asyncio.sleep(self.think * random.uniform(0.5, 1.5))
                sent_seq = seq
                sent_at, sent_wall = time.perf_counter(), time.time()
                await ws.send(json.dumps(action))


async def _child(seats: list[tuple[int, str, str]], think: float, inbox: Any, outbox: Any) -> ChildResult:
    res = ChildResult()
    players = [Player(res, t, think) for t, _, _ in seats]
    events = [asyncio.Event() for _ in seats]
    tasks = []
    for i, (p, (_, url, invite)) in enumerate(zip(players, seats, strict=True)):
        tasks.append(asyncio.create_task(p.run(url, invite, events[i])))
        if i % 50 == 49:
            await asyncio.sleep(0.05)  # do not open hundreds of sockets in one burst
    with contextlib.suppress(TimeoutError):  # whoever joined plays; the count is reported
        await asyncio.wait_for(asyncio.gather(*(e.wait() for e in events)), 30)
    for p, e in zip(players, events, strict=True):
        if not e.is_set() and len(res.error_samples) < 5:
            res.error_samples.append(f"table {p.table}: a seat never joined; it last heard {p.last!r}")
    outbox.put(("ready", res.joined))
    loop = asyncio.get_running_loop()
    lo, hi = await loop.run_in_executor(None, inbox.get)
    for p in players:
        p.window = (lo, hi)
    await asyncio.sleep(max(0.0, lo - time.time()))
    cpu0 = time.process_time()
    await asyncio.sleep(max(0.0, hi - time.time()))
    res.cpu_s = time.process_time() - cpu0
    await asyncio.sleep(0.3)  # the last answers to actions sent inside the window
    for t in tasks:
        t.cancel()
    for t, outcome in zip(tasks, await asyncio.gather(*tasks, return_exceptions=True), strict=True):
        if isinstance(outcome, BaseException) and not isinstance(outcome, asyncio.CancelledError):
            res.errors += 1
            if len(res.error_samples) < 5:
                res.error_samples.append(f"{type(outcome).__name__}: {outcome}"[:200])
        del t
    return res


def child_main(seats: list[tuple[int, str, str]], think: float, inbox: Any, outbox: Any) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        import uvloop

        res = uvloop.run(_child(seats, think, inbox, outbox))
    except ImportError:
        res = asyncio.run(_child(seats, think, inbox, outbox))
    outbox.put(("done", vars(res)))


# ---------------------------------------------------------------------- services
class Redis:
    """The Redis the workers share: the given one, or a private ``redis-server``."""

    def __init__(self, url: str | None) -> None:
        self.proc: subprocess.Popen[bytes] | None = None
        self.dir: str | None = None
        if url is None:
            exe = shutil.which("redis-server")
            if exe is None:
                sys.exit("server_load: no --redis-url given and no redis-server on PATH")
            port = free_port()
            self.dir = tempfile.mkdtemp(prefix="spades-bench-redis-")
            self.proc = subprocess.Popen(
                [exe, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
                cwd=self.dir,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            url = f"redis://127.0.0.1:{port}/0"
        self.url = url
        import redis

        self.client = redis.Redis.from_url(url, decode_responses=True)
        for _ in range(100):
            try:
                self.client.ping()
                break
            except redis.ConnectionError:
                time.sleep(0.05)

    def counters(self) -> dict[str, float]:
        cpu = self.client.info("cpu")
        stats = self.client.info("stats")
        cmds = self.client.info("commandstats")
        return {
            "cpu": float(cpu["used_cpu_user"]) + float(cpu["used_cpu_sys"]),
            "commands": float(stats["total_commands_processed"]),
            "publish": float(cmds.get("cmdstat_publish", {}).get("calls", 0)),
        }

    def close(self) -> None:
        self.client.close()
        if self.proc is not None:
            self.proc.terminate()
            self.proc.wait()
        if self.dir is not None:
            shutil.rmtree(self.dir, ignore_errors=True)


class Database:
    """A fresh database for one run: a temporary SQLite file, or a new PostgreSQL database."""

    def __init__(self, kind: str, pg_url: str | None) -> None:
        self.kind = kind
        self.tmp = tempfile.mkdtemp(prefix="spades-bench-")
        self.pg_admin = pg_url
        self.name = f"spades_bench_{os.getpid()}_{random.randrange(10**9)}"
        if kind == "sqlite":
            self.url = f"sqlite:///{os.path.join(self.tmp, 'bench.db')}"
        else:
            assert pg_url is not None
            self._admin(f'CREATE DATABASE "{self.name}"')
            base = pg_url.rsplit("/", 1)[0]
            self.url = f"{base}/{self.name}"

    def _admin(self, sql: str) -> None:
        import psycopg

        assert self.pg_admin is not None
        with psycopg.connect(self.pg_admin, autocommit=True) as c:
            c.execute(sql.encode())

    def counters(self) -> dict[str, float]:
        """PostgreSQL only: backend CPU (from /proc), rows inserted into the event log, commits."""
        if self.kind != "postgresql":
            return {}
        import psycopg

        with psycopg.connect(self.url, autocommit=True) as c:
            pids = [
                int(r[0])
                for r in c.execute(
                    "SELECT pid FROM pg_stat_activity WHERE datname = current_database() "
                    "AND pid <> pg_backend_pid()"
                ).fetchall()
            ]
            c.execute("SELECT pg_stat_force_next_flush()")
            commits = c.execute(
                "SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()"
            ).fetchone()
            ins = c.execute(
                "SELECT coalesce(sum(n_tup_ins), 0) FROM pg_stat_user_tables WHERE relname = 'spades_events'"
            ).fetchone()
            size = c.execute("SELECT pg_total_relation_size('spades_events')").fetchone()
        return {
            "cpu": sum(proc_cpu(p) for p in pids),
            "commits": float(commits[0]) if commits else 0.0,
            "inserts": float(ins[0]) if ins else 0.0,
            "bytes": float(size[0]) if size else 0.0,
        }

    def drop(self) -> None:
        if self.kind == "postgresql":
            with contextlib.suppress(Exception):
                self._admin(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)')
        shutil.rmtree(self.tmp, ignore_errors=True)


@contextlib.contextmanager
def server(
    db_url: str, workers: int, redis_url: str | None, processes: int = 1
) -> Iterator[list[tuple[str, int]]]:
    """``spades serve`` with every per-address limit off (all players come from loopback) and
    no compute processes (random players need no bots): one command with ``--workers`` (the
    kernel spreads connections over them), or ``processes`` commands on as many ports."""
    procs: list[tuple[subprocess.Popen[bytes], str, str]] = []
    try:
        for _ in range(processes):  # one after the other: two first starts would race to migrate
            port = free_port()
            cmd = [sys.executable, "-m", "spades", "serve", "--port", str(port), "--db", db_url]
            cmd += ["--workers", str(workers), "--bot-processes", "0", "--tables-per-address", "0"]
            cmd += ["--sockets-per-address", "0", "--connections-per-address", "0"]
            if redis_url is not None:
                cmd += ["--redis", redis_url]
            with tempfile.NamedTemporaryFile(
                prefix="spades-bench-server-", suffix=".log", delete=False
            ) as log:
                proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT)
            base = f"http://127.0.0.1:{port}"
            procs.append((proc, base, log.name))
            for _ in range(600):
                if proc.poll() is not None:
                    raise RuntimeError(f"the server exited at start: {Path(log.name).read_text()[-2000:]}")
                try:
                    urllib.request.urlopen(base + "/api/info", timeout=1).read()
                    break
                except OSError:
                    time.sleep(0.1)
        time.sleep(1.0 if workers > 1 or processes > 1 else 0.2)  # every worker up, not just the first
        yield [(base, proc.pid) for proc, base, _ in procs]
    finally:
        for proc, _, _ in procs:
            proc.send_signal(signal.SIGINT)
        for proc, _, log_name in procs:
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                for pid in tree(proc.pid):
                    with contextlib.suppress(OSError):
                        os.kill(pid, signal.SIGKILL)
                proc.wait()
            text = Path(log_name).read_text(errors="replace")
            bad = [
                ln for ln in text.splitlines() if "Traceback" in ln or "ERROR" in ln or "error" in ln.lower()
            ]
            if bad:
                print(f"  (server log {log_name}: {len(bad)} error lines, first: {bad[0][:160]})")
            else:
                os.unlink(log_name)


# ---------------------------------------------------------------------- one run
@dataclass
class RunResult:
    label: str
    mode: str
    actions_s: float = 0.0
    p50_ms: float = float("nan")
    p99_ms: float = float("nan")
    server_cpu_pct: float = 0.0
    server_ms_action: float = float("nan")
    client_cpu_pct: float = 0.0
    pg_ms_action: float = float("nan")
    redis_ms_action: float = float("nan")
    inserts_action: float = float("nan")
    commits_action: float = float("nan")
    bytes_action: float = float("nan")
    redis_cmds_action: float = float("nan")
    publish_action: float = float("nan")
    rss_mb: float = 0.0
    machine_pct: float = 0.0
    errors: int = 0
    stalled: int = 0
    samples: list[str] = field(default_factory=list)


def create_tables(base: str, n: int) -> list[dict[str, Any]]:
    body = {
        "rules": {"target": 2000},  # the most allowed: ~100 hands, far beyond a run
        "seats": [{"open": True} for _ in range(4)],
        "bot_delay_ms": 0,
        "away_s": 3600,
        "hints": False,
    }
    with ThreadPoolExecutor(4) as ex:
        return list(ex.map(lambda _: post(base + "/api/tables", body), range(n)))


def one_run(
    label: str, mode: str, db: Database, spec: tuple[int, bool], redis: Redis | None, args: argparse.Namespace
) -> RunResult:
    """One run on a fresh server. ``spec``: (workers, affine); affine runs that many one-worker
    processes on their own ports, each table created on one and all its seats connected to
    it: the owner serves every seat, nothing is forwarded (what an owner-aware proxy would do)."""
    workers, affine = spec
    think = args.think_ms / 1000 if mode == "latency" else 0.0
    out = RunResult(label, mode)
    redis_url = redis.url if redis else None
    with server(db.url, 1 if affine else workers, redis_url, workers if affine else 1) as servers:
        created: list[tuple[str, dict[str, Any]]] = []
        for k, (base, _) in enumerate(servers):
            share_n = len(range(k, args.tables, len(servers)))
            created += [(base, t) for t in create_tables(base, share_n)]
        seats = [
            (i, f"{base.replace('http://', 'ws://')}/ws/{t['id']}", s["invite"])
            for i, (base, t) in enumerate(created)
            for s in t["seats"]
        ]
        ctx = mp.get_context("spawn")
        n = max(1, args.clients)
        inboxes = [ctx.Queue() for _ in range(n)]
        outbox = ctx.Queue()
        share = [[s for s in seats if s[0] % n == k] for k in range(n)]
        procs = [
            ctx.Process(target=child_main, args=(share[k], think, inboxes[k], outbox), daemon=True)
            for k in range(n)
        ]
        for p in procs:
            p.start()
        joined = 0
        for _ in procs:
            tag, val = outbox.get(timeout=180)
            assert tag == "ready"
            joined += int(val)
        if joined < len(seats):
            print(f"  {label} {mode}: only {joined} of {len(seats)} seats joined before the start")
        lo = time.time() + args.warmup
        hi = lo + args.seconds
        for q in inboxes:
            q.put((lo, hi))
        time.sleep(max(0.0, lo - time.time()))
        pids = [p for _, root in servers for p in tree(root)]
        cpu0 = sum(proc_cpu(p) for p in pids)
        m0 = machine_busy()
        pg0 = db.counters()
        r0 = redis.counters() if redis else {}
        time.sleep(max(0.0, hi - time.time()))
        cpu1 = sum(proc_cpu(p) for p in pids)
        m1 = machine_busy()
        pg1 = db.counters()
        r1 = redis.counters() if redis else {}
        out.rss_mb = sum(proc_rss_mb(p) for p in pids)
        results: list[ChildResult] = []
        for _ in procs:
            tag, val = outbox.get(timeout=120)
            assert tag == "done"
            results.append(ChildResult(**val))
        for p in procs:
            p.join(10)
    lat = sorted(x for r in results for x in r.latencies)
    acts = len(lat)
    out.errors = sum(r.errors for r in results)
    out.samples = [s for r in results for s in r.error_samples][:3]
    active = {t for r in results for t in r.acts}
    out.stalled = max(0, args.tables - len(active) - sum(r.finished for r in results) // 4)
    out.client_cpu_pct = 100 * sum(r.cpu_s for r in results) / args.seconds
    out.server_cpu_pct = 100 * (cpu1 - cpu0) / args.seconds
    out.machine_pct = 100 * (m1[0] - m0[0]) / args.seconds
    if acts:
        out.actions_s = acts / args.seconds
        out.p50_ms = statistics.median(lat) * 1000
        out.p99_ms = lat[min(acts - 1, int(acts * 0.99))] * 1000
        out.server_ms_action = 1000 * (cpu1 - cpu0) / acts
        if pg0:
            out.pg_ms_action = 1000 * (pg1["cpu"] - pg0["cpu"]) / acts
            out.inserts_action = (pg1["inserts"] - pg0["inserts"]) / acts
            out.commits_action = (pg1["commits"] - pg0["commits"]) / acts
            out.bytes_action = (pg1["bytes"] - pg0["bytes"]) / acts
        if r0:
            out.redis_ms_action = 1000 * (r1["cpu"] - r0["cpu"]) / acts
            out.redis_cmds_action = (r1["commands"] - r0["commands"]) / acts
            out.publish_action = (r1["publish"] - r0["publish"]) / acts
    return out


# ---------------------------------------------------------------------- report
def fmt(x: float, spec: str = ".1f") -> str:
    return "-" if x != x else format(x, spec)


def report(results: list[RunResult], args: argparse.Namespace) -> None:
    labels = list(dict.fromkeys(r.label for r in results))
    by = {(r.label, r.mode): r for r in results}
    w = max(12, *(len(label) + 2 for label in labels))
    head = f"{'':34}" + "".join(f"{label:>{w}}" for label in labels) + "   target"
    print()
    print(
        f"server_load: {args.tables} tables x 4 websocket players, {args.seconds:.0f} s measured after "
        f"{args.warmup:.0f} s warm-up, players in {args.clients} processes, {os.cpu_count()} cores"
    )
    print(head)
    print("-" * len(head))
    rows: list[tuple[str, str, str, str]] = [
        ("actions_s", "actions/s", ".0f", ""),
        ("p50_ms", "p50 action->update ms", ".1f", ""),
        ("p99_ms", "p99 action->update ms", ".1f", ""),
        ("server_cpu_pct", "server CPU % (all workers)", ".0f", ""),
        ("server_ms_action", "server CPU ms/action", ".2f", ""),
        ("pg_ms_action", "PostgreSQL CPU ms/action", ".2f", ""),
        ("redis_ms_action", "Redis CPU ms/action", ".3f", ""),
        ("inserts_action", "event rows inserted/action", ".2f", ""),
        ("commits_action", "PostgreSQL commits/action", ".2f", ""),
        ("bytes_action", "event log bytes on disk/action", ".0f", ""),
        ("redis_cmds_action", "Redis commands/action", ".2f", ""),
        ("publish_action", "Redis PUBLISH/action", ".2f", ""),
        ("client_cpu_pct", "players' CPU %", ".0f", ""),
        ("machine_pct", "machine CPU % (everything)", ".0f", ""),
        ("rss_mb", "server RSS MB (all processes)", ".0f", ""),
        ("errors", "errors", "d", ""),
        ("stalled", "tables without an action", "d", ""),
    ]
    for mode, title in (
        ("latency", f"latency run: think {args.think_ms:.0f} ms (0.5-1.5x)"),
        ("saturation", "saturation run: think 0"),
    ):
        if not any(r.mode == mode for r in results):
            continue
        print(title)
        for key, name, spec, _ in rows:
            cells = []
            for label in labels:
                r = by.get((label, mode))
                cells.append(fmt(getattr(r, key), spec) if r else "")
            target = ""
            if mode == "latency" and key == "p99_ms":
                target = f"<= {TARGET_P99_MS:.0f} ms at {TARGET_TABLES} tables, 1 worker"
            print(f"  {name:32}" + "".join(f"{c:>{w}}" for c in cells) + ("   " + target if target else ""))
        if mode == "saturation":
            cells = []
            for label in labels:
                r = by.get((label, mode))
                base = by.get((label.rsplit("/", 1)[0] + "/1w", mode))
                cells.append(
                    fmt(r.actions_s / base.actions_s, ".2f") if r and base and base.actions_s else "-"
                )
            print(
                f"  {'speed-up over 1 worker':32}"
                + "".join(f"{c:>{w}}" for c in cells)
                + f"   2 workers >= {TARGET_SPEEDUP_2W}x"
            )
    print()
    verdicts(results, by, labels, args)


def verdicts(
    results: list[RunResult],
    by: dict[tuple[str, str], RunResult],
    labels: list[str],
    args: argparse.Namespace,
) -> None:
    for label in labels:
        if not label.endswith("/1w"):
            continue
        r = by.get((label, "latency"))
        if r is None:
            continue
        ok = args.tables >= TARGET_TABLES and r.p99_ms <= TARGET_P99_MS
        print(
            f"target p99 <= {TARGET_P99_MS:.0f} ms at {TARGET_TABLES} tables, 1 worker ({label}): "
            f"p99 {fmt(r.p99_ms)} ms at {args.tables} tables: {'met' if ok else 'NOT met'}"
        )
    for label in labels:
        store, _, workers = label.partition("/")
        if workers not in ("2w", "2w-aff"):
            continue
        r = by.get((label, "saturation"))
        base = by.get((store + "/1w", "saturation"))
        if r is None or base is None or not base.actions_s:
            continue
        x = r.actions_s / base.actions_s
        ok = x >= TARGET_SPEEDUP_2W
        note = ""
        if not ok:
            cores = os.cpu_count() or 1
            note = (
                f" (server {r.server_cpu_pct:.0f}% + players {r.client_cpu_pct:.0f}%; the machine was "
                f"{r.machine_pct:.0f}% busy of {100 * cores}% with PostgreSQL, Redis and other tenants)"
            )
        print(
            f"target 2 workers >= {TARGET_SPEEDUP_2W}x one worker at saturation ({label}): "
            f"{x:.2f}x: {'met' if ok else 'NOT met'}{note}"
        )
    for r in results:
        if r.errors or r.stalled:
            print(f"{r.label} {r.mode}: {r.errors} errors, {r.stalled} stalled tables; e.g. {r.samples}")


# ---------------------------------------------------------------------- main
def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument(
        "--workers",
        default="1,2,4",
        help="comma-separated worker counts, each run in turn; '2a': 2 one-worker processes on "
        "their own ports, each table's seats all on the process that owns it",
    )
    ap.add_argument("--db", choices=("sqlite", "postgresql", "both"), default="both")
    ap.add_argument("--mode", choices=("latency", "saturation", "both"), default="both")
    ap.add_argument("--tables", type=int, default=TARGET_TABLES)
    ap.add_argument("--seconds", type=float, default=20.0, help="measured window of each run")
    ap.add_argument("--warmup", type=float, default=3.0)
    ap.add_argument("--think-ms", type=float, default=500.0, help="mean think time of the latency run")
    ap.add_argument("--clients", type=int, default=2, help="player processes (each its own event loop)")
    ap.add_argument(
        "--pg-url",
        default=os.environ.get("SPADES_BENCH_PG_URL") or os.environ.get("SPADES_TEST_PG_URL"),
        help="PostgreSQL server where a fresh database is created per run",
    )
    ap.add_argument(
        "--redis-url",
        default=os.environ.get("SPADES_BENCH_REDIS_URL") or os.environ.get("SPADES_TEST_REDIS_URL"),
        help="Redis of the service (default: a private redis-server)",
    )
    ap.add_argument("--no-redis-for-one", action="store_true", help="run 1 worker without Redis (solo mode)")
    args = ap.parse_args()
    try:
        specs = [
            (int(x.strip().removesuffix("a")), x.strip().endswith("a"))
            for x in args.workers.split(",")
            if x.strip()
        ]
    except ValueError:
        sys.exit(f"server_load: --workers {args.workers!r} is not a comma-separated list like 1,2,4,2a")
    kinds = ["sqlite", "postgresql"] if args.db == "both" else [args.db]
    if "postgresql" in kinds and not args.pg_url:
        sys.exit("server_load: PostgreSQL needs --pg-url (or SPADES_BENCH_PG_URL)")
    modes = ["latency", "saturation"] if args.mode == "both" else [args.mode]
    redis = Redis(args.redis_url)
    results: list[RunResult] = []
    try:
        for kind in kinds:
            for n, affine in specs:
                label = f"{'pg' if kind == 'postgresql' else 'sqlite'}/{n}w{'-aff' if affine else ''}"
                for mode in modes:
                    db = Database(kind, args.pg_url)
                    try:
                        use = None if (n == 1 and args.no_redis_for_one) else redis
                        r = one_run(label, mode, db, (n, affine), use, args)
                    except Exception as e:  # one configuration failing must not hide the others
                        print(f"  {label} {mode}: failed: {type(e).__name__}: {str(e)[:300]}")
                        continue
                    finally:
                        db.drop()
                    results.append(r)
                    print(
                        f"  {label:10} {mode:10} {r.actions_s:7.0f} actions/s  p50 {fmt(r.p50_ms):>6} ms  "
                        f"p99 {fmt(r.p99_ms):>6} ms  server {r.server_cpu_pct:3.0f}%  "
                        f"players {r.client_cpu_pct:3.0f}%  machine {r.machine_pct:3.0f}%  "
                        f"errors {r.errors}  stalled {r.stalled}",
                        flush=True,
                    )
    finally:
        redis.close()
    if not results:
        sys.exit("server_load: no configuration completed")
    report(results, args)


if __name__ == "__main__":
    main()
