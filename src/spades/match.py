"""Matches between two bots: duplicate deals, parallel games, and the statistics that say
which bot is stronger and by how much.

Side A sits at seats 0 and 2 (one partnership, or in solo and two-player games the even
seats), side B at the odd seats. In a duplicate match every deal sequence is played twice,
the second time with the sides swapped, so the luck of the cards cancels. With three players
(each for himself) A plays one seat against two B's, and a duplicate deal sequence is played
three times, A's seat rotating through all three, so A holds every hand of every deal once. The deals of a
sequence come from a random source seeded by the match seed and the sequence number alone,
independent of the play, so both runs see the same cards hand for hand.
"""

from __future__ import annotations

import math
import multiprocessing
import os
import random
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from spades import record
from spades.bots import make_bot
from spades.bots.base import Bot
from spades.driver import apply_decision, notify_others
from spades.errors import SpadesError
from spades.rules import Rules
from spades.scoring import HandScore, side_seats
from spades.state import Game, Phase, seat_name

MAX_HANDS = 300
"""A whole game stops after this many hands; the side ahead on points is then the winner."""


@dataclass(frozen=True, slots=True)
class Task:
    """One game of a match: which deal sequence, and whether the sides are swapped."""

    a: str
    b: str
    rules: dict[str, Any]
    seed: int
    deal: int
    swapped: bool
    single_hand: bool
    out: str | None = None
    max_hands: int = MAX_HANDS
    rotation: int = 0
    """Three players: side A's one seat."""


@dataclass(slots=True)
class SideStats:
    """Counters for one side over some hands; merged across games."""

    points: int = 0
    contracts: int = 0
    sets: int = 0
    bid_error: int = 0
    bags: int = 0
    nil_bids: int = 0
    nil_made: int = 0
    blind_nil_bids: int = 0
    blind_nil_made: int = 0
    opp_nils: int = 0
    opp_nils_broken: int = 0
    faults: int = 0
    decisions: int = 0

    def add(self, other: SideStats) -> None:
        for f in fields(self):
            setattr(self, f.name, getattr(self, f.name) + getattr(other, f.name))


@dataclass(slots=True)
class GameResult:
    deal: int
    swapped: bool
    a_seats: tuple[int, ...]
    hands: int
    a_score: float
    """1 if side A won the game (or the hand, in single-hand matches), 0 if B, 0.5 if even."""
    diff: float
    """Side A's points minus side B's over the game (per side: the mean of its seats)."""
    finished: bool
    a: SideStats = field(default_factory=SideStats)
    b: SideStats = field(default_factory=SideStats)
    ms_a: list[float] = field(default_factory=list)
    ms_b: list[float] = field(default_factory=list)
    path: str | None = None


def a_seats_of(rules: Rules, swapped: bool, rotation: int = 0) -> tuple[int, ...]:
    """Seats of side A: the even seats, or the odd ones when the sides are swapped; with
    three players the one seat ``rotation`` (an odd count of seats has no even split)."""
    if rules.players == 3:
        return (rotation % 3,)
    first = 1 if swapped else 0
    return tuple(range(first, rules.players, 2))


def deal_rng(seed: int, deal: int) -> random.Random:
    """The source of every card of deal sequence ``deal``; the same for both duplicate runs."""
    return random.Random(f"spades-match:{seed}:{deal}")


def bot_seed(seed: int, deal: int, seat: int, swapped: bool, rotation: int = 0) -> int:
    turn = f":r{rotation}" if rotation else ""
    return random.Random(f"spades-bot:{seed}:{deal}:{seat}:{int(swapped)}{turn}").getrandbits(32)


def sides_of(rules: Rules, seats: Sequence[int]) -> list[int]:
    return sorted({rules.side_of(s) for s in seats})


def hand_stats(rules: Rules, score: HandScore, seats: Sequence[int], others: Sequence[int]) -> SideStats:
    """Statistics of one scored hand for the side sitting at ``seats``."""
    st = SideStats()
    my_sides = sides_of(rules, seats)
    st.points = sum(score.points[s] for s in my_sides)
    for side in my_sides:
        members = side_seats(rules, side)
        contract = score.contracts[side]
        taken = sum(score.tricks[s] for s in members if not score.bids[s].is_nil)
        if contract > 0:
            st.contracts += 1
            st.bid_error += abs(taken - contract)
            if taken < contract:
                st.sets += 1
            else:
                st.bags += taken - contract
        for s in members:
            if score.bids[s].is_nil:
                st.nil_bids += 1
                st.blind_nil_bids += score.bids[s].blind
                if score.tricks[s] == 0:
                    st.nil_made += 1
                    st.blind_nil_made += score.bids[s].blind
                else:
                    st.bags += score.tricks[s]
    for s in others:
        if score.bids[s].is_nil:
            st.opp_nils += 1
            if score.tricks[s] > 0:
                st.opp_nils_broken += 1
    return st


