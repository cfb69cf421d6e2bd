"""Success and failure markers, and one streaming pass over a log to find them.

A marker is evidence of what a tool said, not of how many tests ran: `BUILD SUCCESSFUL` and `ok`
are printed for runs that executed nothing. Markers decide failure and, for a build, success; for
tests the counts decide (see gates/evidence.py). A log is judged by the markers of the stacks whose
parsers read it (a Go test named `TestInvalidSyntaxError` is not a Ruby `SyntaxError`), and by every
stack's only when no parser recognised it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path

from evidence_gate.errors import UsageError
from evidence_gate.stacks.table import Adapter, AdapterTable
from evidence_gate.summary.read import numbered_lines

MAX_HITS_PER_KIND = 5
MARKER_LINE_CHARS = 4_000


class Claim(StrEnum):
    BUILD = "build"
    TEST = "test"


class MarkerKind(StrEnum):
    SUCCESS = "success"
    FAILURE = "failure"
    LOAD_ERROR = "load-error"
    SKIPPED = "skipped"
    EXIT = "exit"


@dataclass(frozen=True, kw_only=True)
class MarkerSet:
    """The patterns one claim is judged by."""

    success: tuple[re.Pattern[str], ...]
    failure: tuple[re.Pattern[str], ...]
    load_error: tuple[re.Pattern[str], ...]
    skipped: tuple[re.Pattern[str], ...]
    exit_marker: re.Pattern[str]
    # A test binary's own run, from an opening line to the closing line that follows (cargo's
    # `Running` to libtest's `test result:`): the load-error lines printed inside one are its tests'
    # output (a probe they compiled), for the binary ran and reported. One that never closes keeps them.
    reported_opens: tuple[re.Pattern[str], ...] = ()
    reported_closes: tuple[re.Pattern[str], ...] = ()


@dataclass(frozen=True, kw_only=True)
class MarkerHit:
    kind: MarkerKind
    pattern: str
    line_number: int
    line: str

    def document(self) -> dict[str, object]:
        return {"kind": str(self.kind), "pattern": self.pattern, "line": self.line_number, "text": self.line}


@dataclass(frozen=True, kw_only=True)
class MarkerScan:
    """What a log held: the first hits of each kind, the exit code a wrapper echoed (the first
    non-zero one, else the last) and its line, and the log's size in lines (zero for an empty log:
    no evidence at all)."""

    hits: tuple[MarkerHit, ...]
    exit_code: int | None
    lines: int
    exit_line: MarkerHit | None = None

    def of(self, kind: MarkerKind) -> tuple[MarkerHit, ...]:
        return tuple(hit for hit in self.hits if hit.kind is kind)


def adapters_reading(table: AdapterTable, parser: str | None) -> tuple[Adapter, ...]:
    """The stacks whose parser order lists `parser`: those whose markers judge a log it read."""
    if parser is None:
        return ()
    return tuple(a for a in table.adapters.values() if parser in a.parsers and a.id != table.unknown.id)


def markers_for(
    table: AdapterTable,
    claim: Claim,
    chosen: Sequence[Adapter],
    success_pattern: str | None = None,
    failure_pattern: str | None = None,
) -> MarkerSet:
    """The chosen adapters' markers for the claim (every adapter's when none, or only `unknown`, is
    chosen); a caller's pattern replaces the list it names."""
    known = [adapter for adapter in chosen if adapter.id != table.unknown.id]
    adapters = known or list(table.adapters.values())
    if claim is Claim.BUILD:
        success = _union(a.markers.build_success for a in adapters)
        failure = _union(a.markers.build_failure for a in adapters)
    else:
        success = _union(a.markers.test_success for a in adapters)
        failure = _union(a.markers.test_failure for a in adapters)
    exit_from = known[0] if known else table.unknown
    return MarkerSet(
        success=(_caller_regex(success_pattern, "--success-pattern"),) if success_pattern else success,
        failure=(_caller_regex(failure_pattern, "--failure-pattern"),) if failure_pattern else failure,
        load_error=_union(a.markers.load_error for a in adapters) if claim is Claim.TEST else (),
        skipped=_union(a.markers.skipped for a in adapters) if claim is Claim.TEST else (),
        exit_marker=exit_from.markers.exit_marker,
        reported_opens=_union(a.markers.reported_opens for a in adapters) if claim is Claim.TEST else (),
        reported_closes=_union(a.markers.reported_closes for a in adapters) if claim is Claim.TEST else (),
    )


