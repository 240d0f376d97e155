"""Overhead of seating a bot as a program (``cmd:``) over the same bot in process.

    python bench/bot_protocol.py                 # heuristic, 20 hands of decisions
    python bench/bot_protocol.py --bot random --hands 40

Records every decision point (observation, legal actions) of seat 0 in seeded games, then
times the same decisions twice: the bot in this process, and ``spades bot NAME`` behind a
pipe through ``ProgramBot``. Prints the median and p99 ms per decision of each, and the
overhead (median of the per-decision differences). Target: overhead < 1 ms at the median.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Sequence

from spades.actions import Action
from spades.bots import make_bot
from spades.bots.base import Bot, Decision
from spades.driver import play_game
from spades.observation import Observation
from spades.protocol.client import ProgramBot
from spades.state import Game


class Tape(Bot):
    """Seat 0 during recording: the real bot decides, and each question is kept."""

    def __init__(self, inner: Bot) -> None:
        self.inner = inner
        self.name = inner.name
        self.questions: list[tuple[Observation, list[Action]]] = []

    def decide(self, obs: Observation, legal: Sequence[Action]) -> Decision:
        self.questions.append((obs, list(legal)))
        return self.inner.decide(obs, legal)


def record(bot: str, hands: int, seed: int) -> list[tuple[Observation, list[Action]]]:
    tape = Tape(make_bot(bot, seed=seed))
    others = [make_bot(bot, seed=seed + s) for s in (1, 2, 3)]
    play_game(Game(seed=seed), [tape, *others], max_hands=hands)
    return tape.questions


def time_decisions(bot: Bot, questions: list[tuple[Observation, list[Action]]]) -> list[float]:
    out = []
    clock = time.perf_counter
    for obs, legal in questions:
        t = clock()
        bot.decide(obs, legal)
        out.append((clock() - t) * 1000)
    return out


def p99(xs: list[float]) -> float:
    return sorted(xs)[min(len(xs) - 1, int(len(xs) * 0.99))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bot", default="heuristic")
    ap.add_argument("--hands", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()

    questions = record(args.bot, args.hands, args.seed)
    local = make_bot(args.bot, seed=args.seed)
    remote = ProgramBot(f"{sys.executable} -m spades bot {args.bot} --seed {args.seed}")
    try:
        remote.decide(*questions[0])  # start the program and say hello outside the timing
        remote.decide(*questions[0])
        t_remote = time_decisions(remote, questions)
        t_local = time_decisions(local, questions)
        assert remote.faults == 0, f"{remote.faults} faults during the benchmark"
    finally:
        remote.close()
    overhead = [r - loc for r, loc in zip(t_remote, t_local, strict=True)]
    print(f"{len(questions)} decisions of {args.bot!r} (seat 0, {args.hands} hands, seed {args.seed})")
    print(f"in process (reference): median {statistics.median(t_local):.3f} ms, p99 {p99(t_local):.3f} ms")
    print(f"cmd: program:           median {statistics.median(t_remote):.3f} ms, p99 {p99(t_remote):.3f} ms")
    print(f"overhead of cmd:        median {statistics.median(overhead):.3f} ms per decision (target < 1 ms)")


if __name__ == "__main__":
    main()
