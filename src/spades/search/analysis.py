"""Double-dummy analysis of played hands: what each card cost, trick by trick.

For every card of a record, the position just before it is solved with all hands open (the
Spades lead rule included while spades are unbroken): the card's value is the number of tricks
the player's side ends the hand with if everyone plays perfectly afterwards, and the best value
is the same figure for the best legal card. A positive difference is a double-dummy mistake.

In score mode the figure is the hand's Spades score instead (the side's points minus the
opponents', given the bids, the totals and the bags before the hand): raw tricks miss a
covered Nil, a set contract and the bag penalty, which is what a Spades player weighs.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from typing import Any

import numpy as np

from spades.cards import card_text
from spades.errors import SpadesError
from spades.legal import deck_of, may_lead_spades
from spades.rules import Rules
from spades.scoring import SeatBid
from spades.search._jit import trick_winner
from spades.search._score_kernel import _nil_seats
from spades.search.dd import Solver
from spades.search.score import ScoreSolver, payoff_table
from spades.state import Game, HandLog

PayoffTable = np.ndarray[Any, np.dtype[np.int64]]


@dataclass(frozen=True, slots=True)
class PlayAnalysis:
    trick: int
    seat: int
    card: int
    value: int
    """Tricks the player's side takes in the whole hand after this card, with best play (in
    score mode: the side's hand points minus the opponents')."""
    best: int
    best_cards: tuple[int, ...]

    @property
    def loss(self) -> int:
        return self.best - self.value

    def to_json(self) -> dict[str, object]:
        return {
            "trick": self.trick,
            "seat": self.seat,
            "card": card_text(self.card),
            "value": self.value,
            "best": self.best,
            "best_cards": [card_text(c) for c in self.best_cards],
            "loss": self.loss,
        }


@dataclass(frozen=True, slots=True)
class HandAnalysis:
    number: int
    plays: tuple[PlayAnalysis, ...]
    unit: str = "tricks"
    """What the figures count: ``"tricks"`` or, in score mode, ``"points"``."""

    def to_json(self) -> dict[str, object]:
        return {"hand": self.number, "unit": self.unit, "plays": [p.to_json() for p in self.plays]}


@dataclass(frozen=True, slots=True)
class HandStakes:
    """What score mode needs besides the cards: the rules, the bids and the score before."""

    rules: Rules
    bids: tuple[SeatBid, ...]
    totals_before: tuple[int, ...]
    bags_before: tuple[int, ...]


def analyse_log(
    log: HandLog,
    solver: Solver | None = None,
    number: int = 1,
    stakes: HandStakes | None = None,
    score_solver: ScoreSolver | None = None,
    on_play: Callable[[], None] | None = None,
    *,
    lead_any: bool = False,
    first_trick: int = 1,
) -> HandAnalysis:
    """Analyse the cards played in one hand's log (dealt hands, exchanges, plays); with
    ``stakes``, by the hand's score (``payoff_table``, built from ``scoring.score_hand``)
    rather than by tricks. ``lead_any``: spades may be led at any time (``spades_lead``), which
    the solvers see as spades broken from the start. ``first_trick``: the cards of earlier
    tricks are played through, not analysed (the late tricks of many hands cost far less)."""
    job = _job_of(log, number, stakes, lead_any, first_trick)
    return _analyse(job, solver or Solver(), score_solver, on_play)


@dataclass(frozen=True, slots=True)
class _HandJob:
    """One hand to analyse, in plain values (it crosses to a worker process): the hands after
    the exchanges, the dealer, the cards played, the payoff table in score mode."""

    number: int
    hands: tuple[int, ...]
    dealer: int
    plays: tuple[int, ...]
    table: PayoffTable | None
    lead_any: bool
    first_trick: int = 1


def hands_in_play(log: HandLog) -> list[int]:
    """Each seat's hand when the play starts: as dealt, after the Blind Nil exchanges."""
    hands = list(log.dealt)
    for ex in log.exchanges:
        hands[ex.giver] &= ~ex.cards.mask
        hands[ex.receiver] |= ex.cards.mask
    return hands


