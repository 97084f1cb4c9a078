"""The terminal game at an online table (``briscola play --server``, ``briscola join``):
real server processes, real client processes, the whole protocol."""

from __future__ import annotations

import asyncio
import json
import os
import re
import socket
import subprocess
import sys
import threading
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

from briscola.fair_shuffle import check_record
from briscola.words.catalogue import PHRASES, catalogue
from serverkit import Client, ServerProcess, open_table

BOTS4 = [
    {"kind": "open"},
    {"kind": "bot", "level": "random"},
    {"kind": "open"},
    {"kind": "bot", "level": "random"},
]


@pytest.fixture
async def host(server: ServerProcess) -> AsyncIterator[Client]:
    client = await Client(server.url, "Host").login()
    yield client
    await client.aclose()


def terminal(*args: str) -> list[str]:
    return [sys.executable, "-m", "briscola", *args]


def client_process(*args: str, moves: str) -> subprocess.Popen[str]:
    """A terminal client reading ``moves``, one a line, from its standard input."""
    proc = subprocess.Popen(
        terminal(*args),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "COLUMNS": "100"},
    )
    assert proc.stdin is not None
    proc.stdin.write(moves)
    proc.stdin.close()
    proc.stdin = None
    return proc


async def seat_filled(host: Client, token: str, seat: int) -> dict[str, Any]:
    """Wait until a person sits at ``seat``; the table then."""
    for _ in range(300):
        table: dict[str, Any] = await host.call("GET", f"/api/tables/{token}")
        if table["seats"][seat]["kind"] == "person":
            return table
        await asyncio.sleep(0.1)
    raise AssertionError(f"nobody sat at seat {seat}")


def finish(proc: subprocess.Popen[str], timeout: float = 90) -> tuple[int, str, str]:
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, err = proc.communicate()
        raise AssertionError(f"the client did not finish:\n{out[-3000:]}\n{err}") from None
    return proc.returncode, out, err


