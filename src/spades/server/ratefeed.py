"""A tournament's games into the server's ratings (``spades tournament … --rate-into URL``).

Why: the issue wants a bot's rating to come from its games against people *and* against
other bots. The server rates the bot-only tables played on it; this brings in the many more
games a tournament plays off-line, so the leaderboard's bot levels reflect them too.

Each game of the tournament folder is one rated result: two teams (each side's bot, whose two
seats count once, as at the server), ranked as the tournament ranks it (the side that won, or
was ahead when the game was cut; equal: a tie), in the tournament's own order (deal, run,
pair). The family is the server's (``rated.family_of``: a preset's name, else ``house-…``;
asking for it counts as marking the rules rated). Each game's id is a hash of the
tournament's settings and the game, written with the ratings in one transaction
(``AccountDB.rate``), so feeding the same folder again, or a longer run of the same
tournament, rates only the games not rated before.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from pathlib import Path

from spades.errors import SpadesError
from spades.i18n import _
from spades.match import MAX_HANDS
from spades.ratings import bot_id
from spades.rules import Rules
from spades.server.accountdb import AccountDB
from spades.server.rated import Result, family_of, rate
from spades.server.store import Store
from spades.tournament import check_bots, manifest, plan, read_done, result_of_record, units_in_order

DEFAULT = "default"
"""``--rate-into default``: the database ``spades serve`` uses without ``--db``."""


def tournament_results(
    bots: list[str],
    rules: Rules,
    *,
    out: str | Path,
    games: int | None = None,
    hands: int | None = None,
    seed: int = 0,
    max_hands: int = MAX_HANDS,
) -> list[Result]:
    """Every game of a finished tournament folder as a rating result, in rating order.
    A game missing from the folder is a one-line ``SpadesError``."""
    if games is None and hands is None:
        games = 20
    family = family_of(rules, True)
    assert family is not None
    spec = json.dumps(rules.to_spec(), sort_keys=True, separators=(",", ":"))
    settings = manifest(rules, seed=seed, single_hand=hands is not None, max_hands=max_hands)
    base = json.dumps(settings, sort_keys=True, separators=(",", ":"))
    folder = Path(out)
    results: list[Result] = []
    pairs = plan(check_bots(bots), rules, games=games, hands=hands, seed=seed, max_hands=max_hands)
    for u in units_in_order(pairs):
        where = str(folder / u.path)
        data = read_done(folder, u)
        if data is None:
            raise SpadesError(
                _("{path}: this game was not played; run the tournament first").format(path=where)
            )
        r = result_of_record(data, u, rules, where)
        ranks = [1, 2] if r.a_score > 0.5 else [2, 1] if r.a_score < 0.5 else [1, 1]
        key = hashlib.sha256(f"{base}\0{u.task.a}\0{u.task.b}\0{u.path}".encode()).hexdigest()[:36]
        results.append(Result("tn-" + key, family, spec, [[bot_id(u.task.a)], [bot_id(u.task.b)]], ranks))
    return results


async def _rate_all(store: Store, results: list[Result]) -> int:
    db = AccountDB(store)
    new = 0
    for result in results:
        if await rate(db, result) is not None:
            new += 1
    return new


def rate_into(url: str, results: list[Result]) -> int:
    """Rate ``results`` in the database at ``url`` (``default``: the server's default one;
    its tables are made if new); returns how many were rated now (the rest were already)."""
    store = Store(None if url == DEFAULT else url)
    try:
        store.migrate()
        return asyncio.run(_rate_all(store, results))
    finally:
        store.close()
