"""Signing in without a password, in real Chromium with its virtual authenticator (the
DevTools WebAuthn domain): Ana adds a passkey, signs out and back in with it, brings a
second browser in with the one-time code her first shows, and signs out everywhere from
the second; and the pages photographed, checked by axe-core, in every language.

The page is opened at ``http://localhost:PORT``: browsers allow passkeys on a secure page
(``localhost`` counts as one), never at a bare IP address."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from browserkit import Person
from serverkit import ServerProcess


@pytest.fixture
def localhost_people(
    browser: Any, web: ServerProcess, screenshots: Path
) -> Iterator[Callable[[str], Person]]:
    """``people``, at ``http://localhost:PORT``."""
    base = web.url.rstrip("/").replace("127.0.0.1", "localhost")
    made: list[Person] = []

    def make(name: str) -> Person:
        person = Person(browser, base, name, screenshots)
        made.append(person)
        return person

    yield make
    errors = [f"{p.name}: {e}" for p in made for e in p.errors]
    for p in made:
        p.close()
    assert not errors, f"JavaScript errors on the page: {errors}"


def with_authenticator(person: Person) -> Any:
    """A virtual platform authenticator for ``person``'s page (it keeps passkeys, and
    says the person is present and verified)."""
    cdp = person.context.new_cdp_session(person.page)
    cdp.send("WebAuthn.enable")
    added = cdp.send(
        "WebAuthn.addVirtualAuthenticator",
        {
            "options": {
                "protocol": "ctap2",
                "transport": "internal",
                "hasResidentKey": True,
                "hasUserVerification": True,
                "isUserVerified": True,
                "automaticPresenceSimulation": True,
            }
        },
    )
    return cdp, added["authenticatorId"]


def greeted(person: Person, name: str) -> None:
    person.page.wait_for_selector(f".hello:has-text('{name}')")


def test_a_passkey_a_code_for_a_second_browser_and_signing_out_everywhere(
    localhost_people: Callable[[str], Person],
) -> None:
    ana = localhost_people("Ana")
    cdp, authenticator = with_authenticator(ana)
    ana.set_prefs()
    ana.login()
    greeted(ana, "Ana")
    ana.page.click("#prefs-button")
    ana.page.click("#account-link")
    ana.page.wait_for_selector("#devices li")
    assert ana.page.locator("#passkeys li").inner_text() == "No passkey yet."
    ana.page.click("#add-passkey")
    ana.page.wait_for_selector("#account-said:has-text('Passkey added')")
    assert ana.page.locator("#passkeys li .what").inner_text() == "Chrome · Linux"
    stored = cdp.send("WebAuthn.getCredentials", {"authenticatorId": authenticator})
    assert len(stored["credentials"]) == 1 and stored["credentials"][0]["isResidentCredential"]

    # signed out, then back in with the passkey alone
    ana.page.click("#prefs-button")
    ana.page.click("#sign-out")
    ana.page.wait_for_selector("#nickname-form")
    ana.shoot("account-signed-out")
    ana.axe("the home screen of someone signed out")
    ana.page.click("#passkey-sign-in")
    greeted(ana, "Ana")

    # a second browser, with no passkey: the code the first shows
    laptop = localhost_people("Ana's laptop")
    laptop.set_prefs()
    laptop.page.wait_for_selector("#code-form")
    ana.goto("/me")
    ana.page.click("#make-code")
    code = ana.page.locator("#code").inner_text()
    assert len(code) == 9 and code[4] == "-"
    ana.shoot("account")
    ana.axe("the account page")
    laptop.page.fill("#sign-in-code", "nope-nope")
    laptop.page.click("#code-form button[type=submit]")
    laptop.page.wait_for_selector("#other-ways .error:has-text('That code does not work')")
    laptop.page.fill("#sign-in-code", code.lower())
    laptop.page.click("#code-form button[type=submit]")
    greeted(laptop, "Ana")

    # the laptop lists both; it signs out everywhere, the first browser too
    laptop.goto("/me")
    laptop.page.wait_for_function("() => document.querySelectorAll('#devices li').length === 2")
    assert laptop.page.locator("#devices li.current").count() == 1
    laptop.page.click("#sign-out-everywhere")
    laptop.page.wait_for_selector("#nickname-form")
    ana.goto("/me")
    ana.page.wait_for_selector("#nickname-form")
    ana.page.wait_for_selector("#other-ways")


@pytest.mark.parametrize("lang", ["it", "es", "hr"])
def test_the_account_page_in_every_language(
    localhost_people: Callable[[str], Person], lang: str
) -> None:
    ana = localhost_people("Ana")
    with_authenticator(ana)
    ana.set_prefs(lang=lang)
    ana.login()
    ana.page.wait_for_selector(".hello")
    ana.goto("/me")
    ana.page.wait_for_selector("#devices li")
    ana.page.click("#add-passkey")
    ana.page.wait_for_selector("#passkeys li button")
    ana.page.click("#make-code")
    ana.page.wait_for_selector("#code")
    text = ana.page.locator("#app").inner_text()
    for english in ("Passkeys", "Your devices", "Sign out everywhere", "this device"):
        assert english not in text, (lang, english)
    ana.axe(f"the account page in {lang}")
    ana.shoot(f"account-{lang}")
    # keyboard: every control of the page is reached with Tab
    ana.page.keyboard.press("Tab")
    reached = set()
    for _ in range(30):
        reached.add(
            ana.page.evaluate(
                "() => document.activeElement.id || document.activeElement.textContent"
            )
        )
        ana.page.keyboard.press("Tab")
    assert {"add-passkey", "make-code", "sign-out-everywhere"} <= reached


def test_deleting_the_account_asks_for_the_nickname_then_signs_out(
    localhost_people: Callable[[str], Person],
) -> None:
    cy = localhost_people("Cy")
    cy.set_prefs()
    cy.login()
    cy.page.wait_for_selector(".hello")
    cy.goto("/me")
    cy.page.wait_for_selector("#delete-account")
    cy.page.fill("#delete-confirm", "Cyy")
    cy.page.click("#delete-account button[type=submit]")
    cy.page.wait_for_selector("#account-said:has-text('type your nickname exactly as it is: Cy')")
    cy.page.fill("#delete-confirm", "Cy")
    cy.page.click("#delete-account button[type=submit]")
    cy.page.wait_for_selector("#nickname-form")
    assert cy.page.evaluate("() => fetch('/api/session').then(r => r.status)") == 401