async def test_two_terminal_clients_and_two_computer_players_play_a_hand(
    server: ServerProcess, host: Client, tmp_path: Path
) -> None:
    table = await open_table(host, "briscola-4", BOTS4, {"match": "one-hand"}, chat="free")
    token = table["token"]
    link = server.url + table["invite"]
    moves = "say hello <b> & all\n" + "1\n" * 10 + "analyse\n"  # her 10 cards, then ask
    ana = client_process(
        "play", "--plain", "--server", link, "--seat", "3", "--name", "Ana", moves=moves
    )
    await seat_filled(host, token, 2)
    saved = tmp_path / "bea.jsonl"
    bea = client_process(  # (she asks for a hint: two people play, the table gives none)
        "join", link, "--plain", "--name", "Bea", "--save", str(saved), moves="hint\n" + "1\n" * 100
    )
    await seat_filled(host, token, 0)
    await host.call("POST", f"/api/tables/{token}/start")
    status_a, out_a, err_a = await asyncio.to_thread(finish, ana)
    status_b, out_b, err_b = await asyncio.to_thread(finish, bea)
    assert (status_a, err_a) == (0, ""), out_a[-3000:]
    assert (status_b, err_b) == (0, ""), out_b[-3000:]

    record = await host.call("GET", f"/api/tables/{token}/record")
    moves = record["hands"][0]["moves"]
    assert len(moves) == 40  # 40 cards, each played once
    totals = record["result"]["totals"]  # side 0 is seats 0 and 2: Ana and Bea
    won = [[0, 0]] if totals == [60, 60] else [[1, 0], [0, 1]]  # 60-60: a tie (the default)
    assert record["result"]["over"] and record["result"]["hands_won"] in won
    shown = await host.call("GET", f"/api/tables/{token}")
    bots = {s["seat"]: s["name"] for s in shown["seats"] if s["kind"] == "bot"}
    others = f"{bots[1]} and {bots[3]}"  # named as the web page names them, not by place
    for out, seat, partner in ((out_a, 2, "Bea"), (out_b, 0, "Ana")):
        assert f"you sit at seat {seat + 1} of table {token}" in out  # counted from 1
        assert f"{partner} is your partner" in out and "--- hand 1: " in out
        # every card this seat played, said in the local game's words, as the record has it
        assert out.count("\nyou play ") == sum(m["seat"] == seat for m in moves) == 10
        assert "the server refused" not in out and "cannot do that" not in out
        ours, theirs = totals
        winners = record["result"]["winners"]
        won = f"{partner} and you win" if winners == [0, 2] else f"{others} win"
        if not winners:  # 60-60, a tie (the deals are random): nobody wins
            won = "nobody wins"
        assert f"hand 1: {partner} and you {ours}, {others} {theirs}: {won} the hand" in out
        # the table's default, points: hidden: no figure of points until the hand's end
        during = out.split(f"hand 1: {partner} and you {ours}")[0]
        assert re.search(r"\btakes? trick 10: ", during) and "points: " not in during, during
        assert not re.search(r"\b\d+ points?\b", during), during
        assert f"=== the match is over: {won} ===" in out
        assert "\nthe deal of hand 1 is revealed: check it with briscola verify" in out
    assert f"saved the records to {saved}" in out_b
    assert "This table gives no hints: a practice table" in out_b
    hands = [json.loads(line) for line in saved.read_text().splitlines()]
    assert [h["moves"] for h in hands] == [moves]  # the server's record of the hand
    assert [c.ok for c in check_record(hands[0])] == [True]  # with its commitment and salt
    assert "you say: hello <b> & all" in out_a
    # asked once the match is over, what each card cost, as the server analysed it
    analysed = out_a.split("Hand 1: what each card cost", 1)[1]
    assert analysed.count("points lost ") == 4 and "You: points lost " in analysed
    assert "Ana says: hello <b> & all" in out_b  # shown as typed
    # who sits where, the computer players by their first names, their levels in brackets
    bots = [f"{table['seats'][s]['name']} (random)" for s in (1, 3)]
    assert f"\nat the table: East: {bots[1]}; North: Bea; West: {bots[0]}\n" in out_a
    assert f"\nat the table: East: {bots[0]}; North: Ana; West: {bots[1]}\n" in out_b


async def test_a_client_seated_before_the_start_is_sent_its_view_at_the_start(
    server: ServerProcess, host: Client
) -> None:
    seats = [{"kind": "me"}, {"kind": "bot", "level": "random"}]
    table = await open_table(host, "briscola-2", seats, {"match": "one-hand"})
    await host.connect(table["token"])
    first = await host.receive()
    assert first["type"] == "snapshot" and first["view"] is None
    await host.call("POST", f"/api/tables/{table['token']}/start")
    frame = await host.until(lambda f: f.get("view") is not None, timeout=10)
    # a snapshot: not only the table's change (and then nothing when the host acts first)
    assert frame["type"] == "snapshot" and len(frame["view"]["hand"]) == 3


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def one_line_error(args: list[str], stdin: str = "") -> str:
    done = subprocess.run(terminal(*args), input=stdin, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2, (done.stdout, done.stderr)
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), done.stderr
    return lines[0]


@pytest.mark.parametrize(
    ("url", "words"),
    [
        ("ftp://example.org/t/abc", "is not a table's link"),
        ("http://example.org/tables", "names no table"),
        ("http://example.org/t/a%20b", "is not a table's token"),
        ("not a link", "is not a table's link"),
    ],
)
def test_a_bad_link_is_one_line_and_status_2(url: str, words: str) -> None:
    line = one_line_error(["play", "--plain", "--server", url, "--name", "Ana"])
    assert words in line and "http://HOST:PORT/t/TOKEN" in line


def test_no_server_at_the_address_is_told_after_a_few_tries() -> None:
    url = f"http://127.0.0.1:{free_port()}/t/abc"
    done = subprocess.run(
        terminal("join", url, "--plain", "--name", "Ana"), capture_output=True, text=True
    )
    assert done.returncode == 2
    assert done.stdout.count("does not answer; trying again in") == 3
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith(f"error: cannot reach the server at {url.removesuffix('/t/abc')}: ")
    assert lines[0].endswith("is it running (briscola serve), and is the address right?")


