"""A limit reached, said politely in real Chromium: Ana, against the computer, asks for
hint after hint; past the server's limit the hint box says what happened and in how many
seconds she may ask again (not a failure), and once they have passed she gets a hint."""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator

import pytest

pytest.importorskip("numba")

from browserkit import Person
from serverkit import ServerProcess

ASKED = "() => { const b = document.getElementById('hint'); return b && !b.disabled; }"
"""The hint asked for has been answered (the button is offered again)."""


@pytest.fixture(scope="module")
def web(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """A server with its limits on, for this module's browser."""
    server = ServerProcess(tmp_path_factory.mktemp("limits-web"), None, limits=True)
    with server:
        yield server


def test_a_hint_past_the_limit_says_when_to_ask_again(people: Callable[[str], Person]) -> None:
    ana = people("Ana")
    ana.set_prefs()
    ana.login()
    ana.page.wait_for_selector("#play-now")
    ana.page.click("#play-now")  # against the computer: a practice table
    ana.enabled_cards().first.wait_for()
    said = ana.page.locator("#hint-said")
    refused = ""
    for _ in range(30):
        ana.page.click("#hint")
        ana.page.wait_for_function(ASKED, timeout=60_000)  # (the first: the worker starts)
        refused = said.inner_text()
        if not refused.startswith("The strong computer player would play "):
            break
    found = re.fullmatch(
        r"Many hints were asked for in a short while, by you or from your network: "
        r"you may ask for the next one in (\d+) seconds?\.",
        refused,
    )
    assert found, refused
    ana.shoot("hint-refused")
    time.sleep(int(found.group(1)))
    ana.page.click("#hint")
    ana.page.wait_for_function(ASKED, timeout=60_000)
    assert said.inner_text().startswith("The strong computer player would play ")
