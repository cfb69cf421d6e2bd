"""A JSON coverage report read as a stream of checked events (`summary/json_stream.py`), never
loaded whole: a reader walks the events itself, keeping the lines of the files it is asked for and
skipping everything else unbuilt. A report past `MAX_JSON_BYTES` is refused unread, and anything
the event stream refuses (not JSON, not UTF-8, nested past its depth limit, a number past Python's
digits) makes the report unreadable with that reason."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from evidence_gate.coverage.model import UnreadableReport
from evidence_gate.summary.encoding import detect_encoding, is_wide, wide_name
from evidence_gate.summary.json_stream import JsonEvents, Malformed, json_events, skip
from evidence_gate.workspace import open_resolved

MAX_JSON_BYTES = 256 * 1024 * 1024
_OPENS = {"start_map": "an object", "start_array": "a list"}


@contextmanager
def streamed(path: Path) -> Iterator[JsonEvents]:
    """The events of the report at `path`; whatever stops its reading raises `UnreadableReport`."""
    try:
        with open_resolved(path) as handle:
            if os.fstat(handle.fileno()).st_size > MAX_JSON_BYTES:
                raise UnreadableReport(f"a JSON report over {MAX_JSON_BYTES // 2**20} MiB; use the XML or LCOV form")
            encoding = detect_encoding(handle.read(4))
            if is_wide(encoding):
                raise UnreadableReport(
                    f"in {wide_name(encoding)}: a JSON report is read as UTF-8, as the tools write it"
                )
            handle.seek(0)
            yield json_events(handle)
    except Malformed as error:
        raise UnreadableReport(str(error)) from None
    except OSError as error:
        raise UnreadableReport(f"cannot read ({error.strerror or error})") from error


def following(events: JsonEvents) -> tuple[str, object]:
    """The next event: where a value must follow, yajl raises before the stream ends."""
    return next(events, ("end", None))


def kind(events: JsonEvents) -> str:
    """The next event's kind."""
    return following(events)[0]


def entries(events: JsonEvents) -> Iterator[str]:
    """The keys of an object whose start was just read, each with its value next in `events`: the
    caller reads or skips the value before asking for the next key."""
    for event, key in events:
        if event == "end_map":
            return
        yield str(key)


def expect_object(opened: str, what: str) -> None:
    if opened != "start_map":
        raise UnreadableReport(f"{what} is not an object")


def skip_value(events: JsonEvents, opened: str) -> None:
    """Consume a value whose first event was `opened` (a scalar is already whole)."""
    if opened in _OPENS:
        skip(events)


def numbers(events: JsonEvents, what: str) -> Iterator[int]:
    """The line numbers of a list whose start was just read."""
    for event, value in events:
        if event == "end_array":
            return
        if event in _OPENS:
            raise UnreadableReport(f"{what} is not a line number: {_OPENS[event]!r}")
        yield line_number(value, what)


def scalar(events: JsonEvents, event: str, value: object) -> object:
    """A value whose first event was `event`: a scalar as it is, an object or list skipped and
    named (so a check that wants a number says what it found)."""
    if event in _OPENS:
        skip(events)
        return _OPENS[event]
    return value


def fields(events: JsonEvents, event: str, names: tuple[str, ...]) -> dict[str, object] | None:
    """Of an object whose first event was `event`, the values of `names`, each as `scalar` gives
    it; None when it is no object (which is then skipped)."""
    if event != "start_map":
        skip_value(events, event)
        return None
    found: dict[str, object] = {}
    for name in entries(events):
        event, value = following(events)
        if name in names:
            found[name] = scalar(events, event, value)
        else:
            skip_value(events, event)
    return found


def line_number(value: object, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise UnreadableReport(f"{what} is not a line number: {str(value)[:40]!r}")
    return value
