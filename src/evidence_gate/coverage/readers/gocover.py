"""Go coverage profiles (`go test -coverprofile`, any `-covermode`).

After `mode: set|count|atomic`, each line is a block: `<import path>/<file>.go:L1.C1,L2.C2 <statements>
<count>`. A block's lines L1 to L2 are measured (a block of no statements measures nothing), and a
line is executed when any block over it ran: the line of `if x {` belongs to the block before the
`{` (which ran) and to the body after it (which may not have). Blocks of one file may repeat (one
profile per package concatenated, or `-coverpkg` across packages): their counts add. File names are
import paths, mapped to the repository through the nearest `go.mod` (see `coverage/paths.py`).

A block of a few bytes names every line from L1 to L2, so a line past `MAX_LINE` is refused (no Go
file has a million lines), and of a block only the lines the file's sieve can keep are visited:
the changed lines within it and the last line of each gap between them, so a profile of blocks
that each span a million lines costs the change's lines per block, never the block's. Numbers are
ASCII digits, as `go test` writes them, and no longer than a count can be.
"""

from __future__ import annotations

import re
from pathlib import Path

from evidence_gate.coverage.model import Events, FileHits, Keep, UnreadableReport
from evidence_gate.coverage.readers.base import Reader
from evidence_gate.coverage.readers.text import text_lines

_MODE = re.compile(rb"^\s*mode: (?:set|count|atomic)\s*$", re.MULTILINE)
_BLOCK = re.compile(
    r"^(?P<file>.+):(?P<l1>[0-9]{1,19})\.(?P<c1>[0-9]{1,19}),(?P<l2>[0-9]{1,19})\.(?P<c2>[0-9]{1,19}) "
    r"(?P<stmts>[0-9]{1,19}) (?P<count>[0-9]{1,19})$"
)
MAX_LINE = 1_000_000


def recognises(head: bytes) -> bool:
    first = head.lstrip(b"\xef\xbb\xbf \t\r\n").split(b"\n", 1)[0]
    return _MODE.match(first) is not None


def read(path: Path, keep: Keep) -> Events:
    files: dict[str, FileHits] = {}
    for number, line in text_lines(path):
        if not line.strip() or line.startswith("mode: "):
            continue
        block = _BLOCK.match(line)
        if block is None:
            raise UnreadableReport(f"line {number} is not a coverage block ('file.go:L.C,L.C statements count')")
        first, last = int(block["l1"]), int(block["l2"])
        if last < first:
            raise UnreadableReport(f"line {number}: the block ends (line {last}) before it starts (line {first})")
        if last > MAX_LINE:
            raise UnreadableReport(f"line {number}: the block ends at line {last}, past any Go file's ({MAX_LINE:,})")
        name = block["file"]
        if name not in files:
            files[name] = FileHits(name=name, sieve=keep(name))
        hits = files[name]
        if int(block["stmts"]) == 0 or hits.sieve is None:
            continue
        count = int(block["count"])
        # Only the lines the sieve can keep, never the block's every line: its cost is the change's.
        for covered in hits.sieve.within(first, last):
            if hits.sieve.admit(covered, hits.hits):
                hits.hits[covered] = hits.hits.get(covered, 0) + count
    if not files:
        raise UnreadableReport("a Go coverage profile with no block: it measured no file")
    yield from files.values()


READER = Reader(name="gocover", title="Go coverage profile", recognises=recognises, read=read)
