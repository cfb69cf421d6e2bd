"""istanbul's `coverage-final.json` (nyc and c8's `json` reporter, jest's `--coverage`, vitest's
istanbul and v8 providers).

Each file's `statementMap` gives every statement's start and end, and `s` its count; a line is
measured when a statement starts on it, with the largest count of those statements, as istanbul's
own LCOV and text reporters count lines. Files are named by their `path` (absolute, as the tool saw
it).

A statement over several lines (`if (\n  a &&\n  b\n) {`, a call with its arguments on lines of
their own) is measured on its start line only. Its continuation lines, those after its start and
before the next line a statement starts on (so a compound statement's head, never its body), are
given with the statement that holds them, and its own count: of two statements that start on one
line, the inner one holds them (the body of an arrow function `(a) => ({` that its declaration's
line holds too). A changed line among them is judged by its statement (`coverage/statements.py`).
A statement's end that is no line number gives it no continuation lines; one past `MAX_LINE` makes
the report unreadable, as a hostile extent would otherwise cost memory by the line.

The report is streamed (`json_report.py`), never loaded: a file not wanted is skipped unbuilt, so a
report of any size up to `MAX_JSON_BYTES` costs the memory of the changed files' statements.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from evidence_gate.coverage.model import Events, FileHits, Keep, Sieve, Statement, UnreadableReport
from evidence_gate.coverage.readers.base import Reader
from evidence_gate.coverage.readers.json_report import (
    entries,
    expect_object,
    fields,
    following,
    kind,
    line_number,
    scalar,
    skip_value,
    streamed,
)
from evidence_gate.summary.json_stream import JsonEvents, skip

# An object of objects, keyed by file (`{"/abs/src/cart.js": {"path": ...`), whose first entry is a
# file's coverage: a log of JSON lines (`{"Time": "...`) that mentions `statementMap` is not one.
_START = re.compile(rb'\A\s*\{\s*"(?:[^"\\]|\\.)*"\s*:\s*\{')
MAX_LINE = 1_000_000  # no source file has a million lines


def recognises(head: bytes) -> bool:
    return _START.match(head.lstrip(b"\xef\xbb\xbf")) is not None and b'"statementMap"' in head


def read(path: Path, keep: Keep) -> Events:
    with streamed(path) as events:
        expect_object(kind(events), "the JSON report")
        for key in entries(events):
            expect_object(kind(events), f"the entry of {key[:100]!r}")
            entry = _Entry(key=key, keep=keep)
            entry.read(events)
            yield entry.hits()


@dataclass(kw_only=True)
class _Entry:
    """One file's entry, as it streams past. Its `path` (istanbul writes it first) says whether the
    file is wanted; a file not wanted has its statements and counts skipped unbuilt. Those that come
    before the `path` are kept until it comes."""

    key: str
    keep: Keep
    name: str | None = None  # the `path`, once read
    wanted: bool | None = None  # None: not asked yet
    sieve: Sieve | None = None  # what of a wanted file is kept
    starts: list[tuple[str, _Start]] | None = None  # each statement's id and extent; None: no `statementMap`
    counts: dict[str, object] | None = None  # None: no `s`

    def read(self, events: JsonEvents) -> None:
        """The fields of the entry whose start was just read; istanbul 1's `data` object, when it
        comes before any `statementMap`, is read as the entry."""
        for field in entries(events):
            event, value = following(events)
            if field == "path":
                if event != "string" or not value:
                    raise UnreadableReport(f"the entry of {self.key[:100]!r} has no path")
                self.name = str(value)
                self._ask()
            elif field == "statementMap":
                expect_object(event, f"statementMap of {self._shown()!r}")
                self.starts = [] if self._skipped(events) else list(self._statements(events))
            elif field == "s":
                expect_object(event, f"`s` of {self._shown()!r}")
                self.counts = (
                    {}
                    if self._skipped(events)
                    else {key: scalar(events, *following(events)) for key in entries(events)}
                )
            elif field == "data" and event == "start_map" and self.starts is None:
                self.read(events)
            else:
                skip_value(events, event)

    def hits(self) -> FileHits:
        """The file, with its lines and the statements that hold its continuation lines when wanted."""
        name = self._shown()
        if not name:
            raise UnreadableReport(f"the entry of {self.key[:100]!r} has no path")
        if self.starts is None:
            raise UnreadableReport(f"statementMap of {name!r} is not an object")
        if self.counts is None:
            raise UnreadableReport(f"`s` of {name!r} is not an object")
        hits = FileHits(name=self.name or self.key)
        if not self._ask():
            return hits
        extents: list[_Extent] = []
        for statement, start in self.starts:
            count = line_number(self.counts.get(statement, 0), f"a statement's count in {name!r}")
            hits.add(start.line, count)
            extents.append(_Extent(start.line, start.column, start.end, count))
        hits.statements = _continuations(extents, self.sieve or Sieve(changed=None))
        return hits

    def _ask(self) -> bool:
        """Whether the file is wanted, asked once."""
        if self.wanted is None:
            self.sieve = self.keep(self.name or self.key)
            self.wanted = self.sieve is not None
        return self.wanted

    def _shown(self) -> str:
        return (self.name or self.key)[:100]

    def _skipped(self, events: JsonEvents) -> bool:
        """Skip the object just opened when the file is known not to be wanted."""
        if self.wanted is False:
            skip(events)
            return True
        return False

    def _statements(self, events: JsonEvents) -> Iterator[tuple[str, _Start]]:
        """Each statement of the `statementMap` just opened: its start line and column, its end line."""
        for statement in entries(events):
            expect_object(kind(events), "a statement")
            parts = {part: fields(events, event, ("line", "column")) for part, event in _parts(events)}
            start = parts.get("start")
            if start is None:
                raise UnreadableReport("a statement's start is not an object")
            line = line_number(start.get("line"), f"a statement's line in {self._shown()!r}")
            column = start.get("column")
            column = column if isinstance(column, int) and not isinstance(column, bool) else 0
            end = parts.get("end")
            yield statement, _Start(line, column, _end_line(end.get("line") if end else None, self._shown()))


def _parts(events: JsonEvents) -> Iterator[tuple[str, str]]:
    """A statement's `start` and `end`, each with the kind of its first event; anything else skipped."""
    for part in entries(events):
        event, _ = following(events)
        if part in ("start", "end"):
            yield part, event
        else:
            skip_value(events, event)


