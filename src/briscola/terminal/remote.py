"""``briscola play --server URL``: the terminal game at an online table, through the same
protocol as any client (docs/protocol.md).

:func:`parse_link` reads a table's invite link; :func:`join` gets a session for a
nickname, takes a seat and opens the table's WebSocket, giving a :class:`RemoteTable`:
the :class:`~briscola.terminal.seat.Source` the plain and full-screen games play through.
A reader thread receives the server's frames (and connects again by itself, with
``?since=VERSION``, when the connection drops); the game's thread reads them one at a
time, keeping the seat's view (``View.from_json``) and narrating the events as they
came, with the view, in the words of the local game (the same
:class:`~briscola.words.narrate.Narrator`: the server's ``update`` frames are the seat
stream the local table reads from its host).
Only actions of the view's ``legal`` list are sent, with the version of that view.
"""

from __future__ import annotations

import contextlib
import getpass
import json
import queue
import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI
from websockets.sync.client import ClientConnection, connect

from briscola.engine import BriscolaError, Card, MalformedError, View
from briscola.engine.actions import Action
from briscola.engine.game_record import rules_from_json
from briscola.terminal.seat import SaveError, check_save_path, track_drawn
from briscola.words.catalogue import PHRASES, catalogue
from briscola.words.errors import said_error
from briscola.words.narrate import Narrator, describe_standing
from briscola.words.seating import Seating

COOKIE = "briscola_session"
ANONYMOUS = "Anonymous"
"""The name a deleted account's seats are kept under at the server
(:data:`briscola.storage.accounts.ANONYMOUS`, which this client does not import)."""
TOKEN = re.compile(r"[A-Za-z0-9_-]{1,100}")
TRIES = (0.5, 1.0, 2.0)
"""The pauses before trying again to reach a server that does not answer, at the start."""
RECONNECT = (0.5, 1.0, 2.0, 4.0, 8.0)
"""The pauses before connecting again after the connection dropped during a match."""
LINK_HELP = (
    "give a table's invite link, like http://HOST:PORT/t/TOKEN, or the server's address "
    "with --table TOKEN"
)


class RemoteError(BriscolaError):
    """The online table could not be reached, found or sat at: the message says why and
    what to do."""


def parse_link(url: str, table: str | None = None) -> tuple[str, str]:
    """The server's base URL and the table's token, from an invite link
    (``http://HOST:PORT/t/TOKEN``) or from the server's address and ``table``.

    >>> parse_link("http://127.0.0.1:8000/t/abc_123")
    ('http://127.0.0.1:8000', 'abc_123')
    >>> parse_link("http://example.org/", "abc")
    ('http://example.org', 'abc')

    :raises RemoteError: when they name no table.
    """
    parts = urlsplit(url.strip())
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise RemoteError(f"{url!r} is not a table's link: {LINK_HELP}")
    path = parts.path.rstrip("/")
    head, sep, token = path.rpartition("/t/")
    if sep:
        if table is not None and table != token:
            raise RemoteError(f"the link names table {token}, and --table {table}: give one")
    elif table is not None:
        head, token = path, table
    else:
        raise RemoteError(f"{url!r} names no table: {LINK_HELP}")
    if not TOKEN.fullmatch(token):
        raise RemoteError(f"{token!r} is not a table's token: {LINK_HELP}")
    return f"{parts.scheme}://{parts.netloc}{head}", token


def names_table(url: str, table: str | None = None) -> bool:
    """Whether ``url`` (with ``table``) names a table (or anything but a server's address
    alone, with no path: that is checked as a table's link).

    >>> names_table("http://127.0.0.1:8000/t/abc"), names_table("http://127.0.0.1:8000/")
    (True, False)
    """
    return table is not None or urlsplit(url.strip()).path.strip("/") != ""


def server_of(url: str) -> str:
    """The server's base URL from its address (``http://HOST:PORT``).

    :raises RemoteError: when it is no http(s) address."""
    parts = urlsplit(url.strip())
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise RemoteError(f"{url!r} is not a server's address: give one like http://HOST:PORT")
    return f"{parts.scheme}://{parts.netloc}{parts.path.rstrip('/')}"


