"""The server's boundary: whom it answers, and what every page it sends carries.

:class:`Guard` is ASGI middleware in front of the application. It refuses, before any
route runs:

- a state-changing request (``POST``, ``PUT``, ``PATCH``, ``DELETE``) or a WebSocket
  handshake whose ``Origin`` is not one of the server's own (``403 bad_origin``). A page
  on another port of the same host, or on a sibling subdomain, is the same *site* as the
  server, so the browser sends it the session cookie (``SameSite=Lax`` stops only other
  sites): the origin is what tells it apart. A request with no ``Origin`` comes from no
  browser page (a browser always names the origin of a page's ``POST``, ``PUT``,
  ``DELETE`` and WebSocket), so a program such as ``briscola play --server`` is served;
- a state-changing request whose body is not ``application/json``
  (``415 bad_content_type``): a plain HTML form, which may post across origins without
  asking, can send only other types.

and it adds to every HTTP answer the headers of :func:`security_headers`: a
Content-Security-Policy (scripts and styles from the server alone, no inline script, no
framing), ``X-Content-Type-Options: nosniff``, and a ``Referrer-Policy`` that never sends
an invite link's token to another site.

The server's own origin is the one the request was addressed to (its scheme and ``Host``
header), or, behind a reverse proxy, the public URL it is served at
(``briscola serve --public-url https://cards.example.org``): then that origin alone.

:class:`BodyLimit`, middleware too, refuses a request body longer than
:data:`BODY_LIMIT` bytes (``413 too_big``) before it is read.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from briscola.server.errors import error_body

UNSAFE = frozenset({"POST", "PUT", "PATCH", "DELETE"})
"""The methods that change something: each is checked for its origin and body."""

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; manifest-src 'self'; worker-src 'self'; "
    "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
"""The pages' Content-Security-Policy: everything from the server itself (its web app
manifest and service worker too), no inline script or style sheet, and no page of
another site may frame them."""

DOCS_CSP = (
    "default-src 'self'; script-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net; "
    "style-src 'self' https://cdn.jsdelivr.net; img-src 'self' data: https://fastapi.tiangolo.com; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'"
)
"""The OpenAPI pages' policy (``/docs``, ``/redoc``): FastAPI's pages start Swagger UI
with an inline script and load it from its CDN. They hold no player's data."""

DOCS = ("/docs", "/redoc")


def origin_of(url: str) -> str:
    """The origin of ``url``: its scheme, host and port, the port left out where it is the
    scheme's own, all in lower case, as a browser writes it in ``Origin``.

    >>> origin_of("https://Cards.Example.org:443/play?x=1")
    'https://cards.example.org'
    >>> origin_of("http://127.0.0.1:8000/")
    'http://127.0.0.1:8000'
    """
    parts = urlsplit(url.strip())
    scheme = parts.scheme.lower()
    if scheme not in ("http", "https") or not parts.hostname:
        raise ValueError(
            f"{url!r} is not a web address: give the server's public URL as "
            "https://HOST or http://HOST:PORT"
        )
    host = parts.hostname.lower()
    if ":" in host:  # an IPv6 address
        host = f"[{host}]"
    port = parts.port
    if port is None or (scheme, port) in (("http", 80), ("https", 443)):
        return f"{scheme}://{host}"
    return f"{scheme}://{host}:{port}"


def addressed_origin(scope: dict[str, Any]) -> str | None:
    """The origin a request was addressed to: its scheme (``ws`` as ``http``, ``wss`` as
    ``https``) and ``Host`` header; ``None`` without a host."""
    host = header(scope, b"host")
    if not host:
        return None
    scheme = {"ws": "http", "wss": "https"}.get(scope.get("scheme", "http"), scope.get("scheme"))
    try:
        return origin_of(f"{scheme}://{host}")
    except ValueError:
        return None


def header(scope: dict[str, Any], name: bytes) -> str | None:
    """The first value of header ``name`` (lower case) in the request, or ``None``."""
    for key, value in scope.get("headers") or ():
        if key == name:
            return bytes(value).decode("latin-1")
    return None


def _headers(csp: str) -> list[tuple[bytes, bytes]]:
    return [
        (b"content-security-policy", csp.encode()),
        (b"x-content-type-options", b"nosniff"),
        (b"referrer-policy", b"same-origin"),
        (b"x-frame-options", b"DENY"),
        (b"cross-origin-opener-policy", b"same-origin"),
    ]


PAGE_HEADERS = _headers(CSP)
DOCS_HEADERS = _headers(DOCS_CSP)


def security_headers(path: str) -> list[tuple[bytes, bytes]]:
    """The headers every HTTP answer carries (the OpenAPI pages a looser script policy),
    made once: the answer's headers are a new list that holds them."""
    return DOCS_HEADERS if path in DOCS or path.startswith("/docs/") else PAGE_HEADERS


