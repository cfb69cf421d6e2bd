"""Reading runner output: recognise the format from content, clean terminal noise, add up sources.

A file is read whatever its name says. Structured reports (JUnit XML, xcresult JSON) are recognised
by their first bytes; console logs are fed, line by line and once, to every candidate line parser,
and the first in registry order that read counts wins. Input that is empty, binary or not UTF-8
compatible is `unparsed` with the reason, never a guess.
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

from evidence_gate.model import Counts, TestSummary
from evidence_gate.summary.base import Reading
from evidence_gate.summary.parsers.junit import CaseResult, scan_junit
from evidence_gate.summary.registry import (
    ALL_PARSERS,
    DOCUMENT_PARSERS,
    LINE_PARSERS,
    check_names,
    document_parser,
    line_parser,
)

HEAD_BYTES = 64 * 1024
UNRECOGNISED = "no parser recognised this output"
MAX_LINE_BYTES = 1024 * 1024

# CSI sequences (colours, cursor moves, private modes such as ?2026h), OSC sequences (titles,
# hyperlinks), escapes with intermediate bytes (ESC ( B, which libtest writes after every coloured
# word), and the two-character escapes.
_ANSI = re.compile(r"\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)?|[ -/]+[0-~]|[@-Z\\-_])")
_WIDE_BOMS = (codecs.BOM_UTF32_LE, codecs.BOM_UTF32_BE, codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)


def clean_line(raw: str) -> str:
    """A log line as a person saw it: colours removed, and for a line redrawn with carriage
    returns (progress bars, terminal spinners) only its last drawing."""
    line = _ANSI.sub("", raw.rstrip("\n").rstrip("\r"))
    if "\r" in line:
        drawings = [part for part in line.split("\r") if part.strip()]
        line = drawings[-1] if drawings else ""
    return line


def unreadable_reason(head: bytes) -> str | None:
    """Why content cannot be a runner's output or report, judged from its first bytes."""
    if not head:
        return "empty input"
    if head.startswith(_WIDE_BOMS):
        return "the input is UTF-16 or UTF-32 (byte order mark); runner output and reports are read as UTF-8"
    if b"\x00" in head:
        return "binary content (NUL bytes), not runner output"
    return None


def read_lines(path: Path) -> Iterator[str]:
    """Cleaned lines, read in bounded memory: an over-long line is cut into 1 MiB pieces."""
    with path.open("rb") as handle:
        while chunk := handle.readline(MAX_LINE_BYTES):
            yield clean_line(chunk.decode("utf-8", errors="replace"))


def read_source(path: Path, candidates: Sequence[str], label: str | None = None) -> TestSummary:
    """One file's summary, tried with `candidates` (parser names, in order)."""
    source = label or str(path)
    try:
        with path.open("rb") as handle:
            head = handle.read(HEAD_BYTES)
    except OSError as error:
        return TestSummary(counts=None, parser=None, source=source, reason=f"cannot read ({error.strerror or error})")
    reason = unreadable_reason(head)
    if reason:
        return TestSummary(counts=None, parser=None, source=source, reason=reason)
    for name in candidates:
        if name in DOCUMENT_PARSERS:
            parser = document_parser(name)
            if len(candidates) == 1 or parser.recognises(head):
                return _summary(parser.parse(path), source)
    line_names = [name for name in candidates if name in LINE_PARSERS]
    reading = _read_lines(path, line_names) if line_names else None
    if reading is None:
        tried = ", ".join(candidates)
        return TestSummary(counts=None, parser=None, source=source, reason=f"{UNRECOGNISED} (tried: {tried})")
    return _summary(reading, source)


def read_junit(path: Path, on_case: Callable[[CaseResult], None] | None = None) -> TestSummary:
    """A JUnit report's summary, handing each test case to `on_case` (names, outcomes, messages) as it
    streams past: one pass serves both the counts and whatever a caller collects."""
    with path.open("rb") as handle:
        reason = unreadable_reason(handle.read(HEAD_BYTES))
    if reason:
        return TestSummary(counts=None, parser="junit", source=str(path), reason=reason)
    return _summary(scan_junit(path, on_case), str(path))


def _read_lines(path: Path, names: Sequence[str]) -> Reading | None:
    parsers = [line_parser(name) for name in names]
    for line in read_lines(path):
        for parser in parsers:
            parser.feed(line)
    readings = [reading for reading in (parser.finish() for parser in parsers) if reading is not None]
    with_counts = [reading for reading in readings if reading.counts is not None]
    chosen = with_counts or readings
    return chosen[0] if chosen else None


def _summary(reading: Reading, source: str) -> TestSummary:
    return TestSummary(
        counts=reading.counts, parser=reading.parser, source=source, reason=reading.reason, notes=reading.notes
    )


def combine(summaries: Sequence[TestSummary]) -> TestSummary:
    """Several sources (sharded runs, a log and its reports) add up. One unparsed source makes the
    total unparsed: a sum that leaves out a source it could not read would be a guess."""
    if len(summaries) == 1:
        return summaries[0]
    parsers = list(dict.fromkeys(summary.parser for summary in summaries if summary.parser))
    source = ", ".join(summary.source for summary in summaries)
    notes = tuple(f"{summary.source}: {note}" for summary in summaries for note in summary.notes)
    unread = [summary for summary in summaries if summary.counts is None]
    if unread:
        first = unread[0]
        return TestSummary(
            counts=None,
            parser="+".join(parsers) or None,
            source=source,
            reason=f"{first.source}: {first.reason}" + (f" (and {len(unread) - 1} more)" if len(unread) > 1 else ""),
            notes=notes,
        )
    total = Counts(passed=0, failed=0, skipped=0)
    for summary in summaries:
        if summary.counts:
            total = total + summary.counts
    return TestSummary(counts=total, parser="+".join(parsers), source=source, notes=notes)


def candidate_parsers(parser: str | None, stack_parsers: Sequence[str] | None) -> tuple[str, ...]:
    """The parsers to try: the one named, else the stack's order, else every registered parser."""
    if parser:
        check_names([parser], "--parser")
        return (parser,)
    if stack_parsers:
        check_names(list(stack_parsers), "the stack's parser order")
        return tuple(stack_parsers)
    return ALL_PARSERS
