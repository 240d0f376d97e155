"""Rematch: a player of a finished table starts a new one with the same rules, bots and seats,
and everyone still at the old table (people and spectators, on any worker) is told and offered
a one-click link to it.

Secrets: no one is ever sent another seat's secret. The starter gets his own seat's token, as
any creator who names his seat. Every other person's seat at the new table keeps the hash of
the token that held it at the old table (``SeatConf.prior_sha``): the news carries only the new
table's id, and the browser that holds the old token opens the new seat with it (``hello``
with ``prior``), once, sitting down under its old name. A seat no one held at the old table gets
an invite ticket for the starter to pass on, as at any new table. A seat bound to an account
is bound again, so it opens from any browser signed in to that account.

The news (``{"type": "rematch", "table", "by", "name"}``) is a ``rematch`` event at the end of
the old table's log (``start_rematch``), sent at once to every worker holding the table and
again at each hello, so a page that reloads, or opens the old table days later, sees it too; a
second request for the same table's rematch answers with the first one's table.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from spades.errors import SpadesError
from spades.server.schema import CreateTable, SeatSpec
from spades.server.store import SeqTaken
from spades.server.tables import TableActor, TableConf
from spades.state import seat_name

if TYPE_CHECKING:
    from spades.server.manager import TableManager

NOT_OVER = "a rematch starts once the game is over"


def rematch_request(old: TableActor, seat: int) -> CreateTable:
    """The old table's settings with its bots, the starter named in his seat and the other
    people's seats open."""
    seats: list[SeatSpec] = []
    for s, sc in enumerate(old.conf.seats):
        if sc.kind == "bot":
            seats.append(SeatSpec(bot=sc.bot))
        elif s == seat:
            seats.append(SeatSpec(open=True, name=old.names[s] or seat_name(s, old.game.n)))
        else:
            seats.append(SeatSpec(open=True))
    c = old.conf
    return CreateTable(
        rules=c.rules.to_dict(),
        seats=seats,
        bot_delay_ms=c.bot_delay_ms,
        hints=c.hints,
        chat=c.chat,
        away_s=c.away_s,
        rated=c.rated,
    )


def _carry_seats(old: TableActor, starter: int) -> Any:
    """Give each other person's new seat his old token's hash (and drop its invite ticket)."""

    def adjust(conf: TableConf, secret: dict[int, tuple[str, str]]) -> None:
        for s, sc in enumerate(conf.seats):
            before = old.conf.seats[s]
            if s == starter or sc.kind != "human" or before.token_sha is None:
                continue
            sc.prior_sha, sc.prior_name, sc.invite_sha = before.token_sha, old.names[s], None
            secret.pop(s, None)

    return adjust


async def _read_log(manager: TableManager, old: TableActor) -> None:
    """Catch the old table up with its log: a rematch another worker wrote is there."""
    stored = await manager.store.aread(manager.store.load, old.id, after=old.seq)
    if stored is not None:
        before = old.rematch
        old.catch_up(stored.events)
        if old.rematch != before:
            old.send_rematch()


async def start_rematch(manager: TableManager, old: TableActor, seat: int) -> dict[str, Any]:
    """Start (or find) the rematch of ``old`` for the player in ``seat``; tell the old table.

    The old table's log decides which rematch is the one: a ``rematch`` event after the game
    (``{"table", "by"}``, no name, so an account's deletion leaves nothing of it there),
    written at the next event number, so of two workers starting one at once the second's
    write fails, it reads the first's, and its own new table stays empty (it expires as any
    table nobody fills). The event also keeps the news for a page that opens the old table
    long after, on any worker.

    Returns ``{"id", "url", "seat", "token", "invites", "created"}``: ``token`` is the
    starter's new seat token (``None`` when the rematch already existed: he opens his seat
    like the others, with ``prior``), ``invites`` the tickets of seats no one held."""
    if old.status != "over":
        raise SpadesError(NOT_OVER)
    async with old.lock:  # two players pressing at once on one worker: one new table
        await _read_log(manager, old)
        if old.rematch is None:
            new, secret = await manager.create(rematch_request(old, seat), _carry_seats(old, seat))
            try:
                await manager.store.aappend(old.id, old.seq + 1, "rematch", {"table": new.id, "by": seat})
            except SeqTaken:
                await _read_log(manager, old)
                if old.rematch is None:
                    raise SpadesError("the rematch could not be written: try again") from None
            else:
                old.seq += 1
                manager.rematch_started(old, new.id, seat)
                token = secret[seat][1] if seat in secret and secret[seat][0] == "token" else None
                invites = [
                    {"seat": s, "invite": v} for s, (kind, v) in sorted(secret.items()) if kind == "invite"
                ]
                return {
                    "id": new.id,
                    "url": f"/t/{new.id}",
                    "seat": seat,
                    "token": token,
                    "invites": invites,
                    "created": True,
                }
        tid = old.rematch[0] if old.rematch is not None else ""
        return {"id": tid, "url": f"/t/{tid}", "seat": seat, "token": None, "invites": [], "created": False}


def accounts_to_bind(old: TableActor, starter: int) -> list[tuple[int, str, str]]:
    """The other seats bound to an account at the old table, to bind again at the new one
    (the starter's own is bound as any creator's)."""
    return [
        (s, sc.account, sc.account_name or old.names[s] or "")
        for s, sc in enumerate(old.conf.seats)
        if s != starter and sc.kind == "human" and sc.account is not None
    ]


__all__ = ["NOT_OVER", "accounts_to_bind", "rematch_request", "start_rematch"]
