"""LCOV tracefiles (`lcov.info`), as written by lcov/geninfo, c8 and nyc (`lcov` reporter),
cargo-llvm-cov, grcov, Karma, Dart, Bazel and others.

Each record is `SF:<path>`, then `DA:<line>,<hits>[,<checksum>]` for each measured line, and ends
with `end_of_record`; other lines (`TN:`, `FN:`, `BRDA:`, `LF:`, ...) carry nothing this reads. A
path is as the writer saw it: absolute, or relative to the directory the tool ran in (usually the
sub-project's own, where an LCOV written inside `packages/web/` names `src/x.js`).

It is read line by line, up to `MAX_LCOV_BYTES` (the JSON reports' cap), and of a wanted file only
the lines its sieve keeps: a tracefile of any length costs the change's lines.
"""

from __future__ import annotations

import re
from pathlib import Path

from evidence_gate.coverage.model import Events, FileHits, Keep, UnreadableReport
from evidence_gate.coverage.readers.base import Reader, whole_number
from evidence_gate.coverage.readers.json_report import MAX_JSON_BYTES
from evidence_gate.coverage.readers.text import text_lines

MAX_LCOV_BYTES = MAX_JSON_BYTES
_FIRST = re.compile(rb"^\s*(?:TN:|SF:)", re.MULTILINE)


def recognises(head: bytes) -> bool:
    first = head.lstrip(b"\xef\xbb\xbf \t\r\n")[:3]
    return first in (b"TN:", b"SF:") and _FIRST.search(head) is not None and b"\nSF:" in b"\n" + head


def read(path: Path, keep: Keep) -> Events:
    current: FileHits | None = None
    records = 0
    for number, line in text_lines(path, MAX_LCOV_BYTES):
        if line.startswith("DA:"):
            if current is None:
                raise UnreadableReport(f"line {number}: DA: outside a record (no SF: before it)")
            if current.sieve is None:
                continue
            fields = line[3:].split(",")
            if len(fields) < 2:
                raise UnreadableReport(f"line {number}: DA: needs a line number and a hit count")
            current.add(whole_number(fields[0], f"line {number}'s line number"), _hits(fields[1], number))
        elif line.startswith("SF:"):
            if current is not None:
                raise UnreadableReport(f"line {number}: SF: inside a record (no end_of_record before it)")
            name = line[3:].strip()
            current = FileHits(name=name, sieve=keep(name))
        elif line.strip() == "end_of_record":
            if current is None:
                raise UnreadableReport(f"line {number}: end_of_record with no record open")
            records += 1
            yield current
            current = None
    if current is not None:
        raise UnreadableReport("the last record has no end_of_record: the file was cut short")
    if not records:
        raise UnreadableReport("an LCOV file with no record: it measured no file")


def _hits(text: str, number: int) -> int:
    """geninfo writes a count that overflowed as a negative number: still executed."""
    try:
        return abs(int(text))
    except ValueError:
        raise UnreadableReport(f"line {number}'s hit count is not a whole number: {text[:40]!r}") from None


READER = Reader(name="lcov", title="LCOV", recognises=recognises, read=read)
