"""The event log of every table, in SQLite (default) or PostgreSQL, one schema for both.

Why an event log: a table is rebuilt by replaying what happened to it (joins, deals with their
secret decks, actions), so the store never holds a half-updated game and a crash loses nothing
that was written. Every write commits before the caller sends its effect to anyone.
The schema is created and upgraded by Alembic (``spades/server/migrations``).

Why a writer thread: a write may wait on the disk or on another process's lock (an outside
``BEGIN EXCLUSIVE`` on the SQLite file, a slow PostgreSQL), and the server's event loop must
never wait with it. Every write goes to one thread that owns the write connection; the loop
awaits a future. Appends that queue up together commit in one transaction (group commit), so
a busy server pays one commit for many actions.

Why ``(table_id, seq)`` is the primary key: it is the fencing token of the many-worker
server. Whoever writes event ``seq`` of a table first wins; any other writer of that ``seq``
gets ``SeqTaken`` and must catch up from the log instead of acting on a stale game.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import json
import logging
import os
import queue
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from sqlalchemy import (
    Column,
    Connection,
    Engine,
    Float,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    create_engine,
    event,
    func,
    insert,
    select,
    text,
    update,
)
from sqlalchemy.engine import make_url
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.pool import PoolProxiedConnection

from spades.errors import SpadesError, first_line

log = logging.getLogger("spades.server")
T = TypeVar("T")

metadata = MetaData()

tables_t = Table(
    "spades_tables",
    metadata,
    Column("id", String(40), primary_key=True),
    Column("created_at", Float, nullable=False),
    Column("status", String(16), nullable=False),
    Column("config", Text, nullable=False),
    Column("summary", Text, nullable=True),
)

events_t = Table(
    "spades_events",
    metadata,
    Column("table_id", String(40), primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("kind", String(16), nullable=False),
    Column("data", Text, nullable=False),
)

workers_t = Table(
    "spades_workers",
    metadata,
    Column("id", String(40), primary_key=True),
    Column("mode", String(16), nullable=False),
    Column("host", String(255), nullable=False),
    Column("pid", Integer, nullable=False),
    Column("started_at", Float, nullable=False),
    Column("heartbeat_at", Float, nullable=False),
)

leases_t = Table(
    "spades_leases",
    metadata,
    Column("table_id", String(40), primary_key=True),
    Column("worker_id", String(40), nullable=False),
    Column("acquired_at", Float, nullable=False),
)

LIVE = ("waiting", "playing")
"""Statuses of a table still in play; every other status (``over``, ``expired``,
``failed``) is final."""
FINAL = ("over", "expired", "failed")
GROUP_MAX = 512
"""Appends committed in one transaction at most."""


class StoreError(SpadesError):
    """The database refused a read or a write."""


class SeqTaken(StoreError):
    """Another writer already wrote this event number: the caller's game is stale."""


class BadTable(StoreError):
    """A table's rows cannot be read back (broken JSON, a newer build's data)."""


@dataclass(frozen=True, slots=True)
class StoredTable:
    id: str
    created_at: float
    status: str
    config: dict[str, Any]
    events: list[tuple[int, str, dict[str, Any]]]
    summary: dict[str, Any] | None = None
    """The table's lobby line (see ``Store.listing``); ``None`` where an older server
    never wrote one."""


@dataclass(frozen=True, slots=True)
class Worker:
    id: str
    mode: str
    host: str
    pid: int
    age_s: float
    """Seconds since its last heartbeat, by the database's clock."""


def normalise_url(url: str) -> str:
    """The URL SQLAlchemy takes (``postgresql://`` uses psycopg 3); see ``dburl.check_db_url``."""
    from spades.server.dburl import check_db_url

    return check_db_url(url)


def _is_conflict(e: BaseException) -> bool:
    """A unique-key violation, whatever the driver (sqlite3 and psycopg both follow DB-API)."""
    return any(cls.__name__ == "IntegrityError" for cls in type(e).__mro__)


class _Append:
    __slots__ = ("future", "params")

    def __init__(self, params: tuple[str, int, str, str]) -> None:
        self.params = params
        self.future: concurrent.futures.Future[None] = concurrent.futures.Future()


