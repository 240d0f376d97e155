"""Expert against another bot over duplicate single hands, with decision times.

    python bench/expert_strength.py --hands 40 [--opponent heuristic] [--expert expert:samples=40]
        [--preset standard] [--jobs 2] [--seed 0]

Each deal is played twice from 0-0, once with the expert's partnership at North/South and
once at East/West, so both sides hold the same cards. Prints points per hand (expert side
minus the other), a bootstrap 95% interval, Nil bids and made, set rate, and the expert's
ms per decision (median, p99). ``spades match expert heuristic --hands N`` is the full tool;
this script is the quick check the expert's author uses while tuning.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from concurrent.futures import ProcessPoolExecutor

from spades.bots import make_bot
from spades.driver import apply_decision
from spades.rules import PRESETS
from spades.state import Game, Phase


def play_pair(args: tuple[int, str, str, str]) -> dict[str, object]:
    deal_seed, expert_spec, other_spec, preset = args
    rules = PRESETS[preset]
    n = rules.players
    out: dict[str, object] = {"diff": 0.0, "nil_bids": 0, "nil_made": 0, "sets": 0, "sides": 0, "ms": []}
    ms: list[float] = []
    for expert_side in (0, 1):
        g = Game(rules, seed=deal_seed)
        # Solo games: the expert holds seats of one parity, so duplicate swaps still apply.
        mine = [s for s in range(n) if s % 2 == expert_side]
        bots = [make_bot(expert_spec if s in mine else other_spec, seed=deal_seed * 10 + s) for s in range(n)]
        while not g.scores:
            if g.phase is Phase.DEAL:
                g.deal()
                continue
            seat = g.to_move
            assert seat is not None
            t = time.perf_counter()
            d = bots[seat].decide(g.observation(seat), g.legal_actions(seat))
            if seat in mine:
                ms.append((time.perf_counter() - t) * 1000)
            apply_decision(g, seat, d.action)
        sc = g.scores[0]
        if rules.teams:
            diff = sc.points[expert_side] - sc.points[1 - expert_side]
            out["sides"] = int(out["sides"]) + 1  # type: ignore[call-overload]
            sets = (
                1
                if sc.contracts[expert_side] > 0
                and sum(sc.tricks[s] for s in mine if not sc.bids[s].is_nil) < sc.contracts[expert_side]
                else 0
            )
            out["sets"] = int(out["sets"]) + sets  # type: ignore[call-overload]
        else:
            others = [s for s in range(n) if s not in mine]
            mean_mine = sum(sc.points[s] for s in mine) / len(mine)
            diff = mean_mine - sum(sc.points[s] for s in others) / len(others)
        out["diff"] = float(out["diff"]) + diff / 2  # type: ignore[arg-type]
        for s in mine:
            if sc.bids[s].is_nil:
                out["nil_bids"] = int(out["nil_bids"]) + 1  # type: ignore[call-overload]
                out["nil_made"] = int(out["nil_made"]) + (sc.tricks[s] == 0)  # type: ignore[call-overload]
    out["ms"] = ms
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--hands", type=int, default=40)
    ap.add_argument("--opponent", default="heuristic")
    ap.add_argument("--expert", default="expert")
    ap.add_argument("--preset", default="standard")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args()
    jobs = [(a.seed * 100000 + i, a.expert, a.opponent, a.preset) for i in range(a.hands)]
    with ProcessPoolExecutor(a.jobs) as ex:
        results = list(ex.map(play_pair, jobs))
    diffs = [float(r["diff"]) for r in results]  # type: ignore[arg-type]
    rng = random.Random(1)
    boots = sorted(statistics.fmean(rng.choices(diffs, k=len(diffs))) for _ in range(2000))
    ms = sorted(m for r in results for m in r["ms"])  # type: ignore[attr-defined]
    nil_b = sum(int(r["nil_bids"]) for r in results)  # type: ignore[call-overload]
    nil_m = sum(int(r["nil_made"]) for r in results)  # type: ignore[call-overload]
    sets = sum(int(r["sets"]) for r in results)  # type: ignore[call-overload]
    sides = sum(int(r["sides"]) for r in results)  # type: ignore[call-overload]
    print(f"{a.expert} vs {a.opponent}, {a.hands} duplicate deals ({a.preset})")
    print(f"points per hand: {statistics.fmean(diffs):+.1f}  (95% CI {boots[50]:+.1f} .. {boots[1949]:+.1f})")
    print(f"nil bids {nil_b}, made {nil_m}" + (f" ({nil_m / nil_b:.0%})" if nil_b else ""))
    if sides:
        print(f"expert side set in {sets}/{sides} hands ({sets / sides:.0%})")
    print(
        f"ms per decision: median {statistics.median(ms):.1f}, p99 {ms[int(len(ms) * 0.99)]:.1f}, "
        f"max {ms[-1]:.1f}"
    )


if __name__ == "__main__":
    main()
