"""The game server: online tables over HTTP and WebSocket (``briscola serve``).

Layers, from the outside in:

- :mod:`briscola.server.app` builds the FastAPI application: the REST part (sessions,
  the lobby, tables and their seats, records, history; its OpenAPI page at ``/docs``) and
  the WebSocket of each table (docs/protocol.md);
- :mod:`briscola.server.tables` keeps the live tables: each is one writer
  (:class:`~briscola.server.live.LiveTable`) applying its commands one at a time through
  the engine's table host, storing each action before anyone is told of it;
- :mod:`briscola.server.broadcast` wakes the connections of a table when it changed;
- :mod:`briscola.storage` keeps everything durable; it knows nothing of HTTP.
"""

from briscola.server.app import create_app
from briscola.server.settings import ServerSettings

__all__ = ["ServerSettings", "create_app"]
