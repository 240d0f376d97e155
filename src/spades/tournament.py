"""Bot tournaments: a duplicate round robin between bot specs, resumable, local or on Ray.

Every pair of bots plays a duplicate match (``spades.match``: its tasks, its games, its
statistics); the games of all pairs are the work units. A unit is one game, named by its
pair and its place in the match (``<pair>/deal00003-ba.json``), and it is done when its
record is in the output folder. Records are written by this (the parent) process only, each
atomically, once its game is over: a run killed at any moment leaves whole records and
nothing else, and the next run with the same settings plays only the missing units.

Why the result of a resumed run equals an uninterrupted one: every unit's deals and bot
seeds come from ``(seed, deal, seat, swapped)`` alone (``match.deal_rng``, ``bot_seed``),
never from the order or the process it runs in, so a unit replayed gives the same record
(for deterministic bots: the built-in ones are, given their seed; a ``cmd:`` program must
be too); and the report is computed from the records, read back the same way whether they
were written a minute ago or by an earlier run, with the ratings updated in a fixed order
(deal, then run, then pair) and the bootstrap intervals seeded by the tournament's seed.

Every pair plays the same deal sequences (one seed for the whole tournament), so the luck of
the cards is shared across the table as well as within each match.
"""

from __future__ import annotations

import dataclasses
import hashlib
import importlib
import json
import multiprocessing
import os
import re
import socket
import tempfile
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from spades import record
from spades.errors import SpadesError
from spades.i18n import _
from spades.match import (
    MAX_HANDS,
    GameResult,
    SideStats,
    Task,
    a_seats_of,
    check_specs,
    play_task,
    summarize,
    tasks_for,
)
from spades.ratings import Rating, RatingBook, bot_id
from spades.rules import Rules
from spades.stats import PlayerStats, player_stats

FORMAT: Final = "spades-tournament/1"
MANIFEST: Final = "tournament.json"
"""The output folder's description of the settings its records were played with."""
RECORD_FIELD: Final = "tournament"
"""The field each record carries with its game's outcome (records keep unknown fields)."""


# ---------------------------------------------------------------------- the plan
@dataclass(frozen=True, slots=True)
class Unit:
    """One game of the tournament: a match task and where its record goes (relative)."""

    path: str
    task: Task


@dataclass(frozen=True, slots=True)
class Pair:
    """Two bots and the games they play; ``a`` sits at the even seats of the first run."""

    a: str
    b: str
    folder: str
    units: tuple[Unit, ...]


def _slug(spec: str) -> str:
    return re.sub(r"[^A-Za-z0-9.=-]+", "_", spec).strip("_")[:40] or "bot"


def pair_folder(a: str, b: str) -> str:
    """A folder name for the pair: readable, and unique by a hash of both specs."""
    digest = hashlib.sha1(f"{a}\0{b}".encode()).hexdigest()[:8]
    return f"{_slug(a)}__{_slug(b)}-{digest}"


def check_bots(bots: Sequence[str]) -> list[str]:
    """The specs as given, refused with one line if fewer than two, one twice (settings in
    another order are the same bot) or one that cannot be built."""
    if len(bots) < 2:
        raise SpadesError(_("a tournament needs at least two bots (given: {n})").format(n=len(bots)))
    seen: dict[str, str] = {}
    for spec in bots:
        key = bot_id(spec)
        if key in seen:
            raise SpadesError(_("bot '{spec}' is given twice").format(spec=spec))
        seen[key] = spec
    check_specs(*bots)
    return list(bots)