def record_name(task: Task, players: int) -> str:
    """The file a game of a match is saved as in its ``out`` folder."""
    run = f"r{task.rotation}" if players == 3 else ("ba" if task.swapped else "ab")
    return f"deal{task.deal:05d}-{run}.json"


def _describe_failure(task: Task, seat: int, spec: str, err: Exception) -> SpadesError:
    return SpadesError(
        f"deal {task.deal}{' (swapped)' if task.swapped else ''}: {spec} at seat {seat}: {err}"
    )


def play_task(task: Task) -> GameResult:
    """Play one game (or one hand) of a match; a top-level function so workers can run it."""
    rules = Rules.from_spec(task.rules)
    a_seats = a_seats_of(rules, task.swapped, task.rotation)
    b_seats = tuple(s for s in range(rules.players) if s not in a_seats)
    specs = [task.a if s in a_seats else task.b for s in range(rules.players)]
    bots: list[Bot] = [
        make_bot(specs[s], seed=bot_seed(task.seed, task.deal, s, task.swapped, task.rotation))
        for s in range(rules.players)
    ]
    game = Game(rules, rng=deal_rng(task.seed, task.deal))
    ms: list[list[float]] = [[] for _ in range(rules.players)]
    limit = 1 if task.single_hand else task.max_hands
    try:
        while not game.is_over and len(game.scores) < limit:
            if game.phase is Phase.DEAL:
                game.deal()
                continue
            seat = game.turn
            obs = game.observation(seat)
            legal = game.legal_actions(seat)
            t0 = time.perf_counter()
            try:
                decision = bots[seat].decide(obs, legal)
            except SpadesError as e:
                raise _describe_failure(task, seat, specs[seat], e) from None
            ms[seat].append((time.perf_counter() - t0) * 1000)
            try:
                apply_decision(game, seat, decision.action)
            except SpadesError as e:
                raise _describe_failure(task, seat, specs[seat], e) from None
            notify_others(game, bots)
    finally:
        faults = [int(getattr(b, "faults", 0) or 0) for b in bots]
        for b in bots:
            b.close()
    res = _result(task, rules, game, a_seats, b_seats)
    for s in range(rules.players):
        side = res.a if s in a_seats else res.b
        side.faults += faults[s]
        side.decisions += len(ms[s])
        (res.ms_a if s in a_seats else res.ms_b).extend(ms[s])
    if task.out is not None:
        path = Path(task.out) / record_name(task, rules.players)
        # "A heuristic (North)": partners play the same spec, so the seat tells them apart in replays.
        team = ["A" if s in a_seats else "B" for s in range(rules.players)]
        players = [f"{team[s]} {specs[s]} ({seat_name(s, rules.players)})" for s in range(rules.players)]
        info: dict[str, Any] = {
            "a": task.a,
            "b": task.b,
            "seed": task.seed,
            "deal": task.deal,
            "swapped": task.swapped,
        }
        info["a_seats"] = list(a_seats)
        if rules.players == 3:
            info["rotation"] = task.rotation
        record.save(path, game, players, match=info)
        res.path = str(path)
    return res


def _result(
    task: Task, rules: Rules, game: Game, a_seats: tuple[int, ...], b_seats: tuple[int, ...]
) -> GameResult:
    finished = game.is_over or (task.single_hand and len(game.scores) == 1)
    res = GameResult(task.deal, task.swapped, a_seats, len(game.scores), 0.5, 0.0, finished)
    for score in game.scores:
        res.a.add(hand_stats(rules, score, a_seats, b_seats))
        res.b.add(hand_stats(rules, score, b_seats, a_seats))
    a_sides, b_sides = sides_of(rules, a_seats), sides_of(rules, b_seats)
    res.diff = res.a.points / len(a_sides) - res.b.points / len(b_sides)
    if task.single_hand or game.winner is None:
        # A hand, or a game cut at the hand limit: the side ahead on points takes it.
        best_a = max(game.totals[s] for s in a_sides)
        best_b = max(game.totals[s] for s in b_sides)
        res.a_score = 1.0 if best_a > best_b else 0.0 if best_b > best_a else 0.5
    else:
        res.a_score = 1.0 if game.winner in a_sides else 0.0
    return res


