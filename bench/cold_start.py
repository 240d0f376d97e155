"""How long a new process waits for the expert: cold (nothing compiled) and after ``spades warm``.

Each figure comes from a fresh ``python`` process, timed from its start (imports included):

* ``cold``: ``NUMBA_CACHE_DIR`` points at an empty temporary folder, so the kernels compile
  on first use, as on an install that skipped the warm step: time to the first expert
  decision (a bid at the table's start).
* ``warm step``: ``python -m spades warm`` on another empty folder: the install-time
  compile (``scripts/ensure-venv`` runs it once per install or kernel change).
* ``warm``: a fresh process on that filled folder: time to build the expert (imports
  included), to its first decision, and to a first hint (a second expert, built then asked
  for the first card of the play, as the terminal's hint bot is); and how many kernels that
  process still had to compile (0: everything loaded from the cache).

    python bench/cold_start.py            # all three (the two compiles take minutes on 2 busy cores)
    python bench/cold_start.py --warm-only  # the warm figures on the installed cache (seconds)
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

START = time.perf_counter()


def child(seed: int, mode: str) -> None:
    """In the fresh process, timed from its start: ``table``, the expert seated at North and
    its first decision (a bid); ``hint``, heuristic bots bid, then an expert is built and asked
    for the first card (what the terminal's hint does)."""
    from spades.bots import make_bot
    from spades.driver import apply_decision
    from spades.rules import PRESETS
    from spades.search.warm import compiled_here
    from spades.state import Game, Phase

    g = Game(PRESETS["standard"], seed=seed)
    if g.phase is Phase.DEAL:
        g.deal()
    others = [make_bot("heuristic", seed=seed + s) for s in range(4)]
    out: dict[str, float] = {}
    if mode == "table":
        t = time.perf_counter()
        expert = make_bot("expert", seed=seed)
        out["build_s"] = time.perf_counter() - t
        out["build_since_start_s"] = time.perf_counter() - START
        seat = g.to_move
        assert seat is not None
        expert.decide(g.observation(seat), g.legal_actions(seat))
        out["first_s"] = time.perf_counter() - t
    else:
        while g.phase is not Phase.PLAY:
            seat = g.to_move
            assert seat is not None
            apply_decision(g, seat, others[seat].decide(g.observation(seat), g.legal_actions(seat)).action)
        seat = g.to_move
        assert seat is not None
        t = time.perf_counter()
        expert = make_bot("expert", seed=seed)
        out["build_s"] = time.perf_counter() - t
        expert.decide(g.observation(seat), g.legal_actions(seat))
        out["first_s"] = time.perf_counter() - t
    out["since_start_s"] = time.perf_counter() - START
    out["compiled_kernels"] = len(compiled_here())
    print(json.dumps(out))


def run_child(cache: str | None, seed: int, mode: str) -> dict[str, float]:
    env = dict(os.environ)
    if cache is not None:
        env["NUMBA_CACHE_DIR"] = cache
    t = time.perf_counter()
    res = subprocess.run(
        [sys.executable, __file__, "--child", mode, "--seed", str(seed)],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    figures: dict[str, float] = json.loads(res.stdout.strip().splitlines()[-1])
    figures["process_s"] = time.perf_counter() - t
    return figures


def warm_step(cache: str | None) -> float:
    env = dict(os.environ)
    if cache is not None:
        env["NUMBA_CACHE_DIR"] = cache
    t = time.perf_counter()
    subprocess.run([sys.executable, "-m", "spades", "warm"], env=env, check=True)
    return time.perf_counter() - t


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--child", choices=("table", "hint"), help=argparse.SUPPRESS)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument(
        "--warm-only", action="store_true", help="skip the two compiles; use the installed cache"
    )
    args = parser.parse_args()
    if args.child:
        child(args.seed, args.child)
        return
    load = os.getloadavg()[0]
    print(f"command: python bench/cold_start.py{' --warm-only' if args.warm_only else ''} (seed {args.seed})")
    print(f"load average at start: {load:.2f} on {os.cpu_count()} cores")
    with tempfile.TemporaryDirectory(prefix="spades-cold-") as tmp:
        if not args.warm_only:
            cold = run_child(str(Path(tmp) / "cold"), args.seed, "table")
            print(
                f"cold (empty NUMBA_CACHE_DIR): building the expert {cold['build_s']:.1f} s, its first"
                f" decision {cold['first_s']:.1f} s after the table starts ({cold['since_start_s']:.1f} s"
                f" after process start); kernels compiled: {cold['compiled_kernels']:.0f}"
            )
            cache: str | None = str(Path(tmp) / "warm")
        else:
            cache = None
        step = warm_step(cache)
        print(f"warm step (python -m spades warm): {step:.1f} s")
        warm = run_child(cache, args.seed, "table")
        hint = run_child(cache, args.seed, "hint")
    for what, f in (("first decision", warm), ("first hint (a card)", hint)):
        print(
            f"warm: building the expert {f['build_s']:.2f} s, its {what} {f['first_s']:.2f} s after the"
            f" table starts ({f['since_start_s']:.2f} s after process start); kernels compiled:"
            f" {f['compiled_kernels']:.0f}"
        )
    print("target: the first expert decision or hint within 5 s of the table starting, warm")


if __name__ == "__main__":
    main()
