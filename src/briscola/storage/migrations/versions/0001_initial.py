"""The first schema: players, tables and seats, the action log, hands, deadlines, chat and
finished matches.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

JSON = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")


def _time(name: str) -> sa.Column[object]:
    return sa.Column(name, sa.DateTime(timezone=True), nullable=False)


def upgrade() -> None:
    op.create_table(
        "players",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("nickname", sa.String(40), nullable=False),
        _time("created"),
    )
    op.create_table(
        "tables",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("token", sa.String(64), nullable=False),
        sa.Column("public", sa.Boolean, nullable=False),
        sa.Column("game", sa.String(40), nullable=False),
        sa.Column("rules", JSON, nullable=False),
        sa.Column("host", sa.Integer, sa.ForeignKey("players.id"), nullable=True),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("start", JSON, nullable=True),
        _time("created"),
        _time("updated"),
        sa.UniqueConstraint("token"),
        sa.CheckConstraint("status IN ('waiting', 'playing', 'finished')", name="status"),
    )
    op.create_table(
        "seats",
        sa.Column("table_id", sa.Integer, sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("player", sa.Integer, sa.ForeignKey("players.id"), nullable=True),
        sa.Column("level", sa.String(40), nullable=True),
        sa.CheckConstraint("player IS NULL OR level IS NULL", name="one_occupant"),
    )
    # The append-only log: its primary key (table_id, version) is the unique key that makes
    # a second write at a version already taken fail.
    op.create_table(
        "actions",
        sa.Column("table_id", sa.Integer, sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("version", sa.Integer, primary_key=True),
        sa.Column("hand", sa.Integer, nullable=False),
        sa.Column("action", JSON, nullable=False),
        _time("at"),
    )
    op.create_table(
        "hands",
        sa.Column("table_id", sa.Integer, sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("number", sa.Integer, primary_key=True),
        sa.Column("deal", JSON, nullable=False),
        sa.Column("commitment", sa.String(128), nullable=True),
        sa.Column("salt", sa.String(128), nullable=True),
        _time("at"),
    )
    op.create_table(
        "deadlines",
        sa.Column("table_id", sa.Integer, sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String(16), primary_key=True),
        _time("due"),
        sa.Column("version", sa.Integer, nullable=True),
    )
    op.create_index("ix_deadlines_due", "deadlines", ["due"])
    op.create_table(
        "chat",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("table_id", sa.Integer, sa.ForeignKey("tables.id"), nullable=False),
        sa.Column("player", sa.Integer, sa.ForeignKey("players.id"), nullable=True),
        sa.Column("text", sa.Text, nullable=False),
        _time("at"),
    )
    op.create_index("ix_chat_table_id", "chat", ["table_id"])
    op.create_table(
        "finished",
        sa.Column("table_id", sa.Integer, sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("game", sa.String(40), nullable=False),
        sa.Column("record", JSON, nullable=False),
        _time("at"),
    )
    op.create_table(
        "finished_players",
        sa.Column("table_id", sa.Integer, sa.ForeignKey("finished.table_id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("player", sa.Integer, sa.ForeignKey("players.id"), nullable=False),
    )
    op.create_index("ix_finished_players_player", "finished_players", ["player"])


def downgrade() -> None:
    for name in (
        "finished_players",
        "finished",
        "chat",
        "deadlines",
        "hands",
        "actions",
        "seats",
        "tables",
        "players",
    ):
        op.drop_table(name)
