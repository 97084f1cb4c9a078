"""The pages: the browser client (one page for the home screen, every table and the
history: it reads the path), its web app manifest and service worker, and the card
pictures."""

from __future__ import annotations

import functools
import hashlib
import json
from pathlib import Path

from fastapi import APIRouter, Request, Response
from fastapi.responses import FileResponse

import briscola
from briscola import __version__
from briscola.server.errors import Refused
from briscola.web import art

STATIC = Path(briscola.__file__).parent / "web" / "static"
"""The browser client's files (briscola.web's static folder), served under ``/static``."""

router = APIRouter(include_in_schema=False)

PRECACHED = (".js", ".css", ".svg")
"""The static files the service worker keeps as it installs (the PNG icons, which only an
installing browser asks for, are kept when they are first asked)."""


@functools.cache
def static_version() -> str:
    """The version of the client's files: the server's version and a digest of every
    static file and of the card art's code, so that any change to them (a release, or a
    file edited between releases) names a new service worker and a new cache."""
    digest = hashlib.sha256(__version__.encode())
    for path in sorted(STATIC.rglob("*")):
        if path.is_file():
            digest.update(path.relative_to(STATIC).as_posix().encode())
            digest.update(path.read_bytes())
    digest.update(Path(art.__file__).read_bytes())
    return f"{__version__}-{digest.hexdigest()[:12]}"


@functools.cache
def service_worker() -> str:
    """sw.js with the static version and the files it keeps as it installs."""
    files = ["/"] + [
        "/static/" + p.relative_to(STATIC).as_posix()
        for p in sorted(STATIC.rglob("*"))
        if p.is_file() and p.suffix in PRECACHED and p.name != "sw.js"
    ]
    text = (STATIC / "sw.js").read_text(encoding="utf-8")
    return text.replace("{{VERSION}}", static_version()).replace("{{FILES}}", json.dumps(files))


def page() -> FileResponse:
    return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})


@router.get("/")
async def home() -> FileResponse:
    return page()


@router.get("/t/{token}")
async def invite(token: str) -> FileResponse:
    return page()


@router.get("/me")
@router.get("/families")
@router.get("/families/{family}")
@router.get("/join/{token}")
async def account_page(family: str = "", token: str = "") -> FileResponse:
    return page()


@router.get("/history")
@router.get("/history/{token}")
@router.get("/history/{token}/{number}")
async def history_page(token: str = "", number: str = "") -> FileResponse:
    return page()


@router.get("/manifest.webmanifest")
async def manifest() -> FileResponse:
    """The web app manifest: the site installed to a phone's home screen."""
    return FileResponse(
        STATIC / "manifest.webmanifest",
        media_type="application/manifest+json",
        headers={"Cache-Control": "public, max-age=86400"},
    )


@router.get("/sw.js")
async def worker() -> Response:
    """The service worker, at the root so that its scope is the whole site; never cached
    by the browser's HTTP cache, so that a new release is found at the next visit."""
    return Response(
        service_worker(),
        media_type="text/javascript",
        headers={"Cache-Control": "no-cache"},
    )


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
