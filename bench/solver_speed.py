"""Double-dummy solver speed on the oracle's 13-card positions, next to DDS (via ``endplay``).

For each position (spades trump, spades broken, no trick in progress), from a cold table:

* ``value``: North/South's tricks only (ours: ``values=False``; DDS: ``solve_board`` asking
  for one optimal card, i.e. ``solutions=1``);
* ``all cards``: the value of every card of the seat to move (ours: the default; DDS:
  ``solve_board`` in its default mode, ``solutions=3``).

Both run in the same process on the same positions, one after the other per position, and
both results are checked against the oracle. Figures: median and p90 ms per position.
Target: our median <= 2x DDS's.

    python bench/solver_speed.py [--limit N] [--json]      # N 13-card lines (default 40)
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path
from typing import Any

from spades.cards import SUIT_MASKS, CardSet, card_text, parse_card
from spades.search import Solver, warm_up

ORACLE = Path(__file__).resolve().parent.parent / "tests" / "data" / "dd_oracle.jsonl"


def _pbn(mask: int) -> str:
    return ".".join("".join(t[0] for t in CardSet(mask & m).texts()) for m in SUIT_MASKS)


def dds_solver() -> Any:
    """(value_fn, all_fn) over (hands, leader), or None without endplay."""
    try:
        from endplay.dds import solve_board
        from endplay.dds.solve import SolveMode
        from endplay.types import Deal, Denom, Player
    except ImportError:
        return None

    def deal(hands: list[int], leader: int) -> Any:
        return Deal("N:" + " ".join(_pbn(h) for h in hands), first=Player(leader), trump=Denom.spades)

    def value(hands: list[int], leader: int) -> int:
        tricks = max(t for _, t in solve_board(deal(hands, leader), SolveMode.OptimalOne))
        return tricks if leader % 2 == 0 else 13 - tricks

    def every(hands: list[int], leader: int) -> dict[str, int]:
        out = {}
        for card, tricks in solve_board(deal(hands, leader), SolveMode.Default):
            text = str(card)
            suit = "SHDC"["♠♥♦♣".index(text[0])]
            rank = text[1:].replace("10", "T")
            out[card_text(parse_card(rank + suit))] = tricks if leader % 2 == 0 else 13 - tricks
        return out

    return value, every


def _stats(xs: list[float]) -> dict[str, float]:
    s = sorted(xs)
    return {"median": round(statistics.median(s), 2), "p90": round(s[min(len(s) - 1, int(0.9 * len(s)))], 2)}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Double-dummy ms per 13-card position, ours and DDS's.")
    parser.add_argument("--limit", type=int, default=40, help="13-card oracle lines to use (default 40)")
    parser.add_argument("--json", action="store_true", help="print one JSON line")
    args = parser.parse_args(argv)
    lines = [json.loads(x) for x in ORACLE.read_text().splitlines()]
    lines = [d for d in lines if len(d["hands"][0].split()) == 13][: args.limit]
    warm_up()
    solver = Solver()
    dds = dds_solver()
    times: dict[str, list[float]] = {"ours_value": [], "ours_all": [], "dds_value": [], "dds_all": []}
    wrong = 0
    positions = [([CardSet.parse(h).mask for h in d["hands"]], d["leader"], d) for d in lines]
    # Two passes, value then every card, so that each DDS call follows a different deal (DDS
    # keeps its table for a repeated deal) and every figure, ours and DDS's, is from cold.
    for hands, leader, d in positions:
        solver.clear()
        t = time.perf_counter()
        v = solver.solve(hands, leader, values=False).ns_tricks
        times["ours_value"].append((time.perf_counter() - t) * 1000)
        wrong += v != d["ns_tricks"]
        if dds is not None:
            t = time.perf_counter()
            dv = dds[0](hands, leader)
            times["dds_value"].append((time.perf_counter() - t) * 1000)
            wrong += dv != d["ns_tricks"]
    for hands, leader, d in positions:
        solver.clear()
        t = time.perf_counter()
        sol = solver.solve(hands, leader)
        times["ours_all"].append((time.perf_counter() - t) * 1000)
        values = {card_text(c): x for c, x in sol.card_values.items()}
        wrong += sol.ns_tricks != d["ns_tricks"] or values != d["card_values"]
        if dds is not None:
            t = time.perf_counter()
            dvals = dds[1](hands, leader)
            times["dds_all"].append((time.perf_counter() - t) * 1000)
            wrong += dvals != d["card_values"]
    result: dict[str, Any] = {"positions": len(lines), "disagreements_with_oracle": wrong}
    for k, xs in times.items():
        result[k] = _stats(xs) if xs else None
    if args.json:
        print(json.dumps(result))
        return
    print(f"{len(lines)} positions of 13 cards; disagreements with the oracle: {wrong}")
    for k in ("value", "all"):
        ours = result[f"ours_{k}"]
        theirs = result[f"dds_{k}"]
        label = "value only" if k == "value" else "every card"
        line = f"{label:<11} ours median {ours['median']:9.2f} ms  p90 {ours['p90']:9.2f} ms"
        if theirs:
            line += f"   DDS median {theirs['median']:7.2f} ms  p90 {theirs['p90']:7.2f} ms"
            line += f"   ratio {ours['median'] / theirs['median']:6.1f}x"
        print(line)


if __name__ == "__main__":
    main()