def default_name() -> str:
    """The login name, the nickname when none is given."""
    try:
        return getpass.getuser()
    except (KeyError, OSError):
        return "player"


@dataclass
class _Notice:
    """The reader thread's word to the game: a line to show, or ``gone`` (it gave up)."""

    text: str
    gone: bool = False
    back: bool = False
    """Connected again after the connection dropped."""


class RemoteTable:
    """One seat at an online table: see the module's documentation."""

    def __init__(
        self, http: httpx.Client, base: str, token: str, table: dict[str, Any], lang: str = "en"
    ) -> None:
        self.http = http
        self.base = base
        self.token = token
        self.table = table
        self.rules = rules_from_json(table["game"], table["rules"])
        you = table.get("you") or {}
        mine = you.get("seat")
        self.seat: int = mine if isinstance(mine, int) else 0
        self.lang = lang
        self.seating = self._seating()
        self.drawn: Card | None = None
        self.tell_plays = True
        self.narrator = Narrator(self.rules, self.seating)
        """Tells the frames' events, as the local table tells its host's stream."""
        self.current: View | None = None
        self.version = 0
        """The version of the last view received: the one an action is sent at."""
        self.fairness: list[dict[str, Any]] = []
        self.pending: list[str] = []
        """Lines not shown yet (told while an action was refused)."""
        self.frames: queue.Queue[dict[str, Any] | _Notice] = queue.Queue()
        self.ws: ClientConnection | None = None
        self.closed = False
        self.seen: int | None = None
        """The version of the last view the reader thread received."""
        self.sent = 0
        self.reader = threading.Thread(target=self._read, name="briscola-remote", daemon=True)

    # -- the reader thread -----------------------------------------------------------------

    def _socket_url(self) -> str:
        url = re.sub(r"^http", "ws", self.base) + f"/api/tables/{self.token}/ws"
        return url if self.seen is None else f"{url}?since={self.seen}"

    def _read(self) -> None:
        tries = 0
        cookie = self.http.cookies.get(COOKIE)
        headers = {"Cookie": f"{COOKIE}={cookie}"} if cookie else {}
        while not self.closed:
            try:
                with connect(
                    self._socket_url(),
                    additional_headers=headers,
                    max_size=2**24,
                    open_timeout=10,
                    proxy=None,
                ) as ws:
                    self.ws = ws
                    if tries:
                        self.frames.put(_Notice(self._say("remote.back"), back=True))
                    tries = 0
                    for text in ws:
                        frame = json.loads(text)
                        if frame.get("type") in ("update", "snapshot") and frame.get("view"):
                            self.seen = frame["version"]
                        self.frames.put(frame)
            except (ConnectionClosed, InvalidHandshake, InvalidURI, OSError, ValueError):
                pass
            self.ws = None
            if self.closed or self.finished:
                return
            if tries >= len(RECONNECT):
                self.frames.put(_Notice(self._say("remote.lost", server=self.base), gone=True))
                return
            pause = RECONNECT[tries]
            tries += 1
            self.frames.put(
                _Notice(
                    self._say("remote.dropped", pause=f"{pause:g}", n=tries, tries=len(RECONNECT))
                )
            )
            time.sleep(pause)

    # -- frames ----------------------------------------------------------------------------

    def _say(self, key: str, **values: Any) -> str:
        """A sentence of the catalogue in the person's language."""
        return self.seating.words.say(key, **values)

    @property
    def finished(self) -> bool:
        return bool(self.table.get("status") == "finished")

    def _next(self, timeout: float | None = None) -> dict[str, Any] | None:
        """The next frame (handled notices aside); ``None`` after ``timeout`` seconds."""
        try:
            item = self.frames.get(timeout=timeout)
        except queue.Empty:
            return None
        if isinstance(item, _Notice):
            if item.gone:
                raise RemoteError(item.text)
            self.pending.append(item.text)
            return {"type": "notice", "back": item.back}
        return item

    def _take_pending(self) -> list[str]:
        lines, self.pending = self.pending, []
        return lines

    def _handle(self, frame: dict[str, Any]) -> list[str]:
        """The lines telling ``frame``, the state it brings kept."""
        kind = frame.get("type")
        lines = self._take_pending()
        if kind == "snapshot":
            lines += self._table(frame["table"])
            self.fairness = list(frame.get("fairness") or [])
            if frame.get("view") is not None:
                behind = self.current is not None and frame["version"] > self.version
                self._set_view(frame["view"], frame["version"])
                self.narrator.seen(frame["view"])
                if behind:
                    lines.append(self._say("remote.behind", n=self.version))
        elif kind == "update":
            lines += self._update(frame)
        elif kind == "table":
            lines += self._table(frame["table"])
        elif kind == "chat":
            text = str(frame.get("text", ""))
            if frame.get("phrase") in PHRASES:  # a friendly phrase: in the reader's language
                text = self._say(f"chat.phrase.{frame['phrase']}")
            if frame.get("seat") is not None and frame["seat"] == self.seat:
                lines.append(self._say("remote.you_say", text=text))
            else:
                who = frame.get("nickname") or self._say("remote.someone")
                lines.append(self._say("remote.says", who=who, text=text))
        elif kind == "error" and frame.get("code") != "already_taken":
            # (already_taken: a move sent again after a reconnection had been taken once)
            lines.append(self._say("remote.refused", why=said_error(self.lang, frame)))
        return lines

    def _set_view(self, obj: Any, version: int) -> View:
        try:
            view = View.from_json(obj)
        except MalformedError as e:
            raise RemoteError(f"the server sent a view this client cannot read: {e}") from None
        if self.current is None and view.seat is not None and view.seat != self.seat:
            self.seat = view.seat  # the partner draw seated us elsewhere
            self.seating = self._seating()
            self.narrator = Narrator(self.rules, self.seating)
        self.current = view
        self.version = version
        return view

    def _update(self, frame: dict[str, Any]) -> list[str]:
        """An update: its events told with the view it brings (the fair shuffle's
        announcements after them)."""
        events: list[dict[str, Any]] = []
        extra: list[str] = []
        for obj in frame.get("events", []):
            if not isinstance(obj, dict) or not isinstance(obj.get("type"), str):
                raise RemoteError(f"the server sent an event this client cannot read: {obj!r:.80}")
            if obj["type"] in ("hand_committed", "hand_revealed"):
                extra.append(self._fairness_line(obj))
            else:
                events.append(obj)
        view = self._set_view(frame["view"], frame["version"])
        self.drawn = track_drawn(self.drawn, events, self.seat, view.hand)
        scored = any(e["type"] == "hand_scored" for e in events)
        self.narrator.plays = self.tell_plays
        try:
            lines = self.narrator.tell(events, frame["view"], self.standing() if scored else "")
        except (KeyError, TypeError, ValueError, BriscolaError) as e:
            raise RemoteError(f"the server sent an event this client cannot read: {e}") from None
        return lines + extra

    def _fairness_line(self, obj: dict[str, Any]) -> str:
        number = obj.get("hand")
        short = str(obj.get("commitment", ""))[:16]
        if obj.get("type") == "hand_committed":
            return self._say("remote.committed", n=number, hash=short)
        link = f"{self.base}/api/tables/{self.token}/hands/{number}"
        return self._say("remote.revealed", n=number, link=link)

    def _seating(self) -> Seating:
        """The person's table as the server's table names it: the other seats by their
        names there (a nickname, a computer player's first name, as the web page names
        them), the points said during a hand as its ``points`` setting says."""
        names = {
            s["seat"]: name
            for s in self.table.get("seats") or []
            if isinstance(s, dict) and isinstance(s.get("seat"), int)
            and (name := seat_name(s, self.lang))
        }  # fmt: skip
        points = "hidden" if self.table.get("points") == "hidden" else "shown"
        return Seating.of(self.rules, self.seat, self.lang, names, points)

    def _table(self, table: dict[str, Any]) -> list[str]:
        old, self.table = self.table, table
        self.seating = self._seating()  # someone sat down, left, or was named anew
        self.narrator.voice = self.seating
        lines = []
        voice = self.seating
        for then, now in zip(old.get("seats", []), table.get("seats", []), strict=False):
            seat = now["seat"]
            if seat == self.seat:
                continue
            name = voice.place(seat)
            someone = self._say("remote.someone")
            if then["kind"] == "open" and now["kind"] == "person":
                who = now.get("nickname") or someone
                lines.append(self._say("remote.sits", who=who, seat=seat + 1, place=name))
            elif then["kind"] == "person" and now["kind"] == "open":
                who = then.get("nickname") or someone
                lines.append(self._say("remote.left", who=who, seat=seat + 1, place=name))
            elif now["kind"] == "person" and table.get("status") == "playing":
                who = now.get("nickname") or name
                if now.get("stand_in") and not then.get("stand_in"):
                    lines.append(self._say("remote.away", who=who, place=name))
                elif then.get("stand_in") and not now.get("stand_in"):
                    lines.append(self._say("remote.returned", who=who, place=name))
        if old.get("status") != table.get("status") and table.get("status") == "playing":
            lines.append(self._say("remote.starts"))
        return lines

    # -- the table as a Source -------------------------------------------------------------

    def view(self) -> View:
        if self.current is None:
            raise RemoteError("the match has not started yet")
        return self.current

    @property
    def over(self) -> bool:
        v = self.current
        return self.finished or (v is not None and v.match is not None and v.match.over)

    def my_turn(self) -> bool:
        v = self.current
        return bool(
            not self.over and v is not None and v.legal and self.table.get("status") == "playing"
        )

    def wait_start(self, say: Callable[..., None], start: bool = False) -> None:
        """Follow the table until its match starts (and the first view came), telling
        what happens; as its host with ``start``, start it once every seat is filled."""
        self.reader.start()
        asked = False
        told = False
        while self.current is None:
            frame = self._next()
            if frame is None:
                continue
            say(*self._handle(frame))
            if self.current is not None or self.finished:
                break
            table = self.table
            open_seats = [s["seat"] for s in table["seats"] if s["kind"] == "open"]
            host = bool((table.get("you") or {}).get("host"))
            if start and host and not open_seats and not asked:
                asked = True
                self._rest("POST", f"/api/tables/{self.token}/start")
            elif not told:
                told = True
                if open_seats:
                    seats = ", ".join(str(s + 1) for s in open_seats)  # as people count
                    say(self._say("remote.waiting_seats", n=len(open_seats), seats=seats))
                else:
                    say(self._say("remote.waiting_you" if host else "remote.waiting_host"))
                if start and not host:
                    say(self._say("remote.only_host"))
        if self.current is None:
            raise RemoteError("the match at this table is over: there is nothing to play")

    def who_sits(self) -> str:
        """Who sits at each other seat, in the order of play from yours: ``at the table:
        East: Ana; North: Giulia (intermediate); ...`` (a computer player's name and its
        level in brackets)."""
        seats = self.table.get("seats") or []
        n = len(seats)
        said = []
        for k in range(1, n):
            seat = (self.seat + k) % n
            who = seat_words(seats[seat], self.lang)
            said.append(self._say("remote.seat_who", place=self.seating.place(seat), who=who))
        return self._say("remote.at_table", seats="; ".join(said))

    def opening(self) -> list[str]:
        view = self.view()
        voice = self.seating
        words = voice.words
        lines = [words.say("session.introduction", game=voice.game(), seats=voice.introduction())]
        lines.append(self.who_sits())
        lines += self.narrator.tell(
            [{"type": "hand_started", "number": view.hand_number, "dealer": view.dealer}],
            view.to_json(),
        )
        for c in self.fairness:
            if c.get("type") == "hand_committed" and c.get("hand") == view.hand_number:
                lines.append(self._fairness_line(c))
        return lines + self._take_pending()

    def advance(self) -> list[str]:
        lines = self._take_pending()
        if self.over or lines:
            return lines
        frame = self._next()
        return self._handle(frame) if frame is not None else []

    def poll(self) -> list[str]:
        lines = self._take_pending()
        while not self.frames.empty():
            frame = self._next(0)
            if frame is not None:
                lines += self._handle(frame)
        return lines

    def _send(self, message: dict[str, Any]) -> None:
        ws = self.ws
        try:
            if ws is None:
                raise OSError
            ws.send(json.dumps(message))
        except (ConnectionClosed, OSError):
            raise RemoteError(self._say("remote.not_sent")) from None

    def act(self, action: Action) -> list[str]:
        view = self.view()
        if not self.my_turn():
            raise RemoteError(self._say("move.not_your_turn"))
        if action not in view.legal:
            raise RemoteError(self._say("remote.not_a_choice"))
        legal = view.legal[view.legal.index(action)]
        self.sent += 1
        ref = str(self.sent)
        version = self.version
        message = {"type": "act", "version": version, "action": legal.to_json(), "id": ref}
        self._send(message)
        lines: list[str] = []
        refused: str | None = None
        resent = False
        while True:
            frame = self._next(60)
            if frame is None:
                raise RemoteError(self._say("remote.no_answer"))
            if frame.get("type") == "error" and frame.get("id") == ref:
                if frame.get("code") == "already_taken":
                    continue  # it was taken before the connection dropped: its update comes
                refused = said_error(self.lang, frame)
                if frame.get("code") != "stale":
                    break
                continue  # the table went on: its update comes
            if frame.get("back") and self.version == version and not resent:
                # The connection dropped as the move went out: it may or may not have
                # reached the server. Sent again with its id, it is taken once.
                lines += self._handle(frame)
                resent = True
                try:
                    self._send(message)
                except RemoteError as e:
                    refused = str(e)
                    break
                continue
            lines += self._handle(frame)
            if self.version > version:
                break
        if refused is not None:
            self.pending += lines
            raise RemoteError(refused)
        return lines

    def phrase(self, text: str) -> str | None:
        """The friendly phrase ``text`` is (its id, or its words in the reader's language
        or in English, letter case and punctuation aside), ``None`` when it is none."""

        def bare(x: str) -> str:
            return "".join(c for c in x.casefold() if c.isalnum())

        said = bare(text)
        for phrase in PHRASES:
            key = f"chat.phrase.{phrase}"
            if said in (bare(phrase), bare(self._say(key)), bare(catalogue("en").say(key))):
                return phrase
        return None

    def say(self, text: str) -> list[str]:
        """Say ``text`` at the table: a friendly phrase as one; free text refused here, with
        the phrases to choose from, once the cards are dealt at a table that takes only
        phrases then (the server refuses it all the same)."""
        phrase = self.phrase(text)
        if phrase is not None:
            self._send({"type": "chat", "phrase": phrase})
        elif (
            text.strip()
            and self.table.get("chat") == "phrases"
            and self.table.get("status") == "playing"
            and (self.current is None or any(self.current.hand_sizes))
        ):  # cards in someone's hand (in a match, the next hand is dealt with the last card)
            choices = " · ".join(self._say(f"chat.phrase.{p}") for p in PHRASES)
            return [self._say("remote.phrases_only", phrases=choices)]
        else:
            self._send({"type": "chat", "text": text})
        lines: list[str] = []
        deadline = time.monotonic() + 5
        while (left := deadline - time.monotonic()) > 0:
            frame = self._next(left)
            if frame is None:
                break
            lines += self._handle(frame)
            if frame.get("type") == "error" or (
                frame.get("type") == "chat" and frame.get("seat") == self.seat
            ):
                break
        return lines

    def standing(self) -> str:
        context = self.view().match
        return "" if context is None else describe_standing(self.seating, context.to_json())

    def analysis(self) -> list[str]:
        """What each card of the last finished hand cost, as the server analysed it
        (asked again while it computes, a minute at most; a refusal said, with when to
        ask again)."""
        from briscola.terminal.analysis_text import analysis_lines

        words = self.seating.words
        finished = 0
        while True:  # the last hand whose record the server gives
            r = self.http.get(f"/api/tables/{self.token}/hands/{finished + 1}")
            if r.status_code != 200:
                break
            finished += 1
        if not finished:
            return [words.say("analysis.no_hand")]
        for _ in range(60):
            try:
                body = self._rest("GET", f"/api/tables/{self.token}/hands/{finished}/analysis")
            except RemoteError as e:  # busy, or too many asked for: said, with when to ask
                return [str(e)]
            if body.get("status") != "computing":
                return analysis_lines(body, self.seating)
            time.sleep(1)
        return [words.say("error.busy")]

    def hint(self) -> list[str]:
        """A hint for the person's seat now, as the server gives it (at a practice table
        or one opened with hints; else its refusal, said)."""
        from briscola.terminal.analysis_text import hint_lines

        try:
            body = self._rest("POST", f"/api/tables/{self.token}/hint")
        except RemoteError as e:
            return [str(e)]
        return hint_lines(body, self.seating)

    def waiting_for(self) -> str:
        v = self.current
        if v is None or v.to_act is None:
            return self._say("remote.waiting_server")
        return self._say("remote.waiting_for", who=self.seating.name(v.to_act))

    def save(self, path: str | Path) -> Path:
        """Write the records of the table's finished hands, one a line, as the server
        gives them (each with its fair-shuffle commitment and salt)."""
        target = check_save_path(path)
        records = []
        dealt = max(
            int(self.table.get("hands") or 0), self.current.hand_number if self.current else 0
        )
        for number in range(1, dealt + 1):
            try:
                r = self.http.get(f"/api/tables/{self.token}/hands/{number}")
            except httpx.HTTPError as e:
                raise SaveError(f"cannot save: the server does not answer ({e})") from None
            if r.status_code == 404:
                break
            records.append(r.json())
        if not records:
            raise SaveError(
                "no hand of this table is finished yet: the server gives a hand's record "
                "once it is over"
            )
        try:
            target.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
        except OSError as e:
            raise SaveError(f"cannot save to {target}: {e.strerror or e}") from None
        return target

    def close(self) -> None:
        self.closed = True
        ws = self.ws
        if ws is not None:
            with contextlib.suppress(Exception):  # a socket already gone
                ws.close()
        self.http.close()

    def _rest(self, method: str, path: str, **kw: Any) -> dict[str, Any]:
        return rest(self.http, self.base, method, path, lang=self.lang, **kw)


