"""Coming back to a table: a reload in the middle of a hand keeps the game, the hand and
the seat; a tab closed and the link opened again within the grace period puts the player
back in the seat; a move made while the server is unreachable is sent once it is back."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from browserkit import Person, token_of
from serverkit import ServerProcess


def hand(p: Person) -> list[str]:
    cards = p.page.locator("#hand .card")
    cards.first.wait_for()
    return [c.get_attribute("data-card") or "" for c in cards.all()]


def table(p: Person) -> Any:
    token = token_of(p.page.url)
    return p.page.evaluate(f"fetch('/api/tables/{token}').then(r => r.json())")


def play_one(p: Person) -> None:
    cards = p.enabled_cards()
    cards.first.wait_for()
    card = cards.first.get_attribute("data-card")
    cards.first.click()
    p.page.wait_for_selector(f'#hand [data-card="{card}"]', state="detached")


def test_a_reload_and_a_closed_tab_keep_the_seat(people: Callable[[str], Person]) -> None:
    ana = people("Ana")
    ana.login()
    ana.page.click("#play-now")
    play_one(ana)
    play_one(ana)
    ana.enabled_cards().first.wait_for()
    before = hand(ana)
    stock = ana.page.locator("#stock-size").inner_text()
    url = ana.page.url

    ana.page.reload()
    ana.enabled_cards().first.wait_for()
    assert ana.page.url == url
    assert hand(ana) == before
    assert ana.page.locator("#stock-size").inner_text() == stock
    assert table(ana)["you"]["seat"] == 0
    # the card faces, from the preferences: a screenshot of each style
    for style in ("napoletane", "spanish", "french"):
        ana.page.click("#prefs-button")
        ana.page.select_option("#pref-style", style)
        ana.page.click("#prefs-button")
        ana.enabled_cards().first.wait_for()
        ana.shoot(f"table-{style}")
    assert ana.page.evaluate("JSON.parse(localStorage.getItem('briscola.prefs')).style") == "french"

    ana.page.close()
    ana.page = ana.new_page()
    ana.page.goto(url)
    ana.enabled_cards().first.wait_for()
    assert hand(ana) == before
    seat = table(ana)["seats"][0]
    assert seat["nickname"] == "Ana" and seat["connected"] and not seat["stand_in"]
    play_one(ana)  # and plays on


@pytest.mark.parametrize("how", ["killed", "stopped"])
def test_a_move_made_while_the_server_is_down_is_sent_when_it_is_back(
    browser: Any, server_factory: Callable[..., ServerProcess], screenshots: Path, how: str
) -> None:
    """The server killed (SIGKILL), or stopped gracefully (SIGTERM: the socket closed with
    1012, service restart), then started again."""
    server = server_factory(bot_delay=0.0)
    ana = Person(browser, server.url, "Ana", screenshots)
    try:
        ana.login()
        ana.page.click("#play-now")
        ana.enabled_cards().first.wait_for()
        version = table(ana)["version"]
        if how == "killed":
            server.kill()
        else:
            assert server.terminate() == 0
        ana.page.wait_for_selector("#status .offline")
        card = ana.enabled_cards().first.get_attribute("data-card")
        ana.enabled_cards().first.click()
        assert ana.enabled_cards().count() == 0  # one move in flight: no other card enabled
        server.start()
        ana.page.wait_for_selector(f'#hand [data-card="{card}"]', state="detached", timeout=30_000)
        ana.page.wait_for_selector("#status .offline", state="detached")
        assert table(ana)["version"] > version
        assert not ana.page.locator("#notice").count() or "not sent" not in (
            ana.page.locator("#notice").inner_text()
        )
        assert not ana.errors
    finally:
        ana.close()
        server.stop()


def test_a_move_made_offline_is_refused_when_the_table_moved_on(
    browser: Any, server_factory: Callable[..., ServerProcess], screenshots: Path
) -> None:
    """Ana's connection drops (her page's WebSocket cut, the server up); she plays a card
    meanwhile; after the grace period a computer player moves for her; when the connection
    is back her move is not sent, and the page says so."""
    import re

    import httpx

    server = server_factory(grace=1.0, bot_delay=0.0)
    ana = Person(browser, server.url, "Ana", screenshots)
    down = {"now": False}
    routes: list[Any] = []

    def route(ws: Any) -> None:
        if down["now"]:
            ws.close()
            return
        routes.append((ws, ws.connect_to_server()))

    ana.page.route_web_socket(re.compile(r"/ws(\?|$)"), route)
    try:
        ana.login()
        ana.page.click("#play-now")
        ana.enabled_cards().first.wait_for()
        token = token_of(ana.page.url)
        version = table(ana)["version"]
        down["now"] = True
        for page_side, server_side in routes:
            page_side.close()
            server_side.close()
        ana.page.wait_for_selector("#status .offline")
        ana.enabled_cards().first.click()
        assert "Offline" in ana.page.locator("#notice").inner_text()
        with httpx.Client(base_url=server.url) as http:
            for _ in range(100):
                if http.get(f"/api/tables/{token}").json()["version"] > version:
                    break
                ana.page.wait_for_timeout(100)
            else:
                raise AssertionError("no computer player moved for the absent player")
        down["now"] = False
        ana.page.wait_for_selector("#status .offline", state="detached", timeout=20_000)
        notice = ana.page.locator("#notice").inner_text()
        assert "not sent" in notice and "moved on" in notice, notice
        assert not [a for a in ana.acts if a["version"] == version]  # never sent
        assert not ana.errors
    finally:
        ana.close()
        server.stop()
