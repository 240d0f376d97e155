"""A finished table's lobby line, so finished tables can be listed without loading them.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"


def upgrade() -> None:
    op.add_column("spades_tables", sa.Column("summary", sa.Text, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("spades_tables") as batch:
        batch.drop_column("summary")
