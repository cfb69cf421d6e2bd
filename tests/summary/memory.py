"""What a line parser keeps in memory after reading hostile lines, measured, not timed."""

from __future__ import annotations

import tracemalloc
from collections.abc import Iterable

from evidence_gate.summary.base import LineParser


def memory_kept(parser: LineParser, lines: Iterable[str]) -> int:
    """Bytes still allocated since measuring began, once `parser` has been fed every line."""
    tracemalloc.start()
    try:
        for line in lines:
            parser.feed(line)
        kept, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return kept
