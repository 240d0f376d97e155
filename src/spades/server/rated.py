"""Rated games: when a table's game ends, OpenSkill ratings move for its accounts and bots.

Which games: those under a standard preset (the rules equal one of ``PRESETS``) and those
whose creator marked a house-rule set ``rated``. Each rule family keeps its own ratings: a
preset's family is its name, a house-rule set's is ``house-`` and a hash of its rules.

Who is rated: accounts (``user:<id>``) and bot levels (``bot:<level>``). A guest is not rated:
he plays at the default rating in the computation and his change is dropped, so his partner
and opponents still move as the result says. A subject sitting on two opposing sides (two
expert bots facing each other) gains nothing from beating itself and is left as it was.

Teams follow the rules: a partnership game has two teams of two, a cut-throat game one team
per seat. Ranks: the winner first, the other sides by their final totals (ties share a rank).
The update is ``spades.ratings`` (OpenSkill's Plackett-Luce ``rate``), done once per table
(``AccountDB.rate`` marks the table in the same transaction that writes the ratings).

Catch-up: a worker that died between a game's last move and its rating write leaves a finished
rated game with no mark. Each worker, when it starts, looks for such games (``catch_up``:
finished in the last ``CATCH_UP_DAYS``, under a rated family, with a bot seat or a bound
account, and no mark) and rates them; a table rebuilt from a log that ends the game is rated
the same way (``game_over``). Both are safe to repeat and to run on several workers at once:
the mark is written in the rating's own transaction, so only one write wins.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING

from spades.ratings import Rating as BookRating
from spades.ratings import RatingBook, bot_id, ranks_of
from spades.rules import PRESETS, Rules
from spades.server.accountdb import AccountDB, Rating, players_t, rated_t, subject_of
from spades.server.store import BadTable, Store, StoreError, tables_t

if TYPE_CHECKING:
    from spades.server.tables import TableActor

log = logging.getLogger("spades.server")
RETRIES = 3
RETRY_S = 1.0
CATCH_UP_DAYS = 14.0
"""How far back a starting worker looks for finished games that were never rated."""
CATCH_UP_MAX = 5000
"""Finished, unmarked tables a starting worker looks at, at most (newest first)."""


def family_of(rules: Rules, marked_rated: bool) -> str | None:
    """The rule family a game is rated in, or ``None`` when it is not rated."""
    for name, preset in PRESETS.items():
        if rules == preset:
            return name
    if not marked_rated:
        return None
    spec = json.dumps(rules.to_dict(), sort_keys=True, separators=(",", ":"))
    return "house-" + hashlib.sha256(spec.encode()).hexdigest()[:12]


@dataclass(frozen=True, slots=True)
class Result:
    """A finished game as the ratings see it: one list of subjects (``None``: a guest) per
    side, and each side's rank (1 is best)."""

    table_id: str
    family: str
    rules: str
    teams: list[list[str | None]]
    ranks: list[int]

    def subjects(self) -> list[str]:
        return sorted({s for team in self.teams for s in team if s is not None})


def result_of(actor: TableActor) -> Result | None:
    """The finished game at ``actor`` as a rating result, or ``None`` if it is not rated."""
    conf = actor.conf
    family = family_of(conf.rules, conf.rated)
    if family is None:
        return None
    g = actor.game
    teams: list[list[str | None]] = [[] for _ in range(conf.rules.sides)]
    for seat, sc in enumerate(conf.seats):
        if sc.kind == "bot" and sc.bot is not None:
            who: str | None = bot_id(sc.bot)
        elif sc.account is not None:
            who = subject_of(sc.account)
        else:
            who = None
        teams[conf.rules.side_of(seat)].append(who)
    if not any(s is not None for team in teams for s in team):
        return None
    spec = json.dumps(conf.rules.to_spec(), sort_keys=True, separators=(",", ":"))
    return Result(actor.id, family, spec, teams, ranks_of(list(g.totals), g.winner))


