"""istanbul's `coverage-final.json` (nyc and c8's `json` reporter, jest's `--coverage`, vitest's
istanbul and v8 providers).

Each file's `statementMap` gives every statement's start line, and `s` its count; a line is measured
when a statement starts on it, with the largest count of those statements, as istanbul's own LCOV
and text reporters count lines. Files are named by their `path` (absolute, as the tool saw it).
"""

from __future__ import annotations

import re
from pathlib import Path

from evidence_gate.coverage.model import Events, FileHits, Keep, UnreadableReport
from evidence_gate.coverage.readers.base import Reader
from evidence_gate.coverage.readers.json_report import line_number, load_object, mapping

# An object of objects, keyed by file (`{"/abs/src/cart.js": {"path": ...`), whose first entry is a
# file's coverage: a log of JSON lines (`{"Time": "...`) that mentions `statementMap` is not one.
_START = re.compile(rb'\A\s*\{\s*"(?:[^"\\]|\\.)*"\s*:\s*\{')


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
        if not keep(name):
            yield hits
            continue
        for statement, location in statements.items():
            start = mapping(mapping(location, "a statement").get("start"), "a statement's start")
            line = line_number(start.get("line"), f"a statement's line in {name[:100]!r}")
            count = counts.get(statement, 0)
            hits.add(line, line_number(count, f"a statement's count in {name[:100]!r}"))
        yield hits


READER = Reader(name="istanbul", title="istanbul coverage-final.json", recognises=recognises, read=read)
