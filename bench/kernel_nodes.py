"""Nodes and times of the two search kernels on fresh random deals: a before/after check.

The trick solver (``_dd_kernel``) and the score-mode solver (``_score_kernel``) share their
move generation, move ordering and trick bookkeeping. A change to those shared parts that is
meant to keep the search the same (a refactoring) must keep every node count identical on
the same deals; a change meant to make it faster shows up in the times. So, for each of
``--deals`` random 13-card deals drawn from ``--seed`` (a random leader; spades unbroken on
even deals, broken on odd ones, so both kinds of lead are searched), from cold tables:

* ``dd value``: ``Solver.solve(..., values=False)``, North/South's tricks alone;
* ``dd cards``: ``Solver.solve(...)``, the value of every card of the leader too;
* ``score nil``: ``ScoreSolver.solve(..., values=False)`` with a live Nil: the seat with the
  weakest hand bids Nil, its partner and left-hand opponent 4, right-hand opponent 3 (the
  payoff then depends on the Nil bidder's own tricks, the case the score kernel is for).

Printed per kind: total nodes (the kernels' own counters), median and p90 ms per deal (wall
clock, and this process's CPU time: on a machine shared with other work the CPU figure moves
less), the CPU seconds of all deals and CPU nanoseconds per node (the figure to compare
between two versions of a kernel that search the same nodes), a digest of every deal's node
count and answer (two runs searched the same way exactly when their digests are equal), and
a digest of the answers alone (a change meant to search less must keep it: the same values).
``--per-deal`` prints each deal's nodes and answer too (where the worst deals spend their
nodes). The JIT is warmed before anything is timed.

    python bench/kernel_nodes.py [--deals 60] [--seed S] [--kinds dd_value,dd_cards,score_nil]
        [--per-deal] [--json]

Without ``--seed`` a random seed is drawn and printed; pass it back to compare two runs.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import statistics
import time
from typing import Any

from spades.rules import Rules
from spades.scoring import SeatBid
from spades.search import ScoreSolver, Solver, payoff_table, warm_up

KINDS = ("dd_value", "dd_cards", "score_nil")


def deal(rng: random.Random) -> list[int]:
    """Four 13-card hands as masks (card = suit * 13 + rank, as in ``spades.cards``)."""
    deck = list(range(52))
    rng.shuffle(deck)
    return [sum(1 << c for c in deck[13 * i : 13 * i + 13]) for i in range(4)]


def nil_bids(hands: list[int]) -> list[SeatBid]:
    """The weakest hand (fewest spades and cards of rank ten or better) bids Nil; its partner
    and left-hand opponent 4, its right-hand opponent 3."""

    def strength(h: int) -> int:
        spades = (h & 0x1FFF).bit_count()
        honours = sum(((h >> (13 * s + 8)) & 0x1F).bit_count() for s in range(4))
        return 2 * spades + honours

    nil = min(range(4), key=lambda q: strength(hands[q]))
    bids = [0] * 4
    bids[(nil + 2) % 4] = 4
    bids[(nil + 1) % 4] = 4
    bids[(nil + 3) % 4] = 3
    return [SeatBid(b) for b in bids]


def _stats(xs: list[float]) -> dict[str, float]:
    s = sorted(xs)
    return {"median": round(statistics.median(s), 2), "p90": round(s[min(len(s) - 1, int(0.9 * len(s)))], 2)}


def run(deals: int, seed: int, kinds: list[str], per_deal: bool = False) -> dict[str, Any]:
    """Solve every deal with each kind from cold tables; nodes, times and digests per kind."""
    rng = random.Random(seed)
    positions = []
    for i in range(deals):
        hands = deal(rng)
        positions.append((hands, rng.randrange(4), i % 2 == 1))
    warm_up()
    dd = Solver()
    sc = ScoreSolver()
    rules = Rules()
    nodes: dict[str, list[int]] = {k: [] for k in kinds}
    ms: dict[str, list[float]] = {k: [] for k in kinds}
    cpu: dict[str, list[float]] = {k: [] for k in kinds}
    digest = {k: hashlib.sha256() for k in kinds}
    answers = {k: hashlib.sha256() for k in kinds}
    for i, (hands, leader, broken) in enumerate(positions):
        for kind in kinds:
            if kind == "score_nil":
                table = payoff_table(rules, nil_bids(hands))
                sc.clear()
                t, c = time.perf_counter(), time.process_time()
                s = sc.solve(hands, leader, table, (), broken, values=False)
                ms[kind].append((time.perf_counter() - t) * 1000)
                cpu[kind].append((time.process_time() - c) * 1000)
                nodes[kind].append(s.nodes)
                digest[kind].update(f"{s.nodes}:{s.value};".encode())
                answers[kind].update(f"{s.value};".encode())
                if per_deal:
                    print(
                        f"{kind} deal {i:3d}: nodes {s.nodes:>12,}  value {s.value:5d}"
                        f"  cpu ms {cpu[kind][-1]:9.1f}"
                    )
            else:
                dd.clear()
                t, c = time.perf_counter(), time.process_time()
                sol = dd.solve(hands, leader, (), broken, values=kind == "dd_cards")
                ms[kind].append((time.perf_counter() - t) * 1000)
                cpu[kind].append((time.process_time() - c) * 1000)
                nodes[kind].append(sol.nodes)
                answer = sorted(sol.card_values.items())
                digest[kind].update(f"{sol.nodes}:{sol.ns_tricks}:{answer};".encode())
                answers[kind].update(f"{sol.ns_tricks}:{answer};".encode())
                if per_deal:
                    print(f"{kind} deal {i:3d}: nodes {sol.nodes:>12,}  value {sol.ns_tricks:5d}")
    result: dict[str, Any] = {"deals": deals, "seed": seed}
    for kind in kinds:
        result[kind] = {
            "nodes": sum(nodes[kind]),
            "ms": _stats(ms[kind]),
            "cpu_ms": _stats(cpu[kind]),
            "cpu_s": round(sum(cpu[kind]) / 1000, 2),
            "ns_per_node": round(sum(cpu[kind]) * 1e6 / max(1, sum(nodes[kind])), 1),
            "digest": digest[kind].hexdigest()[:16],
            "values": answers[kind].hexdigest()[:16],
        }
    return result


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Kernel node counts and ms per random 13-card deal.")
    parser.add_argument("--deals", type=int, default=60, help="random deals (default 60)")
    parser.add_argument("--seed", type=int, default=None, help="deal seed (default: a random one, printed)")
    parser.add_argument("--kinds", default=",".join(KINDS), help=f"comma-separated, of {', '.join(KINDS)}")
    parser.add_argument("--per-deal", action="store_true", help="print each deal's nodes and answer")
    parser.add_argument("--json", action="store_true", help="print one JSON line")
    args = parser.parse_args(argv)
    kinds = [k for k in args.kinds.split(",") if k]
    for k in kinds:
        if k not in KINDS:
            parser.error(f"unknown kind {k!r} (known: {', '.join(KINDS)})")
    if args.deals < 1:
        parser.error(f"--deals must be at least 1, not {args.deals}")
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1 << 32)
    result = run(args.deals, seed, kinds, args.per_deal)
    if args.json:
        print(json.dumps(result))
        return
    print(f"{args.deals} random 13-card deals, seed {seed}, cold tables; ms per deal")
    for kind in kinds:
        r = result[kind]
        line = f"{kind:<10} nodes {r['nodes']:>12,}"
        line += f"   wall median {r['ms']['median']:8.2f} p90 {r['ms']['p90']:8.2f}"
        line += f"   cpu median {r['cpu_ms']['median']:8.2f} p90 {r['cpu_ms']['p90']:8.2f}"
        line += f"   cpu total {r['cpu_s']:7.2f} s {r['ns_per_node']:6.1f} ns/node"
        print(line + f"   digest {r['digest']}   values {r['values']}")


if __name__ == "__main__":
    main()