async def test_a_table_not_found_or_a_seat_taken_is_one_line_and_status_2(
    server: ServerProcess, host: Client
) -> None:
    line = await asyncio.to_thread(
        one_line_error, ["play", "--plain", "--server", f"{server.url}/t/nosuchtable"]
    )
    assert line == "error: There is no table with that link: check it, or ask for a new one."
    table = await open_table(host, "briscola-4", BOTS4, {"match": "one-hand"})
    ana = await Client(server.url, "Ana").login()
    try:
        await ana.call("POST", f"/api/tables/{table['token']}/seats/0")
    finally:
        await ana.aclose()
    base = ["play", "--plain", "--server", server.url, "--table", table["token"], "--name", "Bo"]
    # seats as the table counts them, from 1
    taken = await asyncio.to_thread(one_line_error, [*base, "--seat", "1"])
    assert taken == "error: seat 1 is taken by Ana; open: 3"
    name = table["seats"][1]["name"]  # a computer player: its first name, its level
    bot = await asyncio.to_thread(one_line_error, [*base, "--seat", "2"])
    assert bot == f"error: seat 2 is taken by {name} (random); open: 3"
    none = await asyncio.to_thread(one_line_error, [*base, "--seat", "7"])
    assert none == "error: there is no seat 7 at this table: its seats are 1 to 4"
    hr = await asyncio.to_thread(one_line_error, [*base, "--seat", "1", "--lang", "hr"])
    assert hr == "error: mjesto 1 zauzima Ana; slobodna: 3"
    local = await asyncio.to_thread(one_line_error, [*base, "--bot", "random"])
    assert "--bot and --rule are for a new table" in local
    seeded = await asyncio.to_thread(one_line_error, [*base, "--seed", "3"])
    assert "--seed is the local game's" in seeded


class Lines:
    """A process's standard output, read as it comes."""

    def __init__(self, proc: subprocess.Popen[str]) -> None:
        self.lines: list[str] = []
        assert proc.stdout is not None
        self.stream = proc.stdout
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        for line in self.stream:
            self.lines.append(line.rstrip("\n"))

    def wait_for(self, test: Any, timeout: float = 30) -> None:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if test(self.lines):
                return
            time.sleep(0.05)
        raise AssertionError("\n".join(self.lines[-40:]))


async def test_the_servers_refusals_are_said_in_the_language_of_lang(
    server: ServerProcess, host: Client
) -> None:
    """``briscola join --lang hr``: a table not found (HTTP), a chat line refused (the
    WebSocket), each said in Croatian, as the catalogue says the error's code."""
    hr = catalogue("hr")
    line = await asyncio.to_thread(
        one_line_error, ["join", f"{server.url}/t/nosuchtable", "--plain", "--lang", "hr"]
    )
    assert line == f"error: {hr.say('error.not_found')}"
    table = await open_table(
        host, "briscola-2", [{"kind": "open"}, {"kind": "bot", "level": "random"}],
        {"match": "one-hand"},
    )  # fmt: skip
    link = server.url + table["invite"]
    ana = client_process(
        "join", link, "--plain", "--name", "Ana", "--lang", "hr", moves="say\nquit\n"
    )
    await seat_filled(host, table["token"], 0)
    await host.call("POST", f"/api/tables/{table['token']}/start")
    _, out, _ = await asyncio.to_thread(finish, ana)
    said = hr.say("remote.refused", why=hr.say("error.empty"))
    assert said in out.splitlines(), out[-2000:]
    assert "needs some text" not in out


