"""Instructions per hand of bids and plays, ours and OpenSpiel's, counted by valgrind.

Times on a shared machine move with its load; instruction counts do not. This runs the
bids-and-plays workload of ``engine_speed.py`` (the same dealt positions on both sides, the
same player's loop) under ``valgrind --tool=callgrind`` four times: each side once with the
loop and once with the positions only, and prints the difference per hand. Instructions are
not time (cache misses and branch mispredictions count for nothing), but they show what a
change costs without the noise, and callgrind's output files show where (``--keep`` keeps
them for ``callgrind_annotate``).

    python bench/engine_instructions.py [--hands 300] [--seed 11] [--keep DIR]

Needs ``valgrind`` (``apt-get install valgrind``); about a minute for 300 hands.
"""

from __future__ import annotations

import argparse
import random
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import engine_speed as es
from spades._native import compiled_modules, stale_message


def child(side: str, loop: bool, hands: int, seed: int) -> None:
    """Deal ``hands`` positions into one engine and, with ``loop``, play them out."""
    batch: list[tuple[list[int], int]] = []
    source = es.positions(seed)
    while len(batch) < hands:
        batch += next(source)
    batch = batch[:hands]
    if side == "spades":
        games = [(es.spades_dealt(deck), random.Random(s).random) for deck, s in batch]
        if loop:
            es.spades_random_play(games)
        return
    pyspiel = es.load_pyspiel()
    if pyspiel is None:
        raise SystemExit("engine_instructions: pyspiel is not installed (pip install -e '.[bench]')")
    spiel = pyspiel.load_game("spades")
    states = [(es.openspiel_dealt(spiel, deck), random.Random(s).random) for deck, s in batch]
    if loop:
        es.openspiel_random_play(states)


def count(side: str, loop: bool, hands: int, seed: int, out: Path) -> int:
    argv = [
        "valgrind",
        "--tool=callgrind",
        f"--callgrind-out-file={out / (side + ('.loop' if loop else '.setup') + '.out')}",
        sys.executable,
        __file__,
        "--child",
        side,
        "--hands",
        str(hands),
        "--seed",
        str(seed),
        *(["--loop"] if loop else []),
    ]
    run = subprocess.run(argv, capture_output=True, text=True)
    found = re.search(r"Collected : (\d+)", run.stderr)
    if run.returncode != 0 or found is None:
        raise SystemExit(f"engine_instructions: valgrind failed: {run.stderr.strip()[-500:]}")
    return int(found.group(1))


def main() -> None:
    parser = argparse.ArgumentParser(description="Instructions per hand, ours and OpenSpiel's.")
    parser.add_argument("--hands", type=int, default=300, help="positions played (default 300)")
    parser.add_argument("--seed", type=int, default=11, help="seed of the deals (default 11)")
    parser.add_argument("--keep", type=Path, default=None, help="keep callgrind's files in this folder")
    parser.add_argument("--child", choices=("spades", "openspiel"), help=argparse.SUPPRESS)
    parser.add_argument("--loop", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child, args.loop, args.hands, args.seed)
        return
    if shutil.which("valgrind") is None:
        raise SystemExit("engine_instructions: valgrind is not installed (apt-get install valgrind)")
    stale = stale_message()
    if stale:
        raise SystemExit(stale)
    with tempfile.TemporaryDirectory() as tmp:
        out = args.keep or Path(tmp)
        out.mkdir(parents=True, exist_ok=True)
        per_hand = {}
        for side in ("spades", "openspiel"):
            setup = count(side, False, args.hands, args.seed, out)
            total = count(side, True, args.hands, args.seed, out)
            per_hand[side] = (total - setup) / args.hands
    engine = "compiled (mypyc)" if compiled_modules() else "pure Python"
    ours, theirs = per_hand["spades"], per_hand["openspiel"]
    print(f"bids and plays, {args.hands} dealt positions (seed {args.seed}), spades engine {engine}:")
    print(f"  spades    {ours:10,.0f} instructions/hand")
    print(f"  openspiel {theirs:10,.0f} instructions/hand   ratio {theirs / ours:.2f}x (higher: we do less)")


if __name__ == "__main__":
    main()
