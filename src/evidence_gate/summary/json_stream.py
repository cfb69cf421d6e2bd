"""JSON reports read as a stream, in bounded memory: a runner's JSON report can be hundreds of MB
(jest's `--json` keeps every failure message and stack), so it is never loaded whole.

The file is tokenised by ijson (its C backend over yajl, which its wheels carry; its pure Python one
where no wheel fits), which hands over one event at a time (a key, a scalar, the start or end of an
object or array). A reader names the places it wants, as paths of
keys where `ITEM` stands for any element of an array (`("testResults", ITEM, "status")`): it is
told each scalar found there (`value`), that an object or array starts there (`value` with
`OBJECT` or `ARRAY`, so it can check the type), and when one it asked about ends (`close`).
Everything else is skipped without being built; only a string the reader asked for is kept, and it
is the reader's to clip.

Hostile input ends as `Malformed` with a one-line reason: bytes that are not JSON or not UTF-8,
a document cut short or followed by more (yajl reports both), nesting deeper than `MAX_DEPTH`.
JSON has no NaN or Infinity, so yajl refuses them; numbers come as `int` or, with a fraction or
exponent, `Decimal` (never a float that overflows), and `count` refuses anything but a whole
number of plausible size.

A run of more digits than Python turns into an `int` (4,300 unless the interpreter is told
otherwise) is refused before yajl sees it, wherever it stands, even inside a string: ijson's C
backend does not check that conversion, and hands on an event whose value is a null pointer, which
crashes the interpreter when read (where the number spans two of its reads; otherwise a stray
`ValueError`). A number whose exponent `Decimal` cannot hold is refused too.

`json_events` gives those checked events to a reader that walks a document's structure itself (a
coverage report keyed by file names); `stream_json` hands a `Reader` the values at the paths it
names.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterable, Iterator
from decimal import Decimal, InvalidOperation
from enum import Enum
from pathlib import Path
from typing import BinaryIO, Protocol

import ijson  # type: ignore[import-untyped]  # ijson ships no type information; the events it yields are checked here

from evidence_gate.summary.base import Reading
from evidence_gate.workspace import Refused, open_resolved

ITEM = "item"
MAX_DEPTH = 64  # no runner's report nests this deep; a deeper one is hostile
MAX_COUNT = 10**9  # more tests than any run has: a count past it is not a count
MAX_DIGITS = 4_300  # Python's default limit for int(str); the interpreter's own, if lower, is used
_BUFFER_BYTES = 256 * 1024
_UTF8_BOM = b"\xef\xbb\xbf"
_OPENS = frozenset({"start_map", "start_array"})
_CLOSES = frozenset({"end_map", "end_array"})

JsonPath = tuple[str, ...]
JsonEvents = Iterator[tuple[str, object]]
Scalar = str | int | Decimal | bool | None


class Opened(Enum):
    """What starts at a wanted path when it is not a scalar."""

    OBJECT = "object"
    ARRAY = "array"


OBJECT = Opened.OBJECT
ARRAY = Opened.ARRAY


class Malformed(Exception):
    """The report cannot be read; the message is the one-line reason."""


class Reader(Protocol):
    def value(self, path: JsonPath, value: Scalar | Opened) -> None:
        """A scalar at a wanted path, or the start of an object or array there."""

    def close(self, path: JsonPath) -> None:
        """The end of an object or array at a path in `closing`."""


def read_json(path: Path, reader: Reader, wanted: Iterable[JsonPath], closing: Iterable[JsonPath] = ()) -> None:
    """Stream the JSON document at `path` (opened with `open_resolved`) to `reader`. Raises
    `Malformed` (and `Refused`, from `open_resolved`)."""
    with open_resolved(path) as handle:
        stream_json(handle, reader, wanted, closing)


def stream_json(handle: BinaryIO, reader: Reader, wanted: Iterable[JsonPath], closing: Iterable[JsonPath] = ()) -> None:
    """`read_json` on an open file."""
    _walk(json_events(handle), reader, frozenset(wanted), frozenset(closing))


def json_events(handle: BinaryIO) -> JsonEvents:
    """ijson's events for the document in `handle` (after a UTF-8 byte order mark, if any), each
    checked: nesting past `MAX_DEPTH`, a run of digits past `MAX_DIGITS` and anything yajl refuses
    raise `Malformed`."""
    if handle.read(len(_UTF8_BOM)) != _UTF8_BOM:
        handle.seek(0)
    depth = 0
    try:
        for event, value in ijson.basic_parse(_DigitRuns(handle), buf_size=_BUFFER_BYTES):
            if event in _OPENS:
                depth += 1
                if depth > MAX_DEPTH:
                    raise Malformed(f"nested deeper than {MAX_DEPTH} levels")
            elif event in _CLOSES:
                depth -= 1
            yield event, value
    except ijson.JSONError as error:
        raise Malformed(f"not valid JSON ({_first_line(error)})") from None
    except UnicodeDecodeError:
        raise Malformed("not valid JSON (not UTF-8)") from None
    except InvalidOperation:
        raise Malformed("not valid JSON (a number whose exponent is out of range)") from None


def skip(events: JsonEvents) -> None:
    """Consume one object or array whose start was just read, building nothing of it."""
    nested = 1
    for event, _ in events:
        if event in _OPENS:
            nested += 1
        elif event in _CLOSES:
            nested -= 1
            if not nested:
                return


class _DigitRuns:
    """The file as ijson reads it, refusing a run of more digits than Python turns into an `int`.
    Each piece read is searched with the end of the one before, so a run across two is seen."""

    def __init__(self, handle: BinaryIO) -> None:
        self._handle = handle
        self._limit = min(sys.get_int_max_str_digits() or MAX_DIGITS, MAX_DIGITS)
        # A run is searched for from its first digit only, so the search is linear in the input.
        self._run = re.compile(rb"(?<![0-9])[0-9]{%d}" % (self._limit + 1))
        self._tail = b""

    def read(self, size: int = -1) -> bytes:
        data = self._handle.read(size)
        seen = self._tail + data
        if self._run.search(seen):
            raise Malformed(f"not valid JSON (a number of more than {self._limit:,} digits)")
        self._tail = seen[-self._limit :]
        return data


def unread(parser: str, error: Malformed | Refused) -> Reading:
    """A JSON report that could not be read: unparsed, with the reason."""
    return Reading(parser=parser, counts=None, reason=error.reason if isinstance(error, Refused) else str(error))


def _first_line(error: Exception) -> str:
    """yajl's message, whose later lines quote the input around the error, cut to its first line."""
    message = error.args[0] if error.args else ""
    text = message.decode("utf-8", "replace") if isinstance(message, bytes) else str(message)
    return (text.strip().splitlines() or ["unknown error"])[0].strip()


