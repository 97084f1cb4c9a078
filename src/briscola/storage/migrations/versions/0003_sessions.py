"""Server-side sessions: a session is a row, found by the SHA-256 hex digest of the random
token in its cookie (the database never holds a usable token), of one player, with when
it began and when it was last seen; ending it deletes the row.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "sessions",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("player", sa.Integer, sa.ForeignKey("players.id"), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("seen", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("token_hash"),
    )
    op.create_index("ix_sessions_player", "sessions", ["player"])


def downgrade() -> None:
    op.drop_index("ix_sessions_player", "sessions")
    op.drop_table("sessions")
