"""The history in the browser: a person plays a one-hand briscola-2 match against a
computer player (through the protocol client, to save time), then opens their history,
the match and its hand, and steps through the tricks (forward, back, to the last, to any
trick, with the buttons, the keyboard, the slider and the list), each position checked
against the hand's record replayed by the engine; the downloads are the API's records.
The replay route itself is checked first: finished hands only."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

import httpx
import pytest

from briscola.engine.actions import Play
from briscola.engine.game_record import parse_record
from briscola.engine.record import replay
from briscola.engine.state import GameState
from briscola.words.catalogue import catalogue
from browserkit import DESKTOP, Person, resize
from serverkit import Client, ServerProcess, open_table, play_randomly

T = TypeVar("T")
ENGLISH = catalogue("en")


def run(coro: Coroutine[Any, Any, T]) -> T:
    """Run ``coro`` on an event loop of its own thread (Playwright's sync API holds this
    thread's loop while a browser is open)."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coro).result()


async def played_match(base: str, nickname: str) -> tuple[str, dict[str, str]]:
    """A one-hand briscola-2 match played to its end by ``nickname`` against a computer
    player; its token and the person's cookies."""
    client = await Client(base, nickname).login()
    try:
        seats = [{"kind": "me"}, {"kind": "bot", "level": "beginner"}]
        table = await open_table(client, "briscola-2", seats, {"match": "one-hand"})
        token = table["token"]
        await client.call("POST", f"/api/tables/{token}/start")
        await client.connect(token)
        await play_randomly(client, random.Random(7))
        return token, dict(client.http.cookies)
    finally:
        await client.aclose()


@pytest.fixture(scope="module")
def match(web: ServerProcess) -> tuple[str, dict[str, str]]:
    return run(played_match(web.url, "Ugo"))


def get(base: str, path: str) -> Any:
    r = httpx.get(base + path, timeout=10)
    assert r.status_code == 200, (path, r.status_code, r.text)
    return r.json()


def test_the_replay_route_gives_finished_hands_only(
    web: ServerProcess, match: tuple[str, dict[str, str]]
) -> None:
    token, _ = match
    hand = get(web.url, f"/api/tables/{token}/hands/1")
    out = get(web.url, f"/api/tables/{token}/hands/1/replay")
    tricks = replay(parse_record(hand)).to_json()["tricks"]
    assert len(out["positions"]) == len(tricks) + 1 == 21
    assert out["positions"][0]["hands"] == hand["deal"]["hands"]
    assert [p["winner"] for p in out["positions"][1:]] == [t["winner"] for t in tricks]
    assert [[x["card"] for x in p["played"]] for p in out["positions"][1:]] == [
        t["cards"] for t in tricks
    ]
    record = get(web.url, f"/api/tables/{token}/record")
    assert out["positions"][-1]["points"] == out["points"] == record["result"]["hands"][0]["points"]
    assert out["positions"][-1]["hands"] == [[], []]
    assert [s["kind"] for s in out["seats"]] == ["person", "bot"]
    assert out["seats"][0]["nickname"] == "Ugo" and out["seats"][1]["level"] == "beginner"
    table = get(web.url, f"/api/tables/{token}")
    assert out["seats"][1]["name"] == table["seats"][1]["name"]  # the computer's first name
    # a hand the match over never had has no replay (`bad_hand`); nor one not over yet
    # (`not_finished`, below): its deal is still secret
    for path in (f"/api/tables/{token}/hands/2/replay", f"/api/tables/{token}/hands/0/replay"):
        r = httpx.get(web.url + path, timeout=10)
        assert r.status_code == 404 and r.json()["error"]["code"] == "bad_hand"

    async def in_play() -> str:
        client = await Client(web.url, "Vera").login()
        try:
            seats = [{"kind": "me"}, {"kind": "bot", "level": "random"}]
            table = await open_table(client, "briscola-2", seats)
            await client.call("POST", f"/api/tables/{table['token']}/start")
            return str(table["token"])
        finally:
            await client.aclose()

    playing = run(in_play())
    r = httpx.get(f"{web.url}/api/tables/{playing}/hands/1/replay", timeout=10)
    assert r.status_code == 404 and r.json()["error"]["code"] == "not_finished"


def expected_positions(hand: dict[str, Any]) -> list[dict[str, Any]]:
    """Each position of the hand from its record, by the engine: the cards of trick K (by
    seat), who took it, the points by seat so far and each hand as trick K's cards lie on
    the table (the hands after the draw of trick K-1, less trick K's cards)."""
    rec = parse_record(hand)
    state = GameState(rec.rules, rec.deal)
    out: list[dict[str, Any]] = [
        {"cards": [], "hands": [list(h) for h in hand["deal"]["hands"]], "points": [0, 0]}
    ]
    after_draw = [[str(c) for c in h] for h in state.hands]
    for move in rec.moves:
        state.apply(move)
        if isinstance(move, Play) and not state.trick:
            won = state.tricks[-1]
            cards = [str(c) for c in won.cards]
            hands = [[c for c in h if c not in cards] for h in after_draw]
            out.append(
                {
                    "cards": cards,
                    "seats": list(won.seats),
                    "winner": won.winner,
                    "taken": won.points,
                    "hands": hands,
                    "points": list(state.seat_points),
                }
            )
            after_draw = [[str(c) for c in h] for h in state.hands]
    return out


def check_position(ugo: Person, k: int, want: dict[str, Any], names: list[str]) -> None:
    page = ugo.page
    where = "The deal" if k == 0 else f"After trick {k} of 20"
    page.wait_for_selector(f"#replay-at:has-text('{where}')")
    assert page.locator("#replay-slider").input_value() == str(k)
    shown = page.locator("#replay-trick [data-card]").evaluate_all(
        "els => els.map(e => e.dataset.card)"
    )
    assert shown == want["cards"]
    for seat in (0, 1):
        held = page.locator(f'.replay-seat[data-seat="{seat}"] [data-card]').evaluate_all(
            "els => els.map(e => e.dataset.card)"
        )
        assert sorted(held) == sorted(want["hands"][seat]), (k, seat)
    points = page.locator("#replay-points").inner_text()
    mine, theirs = want["points"]
    assert points == f"Points so far: {names[0]} {mine} · {names[1]} {theirs}"
    taken = page.locator("#replay-taken").inner_text()
    if k:
        who = names[want["winner"]]
        points = ENGLISH.say("count.points", n=want["taken"])
        said = ENGLISH.say("tell.took", form="other", who=who, trick=k, points=points)
        assert taken == said[:1].upper() + said[1:]
        captions = page.locator("#replay-trick figcaption").all_inner_texts()
        assert captions == [names[s] for s in want["seats"]]
    else:
        assert taken == ""


def test_a_finished_hand_replays_trick_by_trick(
    people: Callable[[str], Person], web: ServerProcess, match: tuple[str, dict[str, str]]
) -> None:
    token, cookies = match
    hand = get(web.url, f"/api/tables/{token}/hands/1")
    record = get(web.url, f"/api/tables/{token}/record")
    want = expected_positions(hand)
    assert len(want) == 21

    ugo = people("Ugo")
    ugo.context.add_cookies([{"name": k, "value": v, "url": web.url} for k, v in cookies.items()])
    page = ugo.page
    ugo.goto("/")
    entry = page.locator(f'#history li[data-token="{token}"] a')
    entry.wait_for()
    assert "Briscola" in entry.inner_text() and "Ugo" in entry.inner_text()
    entry.click()
    page.wait_for_url(f"**/history/{token}")
    page.wait_for_selector("#match-hands a")
    points = record["result"]["hands"][0]["points"]
    assert page.locator("#match-hands a").all_inner_texts() == [
        f"Replay hand 1 · {points[0]}\N{EN DASH}{points[1]}"
    ]
    assert page.locator("#match-score").inner_text().startswith("Hands won: ")

    # the match's record downloads as the API gives it, under a good name
    with page.expect_download() as got:
        page.click("#download-match")
    assert got.value.suggested_filename == f"briscola-{token[:8]}-match.json"
    assert json.loads(Path(got.value.path()).read_text()) == record

    page.click('#match-hands a[data-hand="1"]')
    page.wait_for_url(f"**/history/{token}/1")
    page.wait_for_selector("#replay-board")
    names = [page.locator(f'.replay-seat[data-seat="{s}"] h3').inner_text() for s in (0, 1)]
    # the computer player by its first name alone, the level apart (the table was opened
    # through the API with no language: an Italian table)
    table = get(web.url, f"/api/tables/{token}")
    assert names == ["Ugo", table["seats"][1]["name"]] and table["lang"] == "it"
    check_position(ugo, 0, want[0], names)
    ugo.shoot("replay")
    ugo.no_horizontal_scroll()

    # the buttons: forward, forward, back; the first and last
    page.click("#replay-forward")
    check_position(ugo, 1, want[1], names)
    page.click("#replay-forward")
    check_position(ugo, 2, want[2], names)
    page.click("#replay-back")
    check_position(ugo, 1, want[1], names)
    page.click("#replay-last")
    check_position(ugo, 20, want[20], names)
    assert page.locator("#replay-forward").get_attribute("aria-disabled") == "true"
    page.click("#replay-forward", force=True)  # at the end (aria-disabled): nothing moves
    check_position(ugo, 20, want[20], names)
    page.click("#replay-first")
    check_position(ugo, 0, want[0], names)

    # the keyboard alone: arrows, End, Home, and the slider's own keys
    page.keyboard.press("ArrowRight")
    check_position(ugo, 1, want[1], names)
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    check_position(ugo, 3, want[3], names)
    page.keyboard.press("ArrowLeft")
    check_position(ugo, 2, want[2], names)
    page.keyboard.press("End")
    check_position(ugo, 20, want[20], names)
    page.keyboard.press("Home")
    check_position(ugo, 0, want[0], names)
    page.focus("#replay-slider")
    for _ in range(7):
        page.keyboard.press("ArrowRight")
    check_position(ugo, 7, want[7], names)
    assert page.locator("#replay-slider").get_attribute("aria-valuetext") == "After trick 7 of 20"

    # the list of tricks jumps to any of them; a reload stays at the trick
    page.click("#replay .replay-list summary")
    page.click('#replay-tricks [data-trick="13"]')
    check_position(ugo, 13, want[13], names)
    ugo.shoot("replay-trick")
    assert page.locator('#replay-tricks [aria-current="step"]').get_attribute("data-trick") == "13"
    page.reload()
    check_position(ugo, 13, want[13], names)

    # the hand's record downloads as the API gives it
    with page.expect_download() as got:
        page.click("#download-hand")
    assert got.value.suggested_filename == f"briscola-{token[:8]}-hand-1.json"
    assert json.loads(Path(got.value.path()).read_text()) == hand

    # in another language the replay speaks it
    page.evaluate(
        "localStorage.setItem('briscola.prefs', JSON.stringify({lang: 'it', style: 'spanish'}))"
    )
    page.reload()
    page.wait_for_selector("#replay-at:has-text('Dopo la presa 13 di 20')")
    assert "/cards/spanish/" in (page.locator("#replay-trick img").first.get_attribute("src") or "")


def test_the_replays_trick_cards_are_as_big_as_the_tables(
    people: Callable[[str], Person], web: ServerProcess, match: tuple[str, dict[str, str]]
) -> None:
    """At the same size of the window, a card of a replayed trick is at least as wide as a
    card of the trick at the table (the replay's no smaller version of it)."""
    token, cookies = match
    ugo = people("Ugo")
    ugo.context.add_cookies([{"name": k, "value": v, "url": web.url} for k, v in cookies.items()])
    page = ugo.page
    sizes = [{"width": 390, "height": 844}, {"width": 844, "height": 390}, DESKTOP]
    widths = (
        "(sel) => [...document.querySelectorAll(sel)].map((c) => c.getBoundingClientRect().width)"
    )
    ugo.goto(f"/history/{token}/1?trick=3")
    page.wait_for_selector("#replay-trick .card")
    replayed = []
    for size in sizes:
        resize(page, size)
        page.wait_for_timeout(60)
        found = page.evaluate(widths, "#replay-trick .card")
        assert len(found) == 2, found
        replayed.append(min(found))
    ugo.shoot("replay-trick")
    ugo.goto("/")
    page.click("#play-now")  # a table of briscola-2 against the computer
    page.wait_for_selector("#trick .card")  # (a card played, or the empty trick's place)
    for size, replay_w in zip(sizes, replayed, strict=True):
        resize(page, size)
        page.wait_for_timeout(60)
        table_w = max(page.evaluate(widths, ".felt .trick .card"))
        assert replay_w >= table_w, (size, replay_w, table_w)
