"""The server's refusals reach a person in the page's language: an Italian page that
chooses a nickname the server refuses (HTTP), or that sends a move the server refuses
(the WebSocket), shows the catalogue's Italian sentence for the error's code, never the
server's English message."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import briscola
from browserkit import Person

IT = json.loads(
    (Path(briscola.__file__).parent / "words" / "catalogues" / "it.json").read_text("utf-8")
)
CARDS = [f"{r}{s}" for s in "cdsb" for r in "A234567JQK"]


def test_a_nickname_refused_is_said_in_italian(people: Callable[[str], Person]) -> None:
    ana = people("Ana")
    ana.set_prefs(lang="it")
    ana.page.fill("#nickname", "   ")  # nothing you can see: bad_nickname
    ana.page.click("#nickname-form button[type=submit]")
    error = ana.page.locator("#nickname-form .error")
    error.wait_for()
    ana.page.wait_for_function(
        "() => document.querySelector('#nickname-form .error').textContent !== ''"
    )
    assert error.inner_text() == IT["error.bad_nickname"]


def test_a_move_refused_is_said_in_italian(people: Callable[[str], Person]) -> None:
    ana = people("Ana")
    ana.set_prefs(lang="it")
    ana.login()
    tamper: dict[str, Any] = {"card": None}
    refused: list[dict[str, Any]] = []

    def route(ws: Any) -> None:
        """The page's socket, through to the server; the first move sent while ``tamper``
        names a card becomes a play of that card, which the page's seat does not hold."""
        server = ws.connect_to_server()

        def to_server(message: Any) -> None:
            data = json.loads(message)
            if data.get("type") == "act" and tamper["card"]:
                data["action"] = {"seat": data["action"]["seat"], "play": tamper["card"]}
                tamper["card"] = None
                message = json.dumps(data)
            server.send(message)

        def to_page(message: Any) -> None:
            data = json.loads(message)
            if data.get("type") == "error":
                refused.append(data)
            ws.send(message)

        ws.on_message(to_server)
        server.on_message(to_page)

    ana.page.route_web_socket(re.compile(r"/api/tables/[^/]+/ws"), route)
    ana.page.click("#play-now")
    cards = ana.enabled_cards()
    cards.first.wait_for()
    held = [c.get_attribute("data-card") for c in ana.page.locator("#hand .card").all()]
    tamper["card"] = next(c for c in CARDS if c not in held)
    cards.first.click()
    notice = ana.page.locator("#notice")
    notice.wait_for()
    assert [e["code"] for e in refused] == ["illegal"], refused
    assert "does not hold" in refused[0]["message"]  # the server's English, for programs
    assert notice.inner_text() == IT["error.illegal"]