def plan(
    bots: Sequence[str],
    rules: Rules,
    *,
    games: int | None = None,
    hands: int | None = None,
    seed: int = 0,
    max_hands: int = MAX_HANDS,
) -> list[Pair]:
    """Every pair of bots and its games, in a fixed order. A pair's two bots are ordered by
    their rating id, so the folders and the seats do not depend on the order given; more
    ``games`` later extend the same units (deal sequences 0, 1, ... are the same)."""
    ordered = sorted(bots, key=bot_id)
    pairs: list[Pair] = []
    for i, a in enumerate(ordered):
        for b in ordered[i + 1 :]:
            folder = pair_folder(a, b)
            tasks = tasks_for(a, b, rules, games=games, hands=hands, seed=seed, max_hands=max_hands)
            units = tuple(Unit(f"{folder}/{_record_name(rules, t)}", t) for t in tasks)
            pairs.append(Pair(a, b, folder, units))
    return pairs


def _record_name(rules: Rules, task: Task) -> str:
    """The name ``play_task`` gives a record (``dealNNNNN-ab.json``)."""
    run = f"r{task.rotation}" if rules.players == 3 else ("ba" if task.swapped else "ab")
    return f"deal{task.deal:05d}-{run}.json"


def units_in_order(pairs: Sequence[Pair]) -> list[Unit]:
    """All units, deal by deal (then run, then pair): the order games are sent out and the
    order ratings are updated in, so a bot meets every opponent early."""
    order = {p.folder: k for k, p in enumerate(pairs)}
    units = [u for p in pairs for u in p.units]
    units.sort(key=lambda u: (u.task.deal, u.task.rotation, u.task.swapped, order[u.path.split("/")[0]]))
    return units


# ---------------------------------------------------------------------- the output folder
def manifest(rules: Rules, *, seed: int, single_hand: bool, max_hands: int) -> dict[str, Any]:
    """What records of one folder must share to be one tournament (the bots and the number
    of games may change between runs: new pairs and deals are added)."""
    return {
        "format": FORMAT,
        "rules": rules.to_spec(),
        "seed": seed,
        "single_hand": single_hand,
        "max_hands": max_hands,
    }


def prepare_folder(out: Path, settings: Mapping[str, Any]) -> None:
    """Create ``out`` and write its manifest, or check the one there: a folder of another
    tournament is refused with one line naming the setting that differs."""
    path = out / MANIFEST
    try:
        out.mkdir(parents=True, exist_ok=True)
        if path.exists():
            try:
                old = json.loads(path.read_text(encoding="utf-8"))
            except (ValueError, UnicodeDecodeError):
                raise SpadesError(
                    _("{path}: not a tournament description; give another --out").format(path=path)
                ) from None
            if not isinstance(old, dict) or old.get("format") != FORMAT:
                raise SpadesError(
                    _("{path}: not a tournament description; give another --out").format(path=path)
                )
            for key, value in settings.items():
                if old.get(key) != value:
                    raise SpadesError(
                        _(
                            "{out} holds a tournament with {key} {old}, not {new}: "
                            "give another --out, or the same {key}"
                        ).format(out=out, key=key, old=json.dumps(old.get(key)), new=json.dumps(value))
                    )
            return
        _write_atomic(path, json.dumps(dict(settings), indent=1) + "\n")
    except OSError as e:
        raise SpadesError(
            _("cannot write to {out}: {why}").format(out=out, why=e.strerror or type(e).__name__)
        ) from None


def _write_atomic(path: Path, text: str) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(path)


def result_of_record(data: Mapping[str, Any], unit: Unit, rules: Rules, where: str) -> GameResult:
    """A game's result for the report, from its record: the one way both fresh and earlier
    games reach the report, so a resumed run reports exactly what an uninterrupted one does."""
    task = unit.task
    info = data.get("match")
    outcome = data.get(RECORD_FIELD)
    expected = {"a": task.a, "b": task.b, "seed": task.seed, "deal": task.deal, "swapped": task.swapped}
    if not isinstance(info, Mapping) or any(info.get(k) != v for k, v in expected.items()):
        raise SpadesError(_("{path}: a game of another tournament; give another --out").format(path=where))
    if not isinstance(outcome, Mapping):
        raise SpadesError(_("{path}: a record without its tournament result").format(path=where))
    try:
        # Decisions a cmd: bot's fallback made for it (records of older runs have none).
        faults = [int(f) for f in outcome.get("faults", (0, 0))][:2]
        return GameResult(
            deal=task.deal,
            swapped=task.swapped,
            a_seats=a_seats_of(rules, task.swapped, task.rotation),
            hands=int(outcome["hands"]),
            a_score=float(outcome["a_score"]),
            diff=float(outcome["diff"]),
            finished=bool(outcome["finished"]),
            a=SideStats(faults=faults[0]),
            b=SideStats(faults=faults[1]),
            path=where,
        )
    except (KeyError, TypeError, ValueError, IndexError):
        raise SpadesError(_("{path}: a record without its tournament result").format(path=where)) from None


