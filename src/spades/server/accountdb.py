"""The rows of accounts, sessions, login failures, seats bound to accounts and ratings.

Why in the database: the service runs several worker processes behind one address, and a
person's next request may reach any of them; a session or a failure count kept in one
process's memory would be forgotten by the others. The tables come from migration 0004.

Why only hashes: a session cookie is a bearer secret, so the store keeps its SHA-256 (as it
does for seat tokens); someone who reads the database cannot sign in with what he finds.

Every write runs on the store's writer thread (``Store.acall``) in its own transaction, so
the server's event loop never waits on the disk; reads use pooled connections off the loop.
"""

from __future__ import annotations

import hashlib
import json
import secrets
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import (
    Column,
    Connection,
    Float,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    and_,
    delete,
    func,
    insert,
    literal,
    select,
    text,
    update,
)
from sqlalchemy.exc import IntegrityError, SQLAlchemyError

from spades.errors import first_line
from spades.server.store import Store, StoreError, events_t, tables_t

metadata = MetaData()

accounts_t = Table(
    "spades_accounts",
    metadata,
    Column("id", String(40), primary_key=True),
    Column("name", String(64), nullable=False),
    Column("name_key", String(64), nullable=True, unique=True),
    Column("pw_hash", Text, nullable=True),
    Column("created_at", Float, nullable=False),
    Column("deleted_at", Float, nullable=True),
)
sessions_t = Table(
    "spades_sessions",
    metadata,
    Column("id_sha", String(64), primary_key=True),
    Column("account_id", String(40), nullable=False),
    Column("csrf", String(64), nullable=False),
    Column("created_at", Float, nullable=False),
    Column("expires_at", Float, nullable=False),
)
failures_t = Table(
    "spades_login_failures",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("key", String(120), nullable=False),
    Column("at", Float, nullable=False),
)
players_t = Table(
    "spades_table_players",
    metadata,
    Column("table_id", String(40), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("account_id", String(40), nullable=False),
    Column("at", Float, nullable=False),
)
rated_t = Table(
    "spades_rated_games",
    metadata,
    Column("table_id", String(40), primary_key=True),
    Column("family", String(40), nullable=False),
    Column("rules", Text, nullable=False),
    Column("at", Float, nullable=False),
)
ratings_t = Table(
    "spades_ratings",
    metadata,
    Column("subject", String(64), primary_key=True),
    Column("family", String(40), primary_key=True),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("games", Integer, nullable=False),
    Column("updated_at", Float, nullable=False),
)
history_t = Table(
    "spades_rating_history",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("subject", String(64), nullable=False),
    Column("family", String(40), nullable=False),
    Column("table_id", String(40), nullable=False),
    Column("at", Float, nullable=False),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
)

ANONYMOUS = "deleted player"
"""The name a deleted account's seats show from then on."""


def sha(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


@dataclass(frozen=True, slots=True)
class Account:
    id: str
    name: str
    pw_hash: str | None
    created_at: float


@dataclass(frozen=True, slots=True)
class Session:
    account: Account
    csrf: str
    id_sha: str


@dataclass(frozen=True, slots=True)
class Rating:
    subject: str
    family: str
    mu: float
    sigma: float
    games: int


def _account(row: Any) -> Account:
    return Account(row.id, row.name, row.pw_hash, float(row.created_at))


class AccountDB:
    """Accounts and what hangs off them, on one ``Store`` (its engine and writer thread)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    # ------------------------------------------------------------------ plumbing
    async def _write(self, fn: Any) -> Any:
        """Run ``fn(conn)`` in one transaction on the writer thread."""

        def job() -> Any:
            try:
                with self.store.engine.begin() as conn:
                    return fn(conn)
            except IntegrityError:
                raise
            except SQLAlchemyError as e:
                raise StoreError(f"the database refused a write: {first_line(e)}") from None

        return await self.store.acall(job)

    async def _read(self, q: Any) -> list[Any]:
        """A read off the loop, with the store's one-line error on failure."""
        return await self.store.aread(self.store._read, q)

    # ------------------------------------------------------------------ accounts
    async def create_account(self, name: str, key: str, pw_hash: str) -> Account | None:
        """A new account, or ``None`` when the name (compared by ``key``) is taken."""
        acc = Account("a_" + secrets.token_urlsafe(12), name, pw_hash, time.time())

        def job(conn: Connection) -> None:
            conn.execute(
                insert(accounts_t).values(
                    id=acc.id, name=name, name_key=key, pw_hash=pw_hash, created_at=acc.created_at
                )
            )

        try:
            await self._write(job)
        except IntegrityError:
            return None
        return acc

    async def by_key(self, key: str) -> Account | None:
        rows = await self._read(
            select(accounts_t).where(accounts_t.c.name_key == key, accounts_t.c.deleted_at.is_(None))
        )
        return _account(rows[0]) if rows else None

    async def by_id(self, account_id: str) -> Account | None:
        rows = await self._read(
            select(accounts_t).where(accounts_t.c.id == account_id, accounts_t.c.deleted_at.is_(None))
        )
        return _account(rows[0]) if rows else None

    async def set_hash(self, account_id: str, pw_hash: str) -> None:
        await self._write(
            lambda c: c.execute(
                update(accounts_t).where(accounts_t.c.id == account_id).values(pw_hash=pw_hash)
            )
        )

    # ------------------------------------------------------------------ sessions
    async def new_session(self, account_id: str, ttl_s: float) -> tuple[str, str]:
        """A fresh session: the cookie's secret and the session's CSRF token."""
        token, csrf = secrets.token_urlsafe(32), secrets.token_urlsafe(32)
        now = time.time()

        def job(conn: Connection) -> None:
            conn.execute(delete(sessions_t).where(sessions_t.c.expires_at <= now))  # the stale ones go
            conn.execute(
                insert(sessions_t).values(
                    id_sha=sha(token),
                    account_id=account_id,
                    csrf=csrf,
                    created_at=now,
                    expires_at=now + ttl_s,
                )
            )

        await self._write(job)
        return token, csrf

    async def session(self, token: str) -> Session | None:
        """The live session of a cookie's secret (``None``: unknown, expired or deleted)."""
        q = (
            select(accounts_t, sessions_t.c.csrf, sessions_t.c.id_sha)
            .join(sessions_t, sessions_t.c.account_id == accounts_t.c.id)
            .where(
                sessions_t.c.id_sha == sha(token),
                sessions_t.c.expires_at > time.time(),
                accounts_t.c.deleted_at.is_(None),
            )
        )
        rows = await self._read(q)
        if not rows:
            return None
        r = rows[0]
        return Session(_account(r), r.csrf, r.id_sha)

    async def end_session(self, id_sha: str) -> None:
        await self._write(lambda c: c.execute(delete(sessions_t).where(sessions_t.c.id_sha == id_sha)))

    async def end_all_sessions(self, account_id: str) -> int:
        def job(conn: Connection) -> int:
            n = conn.execute(delete(sessions_t).where(sessions_t.c.account_id == account_id)).rowcount
            conn.execute(delete(sessions_t).where(sessions_t.c.expires_at <= time.time()))
            return int(n)

        result: int = await self._write(job)
        return result

    async def count_sessions(self, account_id: str) -> int:
        rows = await self._read(
            select(func.count()).select_from(sessions_t).where(sessions_t.c.account_id == account_id)
        )
        return int(rows[0][0])

    # ------------------------------------------------------------------ login failures
    async def failures(self, keys: Sequence[str], window_s: float) -> dict[str, int]:
        """Failed sign-ins per key (``acct:…``, ``addr:…``) in the last ``window_s`` seconds."""
        q = (
            select(failures_t.c.key, func.count())
            .where(failures_t.c.key.in_(list(keys)), failures_t.c.at > time.time() - window_s)
            .group_by(failures_t.c.key)
        )
        found = {k: int(n) for k, n in await self._read(q)}
        return {k: found.get(k, 0) for k in keys}

    async def add_failure(self, keys: Sequence[str], window_s: float) -> None:
        now = time.time()

        def job(conn: Connection) -> None:
            conn.execute(insert(failures_t), [{"key": k[:120], "at": now} for k in keys])
            # Forget what no window looks at any more, so the table stays small.
            conn.execute(delete(failures_t).where(failures_t.c.at <= now - window_s))

        await self._write(job)

    async def clear_failures(self, key: str) -> None:
        await self._write(lambda c: c.execute(delete(failures_t).where(failures_t.c.key == key)))

    # ------------------------------------------------------------------ seats
    async def bind_seat(self, table_id: str, seat: int, account_id: str) -> None:
        """Remember that the account plays at that table (its history lists the table)."""

        def job(conn: Connection) -> None:
            conn.execute(delete(players_t).where(players_t.c.table_id == table_id, players_t.c.seat == seat))
            conn.execute(
                insert(players_t).values(table_id=table_id, seat=seat, account_id=account_id, at=time.time())
            )

        await self._write(job)

    async def games_of(
        self, account_id: str, limit: int
    ) -> list[tuple[str, int, float, str, dict[str, Any] | None]]:
        """The account's tables, newest first: id, seat, created_at, status and lobby line."""
        q = (
            select(
                players_t.c.table_id,
                players_t.c.seat,
                tables_t.c.created_at,
                tables_t.c.status,
                tables_t.c.summary,
            )
            .join(tables_t, tables_t.c.id == players_t.c.table_id)
            .where(players_t.c.account_id == account_id)
            .order_by(tables_t.c.created_at.desc())
            .limit(limit)
        )
        out: list[tuple[str, int, float, str, dict[str, Any] | None]] = []
        for r in await self._read(q):
            try:
                line = None if r.summary is None else json.loads(r.summary)
            except ValueError:
                line = None
            out.append((r.table_id, int(r.seat), float(r.created_at), r.status, line))
        return out

    async def accounts_at(self, table_id: str) -> dict[int, str]:
        rows = await self._read(
            select(players_t.c.seat, players_t.c.account_id).where(players_t.c.table_id == table_id)
        )
        return {int(s): a for s, a in rows}

    # ------------------------------------------------------------------ deletion
    async def delete_account(self, account_id: str) -> list[tuple[str, int]]:
        """Anonymise the account: its name leaves the account row, its seats' names leave
        the tables' configurations, logs and lobby lines; its sessions, password and ratings
        go. The games stay. Returns the (table, seat) pairs that were renamed."""
        seats = [
            (t, int(s))
            for t, s in await self._read(
                select(players_t.c.table_id, players_t.c.seat).where(players_t.c.account_id == account_id)
            )
        ]

        def job(conn: Connection) -> None:
            conn.execute(
                update(accounts_t)
                .where(accounts_t.c.id == account_id)
                .values(name=ANONYMOUS, name_key=None, pw_hash=None, deleted_at=time.time())
            )
            conn.execute(delete(sessions_t).where(sessions_t.c.account_id == account_id))
            conn.execute(delete(ratings_t).where(ratings_t.c.subject == subject_of(account_id)))
            conn.execute(delete(history_t).where(history_t.c.subject == subject_of(account_id)))
            for table_id, seat in seats:
                _anonymise_seat(conn, table_id, seat)

        await self._write(job)
        return seats

    # ------------------------------------------------------------------ ratings
    async def rate(
        self,
        table_id: str,
        family: str,
        rules: str,
        subjects: Sequence[str],
        compute: Any,
    ) -> dict[str, Rating] | None:
        """Rate one finished game once: ``compute(current)`` gets the current ratings of
        ``subjects`` (missing ones absent) and returns the new ``{subject: (mu, sigma)}``.
        ``None`` if the game was already rated (by this worker or another)."""
        is_pg = not self.store.is_sqlite

        def job(conn: Connection) -> dict[str, Rating] | None:
            if is_pg:  # every rating change in one line: a bot's rating moves in many games
                conn.execute(text("SELECT pg_advisory_xact_lock(7365727666)"))
            now = time.time()
            # First statement: the write lock (SQLite) and the once-only mark together.
            marked = conn.execute(
                text(
                    "INSERT INTO spades_rated_games (table_id, family, rules, at) "
                    "VALUES (:t, :f, :r, :at) ON CONFLICT (table_id) DO NOTHING"
                ),
                {"t": table_id, "f": family, "r": rules, "at": now},
            ).rowcount
            if marked != 1:
                return None
            rows = conn.execute(
                select(ratings_t).where(ratings_t.c.family == family, ratings_t.c.subject.in_(list(subjects)))
            ).all()
            current = {r.subject: Rating(r.subject, family, r.mu, r.sigma, r.games) for r in rows}
            new: dict[str, tuple[float, float]] = compute(current)
            out: dict[str, Rating] = {}
            for subject, (mu, sigma) in new.items():
                old = current.get(subject)
                games = (old.games if old else 0) + 1
                if old is None:
                    conn.execute(
                        insert(ratings_t).values(
                            subject=subject, family=family, mu=mu, sigma=sigma, games=games, updated_at=now
                        )
                    )
                else:
                    conn.execute(
                        update(ratings_t)
                        .where(and_(ratings_t.c.subject == subject, ratings_t.c.family == family))
                        .values(mu=mu, sigma=sigma, games=games, updated_at=now)
                    )
                conn.execute(
                    insert(history_t).values(
                        subject=subject, family=family, table_id=table_id, at=now, mu=mu, sigma=sigma
                    )
                )
                out[subject] = Rating(subject, family, mu, sigma, games)
            return out

        result: dict[str, Rating] | None = await self._write(job)
        return result

    async def ratings_of(self, subject: str) -> list[Rating]:
        rows = await self._read(select(ratings_t).where(ratings_t.c.subject == subject))
        return [Rating(r.subject, r.family, r.mu, r.sigma, r.games) for r in rows]

    async def leaderboard(self, family: str, limit: int) -> list[tuple[Rating, str]]:
        """The family's ratings by conservative estimate (mu - 3 sigma), with display names."""
        q = (
            select(ratings_t, accounts_t.c.name)
            .outerjoin(accounts_t, ratings_t.c.subject == literal("user:").concat(accounts_t.c.id))
            .where(ratings_t.c.family == family)
            .order_by((ratings_t.c.mu - 3 * ratings_t.c.sigma).desc())
            .limit(limit)
        )
        return [
            (Rating(r.subject, r.family, r.mu, r.sigma, r.games), r.name or r.subject)
            for r in await self._read(q)
        ]

    async def families(self) -> list[tuple[str, str, int]]:
        """Every rule family with rated games: key, rules spec (JSON text) and game count."""
        q = select(rated_t.c.family, func.min(rated_t.c.rules), func.count()).group_by(rated_t.c.family)
        return [(f, r, int(n)) for f, r, n in await self._read(q)]

    async def history(self, subject: str, family: str) -> list[tuple[float, float, float, str]]:
        q = (
            select(history_t.c.at, history_t.c.mu, history_t.c.sigma, history_t.c.table_id)
            .where(history_t.c.subject == subject, history_t.c.family == family)
            .order_by(history_t.c.at, history_t.c.id)
        )
        return [(float(a), float(m), float(s), t) for a, m, s, t in await self._read(q)]


def subject_of(account_id: str) -> str:
    """A rated account's id in the rating tables (bot levels are ``bot:<level>``)."""
    return f"user:{account_id}"


def _anonymise_seat(conn: Connection, table_id: str, seat: int) -> None:
    """Replace the seat's name in the table's configuration, its log and its lobby line."""
    row = conn.execute(select(tables_t.c.config, tables_t.c.summary).where(tables_t.c.id == table_id)).first()
    if row is None:
        return
    try:
        config = json.loads(row.config)
        if 0 <= seat < len(config.get("seats", [])) and config["seats"][seat].get("name") is not None:
            config["seats"][seat]["name"] = ANONYMOUS
        values: dict[str, Any] = {"config": json.dumps(config)}
        if row.summary is not None:
            summary = json.loads(row.summary)
            for s in summary.get("seats", []):
                if s.get("seat") == seat and s.get("name") is not None:
                    s["name"] = ANONYMOUS
            values["summary"] = json.dumps(summary, separators=(",", ":"))
    except (ValueError, TypeError, KeyError, AttributeError):
        return  # a damaged row is left as it is; the log below is still cleaned
    conn.execute(update(tables_t).where(tables_t.c.id == table_id).values(**values))
    evs = conn.execute(
        select(events_t.c.seq, events_t.c.data).where(
            events_t.c.table_id == table_id, events_t.c.kind.in_(["join", "bind"])
        )
    ).all()
    for seq, data in evs:
        try:
            d = json.loads(data)
        except ValueError:
            continue
        if isinstance(d, dict) and d.get("seat") == seat and d.get("name") is not None:
            d["name"] = ANONYMOUS
            conn.execute(
                update(events_t)
                .where(events_t.c.table_id == table_id, events_t.c.seq == seq)
                .values(data=json.dumps(d, separators=(",", ":")))
            )
