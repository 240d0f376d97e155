"""A worker's membership in a many-worker service: leases, takeover, fan-out, forwarding.

The rules, in the order a reader needs them:

- **Leases.** Each live table is owned by one worker: the one holding its row in
  ``spades_leases``. A lease is good while its worker's heartbeat (``spades_workers``, every
  ``BEAT_S``) is younger than ``LEASE_TTL`` by the database's clock. A worker that stops
  beating (``kill -9``, a lost network) loses all its tables at once; every other worker scans
  for such orphans each beat and takes a fair share of them, rebuilding each from its log.
- **Fencing.** The event log's ``(table, seq)`` key: a worker that still thinks it owns a table
  it lost writes an event number its successor already wrote, gets ``SeqTaken``, and steps
  down. Its heartbeat also lists the leases it still holds, so it notices even if idle.
- **Fan-out.** The owner publishes every event it wrote on ``t:{table}``; each worker with a
  replica of the table applies it. Event numbers make a missed message visible (a gap), and
  each beat compares the replicas with the log's last number, so a replica is never stale
  for long even if Redis drops messages.
- **Forwarding.** A player's command reaching a replica is published on ``c:{table}``, where
  only the owner listens, with a request id; the owner answers on ``w:{worker}``. If nobody
  listens (the owner just died) the replica's worker tries to take the lease itself.
- **Presence.** Replicas tell the owner which seats they have connected (on change and every
  beat); the owner merges them with its own, decides who is away (the stand-in bot plays for
  them) and publishes the result.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import itertools
import json
import logging
import math
import os
import random
import socket
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from spades.errors import SpadesError
from spades.server.bus import Bus
from spades.server.store import LIVE, BadTable, StoreError, Worker
from spades.server.tables import MOVED, TableActor

if TYPE_CHECKING:
    from spades.server.manager import TableManager

log = logging.getLogger("spades.server")

SERVED_KEEP = 10_000
"""Forwarded requests remembered (a repeat comes within seconds of the first)."""
PRESENCE_TTL = 5.0
"""A replica's report of its connected seats counts this long unless renewed."""


def live_others(workers: Sequence[Worker], me: str, ttl: float) -> list[Worker]:
    """Workers other than ``me`` that beat within ``ttl``, less those known dead: a process of
    this host that no longer exists (a server killed and restarted at once)."""
    host = socket.gethostname()[:255]
    out = []
    for w in workers:
        if w.id == me or w.age_s >= ttl:
            continue
        if w.host == host and not _alive(w.pid):
            continue
        out.append(w)
    return out


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _dumps(obj: Any) -> str:
    return json.dumps(obj, separators=(",", ":"))


