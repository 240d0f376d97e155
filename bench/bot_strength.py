"""Bot strength: ``heuristic`` against ``random`` (target: wins >= 95% of games), with
``random`` against ``random`` from the same run as the reference (about 50%; single hands,
since two random sides rarely finish a game).

    python bench/bot_strength.py                      # 200 duplicate games, standard rules
    python bench/bot_strength.py --games 100 --rules bicycle
    python bench/bot_strength.py --a expert --b heuristic --hands 300

It runs ``spades.match.run_match`` (the engine of ``spades match``) on every core and prints
one line per match: games, A's win rate with its 95% interval, points per hand A - B.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from spades.commands.match import parse_rules
from spades.errors import SpadesError
from spades.match import run_match


def line(label: str, rep: dict[str, object], seconds: float) -> str:
    wr = rep["a_win_rate"]
    lo, hi = rep["a_win_rate_ci95"]  # type: ignore[misc]
    ppH = rep["points_per_hand"]
    plo, phi = rep["points_per_hand_ci95"]  # type: ignore[misc]
    return (
        f"{label:28} games {rep['games']:>4}  hands {rep['hands']:>5}  "
        f"A wins {wr * 100:5.1f}% [{lo * 100:.1f}, {hi * 100:.1f}]  "  # type: ignore[operator]
        f"pts/hand {ppH:+7.1f} [{plo:+.1f}, {phi:+.1f}]  {seconds:5.1f}s"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--a", default="heuristic")
    ap.add_argument("--b", default="random")
    ap.add_argument("--games", type=int, default=None)
    ap.add_argument("--hands", type=int, default=None)
    ap.add_argument("--rules", default=None)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=None)
    ap.add_argument("--json", action="store_true", help="also print each report as JSON")
    args = ap.parse_args()
    games = args.games if args.games is not None or args.hands is not None else 200
    rules = parse_rules(args.rules)
    runs = [
        (args.a, args.b, f"{args.a} vs {args.b}", games if args.hands is None else None, args.hands),
        # The reference plays single hands: two random sides rarely finish a game.
        (args.b, args.b, f"reference: {args.b} vs {args.b}", None, args.hands or games),
    ]
    for a, b, label, n_games, n_hands in runs:
        t0 = time.perf_counter()
        rep = run_match(a, b, rules, games=n_games, hands=n_hands, seed=args.seed, jobs=args.jobs)
        print(line(label, rep, time.perf_counter() - t0), flush=True)
        if args.json:
            print(json.dumps(rep))
    if (args.a, args.b) == ("heuristic", "random"):
        print("target: heuristic wins >= 95% of games against random")


if __name__ == "__main__":
    try:
        main()
    except SpadesError as e:  # bad --hands, --rules or bot spec: one line, no traceback
        raise SystemExit(f"{Path(__file__).name}: {e}") from None
