"""Score-mode solver speed on the oracle's 13-card deals, next to the plain trick solver's.

For each of the first N 13-card deals of the oracle (spades broken, no trick in progress,
no tricks won yet) and each bid set below, from a cold table (``clear()`` first):

* ``score``: ``ScoreSolver.solve(..., values=False)``, the best payoff alone;
* ``score, every card``: the default, the payoff after each legal card too (``--cards``);
* ``dd``: the reference from the same run, ``spades.search.Solver().solve(..., values=False)``
  on the same deals (tricks only), the cost of plain double dummy.

Bid sets (North, East, South, West; totals 0-0, so no one is near the game's end):

* ``plain``: 3-4-3-3, no bags yet (the payoff grows with North/South's tricks, so the trick
  solver's figure decides it);
* ``bags``: 3-4-3-3 with North/South on 8 bags and East/West on 3 (two overtricks cost 100);
* ``nil``: 0-4-4-3, North bids Nil (the payoff depends on North's own tricks, not the side's).

Figures: median and p90 ms per deal, per bid set. Target: score median <= 300 ms, p90 <= 2 s.

    python bench/score_speed.py [--limit N] [--sets plain,bags,nil] [--cards] [--json]

``--limit``: 13-card deals (default 12); ``--sets``: which bid sets (default all).
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path
from typing import Any

from spades.cards import CardSet
from spades.rules import Rules
from spades.scoring import SeatBid
from spades.search import ScoreSolver, Solver, payoff_table, warm_up

ORACLE = Path(__file__).resolve().parent.parent / "tests" / "data" / "dd_oracle.jsonl"

BID_SETS: dict[str, tuple[list[SeatBid], tuple[int, int]]] = {
    "plain": ([SeatBid(3), SeatBid(4), SeatBid(3), SeatBid(3)], (0, 0)),
    "bags": ([SeatBid(3), SeatBid(4), SeatBid(3), SeatBid(3)], (8, 3)),
    "nil": ([SeatBid(0), SeatBid(4), SeatBid(4), SeatBid(3)], (0, 0)),
}


def _stats(xs: list[float]) -> dict[str, float]:
    s = sorted(xs)
    return {"median": round(statistics.median(s), 2), "p90": round(s[min(len(s) - 1, int(0.9 * len(s)))], 2)}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Score-mode ms per 13-card deal, next to double dummy.")
    parser.add_argument("--limit", type=int, default=12, help="13-card oracle deals to use (default 12)")
    parser.add_argument("--cards", action="store_true", help="also time every card's payoff")
    parser.add_argument("--sets", default=",".join(BID_SETS), help="bid sets, comma-separated")
    parser.add_argument("--json", action="store_true", help="print one JSON line")
    args = parser.parse_args(argv)
    sets = [x for x in args.sets.split(",") if x]
    for x in sets:
        if x not in BID_SETS:
            parser.error(f"unknown bid set {x!r} (known: {', '.join(BID_SETS)})")
    lines = [json.loads(x) for x in ORACLE.read_text().splitlines()]
    lines = [d for d in lines if len(d["hands"][0].split()) == 13][: args.limit]
    deals = [([CardSet.parse(h).mask for h in d["hands"]], int(d["leader"])) for d in lines]
    warm_up()
    dd = Solver()
    dd_ms: list[float] = []
    for hands, leader in deals:
        dd.clear()
        t = time.perf_counter()
        dd.solve(hands, leader, values=False)
        dd_ms.append((time.perf_counter() - t) * 1000)
    result: dict[str, Any] = {"positions": len(deals), "dd": _stats(dd_ms)}
    solver = ScoreSolver()
    for name in sets:
        bids, bags = BID_SETS[name]
        table = payoff_table(Rules(), bids, (0, 0), bags)
        ms: list[float] = []
        ms_cards: list[float] = []
        for hands, leader in deals:
            solver.clear()
            t = time.perf_counter()
            solver.solve(hands, leader, table, values=False)
            ms.append((time.perf_counter() - t) * 1000)
            if args.cards:
                solver.clear()
                t = time.perf_counter()
                solver.solve(hands, leader, table)
                ms_cards.append((time.perf_counter() - t) * 1000)
        result[name] = {"score": _stats(ms)}
        if ms_cards:
            result[name]["score_cards"] = _stats(ms_cards)
    if args.json:
        print(json.dumps(result))
        return
    ref = result["dd"]
    print(f"{len(deals)} deals of 13 cards, cold tables; ms per deal (median / p90)")
    print(f"{'trick solver (reference)':<28} {ref['median']:9.1f} / {ref['p90']:9.1f}")
    for name in sets:
        r = result[name]["score"]
        ratio = r["median"] / ref["median"]
        line = f"{'score ' + name:<28} {r['median']:9.1f} / {r['p90']:9.1f}   {ratio:6.1f}x"
        if "score_cards" in result[name]:
            c = result[name]["score_cards"]
            line += f"   every card {c['median']:9.1f} / {c['p90']:9.1f}"
        print(line)


if __name__ == "__main__":
    main()
