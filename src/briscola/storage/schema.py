"""The tables, as SQLAlchemy Core metadata (the migrations in ``migrations/`` create them).

Times are stored in UTC and always come back timezone-aware (:class:`UTCDateTime`), on
SQLite as on PostgreSQL. JSON columns are ``JSONB`` on PostgreSQL.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql
from sqlalchemy.engine import Dialect

JSON = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")


class UTCDateTime(sa.types.TypeDecorator[datetime]):
    """A timezone-aware UTC time on every database (SQLite keeps no zone: it is written
    as UTC and read back as UTC)."""

    impl = sa.DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError(f"storage: a time must carry its timezone, got {value!r}")
        value = value.astimezone(UTC)
        return value.replace(tzinfo=None) if dialect.name == "sqlite" else value

    def process_result_value(self, value: Any, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        assert isinstance(value, datetime)
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


metadata = sa.MetaData()

players = sa.Table(
    "players",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("nickname", sa.String(40), nullable=False),
    sa.Column("created", UTCDateTime, nullable=False),
    sa.Column("deleted", UTCDateTime, nullable=True),
)
"""A person who plays. A deleted account keeps its row (its seats in old matches), its
nickname made :data:`~briscola.storage.accounts.ANONYMOUS`, with when it was deleted."""

sessions = sa.Table(
    "sessions",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("token_hash", sa.String(64), nullable=False, unique=True),
    sa.Column("player", sa.Integer, sa.ForeignKey("players.id"), nullable=False, index=True),
    sa.Column("created", UTCDateTime, nullable=False),
    sa.Column("seen", UTCDateTime, nullable=False),
    sa.Column("device", sa.String(100), nullable=True),
)
"""A person's signed-in session: ``token_hash`` is the SHA-256 hex digest of the random
token in its cookie (the database never holds a usable token); ``seen`` is when it was
last used, to the step of :meth:`Storage.session_player`; ``device`` names the browser and
system it was opened on ("Firefox on Android"), for the person's list of sessions."""

passkeys = sa.Table(
    "passkeys",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("player", sa.Integer, sa.ForeignKey("players.id"), nullable=False, index=True),
    sa.Column("credential_id", sa.String(1400), nullable=False, unique=True),
    sa.Column("public_key", sa.LargeBinary, nullable=False),
    sa.Column("sign_count", sa.BigInteger, nullable=False),
    sa.Column("transports", JSON, nullable=True),
    sa.Column("device", sa.String(100), nullable=True),
    sa.Column("created", UTCDateTime, nullable=False),
    sa.Column("used", UTCDateTime, nullable=True),
)
"""A person's passkeys (WebAuthn credentials): the credential's id (base64url), its
public key (COSE) and signature counter, the transports its authenticator named, and the
device it was registered on."""

challenges = sa.Table(
    "challenges",
    metadata,
    sa.Column("ticket_hash", sa.String(64), primary_key=True),
    sa.Column("challenge", sa.String(200), nullable=False),
    sa.Column("player", sa.Integer, sa.ForeignKey("players.id"), nullable=True),
    sa.Column("purpose", sa.String(16), nullable=False),
    sa.Column("expires", UTCDateTime, nullable=False),
)
"""The WebAuthn challenges given out and not yet answered, each found by the digest of
the ticket its client sends back (any server process may get the answer); used once."""

link_codes = sa.Table(
    "link_codes",
    metadata,
    sa.Column("code_hash", sa.String(64), primary_key=True),
    sa.Column("player", sa.Integer, sa.ForeignKey("players.id"), nullable=False, index=True),
    sa.Column("created", UTCDateTime, nullable=False),
    sa.Column("expires", UTCDateTime, nullable=False),
)
"""The one-time codes that bring another device in (:meth:`Storage.use_link_code`): the
SHA-256 hex digest of the code alone, as for sessions; a code is deleted when used."""

tables = sa.Table(
    "tables",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("token", sa.String(64), nullable=False, unique=True),
    sa.Column("public", sa.Boolean, nullable=False),
    sa.Column("game", sa.String(40), nullable=False),
    sa.Column("rules", JSON, nullable=False),
    sa.Column("host", sa.Integer, sa.ForeignKey("players.id"), nullable=True),
    sa.Column("status", sa.String(16), nullable=False),
    sa.Column("version", sa.Integer, nullable=False),
    sa.Column("start", JSON, nullable=True),
    sa.Column("settings", JSON, nullable=False, server_default="{}"),
    sa.Column("created", UTCDateTime, nullable=False),
    sa.Column("updated", UTCDateTime, nullable=False),
    sa.Column("family", sa.Integer, sa.ForeignKey("families.id"), nullable=True, index=True),
    sa.CheckConstraint("status IN ('waiting', 'playing', 'finished')", name="status"),
)