def read_done(out: Path, unit: Unit) -> dict[str, Any] | None:
    """The record of a unit an earlier run finished, or ``None`` if it is still to play."""
    path = out / unit.path
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, ValueError, UnicodeDecodeError):
        return None  # unreadable (not written by us): play the unit again, which replaces it
    return data if isinstance(data, dict) and RECORD_FIELD in data else None


# ---------------------------------------------------------------------- playing
@dataclass(frozen=True, slots=True)
class Played:
    """A unit's game, as a worker hands it back: its record as text, outcome included."""

    path: str
    text: str


def play_unit(unit: Unit) -> Played:
    """Play one unit (a top-level function: pool workers and Ray tasks run it). The record is
    returned as text, not written, so on a cluster it reaches the machine that writes them."""
    with tempfile.TemporaryDirectory(prefix="spades-tournament-") as tmp:
        res = play_task(dataclasses.replace(unit.task, out=tmp))
        assert res.path is not None
        data = json.loads(Path(res.path).read_text(encoding="utf-8"))
    data[RECORD_FIELD] = {
        "hands": res.hands,
        "diff": res.diff,
        "a_score": res.a_score,
        "finished": res.finished,
        "faults": [res.a.faults, res.b.faults],
    }
    return Played(unit.path, json.dumps(data, indent=1) + "\n")


Runner = Callable[[Sequence[Unit], Callable[[Played], None]], None]
"""Plays units and calls back with each one as it finishes (in any order)."""


def local_runner(jobs: int | None = None) -> Runner:
    """Units on ``jobs`` processes of this machine (default: every core; 1: in-process)."""

    def run(units: Sequence[Unit], done: Callable[[Played], None]) -> None:
        n = max(1, min(jobs or os.cpu_count() or 1, len(units)))
        if n == 1:
            for u in units:
                done(play_unit(u))
            return
        ctx = multiprocessing.get_context("spawn" if os.name == "nt" else "fork")
        with ctx.Pool(n) as pool:
            for played in pool.imap_unordered(play_unit, units):
                done(played)

    return run


RAY_ENV: Final = ("SPADES_BOT_TIMEOUT", "SPADES_BOT_FALLBACK", "SPADES_PURE_PYTHON")
"""Environment the Ray workers get from this process (``--bot-timeout`` and friends)."""


def ray_runner(address: str | None = None, *, in_flight: int | None = None) -> Runner:
    """Units as Ray tasks. ``address``: ``None`` starts Ray on this machine (or joins the
    cluster of ``RAY_ADDRESS``); ``auto``, ``HOST:6379`` or ``ray://HOST:10001`` joins a
    running cluster. If Ray is already initialised in this process, that session is used."""
    try:
        ray: Any = importlib.import_module("ray")
    except ImportError:
        raise SpadesError(_("--ray needs the ray package: pip install 'spades[ray]'")) from None

    def run(units: Sequence[Unit], done: Callable[[Played], None]) -> None:
        if not ray.is_initialized():
            _check_reachable(address)
            env = {k: os.environ[k] for k in RAY_ENV if k in os.environ}
            try:
                ray.init(
                    address=address,
                    include_dashboard=False,
                    log_to_driver=False,
                    runtime_env={"env_vars": env} if env else None,
                )
            except Exception as e:  # ConnectionError, ValueError, RuntimeError: all one line
                first = (str(e).splitlines() or [type(e).__name__])[0]
                raise SpadesError(
                    _("--ray {address}: cannot start or join Ray: {why}").format(
                        address=address or "", why=first
                    )
                ) from None
        remote = ray.remote(play_unit)
        limit = in_flight or max(4, 2 * int(ray.cluster_resources().get("CPU", 1)))
        todo = iter(units)
        pending = [remote.remote(u) for u in _take(todo, limit)]
        while pending:
            ready, pending = ray.wait(pending, num_returns=1)
            for ref in ready:
                done(_ray_result(ray, ref))
            pending.extend(remote.remote(u) for u in _take(todo, len(ready)))

    return run


