"""Double-dummy solver speed on fresh random 13-card deals, next to DDS (via ``endplay``).

Deals are drawn from ``--seed`` (never a fixed set, so move ordering cannot be tuned to the
bench): a random leader each, spades broken on odd deals and unbroken on even ones. For each
deal, from a cold table:

* ``value``: North/South's tricks only (ours: ``values=False``; DDS: ``solve_board`` asking
  for one optimal card, i.e. ``solutions=1``);
* ``every card``: the value of every legal card of the leader (ours: the default; DDS:
  ``solve_board`` in its default mode, ``solutions=3``).

Both run in the same process on the same deals (two passes, value then every card, so each
DDS call follows a different deal: DDS keeps its table for a repeated deal). DDS plays bridge
with spades trumps, where a spade may always be led: on "broken" deals that is our game and
both answers are compared; on "unbroken" deals DDS's time is still the reference for the same
cards, and our answer with spades broken (solved again, untimed) is compared with DDS's, so the
kernel is checked against DDS on every deal (unbroken play itself is held to the plain-Python
reference by tests/test_search_dd_props.py). A disagreement is printed loudly and the exit
status is 1.

Figures: median and p90 ms per deal, ours and DDS's, and the ratio of the medians; also per
kind of deal. Target: every card's value, median <= 2x DDS's on any seed.

    python bench/solver_speed.py [--deals 200] [--seed 1] [--json]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from typing import Any

from spades.cards import SUIT_MASKS, CardSet, parse_card
from spades.search import Solver, warm_up


def _pbn(mask: int) -> str:
    return ".".join("".join(t[0] for t in CardSet(mask & m).texts()) for m in SUIT_MASKS)


def dds_solver() -> Any:
    """(value_fn, every_fn) over (hands, leader) giving North/South's tricks, or None without
    endplay (``pip install endplay``; the ``bench`` extra)."""
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

    def every(hands: list[int], leader: int) -> dict[int, int]:
        out = {}
        for card, tricks in solve_board(deal(hands, leader), SolveMode.Default):
            text = str(card)
            suit = "SHDC"["♠♥♦♣".index(text[0])]
            rank = text[1:].replace("10", "T")
            out[parse_card(rank + suit)] = tricks if leader % 2 == 0 else 13 - tricks
        return out

    return value, every


def deals(n: int, seed: int) -> list[tuple[list[int], int, bool]]:
    """``n`` random deals (four 13-card masks), a random leader, spades broken on odd deals."""
    rng = random.Random(seed)
    out = []
    for i in range(n):
        deck = list(range(52))
        rng.shuffle(deck)
        hands = [sum(1 << c for c in deck[13 * q : 13 * q + 13]) for q in range(4)]
        out.append((hands, rng.randrange(4), i % 2 == 1))
    return out


def _stats(xs: list[float]) -> dict[str, float] | None:
    if not xs:
        return None
    s = sorted(xs)
    return {"median": round(statistics.median(s), 2), "p90": round(s[min(len(s) - 1, int(0.9 * len(s)))], 2)}


def run(n: int, seed: int, table_bits: int | None = None) -> dict[str, Any]:
    """Time ours and DDS's on the same deals; the figures, and every disagreement found."""
    positions = deals(n, seed)
    warm_up()
    solver = Solver() if table_bits is None else Solver(table_bits)
    dds = dds_solver()
    times: dict[str, list[float]] = {f"{w}_{k}": [] for w in ("ours", "dds") for k in ("value", "all")}
    kinds = ("broken", "unbroken")
    by_kind: dict[str, list[float]] = {f"{w}_all_{b}": [] for w in ("ours", "dds") for b in kinds}
    nodes = {"value": 0, "all": 0}
    errors: list[str] = []
    for i, (hands, leader, broken) in enumerate(positions):
        solver.clear()
        t = time.perf_counter()
        sol = solver.solve(hands, leader, (), broken, values=False)
        times["ours_value"].append((time.perf_counter() - t) * 1000)
        nodes["value"] += sol.nodes
        if dds is not None:
            t = time.perf_counter()
            dv = dds[0](hands, leader)
            times["dds_value"].append((time.perf_counter() - t) * 1000)
            if broken and dv != sol.ns_tricks:
                errors.append(f"deal {i}: value {sol.ns_tricks}, DDS {dv}")
    for i, (hands, leader, broken) in enumerate(positions):
        solver.clear()
        t = time.perf_counter()
        sol = solver.solve(hands, leader, (), broken)
        ms = (time.perf_counter() - t) * 1000
        times["ours_all"].append(ms)
        by_kind["ours_all_" + ("broken" if broken else "unbroken")].append(ms)
        nodes["all"] += sol.nodes
        if dds is None:
            continue
        t = time.perf_counter()
        dvals = dds[1](hands, leader)
        ms = (time.perf_counter() - t) * 1000
        times["dds_all"].append(ms)
        by_kind["dds_all_" + ("broken" if broken else "unbroken")].append(ms)
        if not broken:
            solver.clear()
            sol = solver.solve(hands, leader, (), True)
        if sol.card_values != dvals or sol.ns_tricks != _best(dvals, leader):
            errors.append(f"deal {i}: card values {sol.card_values}, DDS {dvals}")
    result: dict[str, Any] = {"deals": n, "seed": seed, "dds": dds is not None, "nodes": nodes}
    for k, xs in (times | by_kind).items():
        result[k] = _stats(xs)
    for k in ("value", "all", "all_broken", "all_unbroken"):
        ours, theirs = result[f"ours_{k}"], result[f"dds_{k}"]
        result[f"ratio_{k}"] = round(ours["median"] / theirs["median"], 2) if ours and theirs else None
    result["disagreements"] = errors
    return result


def _best(values: dict[int, int], leader: int) -> int:
    return max(values.values()) if leader % 2 == 0 else min(values.values())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Double-dummy ms per random 13-card deal, ours and DDS's.")
    parser.add_argument("--deals", type=int, default=200, help="random deals (default 200)")
    parser.add_argument("--seed", type=int, default=1, help="deal seed (default 1)")
    parser.add_argument("--json", action="store_true", help="print one JSON line")
    args = parser.parse_args(argv)
    if args.deals < 1:
        parser.error(f"--deals must be at least 1, not {args.deals}")
    r = run(args.deals, args.seed)
    if args.json:
        print(json.dumps(r))
    else:
        print(f"{args.deals} random 13-card deals, seed {args.seed}, cold tables; ms per deal")
        if not r["dds"]:
            print("DDS not installed (pip install endplay): no reference, no check")
        rows = (("value", "value only"), ("all", "every card"))
        rows += (("all_broken", "  broken"), ("all_unbroken", "  unbroken"))
        for k, label in rows:
            ours, theirs = r[f"ours_{k}"], r[f"dds_{k}"]
            line = f"{label:<11} ours median {ours['median']:8.2f} p90 {ours['p90']:8.2f}"
            if theirs:
                line += f"   DDS median {theirs['median']:7.2f} p90 {theirs['p90']:7.2f}"
                line += f"   ratio {r['ratio_' + k]:5.2f}x"
            print(line)
        print(f"nodes: value {r['nodes']['value']:,}, every card {r['nodes']['all']:,}")
    if r["disagreements"]:
        print(f"!!! {len(r['disagreements'])} DISAGREEMENTS WITH DDS !!!", file=sys.stderr)
        for e in r["disagreements"]:
            print("!!! " + e, file=sys.stderr)
        return 1
    if r["dds"]:
        print(f"all {args.deals} deals agree with DDS", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
