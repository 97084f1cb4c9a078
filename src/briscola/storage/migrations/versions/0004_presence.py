"""Presence across server processes: each process sharing the database keeps a row that
it touches every few seconds (``server_processes.seen``), and a row for each seat that
has a connection open there (``presence``). A seat is connected when some live process
has it: the rows of a process not seen for a while are ignored, then removed.

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "server_processes",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("seen", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "presence",
        sa.Column("process", sa.String(64), primary_key=True),
        sa.Column("table_id", sa.Integer, sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
    )
    op.create_index("ix_presence_table_id", "presence", ["table_id"])


def downgrade() -> None:
    op.drop_index("ix_presence_table_id", "presence")
    op.drop_table("presence")
    op.drop_table("server_processes")