def _check_reachable(address: str | None) -> None:
    """A ``HOST:PORT`` (or ``ray://HOST:PORT``) nobody answers on is one line at once: Ray
    itself retries for a minute or more, printing its own logs, before it gives up."""
    if address is None or address in ("auto", "local"):
        return
    host, _sep, port = address.removeprefix("ray://").rpartition(":")
    if not host or not port.isdigit():
        return  # Ray's own message says what is wrong with it
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=REACH_S).close()
    except OSError as e:
        raise SpadesError(
            _("--ray {address}: cannot reach {host}:{port}: {why}").format(
                address=address, host=host, port=port, why=e.strerror or type(e).__name__
            )
        ) from None


REACH_S: Final = 5.0
"""How long ``--ray HOST:PORT`` waits for the head to answer a connection."""


def _ray_result(ray: Any, ref: Any) -> Played:
    """A task's result; a task that failed with a ``SpadesError`` (a bot that broke a rule)
    is that one line here too, not Ray's wrapped traceback."""
    try:
        played: Played = ray.get(ref)
    except Exception as e:
        cause = getattr(e, "cause", None)
        if isinstance(cause, SpadesError):
            raise SpadesError(str(cause)) from None
        raise
    return played


def _take(it: Iterator[Unit], n: int) -> list[Unit]:
    out: list[Unit] = []
    for u in it:
        out.append(u)
        if len(out) >= n:
            break
    return out


# ---------------------------------------------------------------------- the report
@dataclass(frozen=True, slots=True)
class PairResult:
    """One pairing's duplicate match (``match.summarize``), ``a`` minus ``b``."""

    a: str
    b: str
    games: int
    hands: int
    unfinished: int
    points_per_hand: float
    points_per_hand_ci95: tuple[float, float]
    a_win_rate: float
    a_win_rate_ci95: tuple[float, float]

    def flipped(self) -> PairResult:
        """The same match seen from ``b``."""
        lo, hi = self.points_per_hand_ci95
        wlo, whi = self.a_win_rate_ci95
        return PairResult(
            self.b,
            self.a,
            self.games,
            self.hands,
            self.unfinished,
            -self.points_per_hand,
            (-hi, -lo),
            1 - self.a_win_rate,
            (1 - whi, 1 - wlo),
        )


