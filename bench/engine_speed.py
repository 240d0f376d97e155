"""Random full hands per second through the engine's public API, next to OpenSpiel's ``spades``.

One hand is a deal, four bids and 52 plays. Our side plays games of the standard rules with a
target no one reaches and, like OpenSpiel's game, no Blind Nil, through ``Game.legal_codes``
and ``Game.apply_code`` (a new game every 50 hands, so the undo history stays a game's size).
OpenSpiel's side plays whole ``spades`` games (one deal each: 52 chance actions, four bids,
52 plays) through ``legal_actions`` and ``apply_action``. Both pick actions the same cheap way,
``legal[int(random() * len(legal))]`` from a seeded ``random.Random``.

The two run in alternating slices of a quarter second, so that a machine shared with other
work slows both alike and the ratio stays meaningful.

    python bench/engine_speed.py [--seconds N] [--json]

``--json`` prints one line: ``{"spades_hands_per_s": X, "openspiel_hands_per_s": Y,
"spades_compiled": B}`` (Y is ``null`` when ``pyspiel`` is not installed: ``pip install -e
'.[bench]'``; B says whether the engine runs compiled by mypyc, as ``pip install`` builds it,
or in pure Python). A stale compiled engine (an edit not rebuilt) is refused.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Callable, Iterator
from typing import Any

from spades import Game, Rules
from spades._native import compiled_modules, stale_message

SLICE = 0.25
HANDS_PER_GAME = 50


def spades_hands(seed: int = 1) -> Iterator[int]:
    """Play random hands forever; yields after each batch of 10 hands."""
    rules = Rules(target=10**12, blind_nil=False)
    rnd = random.Random(seed).random
    games = 0
    while True:
        game = Game(rules, seed=seed + games)
        games += 1
        legal_codes = game.legal_codes
        apply_code = game.apply_code
        for _ in range(HANDS_PER_GAME // 10):
            for _ in range(10):
                number = game.hand_number
                while game.hand_number == number:
                    codes = legal_codes()
                    apply_code(codes[int(rnd() * len(codes))])
            yield 10


def openspiel_hands(seed: int = 1) -> Iterator[int] | None:
    """OpenSpiel ``spades`` random games (one hand each) forever, or None without pyspiel."""
    try:
        import pyspiel
    except ImportError:
        return None
    game: Any = pyspiel.load_game("spades")
    rnd = random.Random(seed).random

    def run() -> Iterator[int]:
        while True:
            for _ in range(10):
                state = game.new_initial_state()
                while not state.is_terminal():
                    legal = state.legal_actions()
                    state.apply_action(legal[int(rnd() * len(legal))])
            yield 10

    return run()


def time_slice(it: Iterator[int], seconds: float, clock: Callable[[], float]) -> tuple[int, float]:
    start = clock()
    hands = 0
    while clock() - start < seconds:
        hands += next(it)
    return hands, clock() - start


def measure(seconds: float) -> tuple[float, float | None]:
    """Hands per second of each side, ``seconds`` of running each, in alternating slices."""
    ours = spades_hands()
    theirs = openspiel_hands()
    totals = [0, 0.0, 0, 0.0]
    spent = 0.0
    while spent < seconds:
        h, t = time_slice(ours, SLICE, time.process_time)
        totals[0] += h
        totals[1] += t
        if theirs is not None:
            h, t = time_slice(theirs, SLICE, time.process_time)
            totals[2] += h
            totals[3] += t
        spent += SLICE
    return totals[0] / totals[1], (totals[2] / totals[3] if theirs is not None else None)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Random Spades hands per second, ours and OpenSpiel's.")
    parser.add_argument("--seconds", type=float, default=5.0, help="seconds per side (default 5)")
    parser.add_argument("--json", action="store_true", help="print one JSON line")
    args = parser.parse_args(argv)
    stale = stale_message()
    if stale:
        raise SystemExit(stale)
    compiled = bool(compiled_modules())
    ours, theirs = measure(args.seconds)
    if args.json:
        print(
            json.dumps(
                {
                    "spades_hands_per_s": round(ours, 1),
                    "openspiel_hands_per_s": None if theirs is None else round(theirs, 1),
                    "spades_compiled": compiled,
                }
            )
        )
        return
    engine = "compiled (mypyc)" if compiled else "pure Python"
    print(f"spades engine : {ours:10,.0f} hands/s  ({engine})")
    if theirs is None:
        print("openspiel     :        n/a (pyspiel not installed)")
    else:
        print(f"openspiel     : {theirs:10,.0f} hands/s")
        print(f"ratio         : {ours / theirs:10.2f}x")


if __name__ == "__main__":
    main()