@dataclass(frozen=True)
class _Start:
    line: int
    column: int
    end: int  # 0: the report gives no end line


@dataclass(frozen=True)
class _Extent:
    line: int
    column: int
    end: int  # 0: the report gives no end line
    count: int


def _end_line(line: object, name: str) -> int:
    """A statement's end line; 0 when the report gives none that is a line number."""
    if isinstance(line, bool) or not isinstance(line, int) or line < 0:
        return 0
    if line > MAX_LINE:
        raise UnreadableReport(f"a statement in {name!r} ends at line {line}, past any source's ({MAX_LINE:,})")
    return line


def _continuations(extents: list[_Extent], sieve: Sieve) -> dict[int, Statement]:
    """Each line after a statement's start, up to its end and before the next line any statement
    starts on, with that statement. Those spans lie between consecutive start lines; where two
    statements start on one line, the inner one (starting later, or as early and ending sooner) is
    taken last, so it holds them. Of a span only the changed lines are visited (a continuation
    line matters only where the change has one): a statement claiming a million lines costs the
    change's lines, not its claim."""
    starts = sorted({extent.line for extent in extents})
    continued: dict[int, Statement] = {}
    for extent in sorted(extents, key=lambda extent: (extent.line, extent.column, -extent.end)):
        following = bisect_right(starts, extent.line)
        last = min(extent.end, starts[following] - 1) if following < len(starts) else extent.end
        held = Statement(extent.line, extent.count)
        continued.update((line, held) for line in sieve.changed_within(extent.line + 1, last))
    return continued


READER = Reader(name="istanbul", title="istanbul coverage-final.json", recognises=recognises, read=read)
