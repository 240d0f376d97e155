"""Every table of one worker, and the worker's place in the service.

Alone (no Redis) a worker owns every table of its database, and says so: it registers as the
``solo`` worker and a second server on the same database refuses to start. With Redis it is
one of many ``cluster`` workers: it owns the tables it holds a lease on (those created through
it, or taken over from a worker that went silent) and keeps replicas of the others its
browsers look at, and the membership loop (``cluster.Membership``) keeps all that current.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import logging
import secrets
import time
from collections.abc import Callable, Coroutine, Sequence
from typing import Any

from spades.actions import Action
from spades.bots import Bot, Decision, make_bot
from spades.errors import SpadesError
from spades.observation import Observation
from spades.server.schema import CreateTable
from spades.server.store import FINAL, LIVE, BadTable, Store, StoredTable, StoreError
from spades.server.tables import (
    IDLE_S,
    LIST_LIMIT,
    MOVED,
    TableActor,
    TableConf,
    bot_available,
    conf_from_request,
)

log = logging.getLogger("spades.server")

MAX_LIVE_TABLES = 5000
"""Live tables (waiting or playing) the whole service holds at most."""
WAITING_TTL = 3600.0
"""A table nobody filled within an hour of its creation expires."""
LEASE_TTL = 3.0
"""A worker silent this long has lost its tables to the others."""
BEAT_S = 0.5
DECIDE_TIMEOUT = 30.0
FORWARD_TIMEOUT = 8.0


def strongest_bot() -> str:
    """The hint level: the expert bot where this build has it."""
    return "expert" if bot_available("expert") else "heuristic"


class TableManager:
    """Tables by id; see the module docstring for who owns what."""

    def __init__(
        self,
        store: Store,
        *,
        hint_level: str | None = None,
        idle_s: float = IDLE_S,
        waiting_ttl: float | None = WAITING_TTL,
        max_live: int = MAX_LIVE_TABLES,
        redis_url: str | None = None,
        pool: Any = None,
    ) -> None:
        self.store = store
        self.hint_level = hint_level or strongest_bot()
        self.idle_s = idle_s
        self.waiting_ttl = waiting_ttl
        self.max_live = max_live
        self.tables: dict[str, TableActor] = {}
        self.worker_id = secrets.token_hex(8)
        self.pool = pool
        self.membership: Any = None
        if redis_url is not None:
            from spades.server.cluster import Membership

            self.membership = Membership(self, redis_url)
        self._tasks: set[asyncio.Task[Any]] = set()
        self._reaper: asyncio.Task[None] | None = None
        self._bots: dict[str, Bot] = {}
        self._loading: dict[str, asyncio.Future[TableActor | None]] = {}

    @property
    def clustered(self) -> bool:
        return self.membership is not None

    # ------------------------------------------------------------------ life
    async def open(self) -> None:
        """Join the service (or claim the database as its only server), load what this
        worker owns and start its tables."""
        if self.membership is not None:
            await self.membership.start()
        else:
            await self._check_alone()
            await self.store.aread(self.store.register_worker, self.worker_id, "solo")
            await self.load_all_async()
            self.spawn(self._solo_beat())
        self.start()
        self._settle_finished()

    def _settle_finished(self) -> None:
        """What a worker that died may have left undone: a table whose log ends its game
        but whose lobby line still says it plays gets its line (and its rating, if rated);
        finished rated games with no rating are rated (``rated.catch_up``; safe on several
        workers at once)."""
        from spades.server.rated import catch_up, game_over

        for actor in list(self.tables.values()):
            if actor.status == "over":
                self.write_listing(actor)
                game_over(actor)
        self.spawn(catch_up(self.store))

    async def _check_alone(self) -> None:
        from spades.server.cluster import live_others

        others = live_others(await self.store.aread(self.store.workers), self.worker_id, LEASE_TTL)
        if others:
            w = others[0]
            raise SpadesError(
                f"another spades server ({w.mode} worker on {w.host}, pid {w.pid}) is using this database; "
                "stop it, or run every server with --redis to share the database"
            )

    async def _solo_beat(self) -> None:
        while True:
            await asyncio.sleep(BEAT_S * 2)
            try:
                await self.store.aheartbeat(self.worker_id)
            except StoreError as e:
                log.warning("heartbeat: %s", e)
                with contextlib.suppress(StoreError):
                    await self.store.aread(self.store.register_worker, self.worker_id, "solo")

    def start(self) -> None:
        for actor in self.tables.values():
            actor.start()
        if self._reaper is None:
            self._reaper = asyncio.get_running_loop().create_task(self._reap(), name="table-reaper")

    async def stop(self) -> None:
        if self._reaper is not None:
            self._reaper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._reaper
            self._reaper = None
        for actor in list(self.tables.values()):
            await actor.stop()
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        if self.membership is not None:
            await self.membership.stop()
        else:
            with contextlib.suppress(StoreError):
                await self.store.aretire(self.worker_id)

    def spawn(self, coro: Coroutine[Any, Any, Any]) -> None:
        """Run in the background, kept alive until done; failures are logged."""
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)

        def done(t: asyncio.Task[Any]) -> None:
            self._tasks.discard(t)
            if not t.cancelled() and t.exception() is not None:
                log.error("background task failed: %s", t.exception())

        task.add_done_callback(done)

    # ------------------------------------------------------------------ loading
    def _rebuild(self, stored: StoredTable, owner: bool) -> TableActor | None:
        try:
            actor = TableActor.from_stored(stored, mgr=self, hint_level=self.hint_level)
        except (SpadesError, KeyError, TypeError, ValueError, IndexError) as e:
            log.error("table %s: cannot rebuild it from its log (%s); left out", stored.id, e)
            return None
        actor.owner = owner and actor.status in LIVE
        return actor

    def load_all(self) -> int:
        """Rebuild every unfinished table from its log (a solo server owns them all). A table
        whose rows do not parse or whose log no longer replays is left out with a one-line
        log entry, not a failed start."""
        for tid in self.store.table_ids(exclude_over=True):
            try:
                stored = self.store.load(tid)
            except BadTable as e:
                log.error("%s; left out", e)
                continue
            if stored is None:
                continue
            actor = self._rebuild(stored, owner=True)
            if actor is not None:
                self.tables[actor.id] = actor
        return len(self.tables)

    async def load_all_async(self) -> int:
        return await asyncio.to_thread(self.load_all)

    async def get(self, table_id: str) -> TableActor | None:
        """The table, from memory or else loaded from the store (``None``: no such table).
        A clustered worker loads a table it does not own as a replica."""
        actor = self.tables.get(table_id)
        if actor is None:
            pending = self._loading.get(table_id)
            if pending is None:
                pending = asyncio.get_running_loop().create_future()
                self._loading[table_id] = pending
                try:
                    actor = await self._load(table_id)
                    pending.set_result(actor)
                except BaseException as e:
                    pending.set_exception(e)
                    pending.exception()  # retrieved: no warning if nobody else waits
                    raise
                finally:
                    self._loading.pop(table_id, None)
            else:
                actor = await pending
            if actor is None:
                return None
        actor.last_used = time.monotonic()
        return actor

    async def _load(self, table_id: str) -> TableActor | None:
        if self.membership is not None:
            await self.membership.watch(table_id)
        try:
            stored = await self.store.aread(self.store.load, table_id)
        except BadTable as e:
            log.error("%s", e)
            raise StoreError(f"table {table_id} cannot be read back: its log is damaged") from None
        if stored is None:
            if self.membership is not None:
                await self.membership.unwatch(table_id)
            return None
        owner = self.membership is None
        actor = self._rebuild(stored, owner=owner)
        if actor is None:
            raise StoreError(f"table {table_id} cannot be rebuilt from its log")
        existing = self.tables.get(table_id)
        if existing is not None:
            return existing
        self.tables[table_id] = actor
        actor.start()
        if not actor.owner and actor.status in LIVE:
            self.spawn(self._chat_backlog(actor))
        return actor

    async def _chat_backlog(self, actor: TableActor) -> None:
        """A replica loaded now asks the owner for the chat said before it was here (chat
        is kept in memory only, ``TableActor.chat_log``); nobody answering costs nothing."""
        try:
            out = await asyncio.wait_for(actor.command("chat_log", {}), FORWARD_TIMEOUT)
        except (TimeoutError, SpadesError, StoreError) as e:
            log.info("table %s: no chat backlog from its owner (%s)", actor.id, e)
            return
        lines = out.get("lines")
        if out.get("error") is None and isinstance(lines, list) and not actor.owner:
            actor.merge_chat([str(line) for line in lines])

    # ------------------------------------------------------------------ creation and listing
    async def create(
        self,
        req: CreateTable,
        adjust: Callable[[TableConf, dict[int, tuple[str, str]]], None] | None = None,
    ) -> tuple[TableActor, dict[int, tuple[str, str]]]:
        """A new table, owned here. ``adjust`` may change its configuration and secrets before
        anything is written (a rematch's seats, ``server.rematch``)."""
        conf, secret = conf_from_request(req)
        if adjust is not None:
            adjust(conf, secret)
        live = await self.store.aread(self.store.count_live)
        if live >= self.max_live:
            raise SpadesError(f"the server already runs {live} tables (limit {self.max_live}); try later")
        table_id = secrets.token_urlsafe(9)
        actor = TableActor(table_id, conf, mgr=self, hint_level=self.hint_level, owner=True)
        actor.created_at = await self.store.acreate_table(
            table_id, conf.to_json(), owner=self.worker_id if self.clustered else None
        )
        self.tables[table_id] = actor
        if self.membership is not None:
            await self.membership.own(table_id)
        async with actor.lock:
            for seat, s in enumerate(conf.seats):
                if s.kind == "human" and s.name is not None:
                    await actor._commit("join", {"seat": seat, "name": s.name})
            await actor._advance_or_retry()
        self.write_listing(actor)
        actor.start()
        return actor, secret

    async def list_tables(self, status: str = "waiting", limit: int = LIST_LIMIT) -> list[dict[str, Any]]:
        """The newest ``limit`` tables with that status (``over`` includes expired and failed
        ones; ``all`` every status), from their lobby lines in the store."""
        statuses: Sequence[str] = {
            "waiting": ("waiting",),
            "playing": ("playing",),
            "over": FINAL,
            "all": (*LIVE, *FINAL),
        }[status]
        rows = await self.store.aread(self.store.listing, statuses, limit)
        out = []
        for tid, _created, st, line in rows:
            if line is None:  # written by an older server: rebuild it once from the log
                try:
                    actor = await self.get(tid)
                except StoreError:
                    continue
                if actor is None:
                    continue
                line = actor.listing()
                self.write_listing(actor)
            out.append({**line, "status": st})
        return out

    def write_listing(self, actor: TableActor) -> None:
        """Keep the table's lobby line in the store current (status, names, totals)."""
        if actor.mgr is None:
            return
        # Queued at once, behind the event just written: a stop right after cannot lose it.
        done = self.store.post_status(actor.id, actor.status, actor.listing())
        done.add_done_callback(_log_failure)

    # ------------------------------------------------------------------ between workers
    def published(self, actor: TableActor, seq: int, kind: str, data: dict[str, Any]) -> None:
        if self.membership is not None:
            self.membership.publish_event(actor.id, seq, kind, data)

    def chat(self, actor: TableActor, line: str) -> None:
        """A chat line: the owner hands it to its connections and to the replicas; a replica
        sends it to the owner, which does the same (so the sender's worker hears it once)."""
        if self.membership is None or actor.owner:
            actor.chat_out(line)
            if self.membership is not None:
                self.membership.publish_chat(actor.id, line)
        else:
            self.membership.forward_chat(actor.id, line)

    def rematch_started(self, actor: TableActor, table: str, by: int) -> None:
        """A rematch of a finished table (its ``rematch`` event written): its connections here
        are told, and every other worker holding the table tells its own
        (``cluster.Membership.publish_rematch``)."""
        actor.rematch_out(table, by)
        if self.membership is not None:
            self.membership.publish_rematch(actor.id, {"table": table, "by": by})

    def publish_presence(self, actor: TableActor) -> None:
        if self.membership is not None:
            self.membership.publish_presence(actor)

    def report_presence(self, actor: TableActor) -> None:
        if self.membership is not None:
            self.membership.report_presence(actor)

    async def forward(self, actor: TableActor, op: str, args: dict[str, Any]) -> dict[str, Any]:
        if self.membership is None:
            return {"error": MOVED}
        out: dict[str, Any] = await self.membership.forward(actor, op, args)
        return out

    async def lost(self, actor: TableActor) -> None:
        """Another worker wrote this table's next event: this one steps down (or, alone,
        reads the log again: the log decides)."""
        if self.membership is not None:
            await self.membership.step_down(actor)
            return
        try:
            stored = await self.store.aread(self.store.load, actor.id, after=actor.seq)
            if stored is not None:
                actor.catch_up(stored.events)
        except (SpadesError, KeyError, TypeError, ValueError) as e:
            log.error("table %s: cannot catch up with its log (%s)", actor.id, e)

    # ------------------------------------------------------------------ bots
    async def decide(self, bot: str, obs: Observation, legal: Sequence[Action]) -> Decision:
        """A slow bot's decision, off the event loop (the compute pool, or a thread)."""
        if self.pool is not None:
            d: Decision = await self.pool.decide(bot, obs, legal, timeout=DECIDE_TIMEOUT)
            return d
        b = self._bots.get(bot)
        if b is None:
            b = self._bots[bot] = make_bot(bot)
        return await asyncio.to_thread(b.decide, obs, legal)

    # ------------------------------------------------------------------ memory
    async def _reap(self) -> None:
        every = min(max(self.idle_s / 2, 0.05), 30.0)
        while True:
            await asyncio.sleep(every)
            for tid in self.sweep():
                if self.membership is not None:
                    await self.membership.unwatch(tid)

    def sweep(self, now: float | None = None) -> list[str]:
        """Unload the finished tables (and replicas) nobody uses; returns their ids."""
        now = time.monotonic() if now is None else now
        gone = [tid for tid, t in self.tables.items() if t.idle(now, self.idle_s)]
        for tid in gone:
            del self.tables[tid]
        return gone


def _log_failure(fut: concurrent.futures.Future[Any]) -> None:
    if not fut.cancelled() and fut.exception() is not None:
        log.error("a lobby line was not written: %s", fut.exception())
