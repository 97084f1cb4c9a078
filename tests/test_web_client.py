"""The browser client's files, without a browser: every interface string used by the
JavaScript is in all four languages, and ``briscola serve`` serves the page at ``/`` and
at a table's link, and its files under ``/static``."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

import briscola
from serverkit import ServerProcess

STATIC = Path(briscola.__file__).parent / "web" / "static"
LANGUAGES = ("en", "it", "es", "hr")
KEY = re.compile(r"""\bt\(\s*["']([\w.-]+)["']""")
DYNAMIC = re.compile(r"\bt\(\s*`([\w.-]*)\$\{")


def strings(lang: str) -> dict[str, str]:
    data: dict[str, str] = json.loads((STATIC / "i18n" / f"{lang}.json").read_text())
    return data


def scripts() -> str:
    return "\n".join(p.read_text() for p in sorted((STATIC / "js").glob("*.js")))


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
        assert all(v.strip() for v in keys.values()), lang


def test_every_key_built_in_the_code_has_its_family() -> None:
    """A key built at run time (`suit.${style}.${s}`) starts with a prefix the files have."""
    english = set(strings("en"))
    prefixes = set(DYNAMIC.findall(scripts()))
    assert prefixes
    for prefix in prefixes:
        assert any(k.startswith(prefix) for k in english), prefix


def test_the_placeholders_agree_between_languages() -> None:
    english = strings("en")
    for lang in LANGUAGES:
        for key, text in strings(lang).items():
            assert set(re.findall(r"\{\w+\}", text)) == set(re.findall(r"\{\w+\}", english[key])), (
                lang,
                key,
            )


def test_no_file_loads_anything_from_another_host() -> None:
    for path in STATIC.rglob("*"):
        if path.suffix in (".html", ".js", ".css"):
            assert not re.search(r"(src|href)\s*=\s*[\"']?(https?:)?//", path.read_text()), path
            assert "@import url(http" not in path.read_text(), path


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with ServerProcess(tmp_path_factory.mktemp("web"), None) as s:
        yield s


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
        r = http.get("/static/i18n/hr.json")
        assert r.status_code == 200 and r.json() == strings("hr")
        assert http.get("/static/style.css").headers["content-type"].startswith("text/css")
        assert http.get("/static/nothing.js").status_code == 404
        assert http.get("/static/../pyproject.toml").status_code == 404