def new_ratings(result: Result, current: dict[str, Rating]) -> dict[str, tuple[float, float]]:
    """The rating library's update (``spades.ratings.RatingBook.rate_game``) of every rated
    subject of ``result`` from its ``current`` ratings; guests sit in as fixed newcomers."""
    book = RatingBook({s: BookRating(r.mu, r.sigma, r.games) for s, r in current.items()})
    guests: list[str] = []
    teams: list[list[str]] = []
    for i, team in enumerate(result.teams):
        ids: list[str] = []
        for j, s in enumerate(team):
            if s is None:
                s = f"guest:{i}:{j}"
                guests.append(s)
            ids.append(s)
        teams.append(ids)
    changes = book.rate_game(teams, ranks=result.ranks, fixed=guests)
    return {p: (c.after.mu, c.after.sigma) for p, c in changes.items()}


async def rate(db: AccountDB, result: Result) -> dict[str, Rating] | None:
    """Write the game's rating changes once (``None``: it was rated already)."""
    return await db.rate(
        result.table_id,
        result.family,
        result.rules,
        result.subjects(),
        lambda current: new_ratings(result, current),
    )


def game_over(actor: TableActor) -> None:
    """The table's game just ended (its owner wrote the last action): rate it, off the
    table's lock. A failure is logged; the game itself stands."""
    mgr = actor.mgr
    if mgr is None:
        return
    try:
        result = result_of(actor)
    except Exception as e:  # never let the ratings break a table
        log.error("table %s: cannot rate the game: %r", actor.id, e)
        return
    if result is None:
        return
    db = AccountDB(mgr.store)

    async def job() -> None:
        for attempt in range(RETRIES):
            try:
                await rate(db, result)
                return
            except Exception as e:  # a busy or restarting database: try again, then log
                if attempt == RETRIES - 1:
                    log.error("table %s: the ratings were not updated: %s", actor.id, e)
                else:
                    await asyncio.sleep(RETRY_S * (attempt + 1))

    mgr.spawn(job())


def unrated_results(store: Store, *, days: float = CATCH_UP_DAYS, most: int = CATCH_UP_MAX) -> list[Result]:
    """The finished games of the last ``days`` that should have been rated and were not
    (blocking: run it off the event loop), oldest first so the ratings move in game order.

    Only the configuration of an unmarked table is read first: a game with no rated family,
    or with neither a bot nor a bound account, is skipped without replaying its log."""
    import time

    from sqlalchemy import exists, select

    from spades.server.tables import TableActor, TableConf

    q = (
        select(tables_t.c.id, tables_t.c.config)
        .where(
            tables_t.c.status == "over",
            tables_t.c.created_at > time.time() - days * 86400.0,
            ~exists().where(rated_t.c.table_id == tables_t.c.id),
        )
        .order_by(tables_t.c.created_at.desc())
        .limit(most)
    )
    with store.engine.connect() as conn:
        rows = list(conn.execute(q).all())
        bound = (
            {
                t
                for (t,) in conn.execute(
                    select(players_t.c.table_id).where(players_t.c.table_id.in_([r.id for r in rows]))
                ).all()
            }
            if rows
            else set()
        )
    out: list[Result] = []
    for row in reversed(rows):
        try:
            conf = TableConf.from_json(json.loads(row.config))
            if family_of(conf.rules, conf.rated) is None:
                continue
            if row.id not in bound and not any(sc.kind == "bot" for sc in conf.seats):
                continue
            stored = store.load(row.id)
            if stored is None:
                continue
            actor = TableActor.from_stored(stored)
            if actor.status != "over":
                continue
            result = result_of(actor)
        except (BadTable, StoreError, ValueError, KeyError, TypeError, IndexError) as e:
            log.error("table %s: cannot catch up its rating: %s", row.id, e)
            continue
        if result is not None:
            out.append(result)
    return out


async def catch_up(store: Store) -> int:
    """Rate the finished games a dead worker left unrated (see the module docstring);
    returns how many this worker rated. Failures are logged, never raised."""
    try:
        results = await store.aread(unrated_results, store)
    except Exception as e:  # a start must not fail over the ratings
        log.error("ratings catch-up: cannot read the finished games: %s", e)
        return 0
    db = AccountDB(store)
    done = 0
    for result in results:
        try:
            if await rate(db, result) is not None:
                done += 1
        except Exception as e:
            log.error("table %s: the ratings were not updated: %s", result.table_id, e)
    if done:
        log.info("ratings catch-up: %d finished game(s) rated late", done)
    return done