class Guard:
    """ASGI middleware: see the module's documentation. ``public_url``, when given, is the
    one origin the server answers pages of."""

    def __init__(self, app: Any, public_url: str | None = None) -> None:
        self.app = app
        self.public = origin_of(public_url) if public_url else None

    def own(self, scope: dict[str, Any], origin: str) -> bool:
        """Whether ``origin`` (an ``Origin`` header) is this server's."""
        wanted = self.public or addressed_origin(scope)
        return wanted is not None and origin.strip().lower() == wanted

    def why_not(self, origin: str) -> str:
        where = (
            f"this server answers pages of {self.public} alone"
            if self.public
            else "this server answers its own pages alone (behind a reverse proxy, start it "
            "with --public-url, the address people open)"
        )
        return f"a page of {origin} may not act here: {where}"

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        kind = scope["type"]
        if kind == "websocket":
            origin = header(scope, b"origin")
            if origin is not None and not self.own(scope, origin):
                await self._deny_socket(scope, receive, send, self.why_not(origin))
                return
            await self.app(scope, receive, send)
            return
        if kind != "http":
            await self.app(scope, receive, send)
            return
        if scope["method"] in UNSAFE:
            origin = header(scope, b"origin")
            if origin is not None and not self.own(scope, origin):
                await refuse(
                    send, scope["path"], 403, code="bad_origin", message=self.why_not(origin)
                )
                return
            kind_of_body = header(scope, b"content-type")
            if kind_of_body is not None and not _json(kind_of_body):
                await refuse(
                    send,
                    scope["path"],
                    415,
                    code="bad_content_type",
                    message=f"this server takes JSON alone: send the body as application/json, "
                    f"not {kind_of_body.split(';')[0].strip() or 'an empty type'}",
                )
                return
            if kind_of_body is None and _has_body(scope):
                await refuse(
                    send,
                    scope["path"],
                    415,
                    code="bad_content_type",
                    message="a body needs its type: send it as application/json",
                )
                return
        extra = security_headers(scope["path"])

        async def with_headers(message: Any) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", ()), *extra]}
            await send(message)

        await self.app(scope, receive, with_headers)

    async def _deny_socket(self, scope: Any, receive: Any, send: Any, message: str) -> None:
        """Refuse a WebSocket handshake with ``403`` and a ``bad_origin`` error body (a
        bare close, which the server answers with ``403``, where the server cannot send
        a body)."""
        await receive()  # websocket.connect
        if "websocket.http.response" not in (scope.get("extensions") or {}):
            await send({"type": "websocket.close", "code": 1008})
            return
        body = error_body("bad_origin", message)
        await send(
            {
                "type": "websocket.http.response.start",
                "status": 403,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                ],
            }
        )
        await send({"type": "websocket.http.response.body", "body": body})


def _json(content_type: str) -> bool:
    kind = content_type.split(";", 1)[0].strip().lower()
    return kind == "application/json" or (
        kind.startswith("application/") and kind.endswith("+json")
    )


def _has_body(scope: dict[str, Any]) -> bool:
    length = header(scope, b"content-length")
    if length is not None:
        return length.strip() not in ("", "0")
    return header(scope, b"transfer-encoding") is not None


async def refuse(send: Any, path: str, status: int, *, code: str, message: str) -> None:
    """Answer an HTTP request with ``status`` and the error body, the route never run."""
    body = error_body(code, message)
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                *security_headers(path),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


__all__ = ["Guard", "addressed_origin", "origin_of", "security_headers"]


BODY_LIMIT = 65_536
"""The longest body of a REST request, in bytes (a table's settings are well under 1 KB)."""


class BodyLimit:
    """ASGI middleware refusing a request body over ``limit`` bytes with ``413 too_big``,
    before it is read: by its Content-Length, or as it streams in when it has none."""

    def __init__(self, app: Any, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        length = dict(scope.get("headers") or ()).get(b"content-length", b"0")
        if not length.isdigit() or int(length) > self.limit:
            await self.refuse(send)
            return
        seen = 0
        refused = False

        async def counted() -> Any:
            nonlocal seen, refused
            message = await receive()
            seen += len(message.get("body", b""))
            if seen > self.limit and not refused:
                refused = True
                await self.refuse(send)
            if refused:  # the application stops reading: the client is gone to it
                return {"type": "http.disconnect"}
            return message

        async def quiet(message: Any) -> None:
            if not refused:  # after the refusal the application's answer goes nowhere
                await send(message)

        try:
            await self.app(scope, counted, quiet)
        except Exception:
            if not refused:  # the application's own failure; a refused one's is expected
                raise

    async def refuse(self, send: Any) -> None:
        body = error_body(
            "too_big", f"a request body is at most {self.limit} bytes", values={"n": self.limit}
        )
        await send(
            {
                "type": "http.response.start",
                "status": 413,
                "headers": [(b"content-type", b"application/json"), (b"connection", b"close")],
            }
        )
        await send({"type": "http.response.body", "body": body})
