"""Score-mode solver speed on fresh random 13-card deals, next to the plain trick solver's.

Deals are drawn from ``--seed`` (a random leader each; spades broken on odd deals, unbroken on
even ones), no tricks won yet. For each deal and each bid set below, from a cold table
(``clear()`` first):

* ``score``: ``ScoreSolver.solve(..., values=False)``, the best payoff alone;
* ``score, every card``: the default, the payoff after each legal card too (``--cards``);
* ``dd``: the reference from the same run, ``spades.search.Solver().solve(..., values=False)``
  on the same deals (tricks only), the cost of plain double dummy.

Bid sets (totals 0-0, so no one is near the game's end):

* ``nil`` (the default): a live Nil, as in ``bench/kernel_nodes.py``: the weakest hand bids
  Nil, its partner and left-hand opponent 4, its right-hand opponent 3 (the payoff then
  depends on the Nil bidder's own tricks, not only the side's);
* ``plain``: 3-4-3-3 (N-E-S-W), no bags yet (the payoff grows with North/South's tricks, so
  the trick solver's figure decides it);
* ``bags``: 3-4-3-3 with North/South on 8 bags and East/West on 3 (two overtricks cost 100).

Figures: median, p90 and worst ms per deal, per bid set (wall clock; score mode's CPU time of
this process too, which moves less on a shared machine), and which deal was the worst (its
index from 0 in the seed's draw, and its nodes), to study it alone. Target with a live Nil:
median <= 300 ms, worst <= 5 s.

    python bench/score_speed.py [--deals 40] [--seed 1] [--sets nil,plain,bags] [--cards] [--json]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from typing import Any

from kernel_nodes import deal, nil_bids
from spades.rules import Rules
from spades.scoring import SeatBid
from spades.search import ScoreSolver, Solver, payoff_table, warm_up

PLAIN = [SeatBid(3), SeatBid(4), SeatBid(3), SeatBid(3)]
SETS = ("nil", "plain", "bags")


def bids_of(name: str, hands: list[int]) -> tuple[list[SeatBid], tuple[int, int]]:
    """The bids and bags before the hand of bid set ``name`` for this deal."""
    if name == "nil":
        return nil_bids(hands), (0, 0)
    return PLAIN, ((8, 3) if name == "bags" else (0, 0))


def _stats(xs: list[float]) -> dict[str, float]:
    s = sorted(xs)
    return {
        "median": round(statistics.median(s), 2),
        "p90": round(s[min(len(s) - 1, int(0.9 * len(s)))], 2),
        "worst": round(s[-1], 2),
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Score-mode ms per random deal, next to double dummy.")
    parser.add_argument("--deals", type=int, default=40, help="random deals (default 40)")
    parser.add_argument("--seed", type=int, default=1, help="deal seed (default 1)")
    parser.add_argument("--cards", action="store_true", help="also time every card's payoff")
    parser.add_argument("--sets", default="nil", help=f"bid sets, comma-separated, of {', '.join(SETS)}")
    parser.add_argument("--json", action="store_true", help="print one JSON line")
    args = parser.parse_args(argv)
    sets = [x for x in args.sets.split(",") if x]
    for x in sets:
        if x not in SETS:
            parser.error(f"unknown bid set {x!r} (known: {', '.join(SETS)})")
    if args.deals < 1:
        parser.error(f"--deals must be at least 1, not {args.deals}")
    rng = random.Random(args.seed)
    deals = []
    for i in range(args.deals):
        hands = deal(rng)
        deals.append((hands, rng.randrange(4), i % 2 == 1))
    warm_up()
    dd = Solver()
    dd_ms: list[float] = []
    for hands, leader, broken in deals:
        dd.clear()
        t = time.perf_counter()
        dd.solve(hands, leader, (), broken, values=False)
        dd_ms.append((time.perf_counter() - t) * 1000)
    result: dict[str, Any] = {"deals": len(deals), "seed": args.seed, "dd": _stats(dd_ms)}
    solver = ScoreSolver()
    rules = Rules()
    for name in sets:
        ms: list[float] = []
        cpu: list[float] = []
        ms_cards: list[float] = []
        per_deal: list[int] = []
        for hands, leader, broken in deals:
            bids, bags = bids_of(name, hands)
            table = payoff_table(rules, bids, (0, 0), bags)
            solver.clear()
            t, c = time.perf_counter(), time.process_time()
            per_deal.append(solver.solve(hands, leader, table, (), broken, values=False).nodes)
            ms.append((time.perf_counter() - t) * 1000)
            cpu.append((time.process_time() - c) * 1000)
            if args.cards:
                solver.clear()
                t = time.perf_counter()
                solver.solve(hands, leader, table, (), broken)
                ms_cards.append((time.perf_counter() - t) * 1000)
        worst = max(range(len(cpu)), key=cpu.__getitem__)
        result[name] = {
            "score": _stats(ms),
            "cpu": _stats(cpu),
            "nodes": sum(per_deal),
            "worst_deal": worst,
            "worst_nodes": per_deal[worst],
        }
        if ms_cards:
            result[name]["score_cards"] = _stats(ms_cards)
    if args.json:
        print(json.dumps(result))
        return
    ref = result["dd"]
    print(f"{len(deals)} random 13-card deals, seed {args.seed}, cold tables")
    print("ms per deal: median / p90 / worst")
    print(f"{'trick solver (reference)':<28} {ref['median']:9.1f} / {ref['p90']:9.1f} / {ref['worst']:9.1f}")
    for name in sets:
        r = result[name]["score"]
        line = f"{'score ' + name:<28} {r['median']:9.1f} / {r['p90']:9.1f} / {r['worst']:9.1f}"
        line += f"   {r['median'] / ref['median']:6.1f}x   nodes {result[name]['nodes']:,}"
        c = result[name]["cpu"]
        line += f"   cpu {c['median']:9.1f} / {c['p90']:9.1f} / {c['worst']:9.1f}"
        line += f"   worst: deal {result[name]['worst_deal']} ({result[name]['worst_nodes']:,} nodes)"
        if "score_cards" in result[name]:
            c = result[name]["score_cards"]
            line += f"   every card {c['median']:9.1f} / {c['p90']:9.1f} / {c['worst']:9.1f}"
        print(line)


if __name__ == "__main__":
    main()