def rest(
    http: httpx.Client, base: str, method: str, path: str, *, lang: str = "en", **kw: Any
) -> dict[str, Any]:
    """One REST call; :class:`RemoteError` with the server's sentence when it refuses (in
    ``lang``: :func:`~briscola.words.errors.said_error`), after trying again a few times
    (saying so) when the server does not answer."""
    for pause in (*TRIES, None):
        try:
            r = http.request(method, path, **kw)
            break
        except (httpx.ConnectError, httpx.ConnectTimeout, httpx.ReadTimeout) as e:
            if pause is None:
                raise RemoteError(
                    f"cannot reach the server at {base}: {why(e)}; is it running "
                    "(briscola serve), and is the address right?"
                ) from None
            print(
                f"the server at {base} does not answer; trying again in {pause:g} s",
                flush=True,
            )
            time.sleep(pause)
        except httpx.HTTPError as e:
            raise RemoteError(f"cannot talk to the server at {base}: {why(e)}") from None
    try:
        body = r.json()
    except ValueError:
        body = None
    if r.status_code >= 400:
        error = body.get("error") if isinstance(body, dict) else None
        if isinstance(error, dict) and "message" in error:
            raise RemoteError(said_error(lang, error))
        raise RemoteError(
            f"{base} is not a briscola server ({method} {path} answered {r.status_code})"
        )
    if not isinstance(body, dict):
        raise RemoteError(f"{base} is not a briscola server ({method} {path} gave no JSON)")
    return body


