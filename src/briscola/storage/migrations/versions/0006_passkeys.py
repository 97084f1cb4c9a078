"""Passkeys: a person's WebAuthn credentials (``passkeys``), and the challenges given out
for registering one or signing in with one, until answered (``challenges``).

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None

JSON = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")


def upgrade() -> None:
    op.create_table(
        "passkeys",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("player", sa.Integer, sa.ForeignKey("players.id"), nullable=False),
        sa.Column("credential_id", sa.String(1400), nullable=False),
        sa.Column("public_key", sa.LargeBinary, nullable=False),
        sa.Column("sign_count", sa.BigInteger, nullable=False),
        sa.Column("transports", JSON, nullable=True),
        sa.Column("device", sa.String(100), nullable=True),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("used", sa.DateTime(timezone=True), nullable=True),
        sa.UniqueConstraint("credential_id"),
    )
    op.create_index("ix_passkeys_player", "passkeys", ["player"])
    op.create_table(
        "challenges",
        sa.Column("ticket_hash", sa.String(64), primary_key=True),
        sa.Column("challenge", sa.String(200), nullable=False),
        sa.Column("player", sa.Integer, sa.ForeignKey("players.id"), nullable=True),
        sa.Column("purpose", sa.String(16), nullable=False),
        sa.Column("expires", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("challenges")
    op.drop_index("ix_passkeys_player", "passkeys")
    op.drop_table("passkeys")
