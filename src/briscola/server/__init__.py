"""The game server: online tables over HTTP and WebSocket (``briscola serve``).

Layers, from the outside in:

- :mod:`briscola.server.app` builds the FastAPI application behind the guards of
  :mod:`briscola.server.guard`: the REST routes of :mod:`briscola.server.routes` (one
  ``APIRouter`` a module: sessions, games and words, tables and their seats, records and
  history, pages; their OpenAPI page at ``/docs``), with their dependencies in
  :mod:`briscola.server.deps`, and the WebSocket of each table in
  :mod:`briscola.server.socket` (docs/protocol.md);
- :mod:`briscola.server.tables` finds, loads and unloads the live tables and runs their
  deadlines; each is one writer (:class:`~briscola.server.table.writer.LiveTable`) with
  its helpers (:mod:`briscola.server.table`) owning its commands, applying them one at a
  time through the table host, storing each action before anyone is told of it, and
  telling each seat its own stream;
- :mod:`briscola.server.broadcast` wakes the connections of a table when it changed;
- :mod:`briscola.storage` keeps everything durable; it knows nothing of HTTP.
"""

from briscola.server.app import create_app
from briscola.server.settings import ServerSettings

__all__ = ["ServerSettings", "create_app"]