@dataclass(frozen=True, slots=True)
class Report:
    """A tournament's results: every pairing, and each bot's OpenSkill rating."""

    bots: tuple[str, ...]
    """In the order given."""
    rules: Rules
    seed: int
    pairs: tuple[PairResult, ...]
    ratings: tuple[tuple[str, Rating], ...]
    """(spec, rating), best first."""
    stats: tuple[tuple[str, PlayerStats], ...] = ()
    """(spec, statistics over its seats), in the order of ``bots``; empty unless asked for."""
    faults: tuple[tuple[str, int], ...] = ()
    """(spec, decisions its fallback bot made after the bot failed), in the order of
    ``bots``: a ``cmd:`` program that crashed, timed out or answered nonsense. A bot with
    faults is partly the fallback playing, and the report says so."""

    def pair(self, a: str, b: str) -> PairResult:
        """``a`` against ``b`` (either order)."""
        for p in self.pairs:
            if (p.a, p.b) == (a, b):
                return p
            if (p.a, p.b) == (b, a):
                return p.flipped()
        raise KeyError((a, b))

    @property
    def games(self) -> int:
        return sum(p.games for p in self.pairs)

    def mean_points_per_hand(self, bot: str) -> float:
        """The bot's points per hand against the field: the mean over its opponents."""
        others = [self.pair(bot, o).points_per_hand for o in self.bots if o != bot]
        return sum(others) / len(others)

    def to_dict(self) -> dict[str, Any]:
        return {
            "bots": list(self.bots),
            "rules": self.rules.to_spec(),
            "seed": self.seed,
            "games": self.games,
            "pairs": [
                dataclasses.asdict(p)
                | {
                    "points_per_hand_ci95": list(p.points_per_hand_ci95),
                    "a_win_rate_ci95": list(p.a_win_rate_ci95),
                }
                for p in self.pairs
            ],
            "ratings": [
                {"bot": spec, "id": bot_id(spec), **r.to_dict(), "ordinal": r.ordinal, "display": r.display}
                for spec, r in self.ratings
            ],
            **({"stats": {spec: st.to_dict(series=False) for spec, st in self.stats}} if self.stats else {}),
            "faults": dict(self.faults),
        }


def _pair_dict(p: PairResult) -> dict[str, Any]:
    out = dataclasses.asdict(p)
    out["points_per_hand_ci95"] = list(p.points_per_hand_ci95)
    out["a_win_rate_ci95"] = list(p.a_win_rate_ci95)
    return out


def build_report(
    bots: Sequence[str], rules: Rules, seed: int, pairs: Sequence[Pair], results: Mapping[str, GameResult]
) -> Report:
    """The report from every unit's result (by unit path): pairings through the match
    module's statistics, ratings from every game in :func:`units_in_order`."""
    rows: list[PairResult] = []
    for p in pairs:
        res = [results[u.path] for u in p.units]
        s = summarize(res, a=p.a, b=p.b, rules=rules, seed=seed, duplicate=True)
        rows.append(
            PairResult(
                p.a,
                p.b,
                s["games"],
                s["hands"],
                s["unfinished"],
                s["points_per_hand"],
                (s["points_per_hand_ci95"][0], s["points_per_hand_ci95"][1]),
                s["a_win_rate"],
                (s["a_win_rate_ci95"][0], s["a_win_rate_ci95"][1]),
            )
        )
    book = RatingBook()
    faults = dict.fromkeys(bots, 0)
    for u in units_in_order(pairs):
        r = results[u.path]
        faults[u.task.a] = faults.get(u.task.a, 0) + r.a.faults
        faults[u.task.b] = faults.get(u.task.b, 0) + r.b.faults
        ranks = [1, 2] if r.a_score > 0.5 else [2, 1] if r.a_score < 0.5 else [1, 1]
        book.rate_game([[bot_id(u.task.a)], [bot_id(u.task.b)]], ranks=ranks)
    ratings = sorted(
        ((spec, book.get(bot_id(spec))) for spec in bots), key=lambda sr: (-sr[1].ordinal, sr[0])
    )
    return Report(
        tuple(bots), rules, seed, tuple(rows), tuple(ratings), faults=tuple((b, faults[b]) for b in bots)
    )


def bot_stats(out: Path, pairs: Sequence[Pair], rules: Rules) -> dict[str, PlayerStats]:
    """Each bot's ``spades.stats`` over every seat it held in the tournament's games, from
    the records (each replayed: about a millisecond a game compiled); the per-hand series are
    left out. A bot's two seats of a partnership game count as two games."""
    totals: dict[str, PlayerStats] = {}
    for p in pairs:
        for u in p.units:
            game = record.load(out / u.path).game
            a_seats = a_seats_of(rules, u.task.swapped, u.task.rotation)
            seats = [u.task.a if s in a_seats else u.task.b for s in range(rules.players)]
            for spec, st in player_stats([(game, seats)]).items():
                totals[spec] = totals.get(spec, PlayerStats()) + dataclasses.replace(st, series=())
    return totals


