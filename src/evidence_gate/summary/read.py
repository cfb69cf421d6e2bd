"""Reading runner output: recognise the format from content, clean terminal noise, add up sources.

A file is read whatever its name says. Structured reports (JUnit, NUnit, xUnit.net and TRX XML,
JSON reports) are recognised by their first bytes; a console log is read once, each candidate line
parser fed the lines it reads (see `line_scan`). Content is UTF-8, or UTF-16/UTF-32 told by its byte
order mark (see `encoding`). Input that is empty or binary is `unparsed` with the reason, never a
guess.

One log may hold the runs of several runners (a script running pytest, then jest, then go test):
each runner's parser reads its own closing lines, and their readings add up. Two parsers can also
read one run (`_ALSO_READ_BY`): node's tap reporter writes TAP, which the tap parser reads too;
pytest shows a test's captured output, where a unittest run the test started prints its own
closing lines; and Check, told to (`CK_TAP_LOG_FILE_NAME=-`), writes its TAP log into its console
output. There the runner's own reading counts and the other is noted, not added, unless it shows
more failures than the runner's, which makes the log unparsed: failures of a second run cannot be
told from the first run's. (So a green unittest run after a green pytest run in one log counts
pytest's tests only, and says so.) Any recognised run that cannot be read makes the whole
log unparsed: a sum that leaves a run out would be a guess.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

from evidence_gate.model import Counts, TestSummary
from evidence_gate.summary.base import CaseResult, Reading, clip, failed_names
from evidence_gate.summary.encoding import decoded_head, detect_encoding, is_wide, text_reader, wide_name
from evidence_gate.summary.line_scan import feed_log, raw_lines
from evidence_gate.summary.registry import (
    ALL_PARSERS,
    DOCUMENT_PARSERS,
    LINE_PARSERS,
    check_names,
    document_parser,
    line_parser,
)
from evidence_gate.summary.terminal import line_drawings
from evidence_gate.workspace import Refused, open_resolved

HEAD_BYTES = 64 * 1024
UNRECOGNISED = "no parser recognised this output"

# Runners whose console output other parsers also read: those readings are of the same run.
_ALSO_READ_BY: dict[str, frozenset[str]] = {
    "node-test": frozenset({"tap"}),  # node's tap reporter, the default when piped
    "pytest": frozenset({"unittest"}),  # a unittest run inside a test's captured output
    "check": frozenset({"tap"}),  # Check's TAP log written to standard output (CK_TAP_LOG_FILE_NAME=-)
}


def unreadable_reason(head: bytes, encoding: str | None = None) -> str | None:
    """Why content cannot be a runner's output or report, judged from its first bytes."""
    if not head:
        return "empty input"
    encoding = encoding or detect_encoding(head)
    if is_wide(encoding):
        return "binary content (NUL characters), not runner output" if "\x00" in decoded_head(head, encoding) else None
    if b"\x00" in head:
        return "binary content (NUL bytes), not runner output"
    return None


def numbered_lines(path: Path) -> Iterator[tuple[int, str]]:
    """The drawings of each line (see `line_drawings`), each with the number of its line, read in
    bounded memory: an over-long line is cut into pieces of 1 Mi characters, each its own line."""
    with open_resolved(path) as handle:
        encoding = detect_encoding(handle.read(HEAD_BYTES))
        handle.seek(0)
        for number, piece in enumerate(raw_lines(text_reader(handle, encoding)), start=1):
            for drawing in line_drawings(piece):
                yield number, drawing


def read_lines(path: Path) -> Iterator[str]:
    """The drawings of a log's lines, in order (see `numbered_lines`)."""
    for _, drawing in numbered_lines(path):
        yield drawing


def read_source(
    path: Path,
    candidates: Sequence[str],
    label: str | None = None,
    on_case: Callable[[CaseResult], None] | None = None,
) -> TestSummary:
    """One file's summary, tried with `candidates` (parser names, in order). A report that names its
    test cases hands each to `on_case` as it streams past: one pass serves both the counts and
    whatever a caller collects (identities, failures, tagged tests)."""
    source = label or str(path)
    try:
        with open_resolved(path) as handle:
            head = handle.read(HEAD_BYTES)
    except Refused as refusal:
        return TestSummary(counts=None, parser=None, source=source, reason=refusal.reason)
    encoding = detect_encoding(head)
    reason = unreadable_reason(head, encoding)
    if reason:
        return TestSummary(counts=None, parser=None, source=source, reason=reason)
    text_head = decoded_head(head, encoding).encode("utf-8") if is_wide(encoding) else head
    for name in candidates:
        if name in DOCUMENT_PARSERS:
            parser = document_parser(name)
            if len(candidates) == 1 or parser.recognises(text_head):
                return _summary(_read_document(parser.name, path, encoding, on_case), source)
    line_names = [name for name in candidates if name in LINE_PARSERS]
    reading = _read_lines(path, line_names) if line_names else None
    if reading is None:
        tried = ", ".join(candidates)
        return TestSummary(counts=None, parser=None, source=source, reason=f"{UNRECOGNISED} (tried: {tried})")
    return _summary(reading, source)