async def test_a_hand_in_play_at_a_table_of_phrases_takes_a_phrase_in_your_words(
    server: ServerProcess, host: Client
) -> None:
    """Under the table's default chat (friendly phrases once the cards are dealt), ``say``
    with a phrase's words in your language sends it, said back in your language; other
    words are refused at once, with the phrases to choose from."""
    it = catalogue("it")
    table = await open_table(
        host, "briscola-2", [{"kind": "open"}, {"kind": "bot", "level": "random"}],
        {"match": "one-hand"},
    )  # fmt: skip
    link = server.url + table["invite"]
    moves = "1\nsay bella mano\nsay ho l'asso di denari\nquit\n"  # a card first: the hand in play
    ana = client_process("join", link, "--plain", "--name", "Ana", "--lang", "it", moves=moves)
    await seat_filled(host, table["token"], 0)
    await host.call("POST", f"/api/tables/{table['token']}/start")
    _, out, _ = await asyncio.to_thread(finish, ana)
    lines = out.splitlines()
    assert it.say("remote.you_say", text="Bella mano!") in lines, out[-2000:]
    phrases = " · ".join(it.say(f"chat.phrase.{p}") for p in PHRASES)
    assert it.say("remote.phrases_only", phrases=phrases) in lines, out[-2000:]
    assert it.say("error.chat_phrases") not in out  # refused before it was sent


@pytest.mark.parametrize("how", ["killed", "stopped"])
async def test_the_client_connects_again_by_itself_when_the_server_comes_back(
    server_factory: Callable[..., ServerProcess], how: str
) -> None:
    """The server killed (SIGKILL), or stopped gracefully (SIGTERM: the socket closed with
    1012), then started again."""
    port = free_port()  # the server comes back at the same address
    srv = server_factory(None, "--port", str(port), bot_delay=0.2)
    host = await Client(srv.url, "Host").login()
    try:
        seats = [{"kind": "open"}, {"kind": "bot", "level": "random"}]
        table = await open_table(host, "briscola-2", seats, {"match": "one-hand"})
        link = srv.url + table["invite"]
        proc = client_process("join", link, "--plain", "--name", "Ana", moves="1\n" * 300)
        lines = Lines(proc)
        await seat_filled(host, table["token"], 0)
        await host.call("POST", f"/api/tables/{table['token']}/start")
        played = lambda ls: sum(x.startswith("you play ") for x in ls) >= 4  # noqa: E731
        await asyncio.to_thread(lines.wait_for, played)
        if how == "killed":
            srv.kill()
        else:
            assert srv.terminate() == 0
        told = lambda ls: any("connecting again" in x for x in ls)  # noqa: E731
        await asyncio.to_thread(lines.wait_for, told)
        srv.start()
        status = await asyncio.to_thread(proc.wait, 90)
        lines.thread.join(5)
        assert proc.stderr is not None and proc.stdout is not None
        err = proc.stderr.read()
        proc.stderr.close()
        proc.stdout.close()
        out = "\n".join(lines.lines)
        assert (status, err) == (0, ""), out[-3000:]
        assert "the connection to the server dropped; connecting again in 0.5 s (try 1 of 5)" in out
        assert "connected again" in out and "=== the match is over: " in out
        assert sum(x.startswith("you play ") for x in lines.lines) == 20  # each card once
        record = await host.call("GET", f"/api/tables/{table['token']}/record")
        assert len(record["hands"][0]["moves"]) == 40  # none lost, none applied twice
    finally:
        await host.aclose()
        srv.stop()


def test_a_signal_is_said_seen_by_everyone_only_where_the_engine_wrote_it_public() -> None:
    """The narrator reads who heard a signal from the view the engine made (``public``):
    it decides nothing itself."""
    from briscola.engine import Rules
    from briscola.words.narrate import Narrator
    from briscola.words.seating import Seating

    rules = Rules.make("briscola-4", {"communication": "signals"})
    signal = {"type": "talk", "seat": 2, "kind": "signal", "what": "ace", "to": None,
              "answer": None, "spotted": None}  # fmt: skip
    said = {"seat": 2, "kind": "signal", "what": "ace"}
    for public in (False, True):
        narrator = Narrator(rules, Seating.of(rules, 0))
        (line,) = narrator.tell([signal], {"talk": [{**said, "public": public}]})
        assert line.startswith("North signals: I hold the ace of trumps")
        assert line.endswith("(seen by everyone)") == public


