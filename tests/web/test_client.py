"""The browser client's files, without a browser: every interface string used by the
JavaScript is in all four languages; no page imports another (the router, ``main.js``,
imports them, and what several use is a shared module), and a table's views only draw;
``briscola serve`` serves the page at ``/`` and at a table's link, and its files under
``/static``."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import httpx

import briscola
from serverkit import ServerProcess

STATIC = Path(briscola.__file__).parent / "web" / "static"
LANGUAGES = ("en", "it", "es", "hr")
KEY = re.compile(r"""\b(?:t\(|word\(|say\(\s*ctrl\s*,)\s*["']([\w.-]+)["']""")
"""A key written out: ``t("table.stock", ...)``, ``word("word.trump")``, ``say(ctrl,
"tell.played", ...)`` (a sentence about seats, table/words.js)."""
DYNAMIC = re.compile(r"\bt\(\s*`([\w.-]*)\$\{")


def strings(lang: str) -> dict[str, Any]:
    """The catalogue the page loads for ``lang`` (``GET /api/catalogue``: words/catalogues)."""
    from briscola.words.catalogue import catalogue_json

    data: dict[str, Any] = catalogue_json(lang)["texts"]
    return data


def flat(text: str | dict[str, str]) -> str:
    """A catalogue entry's text, or all its forms (plural, person) one after another."""
    return " ".join(text.values()) if isinstance(text, dict) else text


JS = STATIC / "js"
IMPORT = re.compile(
    r"""^\s*(?:import|export)\b[^;]*?\bfrom\s*["']([^"']+)["']"""
    r"""|^\s*import\s*["']([^"']+)["']|\bimport\(\s*["']([^"']+)["']\s*\)""",
    re.M | re.S,
)
ROUTER = "main.js"
PAGES = {
    "account": "account.js",
    "family": "family.js",
    "home": "home.js",
    "replay": "replay.js",
    "table": "table/",
}
"""Each page of the client: its module, or the folder of its modules."""
SHARED = {
    "analysis.js", "api.js", "cards.js", "chart.js", "copy.js", "dom.js", "fair.js", "forms.js",
    "handsort.js", "i18n.js", "matches.js", "news.js", "places.js", "prefs.js", "rules.js",
    "sidelabel.js", "signin.js", "talk.js", "ways.js",
}  # fmt: skip
"""What more than one page uses: these import no page."""


def scripts() -> str:
    return "\n".join(p.read_text() for p in sorted(JS.rglob("*.js")))


def modules() -> list[str]:
    return sorted(p.relative_to(JS).as_posix() for p in JS.rglob("*.js"))


def imports(module: str) -> set[str]:
    """The modules that ``module`` imports (statically, or by ``import()``), as paths
    under js/."""
    here = (JS / module).parent
    out = set()
    for found in IMPORT.finditer((JS / module).read_text()):
        spec = next(g for g in found.groups() if g)
        assert spec.startswith("."), f"{module} imports {spec!r}, not a module of its own"
        out.add((here / spec).resolve().relative_to(JS.resolve()).as_posix())
    return out


def page_of(module: str) -> str | None:
    for page, where in PAGES.items():
        if module == where or (where.endswith("/") and module.startswith(where)):
            return page
    return None


def test_every_key_used_is_in_every_language() -> None:
    used = set(KEY.findall(scripts()))
    assert len(used) > 50
    for lang in LANGUAGES:
        missing = sorted(used - set(strings(lang)))
        assert not missing, f"{lang}.json lacks {missing}"


def test_every_language_has_the_same_keys_and_no_empty_string() -> None:
    english = set(strings("en"))
    for lang in LANGUAGES:
        keys = strings(lang)
        assert set(keys) == english, f"{lang}: {sorted(set(keys) ^ english)}"
        assert all(flat(v).strip() for v in keys.values()), lang


def test_every_key_built_in_the_code_has_its_family() -> None:
    """A key built at run time (`suit.${style}.${s}`) starts with a prefix the files have."""
    english = set(strings("en"))
    prefixes = set(DYNAMIC.findall(scripts()))
    assert prefixes
    for prefix in prefixes:
        assert any(k.startswith(prefix) for k in english), prefix


def test_no_page_imports_another_page() -> None:
    """The router imports the pages; a page imports its own modules and the shared ones; a
    shared module imports no page; nothing imports the router."""
    found = modules()
    assert len(found) > 15
    for module in found:
        assert module == ROUTER or module in SHARED or page_of(module), (
            f"js/{module}: neither the router, a page's nor shared: list it in PAGES or SHARED"
        )
        mine = page_of(module)
        for target in imports(module):
            assert (JS / target).is_file(), f"js/{module} imports js/{target}, which is missing"
            assert target != ROUTER, f"js/{module} imports the router"
            theirs = page_of(target)
            if module == ROUTER or theirs is None:
                continue
            assert mine == theirs, (
                f"js/{module} ({mine or 'shared'}) imports js/{target}, a module of the {theirs} "
                "page: move what both use to a shared module"
            )
    entries = {page_of(t) for t in imports(ROUTER)} - {None}
    assert entries == set(PAGES)


def test_the_tables_views_only_draw() -> None:
    """A table's views read its controller and call its actions: they neither talk to the
    server nor hold a socket. Only the table's socket module opens one, and the news
    module the person's news socket."""
    views = [m for m in modules() if m.startswith("table/view/")]
    assert len(views) >= 6
    for module in views:
        text = (JS / module).read_text()
        assert not imports(module) & {"api.js", "table/socket.js"}, module
        assert not re.search(r"\bfetch\(|\bWebSocket\b", text), module
    for module in modules():
        if module not in ("table/socket.js", "news.js"):
            assert "new WebSocket" not in (JS / module).read_text(), module


def test_no_file_loads_anything_from_another_host() -> None:
    for path in STATIC.rglob("*"):
        if path.suffix in (".html", ".js", ".css"):
            assert not re.search(r"(src|href)\s*=\s*[\"']?(https?:)?//", path.read_text()), path
            assert "@import url(http" not in path.read_text(), path


def test_the_page_and_its_files_are_served(server: ServerProcess) -> None:
    page = (STATIC / "index.html").read_text()
    with httpx.Client(base_url=server.url) as http:
        for path in ("/", "/t/SomeToken_12"):
            r = http.get(path)
            assert r.status_code == 200, path
            assert r.headers["content-type"].startswith("text/html")
            assert r.text == page
        r = http.get("/static/js/main.js")
        assert r.status_code == 200
        assert "javascript" in r.headers["content-type"]
        assert r.text == (STATIC / "js" / "main.js").read_text()
        r = http.get("/api/catalogue?lang=hr")
        assert r.status_code == 200 and r.json() == {"lang": "hr", "texts": strings("hr")}
        assert http.get("/api/catalogue?lang=xx").status_code == 400
        assert http.get("/static/style.css").headers["content-type"].startswith("text/css")
        assert http.get("/static/nothing.js").status_code == 404
        assert http.get("/static/../pyproject.toml").status_code == 404