# ---------------------------------------------------------------------- statistics
def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval for a proportion (ties counted as half a win)."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    lo = 0.0 if successes <= 0 else max(0.0, centre - half)
    hi = 1.0 if successes >= n else min(1.0, centre + half)
    return (lo, hi)


def bootstrap_ratio(units: Sequence[tuple[float, int]], seed: int, rounds: int = 2000) -> tuple[float, float]:
    """95% percentile bootstrap interval of sum(diff)/sum(hands), resampling whole units
    (a duplicate pair of games is one unit, so the shared deals stay together)."""
    import numpy as np

    if not units:
        return (0.0, 0.0)
    diffs = np.array([u[0] for u in units], dtype=float)
    hands = np.array([u[1] for u in units], dtype=float)
    rng = np.random.default_rng(seed)
    idx = rng.integers(0, len(units), size=(rounds, len(units)))
    tot_h = hands[idx].sum(axis=1)
    ratios = diffs[idx].sum(axis=1) / np.maximum(tot_h, 1)
    lo, hi = np.percentile(ratios, [2.5, 97.5])
    return (float(lo), float(hi))


def percentile(values: Sequence[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    k = (len(ordered) - 1) * q
    lo, hi = math.floor(k), math.ceil(k)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (k - lo)


def summarize(
    results: Sequence[GameResult], *, a: str, b: str, rules: Rules, seed: int, duplicate: bool
) -> dict[str, Any]:
    """The match report (``spades match --json``)."""
    results = sorted(results, key=lambda r: (r.deal, r.swapped))
    games = len(results)
    hands = sum(r.hands for r in results)
    wins = sum(r.a_score for r in results)
    units: dict[tuple[int, bool], list[float]] = {}
    for r in results:
        key = (r.deal, False if duplicate else r.swapped)
        u = units.setdefault(key, [0.0, 0])
        u[0] += r.diff
        u[1] += r.hands
    unit_list = [(u[0], int(u[1])) for u in units.values()]
    total_a, total_b = SideStats(), SideStats()
    ms_a: list[float] = []
    ms_b: list[float] = []
    for r in results:
        total_a.add(r.a)
        total_b.add(r.b)
        ms_a.extend(r.ms_a)
        ms_b.extend(r.ms_b)
    ppH = sum(r.diff for r in results) / hands if hands else 0.0
    lo, hi = wilson(wins, games)
    blo, bhi = bootstrap_ratio(unit_list, seed)
    a_sides = len(sides_of(rules, a_seats_of(rules, False)))
    b_sides = rules.sides - a_sides
    return {
        "a": a,
        "b": b,
        "rules": rules.to_spec(),
        "players": rules.players,
        "seed": seed,
        "duplicate": duplicate,
        "games": games,
        "hands": hands,
        "deals": len({r.deal for r in results}),
        "unfinished": sum(1 for r in results if not r.finished),
        "a_win_rate": wins / games if games else 0.0,
        "a_win_rate_ci95": [lo, hi],
        "points_per_hand": ppH,
        "points_per_hand_ci95": [blo, bhi],
        "ms_per_decision": {
            "a": {"median": percentile(ms_a, 0.5), "p99": percentile(ms_a, 0.99)},
            "b": {"median": percentile(ms_b, 0.5), "p99": percentile(ms_b, 0.99)},
        },
        "sides": {
            "a": _side_report(total_a, hands, a_sides),
            "b": _side_report(total_b, hands, b_sides),
        },
    }


def _side_report(st: SideStats, hands: int, n_sides: int) -> dict[str, Any]:
    per = max(1, hands * n_sides)
    return {
        "points_per_hand": st.points / per,
        "bid_accuracy": st.bid_error / st.contracts if st.contracts else 0.0,
        "set_rate": st.sets / st.contracts if st.contracts else 0.0,
        "bags_per_hand": st.bags / per,
        "nil_bids": st.nil_bids,
        "nil_made": st.nil_made,
        "blind_nil_bids": st.blind_nil_bids,
        "blind_nil_made": st.blind_nil_made,
        "opp_nils": st.opp_nils,
        "opp_nils_broken": st.opp_nils_broken,
        "faults": st.faults,
        "decisions": st.decisions,
    }


# ---------------------------------------------------------------------- running
def tasks_for(
    a: str,
    b: str,
    rules: Rules,
    *,
    games: int | None = None,
    hands: int | None = None,
    duplicate: bool = True,
    seed: int = 0,
    out: str | Path | None = None,
    max_hands: int = MAX_HANDS,
) -> list[Task]:
    """The games of a match. ``hands`` N: N deals as single hands (each twice if duplicate);
    ``games`` N: N whole games (in duplicate, N/2 deal sequences each played twice, rounded up)."""
    if (games is None) == (hands is None):
        raise SpadesError("give either a number of games or a number of hands")
    count = games if games is not None else hands
    assert count is not None
    if count < 1:
        raise SpadesError(f"the number of {'games' if games is not None else 'hands'} must be at least 1")
    single = hands is not None
    spec = rules.to_dict()
    out_s = None if out is None else str(out)
    tasks: list[Task] = []
    if rules.players == 3:
        # A at one seat against two B's; a duplicate sequence is played once per seat.
        if duplicate:
            sequences = count if single else (count + 2) // 3
            for d in range(sequences):
                for r in range(3):
                    tasks.append(Task(a, b, spec, seed, d, r > 0, single, out_s, max_hands, r))
        else:
            for d in range(count):
                tasks.append(Task(a, b, spec, seed, d, d % 3 > 0, single, out_s, max_hands, d % 3))
    elif duplicate:
        sequences = count if single else (count + 1) // 2
        for d in range(sequences):
            for swapped in (False, True):
                tasks.append(Task(a, b, spec, seed, d, swapped, single, out_s, max_hands))
    else:
        for d in range(count):
            tasks.append(Task(a, b, spec, seed, d, d % 2 == 1, single, out_s, max_hands))
    return tasks


def run_tasks(
    tasks: Sequence[Task], *, jobs: int | None = None, on_done: Callable[[GameResult], None] | None = None
) -> list[GameResult]:
    """Play every task, on ``jobs`` processes (default: every core); 1 runs in this process."""
    if not tasks:
        return []
    jobs = jobs or os.cpu_count() or 1
    jobs = max(1, min(jobs, len(tasks)))
    results: list[GameResult] = []
    if tasks[0].out is not None:
        Path(tasks[0].out).mkdir(parents=True, exist_ok=True)
    stream: Iterable[GameResult]
    if jobs == 1:
        stream = (play_task(t) for t in tasks)
        for r in stream:
            results.append(r)
            if on_done is not None:
                on_done(r)
        return results
    ctx = multiprocessing.get_context("spawn" if os.name == "nt" else "fork")
    with ctx.Pool(jobs) as pool:
        for r in pool.imap_unordered(play_task, tasks):
            results.append(r)
            if on_done is not None:
                on_done(r)
    return results


def check_specs(*specs: str) -> None:
    """Fail early, with one line, on a bot name or setting that cannot be built."""
    for spec in specs:
        bot = make_bot(spec, seed=0)
        bot.close()


def run_match(
    a: str,
    b: str,
    rules: Rules | None = None,
    *,
    games: int | None = None,
    hands: int | None = None,
    duplicate: bool = True,
    seed: int = 0,
    jobs: int | None = None,
    out: str | Path | None = None,
    on_done: Callable[[GameResult], None] | None = None,
    max_hands: int = MAX_HANDS,
) -> dict[str, Any]:
    """Play a match and return its report (the dict of ``spades match --json``)."""
    rules = rules or Rules()
    check_specs(a, b)
    tasks = tasks_for(
        a, b, rules, games=games, hands=hands, duplicate=duplicate, seed=seed, out=out, max_hands=max_hands
    )
    results = run_tasks(tasks, jobs=jobs, on_done=on_done)
    return summarize(results, a=a, b=b, rules=rules, seed=seed, duplicate=duplicate)


__all__ = [
    "MAX_HANDS",
    "GameResult",
    "SideStats",
    "Task",
    "a_seats_of",
    "bootstrap_ratio",
    "hand_stats",
    "play_task",
    "run_match",
    "run_tasks",
    "summarize",
    "tasks_for",
    "wilson",
]
