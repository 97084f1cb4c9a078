"""The pages: the browser client (one page for the home screen, every table and the
history: it reads the path), the card pictures, and the server's health."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request, Response
from fastapi.responses import FileResponse

import briscola
from briscola import __version__
from briscola.server.deps import TablesDep
from briscola.server.errors import Refused
from briscola.web import art

STATIC = Path(briscola.__file__).parent / "web" / "static"
"""The browser client's files (briscola.web's static folder), served under ``/static``."""

router = APIRouter(include_in_schema=False)


def page() -> FileResponse:
    return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})


@router.get("/")
async def home() -> FileResponse:
    return page()


@router.get("/t/{token}")
async def invite(token: str) -> FileResponse:
    return page()


@router.get("/history")
@router.get("/history/{token}")
@router.get("/history/{token}/{number}")
async def history_page(token: str = "", number: str = "") -> FileResponse:
    return page()


@router.get("/cards/{style}/{card}.svg")
async def card_picture(style: str, card: str, request: Request, v: str = "") -> Response:
    """A card's face (``Ab``, ``Qd``...), ``back`` or ``slot`` (an empty place), as SVG
    (briscola.web.art); cached a year when asked with ``?v=`` the server's version."""
    try:
        svg = art.picture(style, card)
    except ValueError as e:
        raise Refused("not_found", str(e), 404) from None
    tag = f'"{__version__}-{hashlib.sha256(svg.encode()).hexdigest()[:16]}"'
    age = "max-age=31536000, immutable" if v == __version__ else "max-age=86400"
    headers = {"ETag": tag, "Cache-Control": f"public, {age}"}
    if request.headers.get("if-none-match") == tag:
        return Response(status_code=304, headers=headers)
    return Response(svg, media_type="image/svg+xml", headers=headers)


@router.get("/healthz")
async def health(tables: TablesDep) -> dict[str, Any]:
    """The server runs; how many tables and nicknames it holds in memory."""
    loaded = {"tables": len(tables.live), "nicknames": len(tables.names)}
    return {"status": "ok", "loaded": loaded}
