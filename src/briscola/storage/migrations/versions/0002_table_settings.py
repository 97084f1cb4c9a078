"""A table's settings beside its game's rules: the clock, the grace period, the level of
the computer player standing in, and the like (a JSON object; empty by default).

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

JSON = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")


def upgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("settings", JSON, nullable=False, server_default="{}"))


def downgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("settings")
