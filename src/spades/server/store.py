"""The event log of every table, in SQLite (default) or PostgreSQL, one schema for both.

Why an event log: a table is rebuilt by replaying what happened to it (joins, deals with their
secret decks, actions), so the store never holds a half-updated game and a crash loses nothing
that was written. Every write commits before the caller sends its effect to anyone.
The schema is created and upgraded by Alembic (``spades/server/migrations``).
"""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

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
    insert,
    select,
    update,
)
from sqlalchemy.engine import make_url
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.pool import PoolProxiedConnection

from spades.errors import SpadesError

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


class StoreError(SpadesError):
    """The database refused a read or a write."""


@dataclass(frozen=True, slots=True)
class StoredTable:
    id: str
    created_at: float
    status: str
    config: dict[str, Any]
    events: list[tuple[int, str, dict[str, Any]]]
    summary: dict[str, Any] | None = None
    """The lobby line of a finished table, written with its ``over`` status (see
    ``Store.finished``); ``None`` before then and in databases older than revision 0002."""


def default_url() -> str:
    from platformdirs import user_data_dir

    path = Path(user_data_dir("spades", appauthor=False)) / "spades.db"
    path.parent.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{path}"


def normalise_url(url: str) -> str:
    """Accept plain ``postgresql://`` URLs (and ``postgres://``) and use the psycopg 3 driver."""
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


