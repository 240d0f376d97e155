"""Accounts, their sessions and login failures; seats bound to accounts; OpenSkill ratings.

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"


def upgrade() -> None:
    op.create_table(
        "spades_accounts",
        sa.Column("id", sa.String(40), primary_key=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("name_key", sa.String(64), nullable=True, unique=True),
        sa.Column("pw_hash", sa.Text, nullable=True),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("deleted_at", sa.Float, nullable=True),
    )
    op.create_table(
        "spades_sessions",
        sa.Column("id_sha", sa.String(64), primary_key=True),
        sa.Column("account_id", sa.String(40), nullable=False),
        sa.Column("csrf", sa.String(64), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("expires_at", sa.Float, nullable=False),
    )
    op.create_index("ix_spades_sessions_account", "spades_sessions", ["account_id"])
    op.create_table(
        "spades_login_failures",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("key", sa.String(120), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("ix_spades_login_failures_key", "spades_login_failures", ["key", "at"])
    op.create_table(
        "spades_table_players",
        sa.Column("table_id", sa.String(40), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("account_id", sa.String(40), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("ix_spades_table_players_account", "spades_table_players", ["account_id", "at"])
    op.create_table(
        "spades_rated_games",
        sa.Column("table_id", sa.String(40), primary_key=True),
        sa.Column("family", sa.String(40), nullable=False),
        sa.Column("rules", sa.Text, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_table(
        "spades_ratings",
        sa.Column("subject", sa.String(64), primary_key=True),
        sa.Column("family", sa.String(40), primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("updated_at", sa.Float, nullable=False),
    )
    op.create_index("ix_spades_ratings_family", "spades_ratings", ["family"])
    op.create_table(
        "spades_rating_history",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("subject", sa.String(64), nullable=False),
        sa.Column("family", sa.String(40), nullable=False),
        sa.Column("table_id", sa.String(40), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
    )
    op.create_index("ix_spades_rating_history_subject", "spades_rating_history", ["subject", "family", "at"])


def downgrade() -> None:
    op.drop_index("ix_spades_rating_history_subject", "spades_rating_history")
    op.drop_table("spades_rating_history")
    op.drop_index("ix_spades_ratings_family", "spades_ratings")
    op.drop_table("spades_ratings")
    op.drop_table("spades_rated_games")
    op.drop_index("ix_spades_table_players_account", "spades_table_players")
    op.drop_table("spades_table_players")
    op.drop_index("ix_spades_login_failures_key", "spades_login_failures")
    op.drop_table("spades_login_failures")
    op.drop_index("ix_spades_sessions_account", "spades_sessions")
    op.drop_table("spades_sessions")
    op.drop_table("spades_accounts")