def _job_of(
    log: HandLog, number: int, stakes: HandStakes | None, lead_any: bool, first_trick: int = 1
) -> _HandJob:
    hands = hands_in_play(log)
    if len(hands) != 4:
        raise SpadesError("double-dummy analysis needs a four-player game")
    table = None
    if stakes is not None:
        table = payoff_table(stakes.rules, stakes.bids, stakes.totals_before, stakes.bags_before)
    return _HandJob(number, tuple(hands), log.dealer, tuple(log.plays), table, lead_any, first_trick)


def _analyse(
    job: _HandJob, solver: Solver, score_solver: ScoreSolver | None, on_play: Callable[[], None] | None
) -> HandAnalysis:
    number = job.number
    hands = list(job.hands)
    table = job.table
    if table is not None:
        score_solver = score_solver or ScoreSolver()
    broken = job.lead_any
    leader = (job.dealer + 1) % 4
    trick: list[int] = []
    won = [0, 0]  # per side, tricks so far
    seat_won = [0, 0, 0, 0]
    out: list[PlayAnalysis] = []
    hint: int | None = None  # score mode: the payoff the last card played left
    for i, card in enumerate(job.plays):
        seat = (leader + len(trick)) % 4
        side = seat % 2
        if i // 4 + 1 < job.first_trick:
            pass  # played through below, not analysed
        elif table is not None and score_solver is not None:
            # The card played's payoff, the best and the best cards: not every card's payoff.
            j = score_solver.judge(hands, leader, table, card, trick, broken, seat_won, hint=hint)
            hint = j.card_value
            if card not in j.legal:
                raise SpadesError(
                    f"hand {number}, trick {i // 4 + 1}: {card_text(card)} was not a legal card"
                )
            sign = 1 if side == 0 else -1
            out.append(
                PlayAnalysis(
                    i // 4 + 1,
                    seat,
                    card,
                    sign * j.card_value,
                    sign * j.value,
                    tuple(sorted(j.best_cards, reverse=True)),
                )
            )
        else:
            sol = solver.solve(hands, leader, trick, broken)
            left = hands[seat].bit_count()

            def mine(ns: int, side: int = side, left: int = left) -> int:
                return won[side] + (ns if side == 0 else left - ns)

            values = {c: mine(v) for c, v in sol.card_values.items()}
            best = max(values.values())
            if card not in values:
                raise SpadesError(
                    f"hand {number}, trick {i // 4 + 1}: {card_text(card)} was not a legal card"
                )
            out.append(
                PlayAnalysis(
                    i // 4 + 1,
                    seat,
                    card,
                    values[card],
                    best,
                    tuple(sorted((c for c, v in values.items() if v == best), reverse=True)),
                )
            )
        if on_play is not None:
            on_play()
        hands[seat] &= ~(1 << card)
        if card < 13 and (not trick or trick[0] >= 13):
            broken = True
        trick.append(card)
        if len(trick) == 4:
            leader = (leader + trick_winner(trick[0], trick[1], trick[2], trick[3])) % 4
            won[leader % 2] += 1
            seat_won[leader] += 1
            trick = []
    return HandAnalysis(number, tuple(out), "points" if table is not None else "tricks")


_worker_solvers: dict[str, Any] = {}
"""A worker process's solvers, made on its first hand and kept for the next ones."""


def _analyse_in_worker(job: _HandJob) -> HandAnalysis:
    """A worker process's task: one hand, with the solvers it keeps between hands."""
    solver = _worker_solvers.setdefault("dd", Solver())
    score_solver = _worker_solvers.setdefault("score", ScoreSolver())
    return _analyse(job, solver, score_solver, None)


