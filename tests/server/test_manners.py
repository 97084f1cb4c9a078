"""The family's own table manners and points, as table settings the server keeps and
enforces (issue 23): ``points`` (``hidden`` by default: counted in your head; ``shown``)
and ``chat`` (``phrases`` by default: free text while no cards are in anyone's hand, before
the first deal and after the match; only the friendly phrases from the deal on, issue 39;
``free``; ``none``), through the real server process."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from typing import Any

import pytest

pytest.importorskip("fastapi")

from serverkit import Client, ServerProcess, finished, open_table, play_randomly

BOT = {"kind": "bot", "level": "random"}
ONE_HAND = {"match": "one-hand"}


async def quiet(c: Client, seconds: float = 0.5) -> list[dict[str, Any]]:
    """The frames ``c`` is sent in the next ``seconds``."""
    seen: list[dict[str, Any]] = []
    try:
        while True:
            seen.append(await c.receive(seconds))
    except TimeoutError:
        return seen


async def said(c: Client, message: dict[str, Any]) -> dict[str, Any]:
    """``c`` says ``message``; the chat line or the error it is answered with."""
    await c.send({"type": "chat", **message})
    return await c.until(lambda f: f["type"] in ("chat", "error"))


async def test_a_table_made_with_defaults_hides_the_points_and_talks_in_phrases(
    clients: Any,
) -> None:
    ana = await clients("Ana")
    table = await open_table(ana, "briscola-2", [])
    assert (table["points"], table["chat"]) == ("hidden", "phrases")
    shown = await ana.call("GET", f"/api/tables/{table['token']}")
    assert (shown["points"], shown["chat"]) == ("hidden", "phrases")
    other = await open_table(ana, "briscola-2", [], points="shown", chat="free")
    assert (other["points"], other["chat"]) == ("shown", "free")


@pytest.mark.parametrize(
    ("setting", "value", "code"),
    [("points", "loud", "bad_points"), ("chat", "shouting", "bad_chat"), ("chat", "", "bad_chat")],
)
async def test_a_setting_out_of_its_choices_is_refused_with_its_sentence(
    clients: Any, setting: str, value: str, code: str
) -> None:
    ana = await clients("Ana")
    body = {"game": "briscola-2", setting: value}
    r = await ana.http.post("/api/tables", json=body)
    assert r.status_code == 400, r.text
    error = r.json()["error"]
    assert (error["code"], error["values"]) == (code, {"value": value})


async def test_under_phrases_a_hand_in_play_takes_only_the_phrases(clients: Any) -> None:
    ana, bea = await clients("Ana"), await clients("Bea")
    token = (await open_table(ana, "briscola-2", [{"kind": "me"}, BOT], ONE_HAND))["token"]
    for c in (ana, bea):  # Bea watches
        await c.connect(token)
        await c.until(lambda f: f["type"] == "snapshot")

    # before the start: free text
    line = await said(ana, {"text": "in bocca al lupo"})
    assert (line["type"], line["text"], line.get("phrase")) == ("chat", "in bocca al lupo", None)
    await bea.until(lambda f: f["type"] == "chat")

    await ana.call("POST", f"/api/tables/{token}/start")
    await ana.until(lambda f: f.get("view") is not None)
    await play_randomly(ana, random.Random(5), until=lambda c: c.view["move_number"] >= 1)

    # during the hand: free text refused, nothing kept nor sent to anyone
    refusal = await said(ana, {"text": "I have the ace of coins"})
    assert refusal["type"] == "error" and refusal["code"] == "chat_phrases", refusal
    assert not [f for f in await quiet(bea) if f["type"] == "chat"]

    # a phrase goes to everyone, its id for each reader's language, its English text
    line = await said(ana, {"phrase": "nice_hand"})
    assert (line["type"], line["phrase"], line["text"]) == ("chat", "nice_hand", "Nice hand!")
    heard = await bea.until(lambda f: f["type"] == "chat")
    assert (heard["phrase"], heard["nickname"]) == ("nice_hand", "Ana")

    # a phrase that is not one, or both a text and a phrase: not a message
    for wrong in ({"phrase": "ace_of_coins"}, {"text": "ciao", "phrase": "hello"}, {}):
        assert (await said(ana, wrong))["code"] == "bad_message"

    # someone coming in is told the lines kept: the first and the phrase, not the refused
    eve = await clients("Eve")
    await eve.connect(token)
    lines = [f for f in await quiet(eve, 1.0) if f["type"] == "chat"]
    assert [(f["text"], f["phrase"]) for f in lines] == [
        ("in bocca al lupo", None),
        ("Nice hand!", "nice_hand"),
    ]

    # once the match is over: free text again, and the rematch keeps the settings
    await play_randomly(ana, random.Random(23), until=finished)
    line = await said(ana, {"text": "ancora una?"})
    assert (line["type"], line["text"]) == ("chat", "ancora una?")
    again = await ana.call("POST", f"/api/tables/{token}/rematch")
    assert (again["points"], again["chat"]) == ("hidden", "phrases")


async def test_a_dealt_hand_takes_only_the_phrases_before_its_first_card(clients: Any) -> None:
    """Issue 39: "Paolo, I have the king and knave of swords!" reached Paolo between the
    deal and the first card. Once the cards are dealt, a free line is refused and reaches
    nobody; a phrase goes to everyone."""
    ana, bea = await clients("Ana"), await clients("Bea")
    seats = [{"kind": "me"}, {"kind": "open"}]
    token = (await open_table(ana, "briscola-2", seats, ONE_HAND))["token"]
    await bea.call("POST", f"/api/tables/{token}/seats/1")
    await ana.call("POST", f"/api/tables/{token}/start")
    for c in (ana, bea):
        await c.connect(token)
        await c.until(lambda f: f.get("view") is not None)
    assert ana.view is not None and ana.view["move_number"] == 0  # dealt, no card played
    refusal = await said(ana, {"text": "Bea, I have the king and knave of swords!"})
    assert (refusal["type"], refusal.get("code")) == ("error", "chat_phrases"), refusal
    assert "phrase" in refusal["message"], refusal
    assert not [f for f in await quiet(bea) if f["type"] == "chat"]
    line = await said(bea, {"phrase": "good_luck"})
    assert (line["type"], line.get("phrase")) == ("chat", "good_luck"), line
    heard = await ana.until(lambda f: f["type"] == "chat")
    assert (heard["phrase"], heard["nickname"]) == ("good_luck", "Bea")
    # nobody coming in later reads the refused line
    eve = await clients("Eve")
    await eve.connect(token)
    lines = [f for f in await quiet(eve, 1.0) if f["type"] == "chat"]
    assert [f["phrase"] for f in lines] == ["good_luck"], lines


async def test_between_two_hands_of_a_match_the_next_is_dealt_and_takes_only_phrases(
    clients: Any,
) -> None:
    """In a match the next hand is dealt with the last card of the one before: cards are in
    everyone's hand again at once, so a free line is refused there too; once the match is
    over, free text is taken again."""
    ana = await clients("Ana")
    token = (await open_table(ana, "briscola-2", [{"kind": "me"}, BOT], {"match": "best-of-3"}))[
        "token"
    ]
    await ana.call("POST", f"/api/tables/{token}/start")
    await ana.connect(token)
    await ana.until(lambda f: f.get("view") is not None)
    await play_randomly(
        ana, random.Random(7), until=lambda c: finished(c) or c.view["hand_number"] >= 2
    )
    assert not finished(ana) and ana.view is not None and ana.view["move_number"] == 0
    refusal = await said(ana, {"text": "that ace of yours!"})
    assert (refusal["type"], refusal.get("code")) == ("error", "chat_phrases"), refusal
    assert (await said(ana, {"phrase": "well_played"}))["phrase"] == "well_played"
    await play_randomly(ana, random.Random(8), until=finished)
    await asyncio.sleep(1.1)  # (the moves came fast: no flood refused for them)
    line = await said(ana, {"text": "che partita!"})
    assert (line["type"], line.get("text")) == ("chat", "che partita!"), line


async def test_under_free_a_hand_in_play_takes_any_line(clients: Any) -> None:
    ana = await clients("Ana")
    seats = [{"kind": "me"}, BOT]
    table = await open_table(ana, "briscola-2", seats, points="shown", chat="free")
    await ana.call("POST", f"/api/tables/{table['token']}/start")
    await ana.connect(table["token"])
    await ana.until(lambda f: f.get("view") is not None)
    line = await said(ana, {"text": "forza"})
    assert (line["type"], line["text"]) == ("chat", "forza")
    assert (await said(ana, {"phrase": "good_luck"}))["phrase"] == "good_luck"
    again = await ana.call("GET", f"/api/tables/{table['token']}")
    assert (again["points"], again["chat"]) == ("shown", "free")


async def test_under_none_every_line_is_refused(clients: Any) -> None:
    ana, bea = await clients("Ana"), await clients("Bea")
    token = (await open_table(ana, "briscola-2", [{"kind": "me"}, BOT], chat="none"))["token"]
    for c in (ana, bea):
        await c.connect(token)
        await c.until(lambda f: f["type"] == "snapshot")
    assert (await said(ana, {"text": "ciao"}))["code"] == "chat_off"
    await ana.call("POST", f"/api/tables/{token}/start")
    assert (await said(ana, {"phrase": "hello"}))["code"] == "chat_off"
    assert (await said(ana, {"text": "ciao"}))["code"] == "chat_off"
    await asyncio.sleep(0)
    assert not [f for f in await quiet(bea) if f["type"] == "chat"]


async def test_a_phrase_said_is_still_a_phrase_after_a_restart(
    server_factory: Callable[..., ServerProcess],
) -> None:
    srv = server_factory(None)
    ana = await Client(srv.url, "Ana").login()
    try:
        token = (await open_table(ana, "briscola-2", [{"kind": "me"}, BOT]))["token"]
        await ana.call("POST", f"/api/tables/{token}/start")
        await ana.connect(token)
        assert (await said(ana, {"phrase": "well_played"}))["phrase"] == "well_played"
        await ana.close()
        srv.kill()
        srv.start()
        await ana.reconnect(token)
        lines = [f for f in await quiet(ana, 1.0) if f["type"] == "chat"]
        assert [(f["phrase"], f["text"]) for f in lines] == [("well_played", "Well played!")]
    finally:
        await ana.aclose()
        srv.stop()