def seat_name(seat: dict[str, Any], lang: str) -> str | None:
    """The name ``seat`` (a table's seat as the server sends it) has at the table, as the
    web page names it: a person's nickname (a deleted account's as the language names
    it), a computer player's first name; ``None`` for an open seat or one with no name."""
    if seat.get("kind") == "bot":
        name = seat.get("name")
        return name if isinstance(name, str) and name else None
    nickname = seat.get("nickname")
    if seat.get("kind") != "person" or not isinstance(nickname, str) or not nickname:
        return None
    return catalogue(lang).say("name.deleted") if nickname == ANONYMOUS else nickname


def seat_words(seat: dict[str, Any], lang: str) -> str:
    """Who sits at ``seat`` (a table's seat as the server sends it) in ``lang``: a person's
    nickname, a computer player's first name with its level in brackets (``Giulia
    (intermediate)``), ``someone`` for a seat with no name; a deleted account's seat (the
    server's ``Anonymous``) as the language names it."""
    words = catalogue(lang)
    if seat.get("kind") == "bot" and seat.get("name"):
        level = words.say(f"level.{seat.get('level')}")
        return words.say("remote.bot", name=seat["name"], level=level)
    if seat.get("nickname") == ANONYMOUS:
        return words.say("name.deleted")
    return str(seat.get("nickname") or words.say("remote.someone"))


