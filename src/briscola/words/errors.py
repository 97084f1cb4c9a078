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
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

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


__all__ = ["said_error"]
