"""Tournament throughput: games per second of ``spades tournament`` with ``--jobs 1`` (the
reference), ``--jobs 2`` and local Ray, the same tournament from the same run.

    python bench/tournament_throughput.py                  # 3 heuristic bots, 8 games a pair
    python bench/tournament_throughput.py --games 20 --cpus 4
    python bench/tournament_throughput.py --no-ray         # without the ray package

Each mode plays the whole tournament into a fresh temporary folder (no resume), records
included, so the figure is what a user gets end to end. Ray's start (``ray.init``, 10-20 s on
a small machine) is timed apart and left out of its games/s: a cluster is started once for
many tournaments. The three runs must report the same cross table (checked here).
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path

from spades._native import describe_engine
from spades.rulestext import parse_rules_text
from spades.tournament import Report, Runner, local_runner, ray_runner, run_tournament

BOTS = ["heuristic", "heuristic:aggression=0.5", "heuristic:nil=false"]


def timed(label: str, runner: Runner, args: argparse.Namespace, base: float | None) -> tuple[Report, float]:
    with tempfile.TemporaryDirectory(prefix="spades-bench-") as tmp:
        t0 = time.perf_counter()
        rep = run_tournament(
            args.bots, parse_rules_text(args.rules), out=Path(tmp), games=args.games, seed=1, runner=runner
        )
        seconds = time.perf_counter() - t0
    rate = rep.games / seconds
    speed = f"  x{rate / base:.2f} of --jobs 1" if base else "  (reference)"
    print(f"{label:18} {rep.games:>5} games  {seconds:7.2f} s  {rate:7.2f} games/s{speed}", flush=True)
    return rep, rate


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=8, help="games per pair (default 8)")
    ap.add_argument("--bots", nargs="+", default=BOTS)
    ap.add_argument("--rules", default=None)
    ap.add_argument("--cpus", type=int, default=2, help="processes for the second run and Ray's CPUs")
    ap.add_argument("--no-ray", action="store_true")
    args = ap.parse_args()
    print(f"{len(args.bots)} bots, {args.games} games a pair; {os.cpu_count()} cores on this machine")
    print(f"engine: {describe_engine()}; load average {os.getloadavg()[0]:.1f}")
    ref, base = timed("--jobs 1", local_runner(1), args, None)
    two, _ = timed(f"--jobs {args.cpus}", local_runner(args.cpus), args, base)
    assert two == ref, "the cross table changed with the number of processes"
    if args.no_ray:
        return
    import ray

    t0 = time.perf_counter()
    ray.init(num_cpus=args.cpus, include_dashboard=False, log_to_driver=False)
    print(f"{'ray start':18} {time.perf_counter() - t0:20.2f} s (not counted)")
    try:
        on_ray, _ = timed(f"--ray ({args.cpus} CPUs)", ray_runner(), args, base)
    finally:
        ray.shutdown()
    assert on_ray == ref, "the cross table changed on Ray"


if __name__ == "__main__":
    main()
