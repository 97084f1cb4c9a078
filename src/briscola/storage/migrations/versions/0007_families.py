"""Families: a family (``families``), its members and their roles (``family_members``),
its invitation links (``family_invites``), its named house-rule sets (``rule_sets``),
and the tables opened as the family's (``tables.family``).

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None

JSON = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")


def upgrade() -> None:
    op.create_table(
        "families",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(60), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "family_members",
        sa.Column("family", sa.Integer, sa.ForeignKey("families.id"), primary_key=True),
        sa.Column("player", sa.Integer, sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("role", sa.String(16), nullable=False),
        sa.Column("joined", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint("role IN ('admin', 'member')", name="role"),
    )
    op.create_index("ix_family_members_player", "family_members", ["player"])
    op.create_table(
        "family_invites",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("family", sa.Integer, sa.ForeignKey("families.id"), nullable=False),
        sa.Column("made_by", sa.Integer, sa.ForeignKey("players.id"), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires", sa.DateTime(timezone=True), nullable=False),
        sa.Column("revoked", sa.DateTime(timezone=True), nullable=True),
        sa.UniqueConstraint("token_hash"),
    )
    op.create_index("ix_family_invites_family", "family_invites", ["family"])
    op.create_table(
        "rule_sets",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("family", sa.Integer, sa.ForeignKey("families.id"), nullable=False),
        sa.Column("name", sa.String(60), nullable=False),
        sa.Column("body", JSON, nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("updated_by", sa.Integer, sa.ForeignKey("players.id"), nullable=True),
        sa.Column("updated", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("family", "name", name="uq_rule_sets_family_name"),
    )
    op.create_index("ix_rule_sets_family", "rule_sets", ["family"])
    # On SQLite the column is added in place, its reference inline (which Alembic does not
    # write there), not by copying the table, which SQLite cannot drop while other tables
    # refer to it.
    if op.get_bind().dialect.name == "sqlite":
        op.execute("ALTER TABLE tables ADD COLUMN family INTEGER REFERENCES families (id)")
    else:
        op.add_column(
            "tables", sa.Column("family", sa.Integer, sa.ForeignKey("families.id"), nullable=True)
        )
    op.create_index("ix_tables_family", "tables", ["family"])


def downgrade() -> None:
    op.drop_index("ix_tables_family", "tables")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("family")
    op.drop_index("ix_rule_sets_family", "rule_sets")
    op.drop_table("rule_sets")
    op.drop_index("ix_family_invites_family", "family_invites")
    op.drop_table("family_invites")
    op.drop_index("ix_family_members_player", "family_members")
    op.drop_table("family_members")
    op.drop_table("families")