class Store:
    """Synchronous and small on purpose: each call is one short transaction."""

    def __init__(self, url: str | None = None) -> None:
        self.url = normalise_url(url or default_url())
        try:
            parsed = make_url(self.url)
        except Exception as e:
            raise StoreError(f"database URL {url!r} is not valid: {e}") from None
        self.is_sqlite = parsed.get_backend_name() == "sqlite"
        if self.is_sqlite and parsed.database not in (None, "", ":memory:"):
            Path(parsed.database or "").parent.mkdir(parents=True, exist_ok=True)
        kwargs: dict[str, Any] = {}
        if not self.is_sqlite:
            kwargs["pool_pre_ping"] = True
        self.engine: Engine = create_engine(self.url, **kwargs)
        self._wconn: Connection | None = None
        self._raw: PoolProxiedConnection | None = None
        mark = "?" if self.engine.dialect.paramstyle == "qmark" else "%s"
        self._insert_sql = (
            f"INSERT INTO spades_events (table_id, seq, kind, data) VALUES ({mark}, {mark}, {mark}, {mark})"
        )
        if self.is_sqlite:
            event.listen(self.engine, "connect", _sqlite_pragmas)

    def migrate(self) -> None:
        """Bring the schema to the newest Alembic revision (creating it on a fresh database)."""
        from alembic import command
        from alembic.config import Config

        cfg = Config()
        cfg.set_main_option("script_location", str(Path(__file__).with_name("migrations")))
        try:
            with self.engine.begin() as conn:
                cfg.attributes["connection"] = conn
                command.upgrade(cfg, "head")
        except SQLAlchemyError as e:
            raise StoreError(f"cannot prepare the database {self.safe_url}: {_short(e)}") from None

    @property
    def safe_url(self) -> str:
        return make_url(self.url).render_as_string(hide_password=True)

    def create_table(self, table_id: str, config: dict[str, Any], status: str = "waiting") -> float:
        """Write a new table; returns its ``created_at`` (the listings sort by it)."""
        created_at = time.time()
        self._write(
            insert(tables_t).values(
                id=table_id, created_at=created_at, status=status, config=json.dumps(config)
            )
        )
        return created_at

    def append(self, table_id: str, seq: int, kind: str, data: dict[str, Any]) -> None:
        """Write one event; returns only once it is committed.

        The hot path of the server (one call per accepted action), so it speaks to the
        driver directly: the same INSERT through SQLAlchemy costs several times more."""
        params = (table_id, seq, kind, json.dumps(data, separators=(",", ":")))
        try:
            if self._raw is None:
                self._raw = self.engine.raw_connection()
            conn = self._raw.driver_connection
            assert conn is not None
            cur = conn.cursor()
            try:
                cur.execute(self._insert_sql, params)
            finally:
                cur.close()
            conn.commit()
        except Exception as e:
            self._drop_raw()
            raise StoreError(f"the database refused a write: {_short(e)}") from None

    def _drop_raw(self) -> None:
        raw, self._raw = self._raw, None
        if raw is not None:
            with contextlib.suppress(Exception):
                raw.rollback()
            with contextlib.suppress(Exception):
                raw.close()

    def set_status(self, table_id: str, status: str, summary: dict[str, Any] | None = None) -> None:
        """Change a table's status; a finished table also leaves its lobby line (``summary``),
        so the lobby can list it without loading its game into memory."""
        values: dict[str, Any] = {"status": status}
        if summary is not None:
            values["summary"] = json.dumps(summary, separators=(",", ":"))
        self._write(update(tables_t).where(tables_t.c.id == table_id).values(**values))

    def _write(self, stmt: Any) -> None:
        # One long-lived connection for writes: the server writes from one event loop thread,
        # and skipping the pool checkout per action halves the cost of a write.
        try:
            if self._wconn is None:
                self._wconn = self.engine.connect()
            self._wconn.execute(stmt)
            self._wconn.commit()
        except SQLAlchemyError as e:
            if self._wconn is not None:
                with contextlib.suppress(SQLAlchemyError):
                    self._wconn.rollback()
                    self._wconn.close()
                self._wconn = None
            raise StoreError(f"the database refused a write: {_short(e)}") from None

    def table_ids(self, status: str | None = None, *, exclude_over: bool = False) -> list[str]:
        q = select(tables_t.c.id).order_by(tables_t.c.created_at)
        if status is not None:
            q = q.where(tables_t.c.status == status)
        if exclude_over:
            q = q.where(tables_t.c.status != "over")
        with self.engine.connect() as conn:
            return [r[0] for r in conn.execute(q)]

    def finished(self, limit: int) -> list[tuple[str, float, dict[str, Any] | None]]:
        """The newest ``limit`` finished tables: id, ``created_at`` and lobby line (``None``
        where an older server finished the table without writing one)."""
        q = (
            select(tables_t.c.id, tables_t.c.created_at, tables_t.c.summary)
            .where(tables_t.c.status == "over")
            .order_by(tables_t.c.created_at.desc())
            .limit(limit)
        )
        try:
            with self.engine.connect() as conn:
                rows = conn.execute(q).all()
        except SQLAlchemyError as e:
            raise StoreError(f"the database refused a read: {_short(e)}") from None
        return [(r.id, r.created_at, None if r.summary is None else json.loads(r.summary)) for r in rows]

    def load(self, table_id: str) -> StoredTable | None:
        """A table and its log (``None``: no such table); ``StoreError`` if the read fails,
        which a server asking for a finished table it unloaded can meet at any time."""
        try:
            with self.engine.connect() as conn:
                row = conn.execute(select(tables_t).where(tables_t.c.id == table_id)).first()
                if row is None:
                    return None
                evs = conn.execute(
                    select(events_t.c.seq, events_t.c.kind, events_t.c.data)
                    .where(events_t.c.table_id == table_id)
                    .order_by(events_t.c.seq)
                ).all()
        except SQLAlchemyError as e:
            raise StoreError(f"the database refused a read: {_short(e)}") from None
        return StoredTable(
            row.id,
            row.created_at,
            row.status,
            json.loads(row.config),
            [(seq, kind, json.loads(data)) for seq, kind, data in evs],
            None if row.summary is None else json.loads(row.summary),
        )

    def load_all(self, *, exclude_over: bool = False) -> Iterator[StoredTable]:
        for tid in self.table_ids(exclude_over=exclude_over):
            t = self.load(tid)
            if t is not None:
                yield t

    def close(self) -> None:
        self._drop_raw()
        if self._wconn is not None:
            with contextlib.suppress(SQLAlchemyError):
                self._wconn.close()
            self._wconn = None
        self.engine.dispose()


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    # WAL: readers never block the writer; NORMAL: a commit survives a killed process (the
    # OS holds the pages), which is the crash this server promises to survive.
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.execute("PRAGMA busy_timeout=5000")
    cur.close()


def _short(e: Exception) -> str:
    return str(e).splitlines()[0][:200]