class _Call:
    __slots__ = ("fn", "future")

    def __init__(self, fn: Callable[[], Any]) -> None:
        self.fn = fn
        self.future: concurrent.futures.Future[Any] = concurrent.futures.Future()


class _Writer:
    """The thread that owns the write connection; see the module docstring."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.jobs: queue.SimpleQueue[_Append | _Call | None] = queue.SimpleQueue()
        self.thread = threading.Thread(target=self._run, name="spades-store-writer", daemon=True)
        self.thread.start()

    def stop(self) -> None:
        self.jobs.put(None)
        self.thread.join(10)

    def _run(self) -> None:
        while True:
            job = self.jobs.get()
            if job is None:
                return
            batch: list[_Append | _Call] = [job]
            stop = False
            while len(batch) < GROUP_MAX:
                try:
                    nxt = self.jobs.get_nowait()
                except queue.Empty:
                    break
                if nxt is None:
                    stop = True
                    break
                batch.append(nxt)
            run: list[_Append] = []
            for item in batch:
                if isinstance(item, _Append):
                    run.append(item)
                    continue
                if run:
                    self._appends(run)
                    run = []
                self._call(item)
            if run:
                self._appends(run)
            if stop:
                return

    def _call(self, job: _Call) -> None:
        if not job.future.set_running_or_notify_cancel():  # its caller was cancelled: skip it
            return
        try:
            job.future.set_result(job.fn())
        except BaseException as e:  # the caller gets the error, the thread goes on
            job.future.set_exception(e)

    def _appends(self, jobs: list[_Append]) -> None:
        # A cancelled caller's append is not written (and its future must not be set: that
        # raised InvalidStateError and killed this thread, hanging every later write).
        jobs = [j for j in jobs if j.future.set_running_or_notify_cancel()]
        if len(jobs) > 1:
            try:
                self.store._insert_events([j.params for j in jobs])
            except Exception:
                pass  # one of them failed: do them one by one to tell which
            else:
                for j in jobs:
                    j.future.set_result(None)
                return
        for j in jobs:
            try:
                self.store._insert_events([j.params])
            except Exception as e:
                j.future.set_exception(e)
            else:
                j.future.set_result(None)


class Store:
    """Short transactions; every write through the writer thread, reads from any thread.

    The synchronous methods are for tools and tests; the server awaits the ``a``-prefixed
    ones (``aappend``, ``acall``, ``aread``), which never block its event loop."""

    def __init__(self, url: str | None = None) -> None:
        from spades.server.dburl import check_db_url, secure_sqlite_file, sqlite_path

        try:
            self.url = check_db_url(url)
            self._path = sqlite_path(self.url)
            if self._path is not None:
                secure_sqlite_file(self._path)
        except OSError as e:
            raise StoreError(f"cannot create the database file: {e.strerror or e}") from None
        except SpadesError as e:
            raise StoreError(str(e)) from None
        self.is_sqlite = self._path is not None
        kwargs: dict[str, Any] = {}
        if not self.is_sqlite:
            kwargs["pool_pre_ping"] = True
            kwargs["pool_size"] = 4
        try:
            self.engine: Engine = create_engine(self.url, **kwargs)
        except Exception as e:
            raise StoreError(f"database URL {self.safe_url} cannot be used: {first_line(e)}") from None
        self._wconn: Connection | None = None
        self._raw: PoolProxiedConnection | None = None
        mark = "?" if self.engine.dialect.paramstyle == "qmark" else "%s"
        self._insert_sql = (
            f"INSERT INTO spades_events (table_id, seq, kind, data) VALUES ({mark}, {mark}, {mark}, {mark})"
        )
        self._now = (
            "((julianday('now') - 2440587.5) * 86400.0)"
            if self.is_sqlite
            else "EXTRACT(EPOCH FROM clock_timestamp())::float8"
        )
        if self.is_sqlite:
            event.listen(self.engine, "connect", _sqlite_pragmas)
        self._writer: _Writer | None = None
        self._lock = threading.Lock()

    # ------------------------------------------------------------------ plumbing
    @property
    def writer(self) -> _Writer:
        with self._lock:
            if self._writer is None:
                self._writer = _Writer(self)
            return self._writer

    def _submit(self, fn: Callable[[], T]) -> concurrent.futures.Future[T]:
        job = _Call(fn)
        self.writer.jobs.put(job)
        return job.future

    def call(self, fn: Callable[[], T]) -> T:
        """Run ``fn`` on the writer thread and wait (tools and tests)."""
        return self._submit(fn).result()

    async def acall(self, fn: Callable[[], T]) -> T:
        """Run ``fn`` on the writer thread; the loop only awaits."""
        return await asyncio.wrap_future(self._submit(fn))

    async def aread(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """Run a read off the loop (reads use pooled connections from any thread)."""
        return await asyncio.to_thread(fn, *args, **kwargs)

    def migrate(self) -> None:
        """Bring the schema to the newest Alembic revision (creating it on a fresh database)."""
        from alembic import command
        from alembic.config import Config

        cfg = Config()
        cfg.set_main_option("script_location", str(Path(__file__).with_name("migrations")))
        try:
            with self.engine.begin() as conn:
                if not self.is_sqlite:
                    # Several workers starting at once on a fresh database: one migrates, the
                    # others wait for it (SQLite's own write lock does this for SQLite).
                    conn.execute(text("SELECT pg_advisory_xact_lock(7365727665)"))
                cfg.attributes["connection"] = conn
                command.upgrade(cfg, "head")
        except SQLAlchemyError as e:
            raise StoreError(f"cannot prepare the database {self.safe_url}: {first_line(e)}") from None
        except OSError as e:
            raise StoreError(f"cannot prepare the database {self.safe_url}: {e}") from None
        if self._path is not None:
            from spades.server.dburl import secure_sqlite_file

            self.engine.dispose()  # closing a file SQLite holds open drops its POSIX locks
            secure_sqlite_file(self._path)

    @property
    def safe_url(self) -> str:
        return self.safe(self.url)

    @staticmethod
    def safe(url: str) -> str:
        """The URL with its password hidden, for messages and logs."""
        return make_url(url).render_as_string(hide_password=True)

    # ------------------------------------------------------------------ events
    def _insert_events(self, rows: Sequence[tuple[str, int, str, str]]) -> None:
        """Runs on the writer thread only: one transaction for ``rows``."""
        try:
            if self._raw is None:
                self._raw = self.engine.raw_connection()
            conn = self._raw.driver_connection
            assert conn is not None
            cur = conn.cursor()
            try:
                if len(rows) == 1:
                    cur.execute(self._insert_sql, rows[0])
                else:
                    cur.executemany(self._insert_sql, rows)
            finally:
                cur.close()
            conn.commit()
        except Exception as e:
            conflict = _is_conflict(e)
            self._drop_raw()
            if conflict and len(rows) == 1:
                raise SeqTaken(f"table {rows[0][0]}: event {rows[0][1]} was already written") from None
            raise StoreError(f"the database refused a write: {first_line(e)}") from None

    def _append_job(self, table_id: str, seq: int, kind: str, data: dict[str, Any]) -> _Append:
        job = _Append((table_id, seq, kind, json.dumps(data, separators=(",", ":"))))
        self.writer.jobs.put(job)
        return job

    def append(self, table_id: str, seq: int, kind: str, data: dict[str, Any]) -> None:
        """Write one event; returns only once it is committed (``SeqTaken`` if that number
        is already written)."""
        self._append_job(table_id, seq, kind, data).future.result()

    async def aappend(self, table_id: str, seq: int, kind: str, data: dict[str, Any]) -> None:
        await asyncio.wrap_future(self._append_job(table_id, seq, kind, data).future)

    def _drop_raw(self) -> None:
        raw, self._raw = self._raw, None
        if raw is not None:
            with contextlib.suppress(Exception):
                raw.rollback()
            with contextlib.suppress(Exception):
                raw.close()

    def _execute(self, stmt: Any, params: dict[str, Any] | None = None) -> Any:
        """Runs on the writer thread only: one statement in its own transaction."""
        try:
            if self._wconn is None:
                self._wconn = self.engine.connect()
            result = self._wconn.execute(stmt, params or {})
            rows = result.all() if result.returns_rows else result.rowcount
            self._wconn.commit()
            return rows
        except SQLAlchemyError as e:
            if self._wconn is not None:
                with contextlib.suppress(SQLAlchemyError):
                    self._wconn.rollback()
                    self._wconn.close()
                self._wconn = None
            raise StoreError(f"the database refused a write: {first_line(e)}") from None

    # ------------------------------------------------------------------ tables
    def _create_stmt(self, table_id: str, config: dict[str, Any], status: str, created_at: float) -> Any:
        return insert(tables_t).values(
            id=table_id, created_at=created_at, status=status, config=json.dumps(config)
        )

    def create_table(self, table_id: str, config: dict[str, Any], status: str = "waiting") -> float:
        """Write a new table; returns its ``created_at`` (the listings sort by it)."""
        created_at = time.time()
        self.call(lambda: self._execute(self._create_stmt(table_id, config, status, created_at)))
        return created_at

    async def acreate_table(
        self, table_id: str, config: dict[str, Any], *, owner: str | None = None
    ) -> float:
        """Write a new table, and its lease for ``owner`` in the same call."""
        created_at = time.time()

        def job() -> None:
            self._execute(self._create_stmt(table_id, config, "waiting", created_at))
            if owner is not None:
                self._execute(
                    insert(leases_t).values(table_id=table_id, worker_id=owner, acquired_at=created_at)
                )

        await self.acall(job)
        return created_at

    def _status_stmt(self, table_id: str, status: str, summary: dict[str, Any] | None) -> Any:
        values: dict[str, Any] = {"status": status}
        if summary is not None:
            values["summary"] = json.dumps(summary, separators=(",", ":"))
        return update(tables_t).where(tables_t.c.id == table_id).values(**values)

    def set_status(self, table_id: str, status: str, summary: dict[str, Any] | None = None) -> None:
        """Change a table's status and its lobby line (``summary``), so the lobby lists
        tables without loading their games."""
        self.call(lambda: self._execute(self._status_stmt(table_id, status, summary)))

    async def aset_status(self, table_id: str, status: str, summary: dict[str, Any] | None = None) -> None:
        await asyncio.wrap_future(self.post_status(table_id, status, summary))

    def post_status(
        self, table_id: str, status: str, summary: dict[str, Any] | None = None
    ) -> concurrent.futures.Future[Any]:
        """Queue the status write now (behind the writes already queued) without waiting."""
        stmt = self._status_stmt(table_id, status, summary)
        return self._submit(lambda: self._execute(stmt))

    def table_ids(self, status: str | None = None, *, exclude_over: bool = False) -> list[str]:
        q = select(tables_t.c.id).order_by(tables_t.c.created_at)
        if status is not None:
            q = q.where(tables_t.c.status == status)
        if exclude_over:
            q = q.where(tables_t.c.status.in_(LIVE))
        return [r[0] for r in self._read(q)]

    def _read(self, q: Any, params: dict[str, Any] | None = None) -> list[Any]:
        try:
            with self.engine.connect() as conn:
                return list(conn.execute(q, params or {}).all())
        except SQLAlchemyError as e:
            raise StoreError(f"the database refused a read: {first_line(e)}") from None

    def finished(self, limit: int) -> list[tuple[str, float, dict[str, Any] | None]]:
        """The newest ``limit`` finished tables: id, ``created_at`` and lobby line (``None``
        where an older server finished the table without writing one)."""
        return [(tid, at, line) for tid, at, _status, line in self.listing(FINAL, limit)]

    def listing(
        self, statuses: Sequence[str], limit: int
    ) -> list[tuple[str, float, str, dict[str, Any] | None]]:
        """The newest ``limit`` tables with one of ``statuses``: id, ``created_at``, status and
        lobby line. A line that does not parse is left out with a log entry."""
        q = (
            select(tables_t.c.id, tables_t.c.created_at, tables_t.c.status, tables_t.c.summary)
            .where(tables_t.c.status.in_(list(statuses)))
            .order_by(tables_t.c.created_at.desc())
            .limit(limit)
        )
        out: list[tuple[str, float, str, dict[str, Any] | None]] = []
        for r in self._read(q):
            try:
                line = None if r.summary is None else json.loads(r.summary)
            except ValueError:
                log.error("table %s: its lobby line is not valid JSON; left out of the listing", r.id)
                continue
            out.append((r.id, r.created_at, r.status, line))
        return out

    def count_live(self) -> int:
        q = select(func.count()).select_from(tables_t).where(tables_t.c.status.in_(LIVE))
        return int(self._read(q)[0][0])

    def load(self, table_id: str, *, after: int = 0) -> StoredTable | None:
        """A table and its log from event ``after + 1`` on (``None``: no such table);
        ``StoreError`` if the read fails, ``BadTable`` if a row does not parse."""
        try:
            with self.engine.connect() as conn:
                row = conn.execute(select(tables_t).where(tables_t.c.id == table_id)).first()
                if row is None:
                    return None
                evs = conn.execute(
                    select(events_t.c.seq, events_t.c.kind, events_t.c.data)
                    .where(events_t.c.table_id == table_id, events_t.c.seq > after)
                    .order_by(events_t.c.seq)
                ).all()
        except SQLAlchemyError as e:
            raise StoreError(f"the database refused a read: {first_line(e)}") from None
        try:
            config = json.loads(row.config)
        except ValueError as e:
            raise BadTable(f"table {table_id}: its configuration is not valid JSON ({e})") from None
        events: list[tuple[int, str, dict[str, Any]]] = []
        for seq, kind, data in evs:
            try:
                parsed = json.loads(data)
            except ValueError as e:
                raise BadTable(f"table {table_id}: event {seq} is not valid JSON ({e})") from None
            if not isinstance(parsed, dict):
                raise BadTable(f"table {table_id}: event {seq} is not a JSON object")
            events.append((seq, kind, parsed))
        summary = None
        with contextlib.suppress(ValueError, TypeError):
            summary = None if row.summary is None else json.loads(row.summary)
        return StoredTable(row.id, row.created_at, row.status, config, events, summary)

    def load_all(self, *, exclude_over: bool = False) -> Iterator[StoredTable]:
        """Every table (or every live one); a table that cannot be read is logged and left out."""
        for tid in self.table_ids(exclude_over=exclude_over):
            try:
                t = self.load(tid)
            except BadTable as e:
                log.error("%s; left out", e)
                continue
            if t is not None:
                yield t

    def last_seqs(self, table_ids: Sequence[str]) -> dict[str, int]:
        """The newest event number of each table (a watcher that missed a message notices)."""
        if not table_ids:
            return {}
        q = (
            select(events_t.c.table_id, func.max(events_t.c.seq))
            .where(events_t.c.table_id.in_(list(table_ids)))
            .group_by(events_t.c.table_id)
        )
        return {tid: int(seq) for tid, seq in self._read(q)}

    # ------------------------------------------------------------------ workers and leases
    def register_worker(self, worker_id: str, mode: str) -> None:
        """Write this worker's row (``solo``: the only server on this database; ``cluster``:
        one of many sharing it through Redis)."""
        import socket

        def job() -> None:
            self._execute(
                text(
                    "INSERT INTO spades_workers (id, mode, host, pid, started_at, heartbeat_at) "
                    f"VALUES (:id, :mode, :host, :pid, {self._now}, {self._now})"
                ),
                {"id": worker_id, "mode": mode, "host": socket.gethostname()[:255], "pid": os.getpid()},
            )

        self.call(job)

    def workers(self) -> list[Worker]:
        rows = self._read(
            text(f"SELECT id, mode, host, pid, {self._now} - heartbeat_at AS age FROM spades_workers")
        )
        return [Worker(r.id, r.mode, r.host, int(r.pid), float(r.age)) for r in rows]

    async def aheartbeat(self, worker_id: str) -> list[str]:
        """Say this worker lives; returns the tables it holds a lease on (a worker that was
        thought dead while it stalled finds its taken tables missing and lets them go)."""

        def job() -> list[str]:
            n = self._execute(
                text(f"UPDATE spades_workers SET heartbeat_at = {self._now} WHERE id = :id"),
                {"id": worker_id},
            )
            if n == 0:
                raise StoreError(f"worker {worker_id} was removed from the database")
            rows = self._execute(
                text("SELECT table_id FROM spades_leases WHERE worker_id = :id"), {"id": worker_id}
            )
            return [r[0] for r in rows]

        return await self.acall(job)

    async def aacquire(self, table_id: str, worker_id: str, ttl: float) -> bool:
        """Take the table's lease if nobody holds it or its holder's heartbeat is older than
        ``ttl`` seconds; ``True`` if this worker holds it now."""
        stmt = text(
            "INSERT INTO spades_leases (table_id, worker_id, acquired_at) "
            f"VALUES (:t, :w, {self._now}) "
            "ON CONFLICT (table_id) DO UPDATE SET worker_id = excluded.worker_id, "
            "acquired_at = excluded.acquired_at "
            "WHERE spades_leases.worker_id = excluded.worker_id OR NOT EXISTS ("
            "SELECT 1 FROM spades_workers w WHERE w.id = spades_leases.worker_id "
            f"AND w.heartbeat_at > {self._now} - :ttl) "
            "RETURNING worker_id"
        )
        rows = await self.acall(lambda: self._execute(stmt, {"t": table_id, "w": worker_id, "ttl": ttl}))
        return bool(rows) and rows[0][0] == worker_id

    async def arelease(self, worker_id: str, table_ids: Sequence[str] | None = None) -> None:
        """Give leases back (all of them with ``None``): another worker takes them at once."""

        def job() -> None:
            if table_ids is None:
                self._execute(text("DELETE FROM spades_leases WHERE worker_id = :w"), {"w": worker_id})
                return
            for tid in table_ids:
                self._execute(
                    text("DELETE FROM spades_leases WHERE worker_id = :w AND table_id = :t"),
                    {"w": worker_id, "t": tid},
                )

        await self.acall(job)

    async def aretire(self, worker_id: str) -> None:
        """A worker leaving cleanly: its leases and its row go."""

        def job() -> None:
            self._execute(text("DELETE FROM spades_leases WHERE worker_id = :w"), {"w": worker_id})
            self._execute(text("DELETE FROM spades_workers WHERE id = :w"), {"w": worker_id})

        await self.acall(job)

    def orphans(self, ttl: float, limit: int = 1000) -> list[str]:
        """Live tables whose lease is missing or held by a worker silent for ``ttl`` seconds."""
        q = text(
            "SELECT t.id FROM spades_tables t "
            "LEFT JOIN spades_leases l ON l.table_id = t.id "
            "LEFT JOIN spades_workers w ON w.id = l.worker_id "
            "WHERE t.status IN ('waiting', 'playing') "
            f"AND (l.table_id IS NULL OR w.id IS NULL OR w.heartbeat_at <= {self._now} - :ttl) "
            "ORDER BY t.created_at LIMIT :limit"
        )
        return [r[0] for r in self._read(q, {"ttl": ttl, "limit": limit})]

    def owner_of(self, table_id: str, ttl: float) -> str | None:
        """The live worker holding the table's lease, if any."""
        q = text(
            "SELECT l.worker_id FROM spades_leases l JOIN spades_workers w ON w.id = l.worker_id "
            f"WHERE l.table_id = :t AND w.heartbeat_at > {self._now} - :ttl"
        )
        rows = self._read(q, {"t": table_id, "ttl": ttl})
        return rows[0][0] if rows else None

    def forget_dead_workers(self, older_than: float) -> int:
        """Remove worker rows silent for ``older_than`` seconds (and their leases)."""

        def job() -> int:
            dead = text(f"SELECT id FROM spades_workers WHERE heartbeat_at <= {self._now} - :age")
            ids = [r[0] for r in self._execute(dead, {"age": older_than})]
            for wid in ids:
                self._execute(text("DELETE FROM spades_leases WHERE worker_id = :w"), {"w": wid})
                self._execute(text("DELETE FROM spades_workers WHERE id = :w"), {"w": wid})
            return len(ids)

        return self.call(job)

    def close(self) -> None:
        if self._writer is not None:

            def drop() -> None:
                self._drop_raw()
                if self._wconn is not None:
                    with contextlib.suppress(SQLAlchemyError):
                        self._wconn.close()
                    self._wconn = None

            with contextlib.suppress(Exception):
                self.call(drop)
            self._writer.stop()
            self._writer = None
        self.engine.dispose()


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    # WAL: readers never block the writer; NORMAL: a commit survives a killed process (the
    # OS holds the pages), which is the crash this server promises to survive.
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.execute("PRAGMA busy_timeout=5000")
    cur.close()
