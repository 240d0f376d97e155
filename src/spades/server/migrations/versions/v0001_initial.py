"""The first schema: tables and their event log.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None


def upgrade() -> None:
    op.create_table(
        "spades_tables",
        sa.Column("id", sa.String(40), primary_key=True),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("config", sa.Text, nullable=False),
    )
    op.create_index("ix_spades_tables_status", "spades_tables", ["status"])
    op.create_table(
        "spades_events",
        sa.Column("table_id", sa.String(40), primary_key=True),
        sa.Column("seq", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("data", sa.Text, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("spades_events")
    op.drop_index("ix_spades_tables_status", "spades_tables")
    op.drop_table("spades_tables")