def _union(groups: Iterable[tuple[re.Pattern[str], ...]]) -> tuple[re.Pattern[str], ...]:
    seen: dict[str, re.Pattern[str]] = {}
    for group in groups:
        for pattern in group:
            seen.setdefault(pattern.pattern, pattern)
    return tuple(seen.values())


def _caller_regex(pattern: str, flag: str) -> re.Pattern[str]:
    try:
        return re.compile(pattern, re.MULTILINE)
    except re.error as error:
        raise UsageError(f"{flag} {pattern!r}: not a valid regular expression ({error})") from error


def scan_log(path: Path, markers: MarkerSet) -> MarkerScan:
    """One pass over the log, in bounded memory; lines are cleaned as for summaries (no colours).
    A load-error line inside a test binary's reported run is not a hit (see `MarkerSet`)."""
    hits: list[MarkerHit] = []
    counts = dict.fromkeys(MarkerKind, 0)
    reported = _ReportedRun(markers)
    exit_code: int | None = None
    exit_line: MarkerHit | None = None
    number = 0
    groups = (
        (MarkerKind.FAILURE, markers.failure),
        (MarkerKind.LOAD_ERROR, markers.load_error),
        (MarkerKind.SKIPPED, markers.skipped),
        (MarkerKind.SUCCESS, markers.success),
    )
    for number, piece in numbered_lines(path):
        line = _judged_part(piece)
        exit_match = markers.exit_marker.search(line)
        if exit_match and exit_code in (None, 0):
            exit_code = int(exit_match.group("code"))
            exit_line = MarkerHit(
                kind=MarkerKind.EXIT, pattern=markers.exit_marker.pattern, line_number=number, line=line[:500]
            )
        if exit_match:
            _record(hits, counts, MarkerKind.EXIT, markers.exit_marker.pattern, number, line)
        reported.read(line, hits, counts)
        for kind, patterns in groups:
            for pattern in patterns:
                if pattern.search(line):
                    if kind is not MarkerKind.LOAD_ERROR or not reported.hold(pattern.pattern, number, line):
                        _record(hits, counts, kind, pattern.pattern, number, line)
                    break
    reported.settle(hits, counts)
    hits.sort(key=lambda hit: hit.line_number)  # a run's held lines that stand are recorded once it ends
    return MarkerScan(hits=tuple(hits), exit_code=exit_code, lines=number, exit_line=exit_line)


class _ReportedRun:
    """The load-error lines of the test binary's run open now, held until it closes (they are its
    output, dropped) or never does: another run opens, or the log ends (they stand). At most
    `MAX_HITS_PER_KIND` are held; the rest are counted."""

    def __init__(self, markers: MarkerSet) -> None:
        self._opens = markers.reported_opens
        self._closes = markers.reported_closes
        self._open = False
        self._held: list[tuple[str, int, str]] = []
        self._more = 0

    def read(self, line: str, hits: list[MarkerHit], counts: dict[MarkerKind, int]) -> None:
        if not self._opens:
            return
        if any(pattern.search(line) for pattern in self._opens):
            self.settle(hits, counts)
            self._open = True
        elif self._open and any(pattern.search(line) for pattern in self._closes):
            self._held.clear()
            self._more = 0
            self._open = False

    def hold(self, pattern: str, number: int, line: str) -> bool:
        if not self._open:
            return False
        if len(self._held) < MAX_HITS_PER_KIND:
            self._held.append((pattern, number, line))
        else:
            self._more += 1
        return True

    def settle(self, hits: list[MarkerHit], counts: dict[MarkerKind, int]) -> None:
        for pattern, number, line in self._held:
            _record(hits, counts, MarkerKind.LOAD_ERROR, pattern, number, line)
        counts[MarkerKind.LOAD_ERROR] += self._more
        self._held.clear()
        self._more = 0
        self._open = False


def _judged_part(line: str) -> str:
    """What of a line the markers are searched in: a verdict or exit line is short, so a long line
    is judged by its first and last 4,000 characters, and a 200 MB single-line log costs no more
    time than a short one."""
    if len(line) <= 2 * MARKER_LINE_CHARS:
        return line
    return f"{line[:MARKER_LINE_CHARS]}\n{line[-MARKER_LINE_CHARS:]}"


def _record(
    hits: list[MarkerHit], counts: dict[MarkerKind, int], kind: MarkerKind, pattern: str, number: int, line: str
) -> None:
    if counts[kind] < MAX_HITS_PER_KIND:
        hits.append(MarkerHit(kind=kind, pattern=pattern, line_number=number, line=line[:500]))
    counts[kind] += 1
