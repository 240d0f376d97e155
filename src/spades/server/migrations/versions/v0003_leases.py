"""Workers and table leases, for many server processes on one database.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"


def upgrade() -> None:
    op.create_table(
        "spades_workers",
        sa.Column("id", sa.String(40), primary_key=True),
        sa.Column("mode", sa.String(16), nullable=False),
        sa.Column("host", sa.String(255), nullable=False),
        sa.Column("pid", sa.Integer, nullable=False),
        sa.Column("started_at", sa.Float, nullable=False),
        sa.Column("heartbeat_at", sa.Float, nullable=False),
    )
    op.create_table(
        "spades_leases",
        sa.Column("table_id", sa.String(40), primary_key=True),
        sa.Column("worker_id", sa.String(40), nullable=False),
        sa.Column("acquired_at", sa.Float, nullable=False),
    )
    op.create_index("ix_spades_leases_worker", "spades_leases", ["worker_id"])


def downgrade() -> None:
    op.drop_index("ix_spades_leases_worker", "spades_leases")
    op.drop_table("spades_leases")
    op.drop_table("spades_workers")
