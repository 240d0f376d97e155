"""Alembic environment: run by ``Store.migrate`` with its own connection (no alembic.ini)."""

from __future__ import annotations

from alembic import context

from spades.server.store import metadata

connection = context.config.attributes.get("connection")
if connection is None:  # pragma: no cover - only when someone runs the alembic CLI by hand
    raise RuntimeError("run migrations through spades.server.store.Store.migrate")
context.configure(connection=connection, target_metadata=metadata)
with context.begin_transaction():
    context.run_migrations()
