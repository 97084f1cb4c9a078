"""The REST routes, one :class:`fastapi.APIRouter` a module: the session, passkeys,
families, the games and their rules in words, the tables and their seats, the records
and history, the JSON Schema of the WebSocket's messages, the pages (the browser client,
the card pictures), and the server's health (``/healthz``, ``/readyz``, ``/metrics``)."""

from briscola.server.routes import (
    families,
    games,
    health,
    pages,
    passkeys,
    protocol,
    records,
    session,
    tables,
)

ROUTERS = (
    session.router,
    passkeys.router,
    families.router,
    games.router,
    tables.router,
    records.router,
    protocol.router,
    pages.router,
    health.router,
)
"""Every router, in the order of the OpenAPI page."""

__all__ = ["ROUTERS"]
