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
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass
from pathlib import Path

from evidence_gate.coverage.model import Events, FileHits, Keep, Sieve, Statement, UnreadableReport
from evidence_gate.coverage.readers.base import Reader
from evidence_gate.coverage.readers.json_report import line_number, load_object, mapping

# An object of objects, keyed by file (`{"/abs/src/cart.js": {"path": ...`), whose first entry is a
# file's coverage: a log of JSON lines (`{"Time": "...`) that mentions `statementMap` is not one.
_START = re.compile(rb'\A\s*\{\s*"(?:[^"\\]|\\.)*"\s*:\s*\{')
MAX_LINE = 1_000_000  # no source file has a million lines


def recognises(head: bytes) -> bool:
    return _START.match(head.lstrip(b"\xef\xbb\xbf")) is not None and b'"statementMap"' in head


def read(path: Path, keep: Keep) -> Events:
    for key, entry in load_object(path).items():
        entry = mapping(entry, f"the entry of {key[:100]!r}")
        if "statementMap" not in entry and isinstance(entry.get("data"), dict):
            entry = entry["data"]  # istanbul 1's nesting
        name = entry.get("path", key)
        if not isinstance(name, str) or not name:
            raise UnreadableReport(f"the entry of {key[:100]!r} has no path")
        statements = mapping(entry.get("statementMap"), f"statementMap of {name[:100]!r}")
        counts = mapping(entry.get("s"), f"`s` of {name[:100]!r}")
        hits = FileHits(name=name)
        sieve = keep(name)
        if sieve is None:
            yield hits
            continue
        extents: list[_Extent] = []
        for statement, location in statements.items():
            location = mapping(location, "a statement")
            start = mapping(location.get("start"), "a statement's start")
            line = line_number(start.get("line"), f"a statement's line in {name[:100]!r}")
            count = line_number(counts.get(statement, 0), f"a statement's count in {name[:100]!r}")
            hits.add(line, count)
            column = start.get("column")
            column = column if isinstance(column, int) and not isinstance(column, bool) else 0
            extents.append(_Extent(line, column, _end_line(location.get("end"), name), count))
        hits.statements = _continuations(extents, sieve)
        yield hits


@dataclass(frozen=True)
class _Extent:
    line: int
    column: int
    end: int  # 0: the report gives no end line
    count: int


def _end_line(end: object, name: str) -> int:
    """A statement's end line; 0 when the report gives none that is a line number."""
    line = end.get("line") if isinstance(end, dict) else None
    if isinstance(line, bool) or not isinstance(line, int) or line < 0:
        return 0
    if line > MAX_LINE:
        raise UnreadableReport(f"a statement in {name[:100]!r} ends at line {line}, past any source's ({MAX_LINE:,})")
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
