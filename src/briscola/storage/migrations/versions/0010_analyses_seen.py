"""Hands' analyses kept by what their values were computed from, as well as by level:
``seen`` is ``seat`` (what each seat knew then) or ``all`` (every card seen). The table
keeps only what can be computed again, so it is made afresh: analyses kept before are
computed again when next asked for.

Revision ID: 0010
Revises: 0009
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None

JSON = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")


def analyses(*key: sa.Column[str]) -> None:
    op.create_table(
        "analyses",
        sa.Column("table_id", sa.Integer, sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("hand", sa.Integer, primary_key=True),
        sa.Column("level", sa.String(16), primary_key=True),
        *key,
        sa.Column("body", JSON, nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )


def upgrade() -> None:
    op.drop_table("analyses")
    analyses(sa.Column("seen", sa.String(8), primary_key=True))


def downgrade() -> None:
    op.drop_table("analyses")
    analyses()
