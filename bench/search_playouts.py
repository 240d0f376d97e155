"""Playouts per second of ``spades.search`` next to the engine's public API and OpenSpiel.

Each side finishes whole hands with uniformly random legal cards:

* ``search``: ``playout_batch`` on batches of fresh random deals (dealing included), random
  policy; the greedy policy is measured too;
* ``engine``: the same kind of hand through ``Game`` (deal, four bids, 52 ``play`` calls);
* ``openspiel``: random ``spades`` games of OpenSpiel (one hand each: 52 chance actions for
  the deal, four bids, 52 plays), as in ``bench/engine_speed.py``.

Sides run in alternating slices of process time so a busy machine slows them alike.
Compilation is paid before timing (``warm_up``). Target: search >= 10x OpenSpiel.

    python bench/search_playouts.py [--seconds N] [--batch N] [--json]
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Iterator
from typing import Any

import numpy as np

from engine_speed import openspiel_hands, time_slice  # the same reference loop, one copy
from spades import Game, Rules
from spades.search import playout_batch, warm_up

SLICE = 0.25


def random_deals(rng: np.random.Generator, n: int) -> np.ndarray[Any, np.dtype[np.int64]]:
    """``n`` random deals as an (n, 4) array of 13-card masks."""
    order = np.argsort(rng.random((n, 52)), axis=1)
    bits = np.left_shift(np.int64(1), order.astype(np.int64))
    return bits.reshape(n, 4, 13).sum(axis=2)


def search_hands(policy: str, batch: int, seed: int = 1) -> Iterator[int]:
    rng = np.random.default_rng(seed)
    i = 0
    while True:
        deals = random_deals(rng, batch)
        playout_batch(deals, 0, policy=policy, seed=i)
        i += 1
        yield batch


def engine_hands(seed: int = 1) -> Iterator[int]:
    rules = Rules(target=10**12, blind_nil=False)
    rnd = random.Random(seed).random
    games = 0
    while True:
        game = Game(rules, seed=seed + games)
        games += 1
        for _ in range(5):
            for _ in range(10):
                number = game.hand_number
                while game.hand_number == number:
                    codes = game.legal_codes()
                    game.apply_code(codes[int(rnd() * len(codes))])
            yield 10


def measure(seconds: float, batch: int) -> dict[str, float | None]:
    sides: dict[str, Iterator[int] | None] = {
        "search_random": search_hands("random", batch),
        "search_greedy": search_hands("greedy", batch),
        "engine": engine_hands(),
        "openspiel": openspiel_hands(),
    }
    done = {k: [0, 0.0] for k in sides}
    spent = 0.0
    while spent < seconds:
        for name, it in sides.items():
            if it is None:
                continue
            n, t = time_slice(it, SLICE, time.process_time)
            done[name][0] += n
            done[name][1] += t
        spent += SLICE
    return {k: (done[k][0] / done[k][1] if sides[k] is not None else None) for k in sides}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Playouts (random hands) per second.")
    parser.add_argument("--seconds", type=float, default=3.0, help="seconds per side (default 3)")
    parser.add_argument("--batch", type=int, default=4096, help="deals per playout_batch call")
    parser.add_argument("--json", action="store_true", help="print one JSON line")
    args = parser.parse_args(argv)
    warm_up()
    rates = measure(args.seconds, args.batch)
    ref = rates["openspiel"]
    if args.json:
        out: dict[str, Any] = {
            f"{k}_hands_per_s": (None if v is None else round(v, 1)) for k, v in rates.items()
        }
        out["ratio_vs_openspiel"] = None if not ref else round((rates["search_random"] or 0) / ref, 1)
        print(json.dumps(out))
        return
    for name, v in rates.items():
        text = "n/a (pyspiel not installed)" if v is None else f"{v:12,.0f} hands/s"
        extra = f"   {v / ref:8.1f}x OpenSpiel" if v is not None and ref else ""
        print(f"{name:<14}: {text}{extra}")


if __name__ == "__main__":
    main()