def why(e: Exception) -> str:
    text = str(e) or type(e).__name__
    return text.split("] ", 1)[-1]


def join(
    url: str,
    table: str | None = None,
    name: str | None = None,
    seat: int | None = None,
    lang: str = "en",
) -> RemoteTable:
    """Take a seat at the table ``url`` names (see :func:`parse_link`) as ``name``: a new
    session, then ``seat`` or the first open one; the game is told in ``lang``.

    :raises RemoteError: saying what was wrong (the link, the server, the table, the seat).
    """
    base, token = parse_link(url, table)
    http = httpx.Client(base_url=base, timeout=10)
    try:
        nickname = (name or default_name()).strip() or "player"
        rest(http, base, "POST", "/api/session", lang=lang, json={"nickname": nickname})
        info = rest(http, base, "GET", f"/api/tables/{token}", lang=lang)
        seats = info.get("seats") or []
        words = catalogue(lang)
        free = [s["seat"] for s in seats if s.get("kind") == "open"]
        if seat is None:
            if not free:
                raise RemoteError(words.say("remote.all_taken", token=token))
            seat = free[0]
        elif not 0 <= seat < len(seats):
            raise RemoteError(words.say("remote.no_seat", seat=seat + 1, n=len(seats)))
        elif seats[seat].get("kind") != "open":
            who = seat_words(seats[seat], lang)
            open_ = ", ".join(str(s + 1) for s in free)  # seats as people count them
            key = "remote.seat_taken" if free else "remote.seat_taken_none_open"
            raise RemoteError(words.say(key, seat=seat + 1, who=who, open=open_))
        info = rest(http, base, "POST", f"/api/tables/{token}/seats/{seat}", lang=lang)
        return RemoteTable(http, base, token, info, lang)
    except BaseException:
        http.close()
        raise


