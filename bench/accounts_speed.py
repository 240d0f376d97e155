"""What accounts cost: an argon2id hash at the server's settings, and a signed-in request
(one session read from the database) next to a guest's, through the app in process.

    python bench/accounts_speed.py --requests 300

The reference printed beside each figure comes from the same run: argon2-cffi's own
``PasswordHasher()`` defaults (RFC 9106's low-memory profile) for the hash, and the guest's
``GET /api/info`` for the request.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from argon2 import PasswordHasher
from fastapi.testclient import TestClient

from spades.server.app import create_app
from spades.server.sessions import AccountSettings, Passwords


def per_call_ms(fn: object, n: int) -> float:
    times = []
    for _ in range(n):
        t0 = time.perf_counter()
        fn()  # type: ignore[operator]
        times.append((time.perf_counter() - t0) * 1000)
    return statistics.median(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--requests", type=int, default=300)
    ap.add_argument("--hashes", type=int, default=5)
    args = ap.parse_args()

    ours = Passwords(AccountSettings()).hasher
    ref = PasswordHasher()
    h_ours, h_ref = ours.hash("correct horse"), ref.hash("correct horse")
    print(
        f"argon2id verify, server settings (t={ours.time_cost}, m={ours.memory_cost} KiB, "
        f"p={ours.parallelism}): "
        f"{per_call_ms(lambda: ours.verify(h_ours, 'correct horse'), args.hashes):.1f} ms median"
    )
    print(
        f"argon2id verify, argon2-cffi defaults (reference):                    "
        f"{per_call_ms(lambda: ref.verify(h_ref, 'correct horse'), args.hashes):.1f} ms median"
    )

    with tempfile.TemporaryDirectory() as d:
        app = create_app(f"sqlite:///{Path(d) / 'bench.db'}", waiting_ttl=None)
        with TestClient(app) as c:
            token = c.get("/api/account").json()["csrf"]
            r = c.post(
                "/api/account/signup",
                json={"name": "bencher", "password": "correct horse"},
                headers={"x-csrf-token": token},
            )
            assert r.status_code == 201, r.text
            for _ in range(20):  # warm up
                c.get("/api/account")
            signed = per_call_ms(lambda: c.get("/api/account"), args.requests)
            guest = per_call_ms(lambda: c.get("/api/info"), args.requests)
    print(f"GET /api/account signed in (session read from SQLite): {signed:.2f} ms median")
    print(f"GET /api/info as a guest (reference):                  {guest:.2f} ms median")


if __name__ == "__main__":
    main()