class Membership:
    def __init__(self, mgr: TableManager, redis_url: str) -> None:
        from spades.server.manager import BEAT_S, LEASE_TTL

        self.mgr = mgr
        self.store = mgr.store
        self.me = mgr.worker_id
        self.bus = Bus(redis_url)
        self.ttl = LEASE_TTL
        self.beat_s = BEAT_S
        self._rids = itertools.count(1)
        self._pending: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self._loop_task: asyncio.Task[None] | None = None
        self._catching: set[str] = set()
        self._served: dict[tuple[str, int], asyncio.Task[dict[str, Any]]] = {}
        """Forwarded requests this worker ran (oldest first), so a repeat is answered, not rerun."""

    # ------------------------------------------------------------------ life
    async def start(self) -> None:
        workers = await self.store.aread(self.store.workers)
        solo = [w for w in live_others(workers, self.me, self.ttl) if w.mode == "solo"]
        if solo:
            w = solo[0]
            raise SpadesError(
                f"a spades server without --redis (on {w.host}, pid {w.pid}) is using this database; "
                "stop it first, or start it with --redis too"
            )
        await self.bus.start()
        await self.store.aread(self.store.register_worker, self.me, "cluster")
        await self.bus.subscribe(f"w:{self.me}", self._on_reply)
        await self._beat()
        self._loop_task = asyncio.get_running_loop().create_task(self._run(), name="membership")

    async def stop(self) -> None:
        """Leave cleanly: give every lease back, so the others take the tables over at once."""
        if self._loop_task is not None:
            self._loop_task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._loop_task
            self._loop_task = None
        with contextlib.suppress(StoreError):
            await self.store.aretire(self.me)
        await self.bus.close()

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.beat_s)
            try:
                await self._beat()
            except asyncio.CancelledError:
                raise
            except Exception as e:
                log.warning("membership: %s", e)

    async def _beat(self) -> None:
        mgr = self.mgr
        started = time.monotonic()
        try:
            held = set(await self.store.aheartbeat(self.me))
        except StoreError as e:
            log.warning("heartbeat failed: %s", e)
            if "was removed" in str(e):
                await self.store.aread(self.store.register_worker, self.me, "cluster")
            return
        for actor in list(mgr.tables.values()):
            # A table taken while the heartbeat ran is not in its answer: not a lost lease.
            if actor.owner and actor.status in LIVE and actor.id not in held and actor.owned_at < started:
                log.warning("table %s: lease lost; stepping down", actor.id)
                await self.step_down(actor)
        for actor in list(mgr.tables.values()):
            if actor.owner and actor.remote and actor._recompute_presence():
                actor._changed()
                self.publish_presence(actor)
            elif not actor.owner and actor.conns and actor.status in LIVE:
                self.report_presence(actor)
        await self._take_orphans()
        await self._check_replicas()

    async def _take_orphans(self) -> None:
        orphans = await self.store.aread(self.store.orphans, self.ttl)
        if not orphans:
            return
        workers = live_others(await self.store.aread(self.store.workers), self.me, self.ttl)
        share = math.ceil(len(orphans) / (len(workers) + 1))
        random.shuffle(orphans)
        taken = 0
        for tid in orphans:
            if taken >= share:
                break
            if await self.take(tid):
                taken += 1

    async def take(self, table_id: str) -> bool:
        """Acquire the table's lease if it is free, and become its owner."""
        if not await self.store.aacquire(table_id, self.me, self.ttl):
            return False
        try:
            await self._adopt(table_id)
        except (SpadesError, KeyError, TypeError, ValueError) as e:
            log.error("table %s: cannot take it over (%s); lease given back", table_id, e)
            await self.store.arelease(self.me, [table_id])
            return False
        return True

    async def _adopt(self, table_id: str) -> None:
        mgr = self.mgr
        actor = mgr.tables.get(table_id)
        if actor is None:
            stored = await self.store.aread(self.store.load, table_id)
            if stored is None:
                raise SpadesError(f"table {table_id} is not in the store")
            actor = TableActor.from_stored(stored, mgr=mgr, hint_level=mgr.hint_level)
            mgr.tables[table_id] = actor
        else:
            async with actor.lock:
                stored = await self.store.aread(self.store.load, table_id, after=actor.seq)
                if stored is not None:
                    actor.catch_up(stored.events)
        actor.owner = actor.status in LIVE
        actor.owned_at = time.monotonic()
        if actor.status == "over":  # its owner died after the last move: finish its books
            from spades.server.rated import game_over

            mgr.write_listing(actor)
            game_over(actor)
        await self.bus.unsubscribe(f"t:{table_id}")
        await self.bus.subscribe(f"c:{table_id}", functools.partial(self._on_command, table_id))
        # Whoever was connected to the old owner reconnects to someone; until they report,
        # they count as away from now (the stand-in waits the table's away limit).
        now = time.monotonic()
        for s, sc in enumerate(actor.conf.seats):
            if sc.kind == "human" and not actor.present[s]:
                actor.away_since[s] = actor.away_since[s] or now
        actor._recompute_presence()
        actor.last_used = time.monotonic()
        log.info("table %s: taken over at event %d", table_id, actor.seq)
        actor.start()
        actor._changed()
        self.publish_presence(actor)

    async def own(self, table_id: str) -> None:
        """A table created here: listen for its commands."""
        await self.bus.subscribe(f"c:{table_id}", functools.partial(self._on_command, table_id))

    async def step_down(self, actor: TableActor) -> None:
        """Stop owning: no more driving or writing; watch as a replica and read the log."""
        if not actor.owner:
            return
        actor.owner = False
        task = actor._task
        if task is not None and task is not asyncio.current_task():
            task.cancel()
        actor._task = None
        await self.bus.unsubscribe(f"c:{actor.id}")
        await self.watch(actor.id)
        with contextlib.suppress(StoreError):
            await self.store.arelease(self.me, [actor.id])
        self.mgr.spawn(self._catch_up(actor))

    async def watch(self, table_id: str) -> None:
        if not self.bus.listening(f"t:{table_id}") and not self.bus.listening(f"c:{table_id}"):
            await self.bus.subscribe(f"t:{table_id}", functools.partial(self._on_table, table_id))

    async def unwatch(self, table_id: str) -> None:
        await self.bus.unsubscribe(f"t:{table_id}")

    # ------------------------------------------------------------------ fan-out
    def publish_event(self, table_id: str, seq: int, kind: str, data: dict[str, Any]) -> None:
        self.bus.post(f"t:{table_id}", _dumps({"e": [seq, kind, data]}))

    def publish_presence(self, actor: TableActor) -> None:
        self.bus.post(f"t:{actor.id}", _dumps({"p": actor.presence_json()}))

    def publish_chat(self, table_id: str, line: str) -> None:
        self.bus.post(f"t:{table_id}", _dumps({"c": line}))

    def forward_chat(self, table_id: str, line: str) -> None:
        self.bus.post(f"c:{table_id}", _dumps({"chat": line}))

    def publish_rematch(self, table_id: str, info: dict[str, Any]) -> None:
        """A rematch of a finished table, to every worker holding it: nobody owns a finished
        table, so both its channels (``t:`` for replicas, ``c:`` for the last owner)."""
        msg = _dumps({"rematch": info})
        self.bus.post(f"t:{table_id}", msg)
        self.bus.post(f"c:{table_id}", msg)

    def publish_anonymised(self, table_id: str, seat: int) -> None:
        """A deleted account's seat: every worker holding the table (owner on ``c:``,
        replicas on ``t:``) shows the anonymous name at once (``anonymised``)."""
        msg = _dumps({"anon": seat})
        self.bus.post(f"t:{table_id}", msg)
        self.bus.post(f"c:{table_id}", msg)

    def anonymised(self, table_id: str, seat: int) -> None:
        from spades.server.accountdb import ANONYMOUS

        actor = self.mgr.tables.get(table_id)
        if actor is None or not 0 <= seat < len(actor.conf.seats):
            return
        actor.anonymise(seat, ANONYMOUS)
        if actor.owner:  # its next lobby line must not bring the old name back
            self.mgr.write_listing(actor)

    def report_presence(self, actor: TableActor) -> None:
        msg = {"presence": sorted(actor.local_seats()), "from": self.me}
        self.bus.post(f"c:{actor.id}", _dumps(msg))

    def _on_table(self, table_id: str, text: str) -> None:
        actor = self.mgr.tables.get(table_id)
        if actor is None:
            return
        msg = json.loads(text)
        if "rematch" in msg:
            actor.rematch_out(str(msg["rematch"]["table"]), int(msg["rematch"]["by"]))
            return
        if actor.owner:
            return
        if "anon" in msg:
            self.anonymised(table_id, int(msg["anon"]))
            return
        if "c" in msg:  # a chat line, from the owner
            actor.chat_out(str(msg["c"]))
            return
        if "p" in msg:
            actor.set_presence(msg["p"])
            return
        seq, kind, data = msg["e"]
        if seq <= actor.seq:
            return
        if seq == actor.seq + 1 and table_id not in self._catching and not actor.lock.locked():
            try:
                actor.apply_event(kind, data)
            except (SpadesError, KeyError, TypeError, ValueError) as e:
                log.error("table %s: event %d does not apply (%s); reading the log", table_id, seq, e)
                self.mgr.spawn(self._catch_up(actor))
                return
            actor.seq = seq
            actor._changed()
            return
        self.mgr.spawn(self._catch_up(actor))

    async def _catch_up(self, actor: TableActor) -> None:
        """Read the log from the replica's last event: the truth for anyone who missed one."""
        if actor.id in self._catching:
            return
        self._catching.add(actor.id)
        try:
            async with actor.lock:
                stored = await self.store.aread(self.store.load, actor.id, after=actor.seq)
                if stored is not None:
                    actor.catch_up(stored.events)
                    actor.status = actor._derived_status()
            actor._changed()
        except (SpadesError, KeyError, TypeError, ValueError) as e:
            log.error("table %s: cannot catch up with its log (%s)", actor.id, e)
        finally:
            self._catching.discard(actor.id)

    async def _check_replicas(self) -> None:
        replicas = [a for a in self.mgr.tables.values() if not a.owner and a.status in LIVE]
        if not replicas:
            return
        try:
            seqs = await self.store.aread(self.store.last_seqs, [a.id for a in replicas])
        except StoreError:
            return
        for actor in replicas:
            if seqs.get(actor.id, 0) > actor.seq:
                self.mgr.spawn(self._catch_up(actor))

    # ------------------------------------------------------------------ forwarding
    def _on_command(self, table_id: str, text: str) -> None:
        actor = self.mgr.tables.get(table_id)
        if actor is None:
            return
        msg = json.loads(text)
        if "anon" in msg:
            self.anonymised(table_id, int(msg["anon"]))
            return
        if "rematch" in msg:
            actor.rematch_out(str(msg["rematch"]["table"]), int(msg["rematch"]["by"]))
            return
        if "chat" in msg:  # a replica's chat line: hand it out here and to every replica
            actor.chat_out(str(msg["chat"]))
            self.publish_chat(table_id, str(msg["chat"]))
            return
        if "presence" in msg:
            seats = frozenset(int(s) for s in msg["presence"])
            known = msg["from"] in actor.remote
            actor.remote[msg["from"]] = (seats, time.monotonic() + PRESENCE_TTL)
            if actor._recompute_presence() or not known:
                actor._changed()
                self.publish_presence(actor)
            return
        self.mgr.spawn(self._serve(actor, msg))

    async def _serve(self, actor: TableActor, msg: dict[str, Any]) -> None:
        """Run a forwarded command once: a repeat of the same request (the sender timed out
        waiting and asked again) gets the first run's answer, never a second run."""
        key = (str(msg["from"]), int(msg["rid"]))
        run = self._served.get(key)
        if run is None:
            run = self._served[key] = asyncio.get_running_loop().create_task(
                self._execute(actor, msg), name=f"forwarded-{key[1]}"
            )
            while len(self._served) > SERVED_KEEP:
                self._served.pop(next(iter(self._served)))
        out = await asyncio.shield(run)
        await self.bus.publish(f"w:{msg['from']}", _dumps({"rid": msg["rid"], "out": out}))

    async def _execute(self, actor: TableActor, msg: dict[str, Any]) -> dict[str, Any]:
        try:
            return await actor.execute(str(msg["op"]), dict(msg["args"]))
        except (SpadesError, KeyError, TypeError, ValueError) as e:
            return {"error": str(e)}

    def _on_reply(self, text: str) -> None:
        msg = json.loads(text)
        fut = self._pending.pop(int(msg["rid"]), None)
        if fut is not None and not fut.done():
            fut.set_result(dict(msg["out"]))

    async def forward(self, actor: TableActor, op: str, args: dict[str, Any]) -> dict[str, Any]:
        """Send a command to the table's owner and wait for its answer; with no owner
        listening, take the table over and run it here."""
        from spades.server.manager import FORWARD_TIMEOUT

        deadline = time.monotonic() + FORWARD_TIMEOUT
        loop = asyncio.get_running_loop()
        rid = next(self._rids)  # one id for every retry: the owner runs a request once
        while time.monotonic() < deadline:
            if actor.owner:
                return await actor.execute(op, args)
            fut: asyncio.Future[dict[str, Any]] = loop.create_future()
            self._pending[rid] = fut
            msg = {"op": op, "args": args, "rid": rid, "from": self.me}
            heard = await self.bus.publish(f"c:{actor.id}", _dumps(msg))
            if heard == 0:
                self._pending.pop(rid, None)
                if await self.take(actor.id):
                    continue
                await asyncio.sleep(0.2)
                continue
            try:
                out = await asyncio.wait_for(fut, 3.0)
            except TimeoutError:
                self._pending.pop(rid, None)
                continue
            if out.get("moved"):
                await asyncio.sleep(0.2)
                continue
            return out
        return {"error": MOVED}


__all__ = ["BadTable", "Membership", "live_others"]
