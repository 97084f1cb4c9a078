"""A hostile page on the server's own site (another port of the same host: the browser
sends it the person's cookie, ``SameSite=Lax`` notwithstanding) tries every
state-changing route and the table's WebSocket for a signed-in person, in real Chromium.
Each is refused, nothing changes, no frame reaches it; the real client keeps working, and
what people type is shown as text, never run as markup."""

from __future__ import annotations

import http.server
import json
import threading
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from browserkit import Person, token_of

HOSTILE = """<!doctype html><html><body><p>Free cards!</p><script>
const target = new URL(location.href).searchParams.get("target");
const token = new URL(location.href).searchParams.get("token");
const tries = [
  ["POST", `/api/tables/${token}/start`, null, null],
  ["POST", `/api/tables/${token}/start`, "{}", "text/plain"],
  ["POST", `/api/tables/${token}/seats/1`, null, null],
  ["DELETE", `/api/tables/${token}/seats/0`, null, null],
  ["PUT", `/api/tables/${token}/seats/1`, '{"kind": "open"}', "text/plain"],
  ["POST", `/api/tables/${token}/rematch`, null, null],
  ["POST", "/api/tables", '{"game": "briscola-2", "public": true}', "text/plain"],
  ["PATCH", "/api/session", '{"nickname": "pwned"}', "application/json"],
  ["DELETE", "/api/session", null, null],
];
async function run() {
  const out = { fetches: [], frames: [] };
  for (const [method, path, body, type] of tries) {
    // A page may send a POST anywhere without asking (no-cors); the other methods the
    // browser first asks the server about (a preflight), which it never allows.
    const init = { method, mode: method === "POST" ? "no-cors" : "cors", credentials: "include" };
    if (body !== null) { init.body = body; init.headers = { "Content-Type": type }; }
    try { await fetch(target + path, init); out.fetches.push(method + " " + path + ": sent"); }
    catch (e) { out.fetches.push(method + " " + path + ": " + e); }
  }
  await new Promise((done) => {
    const ws = new WebSocket(target.replace("http", "ws") + `/api/tables/${token}/ws`);
    ws.onopen = () => ws.send(JSON.stringify({ type: "chat", text: "pwned" }));
    ws.onmessage = (e) => out.frames.push(e.data);
    ws.onclose = (e) => { out.closed = e.code; done(); };
    setTimeout(() => { out.closed = "still open"; ws.close(); done(); }, 5000);
  });
  window.hostile = out;
}
run();
</script></body></html>"""


@pytest.fixture
def hostile_site() -> Iterator[str]:
    """A page served on another port of 127.0.0.1: the server's site, not its origin."""

    class Page(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            body = HOSTILE.encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: Any) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Page)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def api(person: Person, method: str, path: str, body: Any = None) -> Any:
    """A request of the person's own page (the real client's origin)."""
    return person.page.evaluate(
        """async ([method, path, body]) => {
          const init = { method, headers: {} };
          if (body !== null) { init.body = JSON.stringify(body);
                               init.headers["Content-Type"] = "application/json"; }
          const r = await fetch(path, init);
          return { status: r.status, body: await r.json().catch(() => null) };
        }""",
        [method, path, body],
    )


