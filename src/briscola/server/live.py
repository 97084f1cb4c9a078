"""The live table's former module: its names, now in :mod:`briscola.server.table`, kept
importable here (the writer, a connection, the storage failures)."""

from __future__ import annotations

from briscola.server.failures import database_away, storage_failed
from briscola.server.table.connection import OUTBOX, Connection
from briscola.server.table.writer import LiveTable

__all__ = ["OUTBOX", "Connection", "LiveTable", "database_away", "storage_failed"]
