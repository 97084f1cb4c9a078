"""Every error the server sends: one table of codes (:data:`CODES`), and the refusal a
command raises (:class:`Refused`).

An error is ``{"code", "message", "values"}`` (docs/protocol.md, Errors): the ``code``
tells a program what was refused, the ``message`` says it in English for the program's
author, and the ``values`` fill the sentence a person reads, the catalogues' ``error.CODE``
(:mod:`briscola.words.errors`), which the browser and the terminal say in the reader's
language. Each code sends the values :data:`CODES` names for it, always the same ones,
so that its sentence can be said whole in every language; a seat there is counted from
1, as people count seats (the protocol's ``seat`` fields count from 0).

>>> Refused("seat_taken", "seat 2 is taken: choose an open one", 409, values={"n": 3}).json()
{'code': 'seat_taken', 'message': 'seat 2 is taken: choose an open one', 'values': {'n': 3}}
>>> Refused("seat_taken", "seat 2 is taken")
Traceback (most recent call last):
ValueError: error seat_taken sends the values n, not none
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

Value = str | int | float
"""A value of an error: a number, or a short text (a nickname, a game's key...)."""

CODES: dict[str, tuple[str, ...]] = {
    "already_taken": (),
    "bad_action": (),
    "bad_chat": ("value",),
    "bad_clock": ("n",),
    "bad_code": (),
    "bad_confirm": ("nickname",),
    "bad_content_type": (),
    "bad_family_name": (),
    "bad_game": ("game",),
    "bad_hand": ("n",),
    "bad_invite": (),
    "bad_json": (),
    "bad_language": ("lang",),
    "bad_level": ("level",),
    "bad_message": (),
    "bad_method": (),
    "bad_nickname": (),
    "nickname_kept": (),
    "nickname_alike": ("nickname",),
    "bad_origin": (),
    "bad_passkey": (),
    "bad_passkey_id": (),
    "bad_points": ("value",),
    "bad_request": (),
    "bad_rules": ("rule", "value"),
    "bad_seat": ("n", "last"),
    "bad_seats": ("n",),
    "bad_session": (),
    "bad_version": (),
    "busy": (),
    "chat_off": (),
    "chat_phrases": (),
    "conflict": (),
    "edited_meanwhile": ("name",),
    "empty": (),
    "flood": (),
    "game_over": (),
    "illegal": (),
    "last_admin": (),
    "name_taken": ("name",),
    "no_analysis": (),
    "no_family": (),
    "no_hints": (),
    "no_member": (),
    "no_route": (),
    "no_rule_set": (),
    "no_session": (),
    "not_finished": (),
    "not_admin": (),
    "not_found": (),
    "not_host": (),
    "not_playing": (),
    "not_your_seat": ("n",),
    "not_your_turn": (),
    "not_yours": (),
    "seat_taken": ("n",),
    "seated": ("n",),
    "seats_open": ("n", "seats"),
    "signed_in": ("nickname",),
    "spectator": (),
    "stale": (),
    "too_big": ("n",),
    "too_long": ("n", "length"),
    "too_many": (),
    "too_many_analyses": ("n",),
    "too_many_hints": ("n",),
    "unavailable": (),
    "wrong_status": (),
}
"""Every error code the server sends, with the names of the values it sends with it: the
places of its sentence (``error.CODE`` in every catalogue, tests/words/test_errors.py)."""

LONGEST = 40
"""The longest text a value holds (a longer one, such as a game's key made up by a
client, is cut there)."""


def checked(code: str, values: Mapping[str, Value] | None = None) -> dict[str, Value]:
    """``values`` as error ``code`` sends them, each text cut to :data:`LONGEST`
    characters; :class:`ValueError` for a code that is not in :data:`CODES`, or values
    other than its own (a mistake in the server)."""
    if code not in CODES:
        raise ValueError(f"there is no error code {code!r}: add it to CODES")
    given = dict(values or {})
    if set(given) != set(CODES[code]):
        raise ValueError(
            f"error {code} sends the values {', '.join(CODES[code]) or 'none'}, not "
            f"{', '.join(sorted(given)) or 'none'}"
        )
    return {
        k: v[:LONGEST] + "…" if isinstance(v, str) and len(v) > LONGEST else v
        for k, v in given.items()
    }


def number(x: float) -> Value:
    """A number as a value: a whole one as an ``int`` (its plural form is chosen by it).

    >>> number(5.0), number(2.5)
    (5, 2.5)
    """
    return int(x) if float(x).is_integer() else x


def error_json(
    code: str, message: str, values: Mapping[str, Value] | None = None
) -> dict[str, Any]:
    """An error as every answer carries it: ``{"code", "message", "values"}``."""
    return {"code": code, "message": message, "values": checked(code, values)}


def error_body(code: str, message: str, values: Mapping[str, Value] | None = None) -> bytes:
    """An HTTP error's body, ``{"error": {...}}``, as JSON bytes."""
    return json.dumps({"error": error_json(code, message, values)}).encode()


class Refused(Exception):
    """A command refused, nothing changed: ``code`` for programs (one of :data:`CODES`),
    the message in English for their authors, ``values`` for the sentence a person reads
    (the code's own, :data:`CODES`)."""

    def __init__(
        self,
        code: str,
        message: str,
        status: int = 400,
        headers: dict[str, str] | None = None,
        *,
        values: Mapping[str, Value] | None = None,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.values = checked(code, values)
        self.status = status
        self.headers = headers
        """Headers of the HTTP answer (``Retry-After`` for a limit reached)."""

    def json(self) -> dict[str, Any]:
        """The error as an answer carries it (:func:`error_json`)."""
        return {"code": self.code, "message": self.message, "values": self.values}


__all__ = ["CODES", "Refused", "Value", "checked", "error_body", "error_json", "number"]