def _default_jobs(score: bool, hands: int) -> int:
    """Processes for a game: by score, one per core up to one per hand (a hand with a live Nil
    can take seconds, and hands are independent); by tricks one (each hand takes well under a
    second, less than starting a process)."""
    if not score or hands < 2:
        return 1
    return max(1, min(os.cpu_count() or 1, hands))


def analyse_game(
    game: Game,
    solver: Solver | None = None,
    *,
    score: bool = False,
    on_play: Callable[[], None] | None = None,
    jobs: int | None = 1,
) -> list[HandAnalysis]:
    """Analyse every hand of a (replayed) game that reached the play; with ``score``, by each
    hand's Spades score given its bids and the score before it. ``on_play`` is called after
    each card is analysed (a progress bar: a hand with a live Nil can take seconds by score).
    ``jobs``: worker processes, one hand each at a time (1, the default: none; None: by score,
    one per core up to one per hand, by tricks none). The output is the same whatever it is.
    Workers are spawned, so a script that passes ``jobs`` other than 1 must guard its entry
    point (``if __name__ == "__main__":``), as with any ``multiprocessing`` spawn; the
    ``spades analyse`` command does."""
    if game.n != 4 or not game.rules.teams:
        raise SpadesError("double-dummy analysis needs a four-player partnership game")
    if not deck_of(game.rules).standard:
        raise SpadesError(
            f"double-dummy analysis needs the 52-card deck (jokers = {game.rules.jokers}); "
            "its solvers are built for it"
        )
    lead_any = may_lead_spades(game.rules, False)
    todo: list[_HandJob] = []
    done = 0  # hands scored so far: the score sheet has a line per hand played out
    for i, log in enumerate(game.logs):
        if not log.plays:
            continue
        stakes = None
        if score:
            bids = tuple(log.bids)
            if len(bids) != 4 or any(b is None for b in bids):
                raise SpadesError(f"hand {i + 1}: score mode needs the four bids")
            before = game.scores[done - 1] if done else None
            stakes = HandStakes(
                game.rules,
                tuple(b for b in bids if b is not None),
                tuple(before.totals) if before else (0, 0),
                tuple(before.bags) if before else (0, 0),
            )
        todo.append(_job_of(log, i + 1, stakes, lead_any))
        if len(log.plays) == 52:
            done += 1
    workers = _default_jobs(score, len(todo)) if jobs is None else max(1, jobs)
    if workers > 1 and len(todo) > 1:
        return _analyse_in_pool(todo, workers, on_play)
    solver = solver or Solver()
    score_solver = ScoreSolver() if score else None
    return [_analyse(job, solver, score_solver, on_play) for job in todo]


def _nil_bids(job: _HandJob) -> int:
    """How many seats bid Nil, as the payoff table shows (0 by tricks)."""
    return 0 if job.table is None else int(_nil_seats(job.table)).bit_count()


def _analyse_in_pool(
    todo: list[_HandJob], workers: int, on_play: Callable[[], None] | None
) -> list[HandAnalysis]:
    """The hands in worker processes (spawned: a caller may hold threads), in the game's order;
    ``on_play`` is called for a hand's cards as it comes back. Each worker loads the compiled
    kernels once (about a second), then keeps its solvers for its next hands."""
    ctx = multiprocessing.get_context("spawn")
    # The slow hands first (those with a Nil bid: a live Nil is what takes seconds), so that
    # the last hand to start is a quick one.
    order = sorted(range(len(todo)), key=lambda k: -_nil_bids(todo[k]))
    with ProcessPoolExecutor(max_workers=min(workers, len(todo)), mp_context=ctx) as pool:
        futures = {pool.submit(_analyse_in_worker, todo[k]): k for k in order}
        out: list[HandAnalysis | None] = [None] * len(todo)
        for fut in as_completed(futures):
            k = futures[fut]
            out[k] = fut.result()
            if on_play is not None:
                for _ in todo[k].plays:
                    on_play()
    return [h for h in out if h is not None]
