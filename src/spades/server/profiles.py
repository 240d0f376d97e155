"""Profiles, history and leaderboards: what the store knows about players, read-only.

A profile's statistics come from the event logs of the account's games (``spades.stats`` on
each game replayed from its log), the newest ``MAX_GAMES`` of them; its ratings and their
history from the rating tables (``rated.py``). Plots are SVG drawn here (``svgplot``).
Nothing here changes anything, so no CSRF token is asked; the own-history route needs the
session only to know whose games to list.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, Response

from spades.ratings import DISPLAY_SCALE
from spades.rules import Rules
from spades.server.accountdb import Account, subject_of
from spades.server.sessions import N_, Accounts, accounts_of, current, name_key, refuse, say
from spades.server.store import FINAL, BadTable, Store, StoreError
from spades.server.svgplot import line_chart

STATIC = Path(__file__).with_name("static")
MAX_GAMES = 100
"""Games a profile's statistics read (the newest); each is replayed from its log."""
MAX_HISTORY = 200
SVG_HEADERS = {
    "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'",
    "Cache-Control": "no-cache",
}
"""A plot opened on its own is a document: it may run nothing and load nothing."""
STATS_CACHE = 1000
"""Accounts whose statistics are kept in memory at most."""
ROLLING = 10
"""Hands the points-per-hand plot averages over."""


def display(mu: float, sigma: float) -> int:
    """The number a leaderboard shows (``spades.ratings.Rating.display``)."""
    return round(DISPLAY_SCALE * (mu - 3 * sigma))


def _replayed(
    store: Store, games: list[tuple[str, int]], account_id: str
) -> list[tuple[Any, list[str | None], str]]:
    """``(game, seat players, table id)`` of the finished games among ``games``, oldest
    first, the account's seat as ``me``, other accounts by name, bots by level."""
    from spades.ratings import bot_id
    from spades.server.tables import TableActor

    out: list[tuple[Any, list[str | None], str]] = []
    for table_id, _seat in reversed(games):
        try:
            stored = store.load(table_id)
            if stored is None:
                continue
            actor = TableActor.from_stored(stored)
        except (BadTable, StoreError, ValueError, KeyError, TypeError):
            continue
        if actor.status != "over":
            continue
        seats: list[str | None] = []
        for sc in actor.conf.seats:
            if sc.account == account_id:
                seats.append("me")
            elif sc.kind == "bot" and sc.bot is not None:
                seats.append(bot_id(sc.bot))
            else:
                seats.append(sc.account_name if sc.account is not None else None)
        out.append((actor.game, seats, table_id))
    return out


async def stats_of(accounts: Accounts, account: Account) -> Any:
    """The account's ``PlayerStats`` over its newest finished games; kept per account until
    its list of finished games changes (each view would otherwise replay them all)."""
    from spades.stats import PlayerStats, player_stats

    db = accounts.db
    games = await db.games_of(account.id, MAX_GAMES * 2)
    finished = [(t, seat) for t, seat, _at, status, _line in games if status in FINAL][:MAX_GAMES]
    key = tuple(t for t, _seat in finished)
    hit = accounts.stats_cache.get(account.id)
    if hit is not None and hit[0] == key:
        return hit[1]
    replayed = await asyncio.to_thread(_replayed, db.store, finished, account.id)
    stats = (await asyncio.to_thread(player_stats, replayed)).get("me", PlayerStats())
    if len(accounts.stats_cache) >= STATS_CACHE:
        accounts.stats_cache.clear()
    accounts.stats_cache[account.id] = (key, stats)
    return stats