async def test_the_full_screen_game_plays_an_online_table_to_its_end(
    server: ServerProcess, host: Client
) -> None:
    pytest.importorskip("textual")
    from briscola.terminal.remote import join
    from briscola.terminal.screen import PlayApp

    seats = [{"kind": "open"}, {"kind": "bot", "level": "random"}]
    table = await open_table(host, "briscola-2", seats, {"match": "one-hand"})
    remote = await asyncio.to_thread(join, server.url + table["invite"], None, "Ana")
    told: list[str] = []
    waiting = asyncio.create_task(asyncio.to_thread(remote.wait_start, lambda *ls: told.extend(ls)))
    await seat_filled(host, table["token"], 0)
    await host.call("POST", f"/api/tables/{table['token']}/start")
    await waiting
    assert "the match starts" in told
    app = PlayApp(remote, pace=0)
    try:
        async with app.run_test(size=(120, 50)) as pilot:
            for _ in range(2000):
                if remote.over:
                    break
                await pilot.pause(0.02)
                if remote.my_turn() and not app.busy:
                    await pilot.press("1")
            await pilot.pause(0.2)
            assert remote.over
            text = "\n".join(str(line) for line in app.query_one("#log").lines)
            assert "the match is over" in text and "--- hand 1: " in text
            await pilot.press("q")
        assert app.return_code == 0
    finally:
        remote.close()
    record = await host.call("GET", f"/api/tables/{table['token']}/record")
    assert len(record["hands"][0]["moves"]) == 40


TALKING = {"communication": "conversation", "match": "one-hand"}


@pytest.mark.parametrize(
    ("game", "options"),
    [
        ("briscola-2", {"match": "one-hand"}),
        ("briscola-4", TALKING),
        ("briscola-4", {**TALKING, "signal_audience": "table"}),
        ("briscola-4", {**TALKING, "signal_audience": "spotted", "spot_chance": 50}),
        ("briscola-6", {**TALKING, "show_partner_hands": "yes"}),
        ("schembil", {"match": "one-hand"}),
        ("chiamata", {"target": "hands:1"}),
        ("scoperta", {"match": "one-hand"}),
        ("briskula", {"match": "one-hand"}),
    ],
)
def test_a_seat_s_stream_is_told_naming_only_cards_it_was_sent(
    game: str, options: dict[str, Any]
) -> None:
    """Every seat's stream (the JSON events and views the server sends it) is told, and
    each card a line names is one of that message's events or views: the narration says
    what the engine let the seat see, no more."""
    import random

    from briscola.ai.bot import RandomBot
    from briscola.engine import Match, Rules
    from briscola.host import Table
    from briscola.words.narrate import Narrator
    from briscola.words.seating import Seating

    rules = Rules.make(game, options)
    for seed in range(3):
        table = Table(Match(rules, random.Random(seed)), {})
        bots = [RandomBot(seed * 10 + s) for s in range(rules.players)]
        voices = [Seating.of(rules, s) for s in range(rules.players)]
        names = {str(c): re.compile(rf"\b{re.escape(voices[0].card(c))}\b") for c in rules.deck}
        narrators = [Narrator(rules, v) for v in voices]
        told = [0] * rules.players
        lines = 0
        while not table.over:
            seat = table.turn
            assert seat is not None
            before = [json.dumps(table.view(s).to_json()) for s in range(rules.players)]
            table.act(seat, bots[seat].choose(table.view(seat)))
            for s, narrator in enumerate(narrators):
                for m in table.messages(s, told[s]) or []:
                    if m.number <= told[s]:
                        continue
                    view = table.view(s).to_json()
                    sent = json.dumps(m.events) + json.dumps(view) + before[s]
                    for line in narrator.tell(m.events, view):
                        lines += 1
                        for code, name in names.items():
                            if name.search(line):
                                assert f'"{code}"' in sent, (s, line)
                told[s] = table.number(s)
        assert lines > 0


