"""A migrated ``Store`` on SQLite or on a fresh PostgreSQL database, for the store tests.

PostgreSQL comes from ``SPADES_TEST_PG_URL`` (``.ci/run`` starts one): each test gets a
database of its own, so parallel workers never share a schema, dropped afterwards. Without the
variable the PostgreSQL case skips, and fails on CI. One copy for the table store's and the
accounts' tests."""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from pathlib import Path

import pytest

from spades.server.store import Store

PG_URL = os.environ.get("SPADES_TEST_PG_URL")


def migrated_store(kind: str, tmp_path: Path, prefix: str) -> Iterator[Store]:
    """Yield a migrated store of ``kind`` (``sqlite`` or ``postgresql``), closed afterwards."""
    if kind == "sqlite":
        s = Store(f"sqlite:///{tmp_path / 'store.db'}")
        s.migrate()
        yield s
        s.close()
        return
    if not PG_URL:
        if os.environ.get("CI"):
            pytest.fail("SPADES_TEST_PG_URL must be set on CI (.ci/run starts PostgreSQL)")
        pytest.skip("no PostgreSQL: set SPADES_TEST_PG_URL")
    from sqlalchemy import create_engine, text

    from spades.server.store import normalise_url

    name = prefix + secrets.token_hex(6)
    admin = create_engine(normalise_url(PG_URL), isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f"CREATE DATABASE {name}"))
    s = Store(f"{PG_URL.rsplit('/', 1)[0]}/{name}")
    s.migrate()
    yield s
    s.close()
    with admin.connect() as conn:
        conn.execute(text(f"DROP DATABASE {name} WITH (FORCE)"))
    admin.dispose()