def test_a_hostile_page_of_the_same_site_cannot_act_for_the_person(
    people: Callable[[str], Person], hostile_site: str
) -> None:
    ana = people("Ana")
    ana.login()
    ana.page.wait_for_selector("#play-now")
    made = api(
        ana,
        "POST",
        "/api/tables",
        {
            "game": "briscola-2",
            "seats": [{"kind": "me"}, {"kind": "bot", "level": "random"}],
            "chat": "free",  # free text while the hand is played
        },
    )
    assert made["status"] == 201, made
    token = made["body"]["token"]

    answers: list[tuple[str, int]] = []
    evil = ana.context.new_page()  # the same browser: the same cookies for 127.0.0.1
    evil.on(
        "response",
        lambda r: (
            answers.append((f"{r.request.method} {r.url}", r.status))
            if r.url.startswith(ana.base)
            else None
        ),
    )
    evil.goto(f"{hostile_site}/?target={ana.base}&token={token}")
    evil.wait_for_function("() => window.hostile !== undefined", timeout=20_000)
    out = evil.evaluate("window.hostile")

    # every POST reached the server and was refused there, as not of its origin; the
    # other methods were stopped by the browser, the server allowing no preflight
    posts = [(what, status) for what, status in answers if what.startswith("POST ")]
    assert len(posts) == 5 and {status for _, status in posts} == {403}, answers
    assert not [a for a in answers if a[1] < 400], answers
    # the socket was refused at its handshake: no frame, no hand, no move
    assert out["frames"] == [] and out["closed"] != "still open", out
    # nothing changed: the table waits with its seats, Ana is still Ana, still signed in
    table = api(ana, "GET", f"/api/tables/{token}")["body"]
    assert table["status"] == "waiting"
    assert [s["kind"] for s in table["seats"]] == ["person", "bot"]
    me = api(ana, "GET", "/api/session")
    assert me["status"] == 200 and me["body"]["nickname"] == "Ana"
    lobby = api(ana, "GET", "/api/tables")["body"]
    assert all(t["host"] != me["body"]["id"] for t in lobby)  # no public table opened
    evil.close()

    # the real client keeps working: Ana starts her table and plays
    ana.goto(f"/t/{token}")
    ana.page.click("#start")
    ana.page.wait_for_selector("#hand .card")
    assert token_of(ana.page.url) == token
    # what people type is text: markup in the chat is shown, never run
    typed = '<img src=x onerror="window.pwned=1"><b>ciao</b>'
    ana.page.fill("#chat-input", typed)
    ana.page.press("#chat-input", "Enter")
    ana.page.wait_for_selector("#chat-log li")
    assert ana.page.locator("#chat-log li span").last.inner_text() == typed
    assert ana.page.locator("#chat-log img, #chat-log span b").count() == 0
    assert ana.page.evaluate("window.pwned") is None
    # (the page ran under its Content-Security-Policy: anything it refused would be in
    # ana.errors, which fail the test)


def test_sign_out_in_the_menu_ends_the_session(people: Callable[[str], Person]) -> None:
    ana = people("Ana")
    ana.login()
    ana.page.wait_for_selector("#play-now")
    ana.page.click("#prefs-button")
    ana.page.fill("#account-nickname", "Ana Maria")
    ana.page.click("#account-form button[type=submit]")
    ana.page.wait_for_selector("text=Now you are Ana Maria")
    assert api(ana, "GET", "/api/session")["body"]["nickname"] == "Ana Maria"
    assert ana.page.locator(".hello").inner_text() == "Hello, Ana Maria"
    cookie = next(c for c in ana.context.cookies() if c["name"] == "briscola_session")
    made = api(ana, "POST", "/api/tables", {"game": "briscola-2"})
    other_tab = ana.new_page()  # the same person at her table in another tab
    other_tab.goto(f"{ana.base}/t/{made['body']['token']}")
    other_tab.wait_for_selector("#invite-link")
    ana.shoot("prefs-signed-in")
    ana.page.click("#sign-out")
    ana.page.wait_for_selector("#nickname-form")  # back to choosing a nickname
    other_tab.wait_for_selector("#nickname-form")  # its socket closed: signed out there too
    assert api(ana, "GET", "/api/session")["status"] == 401
    # the cookie, replayed in another browser, no longer works either
    thief = ana.context.browser.new_context()
    thief.add_cookies([cookie])
    page = thief.new_page()
    page.goto(ana.base + "/api/session")
    assert json.loads(page.inner_text("body"))["error"]["code"] == "no_session"
    thief.close()