def _read_document(name: str, path: Path, encoding: str, on_case: Callable[[CaseResult], None] | None) -> Reading:
    """A structured report; the XML readers stream UTF-16/32, the others refuse it with the reason."""
    parser = document_parser(name)
    if is_wide(encoding) and not parser.reads_wide:
        return Reading(parser=name, counts=None, reason=f"cannot read {path.name}: {wide_name(encoding)}")
    return parser.parse(path, on_case)


def _read_lines(path: Path, names: Sequence[str]) -> Reading | None:
    """Every candidate parser's reading of one pass over the log, merged as the module says."""
    parsers = [line_parser(name) for name in names]
    try:
        with open_resolved(path) as handle:
            feed_log(handle, detect_encoding(handle.read(HEAD_BYTES)), parsers)
        finished = [parser.finish() for parser in parsers]
    except ValueError as error:  # a count of more than the 4,300 digits int() reads: no runner printed it
        return Reading(
            parser="+".join(names), counts=None, reason=f"a count in the log cannot be read ({clip(str(error))})"
        )
    readings = {reading.parser: reading for reading in finished if reading is not None}
    for runner, others in _ALSO_READ_BY.items():
        own = readings.get(runner)
        if own is None or own.counts is None:
            continue
        for name in sorted(others & readings.keys()):
            other = readings.pop(name)
            if other.counts is None or other.counts.failed > own.counts.failed:
                seen = (
                    f"{other.counts.failed} failed tests" if other.counts else f"nothing it can count ({other.reason})"
                )
                return Reading(
                    parser=runner,
                    counts=None,
                    reason=f"{name} reads {seen} where {runner}'s summary shows {own.counts.failed} failed: "
                    f"the log holds {name} output that is not {runner}'s run, and the two cannot be told apart",
                )
            note = f"{name} also read this log ({other.counts.executed} executed), taken as {runner}'s run"
            readings[runner] = own = Reading(
                parser=own.parser,
                counts=own.counts,
                reason=own.reason,
                notes=(*own.notes, note),
                failed_tests=own.failed_tests,
            )
    return _added_up(list(readings.values()))


def _added_up(readings: list[Reading]) -> Reading | None:
    """Distinct runners' readings of one log: their sum, or the first one that could not be read."""
    if len(readings) <= 1:
        return readings[0] if readings else None
    parser = "+".join(reading.parser for reading in readings)
    named = failed_names(*(reading.failed_tests for reading in readings))
    unread = next((reading for reading in readings if reading.counts is None), None)
    if unread is not None:
        return Reading(parser=parser, counts=None, reason=f"{unread.parser}: {unread.reason}", failed_tests=named)
    total = Counts(passed=0, failed=0, skipped=0)
    for reading in readings:
        if reading.counts is not None:
            total = total + reading.counts
    runs = ", ".join(f"{reading.parser} ({reading.counts.executed} executed)" for reading in readings if reading.counts)
    notes = tuple(f"{reading.parser}: {note}" for reading in readings for note in reading.notes)
    return Reading(
        parser=parser, counts=total, notes=(f"runs of several runners added up: {runs}", *notes), failed_tests=named
    )


def _summary(reading: Reading, source: str) -> TestSummary:
    return TestSummary(
        counts=reading.counts,
        parser=reading.parser,
        source=source,
        reason=reading.reason,
        notes=reading.notes,
        no_count_printed=reading.no_count_printed,
        failed_tests=reading.failed_tests,
    )


def combine(summaries: Sequence[TestSummary]) -> TestSummary:
    """Several sources (sharded runs, a log and its reports) add up. One unparsed source makes the
    total unparsed: a sum that leaves out a source it could not read would be a guess."""
    if len(summaries) == 1:
        return summaries[0]
    parsers = list(dict.fromkeys(summary.parser for summary in summaries if summary.parser))
    source = ", ".join(summary.source for summary in summaries)
    notes = tuple(f"{summary.source}: {note}" for summary in summaries for note in summary.notes)
    named = failed_names(*(summary.failed_tests for summary in summaries))
    unread = [summary for summary in summaries if summary.counts is None]
    if unread:
        first = unread[0]
        return TestSummary(
            counts=None,
            parser="+".join(parsers) or None,
            source=source,
            reason=f"{first.source}: {first.reason}" + (f" (and {len(unread) - 1} more)" if len(unread) > 1 else ""),
            notes=notes,
            no_count_printed=all(summary.no_count_printed for summary in unread),
            failed_tests=named,
        )
    total = Counts(passed=0, failed=0, skipped=0)
    for summary in summaries:
        if summary.counts:
            total = total + summary.counts
    return TestSummary(counts=total, parser="+".join(parsers), source=source, notes=notes, failed_tests=named)


def candidate_parsers(parser: str | None, stack_parsers: Sequence[str] | None) -> tuple[str, ...]:
    """The parsers to try: the one named, else the stack's order, else every registered parser."""
    if parser:
        check_names([parser], "--parser")
        return (parser,)
    if stack_parsers:
        check_names(list(stack_parsers), "the stack's parser order")
        return tuple(stack_parsers)
    return ALL_PARSERS
