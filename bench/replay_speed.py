"""How long the replay page's view of a long record takes: the one-pass ``replay_view`` next to
the old algorithm (replay the record up to each hand, kept here as the reference), on the same
record in the same run.

    python bench/replay_speed.py                 # 400 hands, the old algorithm too (~45 s)
    python bench/replay_speed.py --hands 1000 --no-old

It also times the replay through ``InlinePool`` and ``ComputePool`` (parse and view together,
as ``POST /api/replay`` does) and the longest the event loop went without running meanwhile:
the whole replay inline, a few milliseconds with the worker process.

The record is a game of seeded random bots to a target they never reach (random bids are set
again and again), cut after ``--hands`` hands and a few cards of the next: a valid record of
the size ``POST /api/replay`` accepts. Times are the best of ``--repeat`` runs.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from spades.bots import make_bot
from spades.driver import play_game, step
from spades.record import to_record
from spades.rules import PRESETS
from spades.server.compute import Compute, ComputePool, InlinePool
from spades.server.replayview import parse_record_json, replay_view
from spades.state import Game

# The tests' oracle, the old view: one copy serves the test and this reference.
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from replay_oracle import old_replay_view


def long_record(hands: int, seed: int = 1) -> dict[str, Any]:
    rules = PRESETS["standard"].replace(target=2000)
    game = Game(rules, seed=seed)
    bots = [make_bot("random", seed=seed * 10 + s) for s in range(4)]
    play_game(game, bots, max_hands=hands)  # the next hand is dealt already (auto_deal)
    for _ in range(10):  # the bids and a few cards of one more hand
        step(game, bots)
    return to_record(game)


def best(fn: Callable[[], Any], repeat: int) -> tuple[float, Any]:
    times, out = [], None
    for _ in range(repeat):
        t = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t)
    return min(times), out


async def worst_gap(stop: asyncio.Event) -> float:
    """The longest the event loop went without running a 1 ms ticker, less the 1 ms."""
    worst, last = 0.0, time.perf_counter()
    while not stop.is_set():
        await asyncio.sleep(0.001)
        now = time.perf_counter()
        worst, last = max(worst, now - last - 0.001), now
    return worst


async def loop_stall(pool: Compute, body: bytes, repeat: int, as_json: bool) -> tuple[float, float]:
    """Best time of a replay through ``pool``, and the event loop's worst gap meanwhile."""
    call = pool.replay_json if as_json else pool.replay
    await call(body, timeout=120)  # the worker's first call imports what it needs
    gaps, times = [], []
    for _ in range(repeat):
        stop = asyncio.Event()
        ticker = asyncio.create_task(worst_gap(stop))
        await asyncio.sleep(0.01)
        t = time.perf_counter()
        view = await call(body, timeout=120)
        times.append(time.perf_counter() - t)
        stop.set()
        gaps.append(await ticker)
        assert view, view
    await pool.close()
    return min(times), max(gaps)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--hands", type=int, default=400, help="whole hands in the record (default 400)")
    ap.add_argument("--repeat", type=int, default=3, help="runs of the new view; best kept (default 3)")
    ap.add_argument("--no-old", action="store_true", help="skip the old quadratic view (slow)")
    args = ap.parse_args()

    data = long_record(args.hands)
    body = json.dumps(data, separators=(",", ":")).encode()
    n = len(data["hands"])
    print(f"record: {n} hands ({args.hands} whole + one partial), {len(body):,} bytes compact")
    t_parse, parsed = best(lambda: parse_record_json(body), args.repeat)
    t_new, new = best(lambda: replay_view(parsed), args.repeat)
    assert new["error"] is None, new["error"]
    print(f"parse_record_json:              {t_parse * 1000:9.1f} ms")
    print(f"replay_view, one pass:          {t_new * 1000:9.1f} ms  ({t_new / n * 1e6:.0f} µs a hand)")
    for name, as_json in (("replay", False), ("replay_json", True)):
        for pool in (InlinePool(), ComputePool(1, warm=())):
            t, gap = asyncio.run(loop_stall(pool, body, args.repeat, as_json))
            label = f"{type(pool).__name__}.{name}:"
            print(f"{label:<32}{t * 1000:9.1f} ms  (event loop stalled at most {gap * 1000:.1f} ms)")
    if not args.no_old:
        t_old, old = best(lambda: old_replay_view(parsed), 1)
        print(f"old view (reference):           {t_old * 1000:9.1f} ms  ({t_old / t_new:.0f}x the one pass)")
        print(f"same output: {old == new}")


if __name__ == "__main__":
    main()