def router() -> APIRouter:
    r = APIRouter()

    for path, page in (
        ("/u/{name}", "profile.html"),
        ("/history", "history.html"),
        ("/leaderboard", "leaderboard.html"),
    ):

        async def serve(page: str = page) -> FileResponse:
            return FileResponse(STATIC / page)

        r.add_api_route(path, serve, methods=["GET"], include_in_schema=False)

    async def account_named(request: Request, name: str) -> Account:
        acc = await accounts_of(request).db.by_key(name_key(name))
        if acc is None:
            raise refuse(request, 404, N_("no player named {name}"), name=name)
        return acc

    @r.get("/api/users/{name}")
    async def profile(request: Request, name: str) -> dict[str, Any]:
        """A player's ratings per rule family and statistics (see ``spades.stats``)."""
        db = accounts_of(request).db
        acc = await account_named(request, name)
        ratings = await db.ratings_of(subject_of(acc.id))
        rules_of = {f: rules for f, rules, _n in await db.families()} if ratings else {}
        stats = await stats_of(accounts_of(request), acc)
        return {
            "name": acc.name,
            "since": acc.created_at,
            "ratings": [
                {
                    "family": x.family,
                    "rules": rules_of.get(x.family, ""),
                    "mu": x.mu,
                    "sigma": x.sigma,
                    "games": x.games,
                    "display": display(x.mu, x.sigma),
                }
                for x in sorted(ratings, key=lambda x: -x.games)
            ],
            "stats": stats.to_dict(series=False),
        }

    @r.get("/api/users/{name}/rating.svg")
    async def rating_plot(request: Request, name: str, family: str = "standard") -> Response:
        db = accounts_of(request).db
        acc = await account_named(request, name)
        hist = await db.history(subject_of(acc.id), family[:40])
        svg = line_chart(
            [(family, [float(display(mu, sigma)) for _at, mu, sigma, _t in hist])],
            times=[at for at, _mu, _sigma, _t in hist],
            title=say(request, N_("Rating of {name} ({family})"), name=acc.name, family=family[:40]),
            x_label=say(request, N_("date (UTC)")),
            empty=say(request, N_("no rated games yet")),
        )
        return Response(svg, media_type="image/svg+xml", headers=SVG_HEADERS)

    @r.get("/api/users/{name}/points.svg")
    async def points_plot(request: Request, name: str) -> Response:
        from spades.stats import rolling_points_per_hand

        acc = await account_named(request, name)
        stats = await stats_of(accounts_of(request), acc)
        svg = line_chart(
            [("", rolling_points_per_hand(stats.series, ROLLING))],
            title=say(request, N_("Points per hand of {name} (last {n} hands)"), name=acc.name, n=ROLLING),
            x_label=say(request, N_("hands played")),
            empty=say(request, N_("no finished games yet")),
        )
        return Response(svg, media_type="image/svg+xml", headers=SVG_HEADERS)

    @r.get("/api/history")
    async def history(request: Request, limit: int = 50) -> dict[str, Any]:
        """The signed-in account's games, newest first, with replay links."""
        session = await current(request)
        if session is None:
            raise refuse(request, 401, N_("you are not signed in"))
        if not 1 <= limit <= MAX_HISTORY:
            raise refuse(
                request, 400, N_("limit {limit} is not between 1 and {most}"), limit=limit, most=MAX_HISTORY
            )
        db = accounts_of(request).db
        games = []
        for table_id, seat, at, status, line in await db.games_of(session.account.id, limit):
            line = line or {}
            result = None
            totals = line.get("totals") or []
            if status == "over" and totals:
                try:
                    side = Rules.from_spec(line.get("rules")).side_of(seat)
                    best = max(totals)
                    result = "won" if totals[side] == best and totals.count(best) == 1 else "lost"
                except (ValueError, IndexError, TypeError):
                    result = None
            games.append(
                {
                    "id": table_id,
                    "created_at": at,
                    "status": status,
                    "seat": seat,
                    "rules": line.get("rules"),
                    "totals": totals,
                    "hand": line.get("hand"),
                    "players": [s.get("name") for s in line.get("seats", [])],
                    "result": result,
                    "table": f"/t/{table_id}",
                    "replay": f"/replay?table={table_id}",
                }
            )
        return {"account": {"id": session.account.id, "name": session.account.name}, "games": games}

    @r.get("/api/leaderboard")
    async def leaderboard(request: Request, family: str | None = None, limit: int = 100) -> dict[str, Any]:
        """Ratings of one rule family (default: the one with most rated games), best first
        by ``mu - 3 sigma``; ``families`` lists every family with rated games."""
        if not 1 <= limit <= 1000:
            raise refuse(
                request, 400, N_("limit {limit} is not between 1 and {most}"), limit=limit, most=1000
            )
        db = accounts_of(request).db
        families = sorted(await db.families(), key=lambda f: (-f[2], f[0]))
        chosen = family if family is not None else (families[0][0] if families else "standard")
        rows = []
        for i, (rt, shown) in enumerate(await db.leaderboard(chosen[:40], limit)):
            is_user = rt.subject.startswith("user:")
            rows.append(
                {
                    "rank": i + 1,
                    "subject": rt.subject,
                    "name": shown,
                    "bot": not is_user,
                    "display": display(rt.mu, rt.sigma),
                    "mu": rt.mu,
                    "sigma": rt.sigma,
                    "games": rt.games,
                    "profile": f"/u/{shown}" if is_user else None,
                }
            )
        return {
            "family": chosen,
            "families": [{"family": f, "rules": rules, "games": n} for f, rules, n in families],
            "rows": rows,
        }

    return r