async def test_the_server_s_address_opens_a_new_table_whose_link_brings_the_others(
    server: ServerProcess, host: Client
) -> None:
    ana = client_process(
        "play", "--plain", "--server", server.url + "/", "--game", "briscola-2",
        "--rule", "match=one-hand", "--bot", "open", "--name", "Ana", moves="1\n" * 100,
    )  # fmt: skip
    assert ana.stdout is not None
    link = ""
    for _ in range(20):
        line = await asyncio.to_thread(ana.stdout.readline)
        if line.startswith("the table's link, for the others: "):
            link = line.split(": ", 1)[1].strip()
            break
    assert link.startswith(server.url + "/t/"), link
    bea = client_process("join", link, "--plain", "--name", "Bea", moves="1\n" * 100)
    status_a, out_a, err_a = await asyncio.to_thread(finish, ana)
    status_b, out_b, err_b = await asyncio.to_thread(finish, bea)
    assert (status_a, err_a) == (0, ""), out_a[-3000:]
    assert (status_b, err_b) == (0, ""), out_b[-3000:]
    for out in (out_a, out_b):
        assert "=== the match is over: " in out
    record = await host.call("GET", "/api/tables/" + link.rsplit("/t/", 1)[1] + "/record")
    assert record["game"] == "briscola-2" and len(record["hands"][0]["moves"]) == 40


async def test_a_new_table_is_of_the_lang_asked_and_says_its_computer_players_names(
    server: ServerProcess, host: Client
) -> None:
    """``play --server URL --lang hr`` opens a Croatian table: its computer players have
    Croatian first names, and the terminal says them with their levels."""
    ana = client_process(
        "play", "--plain", "--server", server.url, "--game", "briscola-4", "--rule",
        "match=one-hand", "--bot", "random", "--bot", "beginner", "--bot", "random",
        "--name", "Ana", "--lang", "hr", moves="1\n" * 100,
    )  # fmt: skip
    status, out, err = await asyncio.to_thread(finish, ana)
    assert (status, err) == (0, ""), out[-3000:]
    token = re.search(r"/t/([\w-]+)", out)
    assert token is not None, out[:2000]
    table = await host.call("GET", f"/api/tables/{token.group(1)}")
    assert table["lang"] == "hr"
    names = [s["name"] for s in table["seats"][1:]]
    croatian = {"Ante", "Mare", "Jure", "Kate", "Frane", "Ivana", "Duje", "Tonka", "Šime", "Marija"}
    assert set(names) <= croatian and len(set(names)) == 3, names
    east, north, west = (
        f"{n} ({level})"
        for n, level in zip(names, ("nasumično", "početničko", "nasumično"), strict=True)
    )
    assert f"\nza stolom: Istok: {east}; Sjever: {north}; Zapad: {west}\n" in out


def test_a_new_table_with_a_wrong_number_of_seats_or_a_rule_at_a_table_s_link_is_refused() -> None:
    url = f"http://127.0.0.1:{free_port()}"
    line = one_line_error(
        ["play", "--plain", "--server", url, "--game", "briscola-4", "--bot", "open", "--bot",
         "random", "--name", "Ana"]
    )  # fmt: skip
    assert "one for each of the 3 other seats" in line
    line = one_line_error(
        ["play", "--plain", "--server", url + "/t/abc", "--rule", "match=one-hand"]
    )
    assert "--bot and --rule are for a new table" in line


@pytest.mark.parametrize(("lang", "name"), [("en", "Anonymous"), ("it", "Anonimo")])
def test_a_deleted_accounts_seat_is_named_in_the_players_language(lang: str, name: str) -> None:
    from briscola.storage.accounts import ANONYMOUS as KEPT
    from briscola.terminal.remote import ANONYMOUS, seat_words

    assert ANONYMOUS == KEPT  # the name the server keeps them under
    assert seat_words({"kind": "person", "nickname": ANONYMOUS}, lang) == name
    assert seat_words({"kind": "person", "nickname": "Ana"}, lang) == "Ana"
