"""Random hands per second through the engine's public API, next to OpenSpiel's ``spades``.

Two workloads, each timed on both sides in one run:

* **full hands** (``*_hands_per_s``): a deal, four bids and 52 plays. Our side plays games of
  the standard rules with a target no one reaches and, like OpenSpiel's game, no Blind Nil,
  through ``Game.legal_codes`` and ``Game.apply_code`` (a new game every 50 hands, so the undo
  history stays a game's size). OpenSpiel's side plays whole ``spades`` games (one hand each:
  52 chance actions, four bids, 52 plays) through ``legal_actions`` and ``apply_action``. The
  two APIs deal differently (OpenSpiel through 52 chance actions, about half its time), so
  this figure says as much about dealing as about playing.
* **bids and plays** (``*_play_per_s``, hands per second): equal work. The same random decks
  are dealt into both engines before the clock starts (OpenSpiel: the 52 chance actions of the
  deck; ours: ``Game.deal`` of the same four hands, the same seat bidding first), then each
  side bids and plays to the end of the hand, choosing uniformly among its own legal actions
  with ``legal[int(random() * len(legal))]`` from a ``random.Random`` seeded the same for the
  same position on both sides. Only that loop is timed.

Sides run in alternating slices of a quarter second of CPU time, so that a machine shared
with other work slows both alike and the ratios stay meaningful; the load average is printed
beside them. The decks are fresh each run (the seed comes from the clock unless ``--seed``).
When the engine runs compiled (mypyc, as ``pip install`` builds it), the same measurement is
repeated in a child process with ``SPADES_PURE_PYTHON=1`` (the engine from its ``.py``
source) against OpenSpiel again, and reported beside it (``--no-pure`` skips it).

    python bench/engine_speed.py [--seconds N] [--seed N] [--no-pure] [--json]

``--json`` prints one line: ``spades_hands_per_s``, ``openspiel_hands_per_s`` (full hands),
``spades_play_per_s``, ``openspiel_play_per_s`` (bids and plays, same positions), their
``ratio_*``, the pure-Python ``spades_pure_*_per_s`` and ``pure_ratio_*`` (each against the
OpenSpiel figure of its own run), ``spades_compiled``, ``seed`` and ``load_average``. OpenSpiel
figures are ``null`` when ``pyspiel`` is not installed (``pip install -e '.[bench]'``). A stale
compiled engine (an edit not rebuilt) is refused.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from typing import Any

from spades import Game, Rules
from spades._native import PURE_ENV, compiled_modules, stale_message

SLICE = 0.25
HANDS_PER_GAME = 50
POSITIONS = 50
"""Positions dealt (untimed) per batch of the bids-and-plays workload."""

Timed = Iterator[tuple[int, float]]
"""Yields (hands done, CPU seconds spent on them) forever."""

RULES = Rules(target=2000, blind_nil=False)
"""Standard rules without Blind Nil (OpenSpiel's game has none) and the highest target."""


def spades_hands(seed: int) -> Timed:
    """Full random hands through our API, 10 at a time (a new game after ``HANDS_PER_GAME``
    hands, or when a game ends)."""
    rnd = random.Random(seed).random
    games = 0
    clock = time.process_time
    while True:
        game = Game(RULES, seed=seed + games)
        games += 1
        legal_codes = game.legal_codes
        apply_code = game.apply_code
        for _ in range(HANDS_PER_GAME // 10):
            start = clock()
            for _ in range(10):
                number = game.hand_number
                while game.hand_number == number and not game.is_over:
                    codes = legal_codes()
                    apply_code(codes[int(rnd() * len(codes))])
            yield 10, clock() - start
            if game.is_over:
                break


def load_pyspiel() -> Any:
    """The ``pyspiel`` module, or None when OpenSpiel is not installed."""
    try:
        import pyspiel
    except ImportError:
        return None
    return pyspiel


def openspiel_hands(seed: int) -> Timed | None:
    """OpenSpiel ``spades`` random games (one hand each), 10 at a time; None without pyspiel."""
    pyspiel = load_pyspiel()
    if pyspiel is None:
        return None
    game: Any = pyspiel.load_game("spades")
    rnd = random.Random(seed).random
    clock = time.process_time

    def run() -> Timed:
        while True:
            start = clock()
            for _ in range(10):
                state = game.new_initial_state()
                while not state.is_terminal():
                    legal = state.legal_actions()
                    state.apply_action(legal[int(rnd() * len(legal))])
            yield 10, clock() - start

    return run()


def positions(seed: int) -> Iterator[list[tuple[list[int], int]]]:
    """Batches of ``POSITIONS`` (deck, seed): a random deck (card ``k`` goes to seat ``k % 4``,
    our card codes) and the seed of the random choices that finish it, on both sides."""
    rng = random.Random(seed)
    while True:
        batch = []
        for _ in range(POSITIONS):
            deck = list(range(52))
            rng.shuffle(deck)
            batch.append((deck, rng.getrandbits(64)))
        yield batch


def to_openspiel(card: int) -> int:
    """OpenSpiel's action id of our card: ours is ``suit * 13 + rank`` with suits S H D C,
    theirs the same with suits C D H S."""
    return (3 - card // 13) * 13 + card % 13


def hand_masks(deck: list[int]) -> list[int]:
    masks = [0, 0, 0, 0]
    for k, card in enumerate(deck):
        masks[k % 4] |= 1 << card
    return masks


def spades_dealt(deck: list[int]) -> Game:
    """Our game with ``deck`` dealt (card ``k`` to seat ``k % 4``), seat 0 to bid first."""
    game = Game(RULES, seed=0, first_dealer=3, auto_deal=False)
    game.deal(hand_masks(deck))
    return game


def openspiel_dealt(game: Any, deck: list[int]) -> Any:
    """OpenSpiel's state with the same ``deck`` dealt (its 52 chance actions, in deck order)."""
    state = game.new_initial_state()
    for card in deck:
        state.apply_action(to_openspiel(card))
    return state


def spades_random_play(games: list[tuple[Game, Callable[[], float]]]) -> None:
    """Each game to its end, a uniform random legal action at a time: the timed loop."""
    for game, rnd in games:
        legal_codes = game.legal_codes
        apply_code = game.apply_code
        while game.to_move is not None:
            codes = legal_codes()
            apply_code(codes[int(rnd() * len(codes))])


def openspiel_random_play(states: list[tuple[Any, Callable[[], float]]]) -> None:
    """The same loop through OpenSpiel's Python API."""
    for state, rnd in states:
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply_action(legal[int(rnd() * len(legal))])


def spades_play(seed: int) -> Timed:
    """Bids and plays of dealt positions through our API; seat 0 bids first, as in OpenSpiel."""
    clock = time.process_time
    for batch in positions(seed):
        games = [(spades_dealt(deck), random.Random(s).random) for deck, s in batch]
        start = clock()
        spades_random_play(games)
        yield len(games), clock() - start


def openspiel_play(seed: int) -> Timed | None:
    """Bids and plays of the same dealt positions through OpenSpiel; None without pyspiel."""
    pyspiel = load_pyspiel()
    if pyspiel is None:
        return None
    game: Any = pyspiel.load_game("spades")
    clock = time.process_time

    def run() -> Timed:
        for batch in positions(seed):
            states = [(openspiel_dealt(game, deck), random.Random(s).random) for deck, s in batch]
            start = clock()
            openspiel_random_play(states)
            yield len(states), clock() - start

    return run()


def run_slice(it: Timed, seconds: float) -> tuple[int, float]:
    """At least ``seconds`` of timed work from ``it``: (hands, seconds)."""
    hands, spent = 0, 0.0
    while spent < seconds:
        h, t = next(it)
        hands += h
        spent += t
    return hands, spent


def alternate(ours: Timed, theirs: Timed | None, seconds: float) -> tuple[float, float | None]:
    """Hands per second of each side, ``seconds`` of each, in alternating slices."""
    totals = [0, 0.0, 0, 0.0]
    spent = 0.0
    while spent < seconds:
        h, t = run_slice(ours, SLICE)
        totals[0] += h
        totals[1] += t
        if theirs is not None:
            h, t = run_slice(theirs, SLICE)
            totals[2] += h
            totals[3] += t
        spent += SLICE
    return totals[0] / totals[1], (totals[2] / totals[3] if theirs is not None else None)


def ratio(ours: float | None, theirs: float | None) -> float | None:
    return round(ours / theirs, 2) if ours and theirs else None


def measure(seconds: float, seed: int) -> dict[str, Any]:
    hands, os_hands = alternate(spades_hands(seed), openspiel_hands(seed), seconds)
    play, os_play = alternate(spades_play(seed + 1), openspiel_play(seed + 1), seconds)
    return {
        "spades_hands_per_s": round(hands, 1),
        "openspiel_hands_per_s": None if os_hands is None else round(os_hands, 1),
        "ratio_hands": ratio(hands, os_hands),
        "spades_play_per_s": round(play, 1),
        "openspiel_play_per_s": None if os_play is None else round(os_play, 1),
        "ratio_play": ratio(play, os_play),
    }


def measure_pure(seconds: float, seed: int) -> dict[str, Any]:
    """The same measurement in a child process running the engine in pure Python."""
    env = {**os.environ, PURE_ENV: "1"}
    argv = [sys.executable, __file__, "--seconds", str(seconds), "--seed", str(seed)]
    out = subprocess.run([*argv, "--no-pure", "--json"], env=env, capture_output=True, text=True)
    if out.returncode != 0:
        raise SystemExit(f"engine_speed: the pure-Python run failed: {out.stderr.strip()}")
    child: dict[str, Any] = json.loads(out.stdout)
    if child["spades_compiled"]:
        raise SystemExit(f"engine_speed: {PURE_ENV}=1 did not select the pure-Python engine")
    return child


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Random Spades hands per second, ours and OpenSpiel's.")
    parser.add_argument(
        "--seconds", type=float, default=3.0, help="seconds per side and workload (default 3)"
    )
    parser.add_argument("--seed", type=int, default=None, help="seed of the deals (default: from the clock)")
    parser.add_argument("--no-pure", action="store_true", help="skip the pure-Python run")
    parser.add_argument("--json", action="store_true", help="print one JSON line")
    args = parser.parse_args(argv)
    stale = stale_message()
    if stale:
        raise SystemExit(stale)
    seed = time.time_ns() % 2**32 if args.seed is None else args.seed
    compiled = bool(compiled_modules())
    load = os.getloadavg()[0]
    result: dict[str, Any] = {"seed": seed, "spades_compiled": compiled}
    result.update(measure(args.seconds, seed))
    if not args.no_pure:
        pure = measure_pure(args.seconds, seed) if compiled else result
        result["spades_pure_hands_per_s"] = pure["spades_hands_per_s"]
        result["pure_ratio_hands"] = pure["ratio_hands"]
        result["spades_pure_play_per_s"] = pure["spades_play_per_s"]
        result["pure_ratio_play"] = pure["ratio_play"]
    result["load_average"] = round((load + os.getloadavg()[0]) / 2, 2)
    if args.json:
        print(json.dumps(result))
        return
    report(result)


def report(r: dict[str, Any]) -> None:
    engine = "compiled (mypyc)" if r["spades_compiled"] else "pure Python"

    def row(name: str, ours: float, theirs: float | None, x: float | None) -> None:
        ref = "n/a (pyspiel not installed)" if theirs is None else f"{theirs:10,.0f}"
        print(f"{name:<32}: {ours:10,.0f} vs {ref} hands/s   {'' if x is None else f'{x:.2f}x'}")

    print(f"spades engine {engine}; seed {r['seed']}; load average {r['load_average']}")
    print(f"{'workload':<32}: {'spades':>10}    {'openspiel':>10}")
    row(
        "full hands (deal, bids, plays)",
        r["spades_hands_per_s"],
        r["openspiel_hands_per_s"],
        r["ratio_hands"],
    )
    row("bids and plays, same deals", r["spades_play_per_s"], r["openspiel_play_per_s"], r["ratio_play"])
    if "spades_pure_hands_per_s" in r and r["spades_compiled"]:
        print("pure Python (SPADES_PURE_PYTHON=1, its own OpenSpiel run for the ratio):")
        for name, key in (("full hands", "hands"), ("bids and plays, same deals", "play")):
            x = r[f"pure_ratio_{key}"]
            rate = r[f"spades_pure_{key}_per_s"]
            print(f"  {name:<30}: {rate:10,.0f} hands/s   {'' if x is None else f'{x:.2f}x'}")


if __name__ == "__main__":
    main()
