"""Each session names the device it was opened on (``sessions.device``), and a person
signed in on one device can bring in another with a one-time code (``link_codes``).

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("sessions") as batch:
        batch.add_column(sa.Column("device", sa.String(100), nullable=True))
    op.create_table(
        "link_codes",
        sa.Column("code_hash", sa.String(64), primary_key=True),
        sa.Column("player", sa.Integer, sa.ForeignKey("players.id"), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_link_codes_player", "link_codes", ["player"])


def downgrade() -> None:
    op.drop_index("ix_link_codes_player", "link_codes")
    op.drop_table("link_codes")
    with op.batch_alter_table("sessions") as batch:
        batch.drop_column("device")
