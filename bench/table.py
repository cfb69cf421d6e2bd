"""What every benchmark reports: rows of one table, and the measuring helpers they share.

A row is one measure against its baseline, run in the same process (or the same parent process)
a moment apart, so the ratio holds on a shared, noisy machine where absolute seconds do not. Time
is CPU time (this process's and its waited-for children's) unless a row says wall: CPU time does
not grow when another job takes the core, and the best of several repeats is the least disturbed.
"""

from __future__ import annotations

import os
import platform
import re
import resource
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

_STATUS = Path("/proc/self/status")


@dataclass(frozen=True)
class Row:
    """One measure. `ours` and `baseline` are shown as measured (with their unit); `ratio` is ours over
    the baseline where the target is one; `met` is None where there is no target to meet; `peak_mb` is
    how far the resident set rose while ours ran, where that was measured; `note` says why a target is
    missed, or what a figure leaves out."""

    benchmark: str
    measure: str
    ours: str
    baseline: str = "-"
    ratio: float | None = None
    target: str = "-"
    met: bool | None = None
    peak_mb: float | None = None
    note: str = ""


COLUMNS = ("benchmark", "measure", "ours", "baseline", "ratio", "target", "met?", "peak memory")


def cells(row: Row) -> tuple[str, ...]:
    met = "-" if row.met is None else ("yes" if row.met else "NO")
    return (
        row.benchmark,
        row.measure,
        row.ours,
        row.baseline,
        "-" if row.ratio is None else f"{row.ratio:.2f}x",
        row.target,
        met,
        "-" if row.peak_mb is None else f"{row.peak_mb:.1f} MB",
    )


def render(rows: Sequence[Row]) -> str:
    """A Markdown table (aligned, so it reads in a terminal too), then each row's note."""
    table = [COLUMNS, *(cells(row) for row in rows)]
    widths = [max(len(line[column]) for line in table) for column in range(len(COLUMNS))]
    lines = [
        "| " + " | ".join(cell.ljust(width) for cell, width in zip(line, widths, strict=True)) + " |" for line in table
    ]
    lines.insert(1, "|" + "|".join("-" * (width + 2) for width in widths) + "|")
    notes = [f"- {row.benchmark}, {row.measure}: {row.note}" for row in rows if row.note]
    return "\n".join([*lines, "", *notes] if notes else lines)


def cpu_seconds() -> float:
    """CPU time so far of this process and of its children that have ended and been waited for."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def best_of(repeat: int, function: Callable[[], object]) -> float:
    """The least CPU time of `repeat` calls of `function` (see `cpu_seconds`)."""
    timings = []
    for _ in range(repeat):
        started = cpu_seconds()
        function()
        timings.append(cpu_seconds() - started)
    return min(timings)


def _status_kb(field: str) -> int:
    match = re.search(field + r":\s+(\d+)", _STATUS.read_text())
    if match is None:
        raise RuntimeError(f"/proc/self/status has no {field}")
    return int(match[1])


def start_peak() -> int:
    """Reset this process's peak resident set to what it is now (Linux: `5` into clear_refs), and
    return that, in kB: what `rise_mb` measures from."""
    Path("/proc/self/clear_refs").write_text("5")
    return _status_kb("VmRSS")


def rise_mb(before_kb: int) -> float:
    """How far the peak resident set rose above `before_kb` since `start_peak`, in MB."""
    return (_status_kb("VmHWM") - before_kb) / 1024


def seconds(value: float) -> str:
    return f"{value:.2f} s"


def machine() -> str:
    """The machine the figures are from: cores, CPU model, memory, Python, date (UTC)."""
    cpuinfo = Path("/proc/cpuinfo").read_text()
    model = re.search(r"model name\s*:\s*(.+)", cpuinfo)
    memory_gb = _meminfo_kb("MemTotal") / 2**20
    return (
        f"{os.cpu_count()} cores ({model[1].strip() if model else 'unknown CPU'}), {memory_gb:.0f} GB RAM,"
        f" Python {platform.python_version()}, {datetime.now(UTC):%Y-%m-%d %H:%M} UTC"
    )


def _meminfo_kb(field: str) -> int:
    match = re.search(field + r":\s+(\d+)", Path("/proc/meminfo").read_text())
    return int(match[1]) if match else 0
