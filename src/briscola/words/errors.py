"""The server's errors in the reader's words.

Each error code the server sends (``briscola.server.errors.CODES``) has its sentence in
every catalogue, ``error.CODE``, whose places its ``values`` fill (a seat counted from 1,
as people count), so that the browser and the terminal say a refusal in the reader's
language; the error's English ``message`` stands in where no catalogue knows the code (a
newer server's) or the values are not the sentence's.

>>> error = {"code": "seat_taken", "message": "seat 2 is taken", "values": {"n": 3}}
>>> said_error("it", error), said_error("hr", error)
('Il posto 3 è occupato: scegline uno libero.', 'Mjesto 3 je zauzeto: odaberi slobodno.')
>>> said_error("es", {"code": "new_code", "message": "something new", "values": {}})
'something new'
>>> rule_at_fault("briscola-2", {"match": "one-hand", "direction": "up"})
('direction', 'up')
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from briscola.engine import BriscolaError, Rules
from briscola.words.catalogue import PLACE, catalogue


def said_error(lang: str, error: object) -> str:
    """The sentence of ``error`` (an error as the server sends it: ``{"code",
    "message", "values"}``) in ``lang``: ``error.CODE`` with its places filled from the
    values, else the error's own message."""
    if not isinstance(error, Mapping):
        return str(error)
    code, message, values = error.get("code"), error.get("message"), error.get("values")
    fallback = str(message if message is not None else code)
    words = catalogue(lang)
    key = f"error.{code}"
    if not isinstance(code, str) or key not in words:
        return fallback
    given: dict[str, object] = {}
    if isinstance(values, Mapping):
        given = {
            k: v
            for k, v in values.items()
            if isinstance(k, str) and k != "form" and isinstance(v, str | int | float)
            and not isinstance(v, bool)
        }  # fmt: skip
    entry = words.entry(key)
    texts = entry.values() if isinstance(entry, dict) else [entry]
    if not {name for text in texts for name, _ in PLACE.findall(text)} <= set(given):
        return fallback
    say: Callable[..., str] = words.say  # (``form`` is not among the values)
    return say(key, **given)


def rule_at_fault(game: str, rules: Mapping[str, object]) -> tuple[str, str]:
    """The house rule of ``rules`` (and its value) that a table of ``game`` does not
    take: the first that is refused alone, else the last (refused with the others), as
    the error ``bad_rules`` names it; ``("", "")`` when none is given."""
    items = list(rules.items())
    for name, value in items:
        try:
            Rules.make(game, {name: value})
        except BriscolaError:
            return _text(name), _text(value)
    return (_text(items[-1][0]), _text(items[-1][1])) if items else ("", "")


def _text(value: object) -> str:
    """A rule's name or value as it is written (JSON's ``true``, not Python's ``True``)."""
    return str(value).lower() if isinstance(value, bool) else str(value)


__all__ = ["rule_at_fault", "said_error"]
