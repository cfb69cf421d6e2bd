"""What the report readers' tests share: writing a report, a large one, and the checks every reader
must pass on hostile input (unparsed with the reason, kept names cut, flat memory)."""

from __future__ import annotations

from pathlib import Path

from evidence_gate.summary.base import CaseResult
from evidence_gate.summary.read import read_source
from tests.summary.memory import peak_mib

HUGE_NAME = "n" * 1_000_000
HUGE_MESSAGE = "m" * 5000
HUGE_FAILURE = f"<failure><message>{HUGE_MESSAGE}</message></failure>"  # as NUnit and xUnit.net write one
PADDING = "x" * 400


def report(tmp_path: Path, text: str | bytes, name: str = "report.xml") -> Path:
    path = tmp_path / name
    path.write_bytes(text.encode("utf-8") if isinstance(text, str) else text)
    return path


def assert_unparsed(path: Path, parser: str, reason: str) -> None:
    """`path`, read with `parser` named, has no counts and a reason that says `reason`."""
    summary = read_source(path, [parser])
    assert summary.counts is None
    assert reason in (summary.reason or "")


def assert_cut(case: CaseResult) -> None:
    """A case named `HUGE_NAME` that failed with `HUGE_MESSAGE` keeps 1000 characters of each."""
    assert case.name == "n" * 1000 + "… 999000 more characters"
    assert case.message == "m" * 1000 + "… 4000 more characters"


def assert_read_in_flat_memory(small: Path, large: Path, head: str, row: str, tail: str) -> None:
    """A failing report of 100,000 cases (`row`, formatted with `n` and `pad`, about 45 MB between
    `head` and `tail`) is read in no more memory than the failing `small` report, give or take 64 MiB:
    a reader that kept what it read would hold a tree several times that size."""
    rows = "".join(row.format(n=n, pad=PADDING) for n in range(1000))
    with large.open("w", encoding="utf-8") as handle:
        handle.write(head)
        for _ in range(100):
            handle.write(rows)
        handle.write(tail)
    (small_status, small_peak), (large_status, large_peak) = peak_mib(small), peak_mib(large)
    assert (small_status, large_status) == ("failed", "failed")
    assert large_peak < small_peak + 64, (small_peak, large_peak)
