"""Failover time of the many-worker server: how long a table stands still after its owner is
killed with ``kill -9``, until another worker has taken it over from the log and plays on.

Starts ``--workers`` separate ``spades serve --redis`` processes on one PostgreSQL database
(a fresh one in ``--pg-url``) and one Redis, creates ``--tables`` bot tables through the
first worker (so it owns them all), lets them play, kills that worker, and measures for each
table the time from the kill to its first new event, seen through a surviving worker's REST
view. Repeated ``--rounds`` times on fresh tables; prints the median and the worst, next to
the target (5 s). Fresh random deals every run.

    python bench/failover.py --rounds 3
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

TARGET_S = 5.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def get(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=10) as r:
        return json.loads(r.read())


def post(url: str, body: Any) -> Any:
    req = urllib.request.Request(url, json.dumps(body).encode(), {"content-type": "application/json"})
    with urllib.request.urlopen(req, timeout=30) as r:
        return json.loads(r.read())


def start(db: str, redis: str, log: Path) -> tuple[subprocess.Popen[bytes], int]:
    port = free_port()
    cmd = [sys.executable, "-m", "spades.cli", "serve", "--port", str(port), "--db", db, "--redis", redis]
    cmd += ["--bot-processes", "0", "--tables-per-address", "0"]
    with log.open("ab") as out:
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT)
    for _ in range(300):
        try:
            get(f"http://127.0.0.1:{port}/api/info")
            return proc, port
        except OSError:
            time.sleep(0.1)
    raise SystemExit(f"worker did not start: {log.read_text()[-1000:]}")


def fresh_db(pg_url: str) -> str:
    from sqlalchemy import create_engine, text

    from spades.server.dburl import check_db_url

    name = "spades_failover_" + secrets.token_hex(4)
    admin = create_engine(check_db_url(pg_url), isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f"CREATE DATABASE {name}"))
    admin.dispose()
    return f"{pg_url.rsplit('/', 1)[0]}/{name}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pg-url", default=os.environ.get("SPADES_TEST_PG_URL"))
    ap.add_argument("--redis-url", default=os.environ.get("SPADES_TEST_REDIS_URL"))
    ap.add_argument("--workers", type=int, default=3)
    ap.add_argument("--tables", type=int, default=10)
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    if not args.pg_url or not args.redis_url:
        raise SystemExit("give --pg-url and --redis-url (or SPADES_TEST_PG_URL and SPADES_TEST_REDIS_URL)")
    db = fresh_db(args.pg_url)
    logs = Path(tempfile.mkdtemp(prefix="spades-failover-"))
    procs = [start(db, args.redis_url, logs / f"w{i}.log") for i in range(args.workers)]
    gaps: list[float] = []
    try:
        for r in range(args.rounds):
            owner, port = procs[0]
            tids = [
                post(
                    f"http://127.0.0.1:{port}/api/tables",
                    {"rules": {"target": 2000}, "seats": [{"bot": "heuristic"}] * 4, "bot_delay_ms": 200},
                )["id"]
                for _ in range(args.tables)
            ]
            time.sleep(2.0)
            watch = procs[1][1]
            seqs = {t: get(f"http://127.0.0.1:{watch}/api/tables/{t}")["hand"] for t in tids}
            before = {t: json.dumps(get(f"http://127.0.0.1:{watch}/api/tables/{t}")) for t in tids}
            owner.send_signal(signal.SIGKILL)
            owner.wait()
            killed = time.monotonic()
            moved: dict[str, float] = {}
            while len(moved) < len(tids) and time.monotonic() - killed < 60:
                for t in tids:
                    if t in moved:
                        continue
                    now = get(f"http://127.0.0.1:{watch}/api/tables/{t}")
                    if json.dumps(now) != before[t] and now["status"] in ("playing", "over"):
                        moved[t] = time.monotonic() - killed
                time.sleep(0.05)
            gaps.extend(moved.values())
            missing = len(tids) - len(moved)
            print(
                f"round {r + 1}: {len(moved)}/{len(tids)} tables moved on after the kill; "
                f"median {statistics.median(moved.values()):.2f} s, worst {max(moved.values()):.2f} s"
                + (f"; {missing} never moved" if missing else ""),
                flush=True,
            )
            del seqs
            procs[0] = start(db, args.redis_url, logs / f"w0-{r}.log")
            procs.append(procs.pop(0))  # the restarted worker goes to the back
    finally:
        for p, _ in procs:
            p.terminate()
        for p, _ in procs:
            p.wait(15)
    if gaps:
        print(
            f"failover over {len(gaps)} tables: median {statistics.median(gaps):.2f} s, "
            f"worst {max(gaps):.2f} s (target: every table within {TARGET_S:.0f} s: "
            f"{'met' if max(gaps) <= TARGET_S else 'NOT met'})"
        )


if __name__ == "__main__":
    main()