def _walk(events: JsonEvents, reader: Reader, wanted: frozenset[JsonPath], closing: frozenset[JsonPath]) -> None:
    """Hand `reader` what it asked for. `path` is where the next value goes: inside an object its
    last part is the current key, inside an array `ITEM`. A container no wanted path leads into is
    skipped by counting its depth alone."""
    inside = frozenset(path[:end] for path in wanted | closing for end in range(len(path)))
    path: list[str] = []
    for event, value in events:
        if event == "map_key":
            path[-1] = str(value)
            continue
        if event in _CLOSES:
            path.pop()
            if closing and (where := tuple(path)) in closing:
                reader.close(where)
            continue
        where = tuple(path)
        if event in _OPENS:
            if where in wanted:
                reader.value(where, OBJECT if event == "start_map" else ARRAY)
            if where not in inside:
                skip(events)
                if where in closing:
                    reader.close(where)
                continue
            path.append("" if event == "start_map" else ITEM)
        elif where in wanted:
            reader.value(where, _scalar(value))


def _scalar(value: object) -> Scalar:
    if value is None or isinstance(value, str | int | Decimal | bool):
        return value
    raise Malformed(f"an unexpected JSON value ({type(value).__name__})")


def count(value: Scalar | Opened, where: str) -> int:
    """A declared count: a whole number from 0 to `MAX_COUNT`; anything else is `Malformed`."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_COUNT:
        shown = "an object" if value is OBJECT else "an array" if value is ARRAY else repr(value)[:40]
        raise Malformed(f"{where} is not a count of tests ({shown})")
    return value


def text(value: Scalar | Opened) -> str | None:
    """A string value, or None for anything else (a name or message a report left out or mistyped)."""
    return value if isinstance(value, str) else None