# ---------------------------------------------------------------------- the whole run
@dataclass(frozen=True, slots=True)
class Progress:
    """What :func:`run_tournament` tells its caller as it goes."""

    total: int
    earlier: int
    """Units found done by an earlier run."""


def run_tournament(
    bots: Sequence[str],
    rules: Rules | None = None,
    *,
    out: str | Path,
    games: int | None = None,
    hands: int | None = None,
    seed: int = 0,
    max_hands: int = MAX_HANDS,
    runner: Runner | None = None,
    on_start: Callable[[Progress], None] | None = None,
    on_game: Callable[[str], None] | None = None,
    stats: bool = False,
) -> Report:
    """Play (or finish) a tournament into folder ``out`` and return its report.

    ``games`` N per pair (duplicate: N/2 deal sequences, each twice with the sides swapped)
    or ``hands`` N single hands per pair (each twice); ``runner``: :func:`local_runner`
    (default, every core) or :func:`ray_runner`. ``on_start`` hears how many units there are
    and how many an earlier run left done; ``on_game`` the path of each game as it is saved.
    ``stats``: add each bot's statistics (:func:`bot_stats`) to the report.
    """
    rules = rules or Rules()
    if games is None and hands is None:
        games = 20
    if games is not None and hands is not None:
        raise SpadesError(_("give --games or --hands, not both"))
    for name, value in (("--games", games), ("--hands", hands)):
        if value is not None and value < 1:
            raise SpadesError(_("{option} {value}: must be at least 1").format(option=name, value=value))
    if max_hands < 1:
        raise SpadesError(
            _("{option} {value}: must be at least 1").format(option="--max-hands", value=max_hands)
        )
    bots = check_bots(bots)
    folder = Path(out)
    prepare_folder(folder, manifest(rules, seed=seed, single_hand=hands is not None, max_hands=max_hands))
    pairs = plan(bots, rules, games=games, hands=hands, seed=seed, max_hands=max_hands)
    units = {u.path: u for u in units_in_order(pairs)}
    results: dict[str, GameResult] = {}
    for path, u in units.items():
        data = read_done(folder, u)
        if data is not None:
            results[path] = result_of_record(data, u, rules, str(folder / path))
    todo = [u for path, u in units.items() if path not in results]
    if on_start is not None:
        on_start(Progress(len(units), len(results)))
    for p in pairs:
        if any(u.path not in results for u in p.units):
            _mkdir(folder / p.folder)

    def done(played: Played) -> None:
        target = folder / played.path
        try:
            _write_atomic(target, played.text)
        except OSError as e:
            raise SpadesError(
                _("cannot write to {out}: {why}").format(out=target, why=e.strerror or type(e).__name__)
            ) from None
        results[played.path] = result_of_record(
            json.loads(played.text), units[played.path], rules, str(target)
        )
        if on_game is not None:
            on_game(played.path)

    if todo:
        (runner or local_runner())(todo, done)
    report = build_report(bots, rules, seed, pairs, results)
    if not stats:
        return report
    by_bot = bot_stats(folder, pairs, rules)
    return dataclasses.replace(report, stats=tuple((b, by_bot.get(b, PlayerStats())) for b in bots))


def _mkdir(path: Path) -> None:
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise SpadesError(
            _("cannot write to {out}: {why}").format(out=path, why=e.strerror or type(e).__name__)
        ) from None


def records(out: str | Path) -> Iterable[Path]:
    """Every game record of a tournament folder."""
    return sorted(p for p in Path(out).glob("*/deal*.json"))


__all__ = [
    "FORMAT",
    "Pair",
    "PairResult",
    "Played",
    "Progress",
    "Report",
    "Unit",
    "bot_stats",
    "build_report",
    "check_bots",
    "local_runner",
    "plan",
    "play_unit",
    "ray_runner",
    "records",
    "run_tournament",
    "units_in_order",
]
