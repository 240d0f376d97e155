"""Random card-play playouts per second: ``spades.search`` next to OpenSpiel's fastest loop.

Workload, the same on every side: **the 52 plays of a hand** from dealt positions whose four
bids are already made; dealing and bidding happen before the clock starts. The positions are
fresh random decks (the seed comes from the clock unless ``--seed``), the same positions in
the same order on every side, each with the same four random bids; seat 0 leads, as in both
engines. Every side chooses each card uniformly among the legal ones.

* ``search``: ``spades.search.playout_batch`` (a numba kernel) on batches of ``--batch``
  positions, random policy (the greedy policy is timed too, as ``search_greedy``). It returns
  tricks won; it does not score the hand (the bids are not its input).
* ``openspiel_cpp``: OpenSpiel's own fastest loop over the same phase, ``pyspiel.evaluate_bots``
  with four ``make_uniform_random_bot`` bots (C++ from the first card to the scored end).
* ``openspiel_py``: OpenSpiel stepped from Python (``legal_actions``/``apply_action``).
* ``engine``: our engine's public API (``Game.legal_codes``/``apply_code``), the same plays.

Ratios are against ``openspiel_cpp``. Sides run in alternating slices of CPU time so a busy
machine slows them alike; the load average is printed beside them. Numba compilation is paid
before timing (``warm_up``).

    python bench/search_playouts.py [--seconds N] [--batch N] [--seed N] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import time
from collections.abc import Iterator
from typing import Any

import numpy as np

from engine_speed import (
    Timed,
    hand_masks,
    load_pyspiel,
    openspiel_dealt,
    openspiel_random_play,
    positions,
    run_slice,
    spades_dealt,
    spades_random_play,
)
from spades.search import playout_batch, warm_up

SLICE = 0.25
WORKLOAD = "card play only: 52 plays from dealt positions with the bids made, uniform random cards"


def bids_and_rng(s: int) -> tuple[list[int], random.Random]:
    """The four bids of the position of seed ``s`` and the source of its random cards (a team's
    two bids total at most 13, which OpenSpiel requires)."""
    rng = random.Random(s)
    first = [rng.randrange(14), rng.randrange(14)]
    return [*first, rng.randrange(14 - first[0]), rng.randrange(14 - first[1])], rng


def position_stream(seed: int) -> Iterator[tuple[list[int], int]]:
    """The positions of ``engine_speed.positions`` one at a time: (deck, seed)."""
    for batch in positions(seed):
        yield from batch


def search_play(policy: str, batch: int, seed: int) -> Timed:
    stream = position_stream(seed)
    calls = 0
    clock = time.process_time
    while True:
        hands = np.array([hand_masks(next(stream)[0]) for _ in range(batch)], dtype=np.int64)
        start = clock()
        playout_batch(hands, 0, policy=policy, seed=calls)
        spent = clock() - start
        calls += 1
        yield batch, spent


def engine_play(seed: int) -> Timed:
    stream = position_stream(seed)
    clock = time.process_time
    while True:
        games = []
        for _ in range(50):
            deck, s = next(stream)
            bids, rng = bids_and_rng(s)
            game = spades_dealt(deck)
            for bid in bids:
                game.make_bid(bid)
            games.append((game, rng.random))
        start = clock()
        spades_random_play(games)
        yield len(games), clock() - start


def openspiel_states(pyspiel: Any, stream: Iterator[tuple[list[int], int]], n: int) -> list[tuple[Any, Any]]:
    """``n`` OpenSpiel states dealt and bid (untimed), each with its random source."""
    game = pyspiel.load_game("spades")
    out = []
    for _ in range(n):
        deck, s = next(stream)
        bids, rng = bids_and_rng(s)
        state = openspiel_dealt(game, deck)
        for bid in bids:
            state.apply_action(52 + bid)
        out.append((state, rng))
    return out


def openspiel_cpp(seed: int) -> Timed | None:
    pyspiel = load_pyspiel()
    if pyspiel is None:
        return None

    def run() -> Timed:
        stream = position_stream(seed)
        clock = time.process_time
        while True:
            states = openspiel_states(pyspiel, stream, 200)
            bots = [pyspiel.make_uniform_random_bot(p, states[0][1].getrandbits(31)) for p in range(4)]
            start = clock()
            for state, _ in states:
                pyspiel.evaluate_bots(state, bots, 0)
            yield len(states), clock() - start

    return run()


def openspiel_py(seed: int) -> Timed | None:
    pyspiel = load_pyspiel()
    if pyspiel is None:
        return None

    def run() -> Timed:
        stream = position_stream(seed)
        clock = time.process_time
        while True:
            states = openspiel_states(pyspiel, stream, 50)
            playing = [(state, rng.random) for state, rng in states]
            start = clock()
            openspiel_random_play(playing)
            yield len(states), clock() - start

    return run()


def measure(seconds: float, batch: int, seed: int) -> dict[str, float | None]:
    sides: dict[str, Timed | None] = {
        "search_random": search_play("random", batch, seed),
        "search_greedy": search_play("greedy", batch, seed),
        "openspiel_cpp": openspiel_cpp(seed),
        "openspiel_py": openspiel_py(seed),
        "engine": engine_play(seed),
    }
    done = {k: [0, 0.0] for k in sides}
    spent = 0.0
    while spent < seconds:
        for name, it in sides.items():
            if it is None:
                continue
            n, t = run_slice(it, SLICE)
            done[name][0] += n
            done[name][1] += t
        spent += SLICE
    return {k: (done[k][0] / done[k][1] if sides[k] is not None else None) for k in sides}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Card-play playouts per second, ours and OpenSpiel's.")
    parser.add_argument("--seconds", type=float, default=3.0, help="seconds per side (default 3)")
    parser.add_argument("--batch", type=int, default=4096, help="positions per playout_batch call")
    parser.add_argument("--seed", type=int, default=None, help="seed of the deals (default: from the clock)")
    parser.add_argument("--json", action="store_true", help="print one JSON line")
    args = parser.parse_args(argv)
    seed = time.time_ns() % 2**32 if args.seed is None else args.seed
    warm_up()
    load = os.getloadavg()[0]
    rates = measure(args.seconds, args.batch, seed)
    load = round((load + os.getloadavg()[0]) / 2, 2)
    ref = rates["openspiel_cpp"]
    if args.json:
        out: dict[str, Any] = {"workload": WORKLOAD, "seed": seed, "load_average": load}
        out.update({f"{k}_playouts_per_s": (None if v is None else round(v, 1)) for k, v in rates.items()})
        search = rates["search_random"]
        out["ratio_vs_openspiel_cpp"] = round(search / ref, 2) if search and ref else None
        print(json.dumps(out))
        return
    print(f"workload: {WORKLOAD}")
    print(f"seed {seed}; load average {load}")
    for name, v in rates.items():
        text = "n/a (pyspiel not installed)" if v is None else f"{v:12,.0f} playouts/s"
        extra = f"   {v / ref:8.2f}x openspiel_cpp" if v is not None and ref else ""
        print(f"{name:<14}: {text}{extra}")


if __name__ == "__main__":
    main()
