"""The site can be installed to a phone's home screen: ``briscola serve`` serves a web app
manifest (``/manifest.webmanifest``) whose icons are there at the sizes it names, the page
links it (with its theme colour and an apple-touch-icon), and a service worker at
``/sw.js`` (the whole site its scope) named by the static version; every one of them
carries the security headers of every page. The client's files go gzipped."""

from __future__ import annotations

import json
import re
import struct

import httpx

from briscola.server.routes.pages import static_version
from serverkit import ServerProcess


def png_size(data: bytes) -> tuple[int, int]:
    """A PNG's width and height, from its IHDR chunk."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def security(r: httpx.Response) -> None:
    csp = {
        part.strip().split(" ", 1)[0]: part.strip()
        for part in r.headers["content-security-policy"].split(";")
    }
    assert csp["script-src"] == "script-src 'self'"
    assert csp["manifest-src"] == "manifest-src 'self'"
    assert csp["worker-src"] == "worker-src 'self'"
    assert csp["frame-ancestors"] == "frame-ancestors 'none'"
    assert r.headers["x-content-type-options"] == "nosniff"


def test_the_manifest_names_the_app_and_its_icons(server: ServerProcess) -> None:
    with httpx.Client(base_url=server.url) as http:
        r = http.get("/manifest.webmanifest")
        assert r.status_code == 200
        assert r.headers["content-type"].split(";")[0] == "application/manifest+json"
        security(r)
        manifest = json.loads(r.text)
        assert manifest["name"] == manifest["short_name"] == "Briscola"
        assert manifest["start_url"] == "/" and manifest["display"] == "standalone"
        assert re.fullmatch(r"#[0-9a-f]{6}", manifest["theme_color"])
        assert re.fullmatch(r"#[0-9a-f]{6}", manifest["background_color"])
        seen = set()
        for icon in manifest["icons"]:
            got = http.get(icon["src"])
            assert got.status_code == 200, icon["src"]
            assert got.headers["content-type"].split(";")[0] == icon["type"], icon["src"]
            if icon["type"] == "image/png":
                w, h = png_size(got.content)
                assert icon["sizes"] == f"{w}x{h}", icon["src"]
                seen.add((w, icon["purpose"]))
            else:
                assert got.text.lstrip().startswith("<svg"), icon["src"]
                seen.add(("svg", icon["purpose"]))
        assert {(192, "any"), (512, "any"), (512, "maskable"), ("svg", "any")} <= seen


def test_the_page_links_the_manifest_its_colour_and_icons(server: ServerProcess) -> None:
    with httpx.Client(base_url=server.url) as http:
        page = http.get("/t/SomeToken_12").text
        assert '<link rel="manifest" href="/manifest.webmanifest">' in page
        colour = re.search(r'<meta name="theme-color" content="(#[0-9a-f]{6})">', page)
        assert colour, "the page names no theme colour"
        touch = re.search(r'<link rel="apple-touch-icon" href="([^"]+)">', page)
        assert touch, "the page has no apple-touch-icon"
        icon = http.get(touch.group(1))
        assert icon.status_code == 200 and png_size(icon.content) == (180, 180)
        svg = re.search(r'<link rel="icon" href="([^"]+)" type="image/svg\+xml">', page)
        assert svg and http.get(svg.group(1)).status_code == 200


def test_the_service_worker_is_served_at_the_root(server: ServerProcess) -> None:
    with httpx.Client(base_url=server.url) as http:
        r = http.get("/sw.js")
        assert r.status_code == 200
        assert r.headers["content-type"].split(";")[0] == "text/javascript"
        assert r.headers["cache-control"] == "no-cache"  # a new release is found at once
        security(r)
        assert "{{" not in r.text, "the worker's version and files are filled in"
        assert f'"{static_version()}"' in r.text
        files = json.loads(re.search(r"const FILES = (\[.*?\]);", r.text).group(1))
        assert "/static/js/main.js" in files and "/static/style.css" in files
        for f in files:
            assert http.get(f).status_code == 200, f
        assert not [f for f in files if f.startswith("/api/")]


def test_the_clients_files_go_gzipped(server: ServerProcess) -> None:
    with httpx.Client(base_url=server.url) as http:
        for path in ("/static/js/home.js", "/static/style.css", "/api/catalogue?lang=it"):
            r = http.get(path, headers={"Accept-Encoding": "gzip"})
            assert r.headers.get("content-encoding") == "gzip", path
            security(r)
        # the PNG icons are compressed already; a browser asking for none gets none
        icon = http.get("/static/icons/icon-512.png", headers={"Accept-Encoding": "gzip"})
        assert "content-encoding" not in icon.headers
        plain = http.get("/static/js/home.js", headers={"Accept-Encoding": "identity"})
        assert "content-encoding" not in plain.headers
