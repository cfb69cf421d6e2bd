"""What a parser keeps in memory after reading hostile input, measured, not timed: a line parser's
Python objects, and a whole reading's peak in a process of its own (lxml allocates outside Python)."""

from __future__ import annotations

import subprocess
import sys
import tracemalloc
from collections.abc import Iterable
from pathlib import Path

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


PEAK_MEMORY = """
import resource, sys
from pathlib import Path
from evidence_gate.summary.read import read_source
from evidence_gate.summary.registry import ALL_PARSERS
summary = read_source(Path(sys.argv[1]), ALL_PARSERS)
print(summary.status, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024)
"""


def peak_mib(path: Path) -> tuple[str, int]:
    """The status `path` reads as, with no parser named, and the peak memory of that reading in MiB."""
    done = subprocess.run([sys.executable, "-c", PEAK_MEMORY, str(path)], capture_output=True, text=True, check=True)
    status, peak = done.stdout.split()
    return status, int(peak)
