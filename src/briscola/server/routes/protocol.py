"""``/api/protocol.json``: the JSON Schema of every message of a table's WebSocket, beside
the OpenAPI page of the REST part (``/docs``, ``/openapi.json``)."""

from __future__ import annotations

from fastapi import APIRouter, Response

from briscola.server.messages import SCHEMA_PATH, schema_text

router = APIRouter()


@router.get(
    SCHEMA_PATH,
    tags=["protocol"],
    summary="The JSON Schema of the WebSocket's messages",
    response_class=Response,
    responses={200: {"content": {"application/schema+json": {}}}},
)
async def protocol() -> Response:
    """The JSON Schema (draft 2020-12) of every message of a table's WebSocket,
    `/api/tables/{token}/ws`, generated from the server's models: `$defs/ClientMessage`
    is what a client sends (`act`, `chat`, `sync`, `ping`), `$defs/ServerMessage` what the
    server sends (`snapshot`, `update`, `chat`, `table`, `error`, `pong`), `$defs/Event`
    an update's event, `$defs/View` a seat's view. docs/protocol.md tells each message."""
    return Response(schema_text(), media_type="application/schema+json")
