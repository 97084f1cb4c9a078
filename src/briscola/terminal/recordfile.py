"""Record files as ``briscola replay`` reads them: one JSON document, or JSON Lines.

The input is read as a stream of bytes, one line at a time, so that memory stays bounded
whatever it holds: a record (a line of JSON Lines, or the one document) may be at most
:data:`MAX_RECORD_BYTES` long. Which of the two forms a file is, is decided by its first
non-blank line: when that line is a complete JSON value, the file is JSON Lines, one record
a line (blank lines skipped); otherwise the whole file is one JSON document, such as a
pretty-printed record, and an error in it is reported at its own line and column.

>>> import io
>>> lines = io.BytesIO(b'{"game": "briscola-2"}\\n\\n[1, 2,]\\n')
>>> [(n, str(v)) for n, v in read_records(lines)]
[(1, "{'game': 'briscola-2'}"), (3, 'not valid JSON: Expecting value, column 7')]
>>> document = io.BytesIO(b'{\\n  "game": "briscola-2",\\n  "rules": {},,\\n}\\n')
>>> [(n, str(v)) for n, v in read_records(document)]
[(3, 'not valid JSON: Expecting property name enclosed in double quotes, column 15')]
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import BinaryIO

from briscola.engine import MalformedError

MAX_RECORD_BYTES = 1_000_000
"""The most bytes one record may take: a line of JSON Lines, or a whole document. A
finished hand of any game takes a few kilobytes, pretty-printed."""

LIMIT_TEXT = f"{MAX_RECORD_BYTES // 1_000_000} MB"


@dataclass(frozen=True)
class LongNumber:
    """What a JSON number of more digits than any record holds is read as (Python's own
    ``int`` refuses more than 4,300 digits): the record's reader then says where it is."""

    digits: int

    def __repr__(self) -> str:
        return f"a number of {self.digits:,} digits"


def _number(text: str) -> int | LongNumber:
    digits = len(text.lstrip("-"))
    return int(text) if digits <= 100 else LongNumber(digits)


def read_records(stream: BinaryIO, limit: int = MAX_RECORD_BYTES) -> Iterator[tuple[int, object]]:
    """Yield ``(line number, JSON value)`` for each record in ``stream``, or ``(line
    number, MalformedError)`` for one that cannot be read (not UTF-8, not JSON, too long).
    A record longer than ``limit`` bytes ends the reading."""
    number = 0
    line = b""
    while not line.strip():
        line = stream.readline(limit + 1)
        if not line:
            return
        number += 1
    if _too_long(line, limit):
        yield number, _limit_error(limit)
        return
    first = _decode(line, number, bom=True)
    if not isinstance(first[1], MalformedError):
        yield first
        yield from _json_lines(stream, number, limit)
        return
    document = line + stream.read(limit + 1 - len(line))
    if len(document) > limit:
        yield (
            number,
            MalformedError(
                "not a complete JSON value on its line, so the file is read as one document, "
                f"and the document is longer than the limit of {_size(limit)} for a record"
            ),
        )
        return
    yield _decode(document, number, bom=True, lines=False)


def _json_lines(stream: BinaryIO, number: int, limit: int) -> Iterator[tuple[int, object]]:
    """The records after the first of a JSON Lines file, from line ``number + 1`` on."""
    while line := stream.readline(limit + 1):
        number += 1
        if _too_long(line, limit):
            yield number, _limit_error(limit)
            return
        if line.strip():
            yield _decode(line, number)


def _too_long(line: bytes, limit: int) -> bool:
    """Whether a line read with ``readline(limit + 1)`` holds more than ``limit`` bytes
    before its end of line."""
    return len(line) > limit and not line.endswith(b"\n")


def _limit_error(limit: int) -> MalformedError:
    return MalformedError(
        f"the line is longer than the limit of {_size(limit)} for a record; stopped reading"
    )


def _size(limit: int) -> str:
    return LIMIT_TEXT if limit == MAX_RECORD_BYTES else f"{limit:,} bytes"


def _decode(data: bytes, number: int, bom: bool = False, lines: bool = True) -> tuple[int, object]:
    """The JSON value in ``data`` (which starts at line ``number``), or the error that
    keeps it from being one, with the line it is on. ``lines``: ``data`` is one line of
    JSON Lines (else the one document of the file)."""
    data = data.rstrip()  # an error at the end is at the end of the last line, not after it
    if bom:
        data = data.removeprefix(b"\xef\xbb\xbf")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        start = e.start
        line = data.count(b"\n", 0, start)
        before = data[data.rfind(b"\n", 0, start) + 1 : start]
        column = len(before.decode("utf-8", "replace")) + 1
        return number + line, MalformedError(
            f"not UTF-8 text (byte {data[start]:#04x} at column {column}): "
            "records are JSON in UTF-8"
        )
    try:
        return number, json.loads(text, parse_int=_number)
    except json.JSONDecodeError as e:
        where = number + e.lineno - 1
        if e.msg == "Extra data":
            rest = "JSON Lines hold one record a line" if lines else "the file holds one record"
            return where, MalformedError(
                f"more after the end of the record, at column {e.colno}: {rest}"
            )
        return where, MalformedError(f"not valid JSON: {e.msg}, column {e.colno}")
    except RecursionError:
        return number, MalformedError("JSON nested too deeply to be a record")