seats = sa.Table(
    "seats",
    metadata,
    sa.Column("table_id", sa.Integer, sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("player", sa.Integer, sa.ForeignKey("players.id"), nullable=True),
    sa.Column("level", sa.String(40), nullable=True),
    sa.CheckConstraint("player IS NULL OR level IS NULL", name="one_occupant"),
)

actions = sa.Table(
    "actions",
    metadata,
    sa.Column("table_id", sa.Integer, sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("version", sa.Integer, primary_key=True),
    sa.Column("hand", sa.Integer, nullable=False),
    sa.Column("action", JSON, nullable=False),
    sa.Column("at", UTCDateTime, nullable=False),
)

hands = sa.Table(
    "hands",
    metadata,
    sa.Column("table_id", sa.Integer, sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("number", sa.Integer, primary_key=True),
    sa.Column("deal", JSON, nullable=False),
    sa.Column("commitment", sa.String(128), nullable=True),
    sa.Column("salt", sa.String(128), nullable=True),
    sa.Column("at", UTCDateTime, nullable=False),
)

deadlines = sa.Table(
    "deadlines",
    metadata,
    sa.Column("table_id", sa.Integer, sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("kind", sa.String(16), primary_key=True),
    sa.Column("due", UTCDateTime, nullable=False, index=True),
    sa.Column("version", sa.Integer, nullable=True),
)

server_processes = sa.Table(
    "server_processes",
    metadata,
    sa.Column("id", sa.String(64), primary_key=True),
    sa.Column("seen", UTCDateTime, nullable=False),
)
"""The server processes sharing the database, each touching its row every few seconds."""

presence = sa.Table(
    "presence",
    metadata,
    sa.Column("process", sa.String(64), primary_key=True),
    sa.Column("table_id", sa.Integer, sa.ForeignKey("tables.id"), primary_key=True, index=True),
    sa.Column("seat", sa.Integer, primary_key=True),
)
"""The seats with a connection open at each process (see migration 0004)."""

chat = sa.Table(
    "chat",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("table_id", sa.Integer, sa.ForeignKey("tables.id"), nullable=False, index=True),
    sa.Column("player", sa.Integer, sa.ForeignKey("players.id"), nullable=True),
    sa.Column("text", sa.Text, nullable=False),
    sa.Column("at", UTCDateTime, nullable=False),
)

finished = sa.Table(
    "finished",
    metadata,
    sa.Column("table_id", sa.Integer, sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("game", sa.String(40), nullable=False),
    sa.Column("record", JSON, nullable=False),
    sa.Column("at", UTCDateTime, nullable=False),
)

finished_players = sa.Table(
    "finished_players",
    metadata,
    sa.Column("table_id", sa.Integer, sa.ForeignKey("finished.table_id"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("player", sa.Integer, sa.ForeignKey("players.id"), nullable=False, index=True),
)

families = sa.Table(
    "families",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("name", sa.String(60), nullable=False),
    sa.Column("created", UTCDateTime, nullable=False),
)
"""A family: people who play together, their house rules, matches and standings."""

family_members = sa.Table(
    "family_members",
    metadata,
    sa.Column("family", sa.Integer, sa.ForeignKey("families.id"), primary_key=True),
    sa.Column("player", sa.Integer, sa.ForeignKey("players.id"), primary_key=True, index=True),
    sa.Column("role", sa.String(16), nullable=False),
    sa.Column("joined", UTCDateTime, nullable=False),
    sa.CheckConstraint("role IN ('admin', 'member')", name="role"),
)

family_invites = sa.Table(
    "family_invites",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("token_hash", sa.String(64), nullable=False, unique=True),
    sa.Column("family", sa.Integer, sa.ForeignKey("families.id"), nullable=False, index=True),
    sa.Column("made_by", sa.Integer, sa.ForeignKey("players.id"), nullable=False),
    sa.Column("created", UTCDateTime, nullable=False),
    sa.Column("expires", UTCDateTime, nullable=False),
    sa.Column("revoked", UTCDateTime, nullable=True),
)
"""A family's invitation links, found by their token's digest; an invitation lets any
number of people join until it expires or is revoked."""

rule_sets = sa.Table(
    "rule_sets",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("family", sa.Integer, sa.ForeignKey("families.id"), nullable=False, index=True),
    sa.Column("name", sa.String(60), nullable=False),
    sa.Column("body", JSON, nullable=False),
    sa.Column("version", sa.Integer, nullable=False),
    sa.Column("updated_by", sa.Integer, sa.ForeignKey("players.id"), nullable=True),
    sa.Column("updated", UTCDateTime, nullable=False),
    sa.UniqueConstraint("family", "name", name="uq_rule_sets_family_name"),
)
"""A family's named way to play (game, house rules, seats, clock, table settings); its
``version`` goes up at each edit, so that of two edits made at once one wins and the
other is told."""

analyses = sa.Table(
    "analyses",
    metadata,
    sa.Column("table_id", sa.Integer, sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("hand", sa.Integer, primary_key=True),
    sa.Column("level", sa.String(16), primary_key=True),
    sa.Column("seen", sa.String(8), primary_key=True),
    sa.Column("body", JSON, nullable=False),
    sa.Column("at", UTCDateTime, nullable=False),
)
"""Each finished hand's analysis at a level, from what each seat knew (``seen`` is
``seat``) or with every card seen (``all``): ``briscola analyse --json``'s body, kept once
computed (migrations 0009, 0010)."""