def open_new(
    url: str,
    game: str,
    rules: dict[str, Any],
    others: list[str],
    name: str | None = None,
    seat: int = 0,
    lang: str = "en",
) -> RemoteTable:
    """Open a new private table of ``game`` with ``rules`` at the server ``url`` as
    ``name``, its host, sitting at ``seat``: each other seat, in order, is ``open`` (for a
    person the link brings) or a computer player of the level named in ``others``. The
    table is of ``lang``, which its computer players' first names are of.

    :raises RemoteError: saying what was wrong (the server, the game, a level).
    """
    base = server_of(url)
    http = httpx.Client(base_url=base, timeout=10)
    try:
        nickname = (name or default_name()).strip() or "player"
        rest(http, base, "POST", "/api/session", lang=lang, json={"nickname": nickname})
        levels = iter(others)
        seats: list[dict[str, Any]] = []
        for s in range(len(others) + 1):
            level = "me" if s == seat else next(levels)
            if level in ("me", "open"):
                seats.append({"kind": level})
            else:
                seats.append({"kind": "bot", "level": level})
        body = {"game": game, "rules": rules, "seats": seats, "lang": lang}
        info = rest(http, base, "POST", "/api/tables", lang=lang, json=body)
        return RemoteTable(http, base, str(info["token"]), info, lang)
    except BaseException:
        http.close()
        raise


__all__ = ["RemoteError", "RemoteTable", "join", "names_table", "open_new", "parse_link"]
