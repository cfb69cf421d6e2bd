"""A runner's log beside the reports it wrote: which counts stand, and what the sources disagree on.

A console log and a JUnit (or xcresult) report given together are taken as one run: the log is the
runner's own account and the report lists its cases, so adding them up counts every test twice.
Logs add up with logs (shards, several runners in one log) and reports with reports (one file per
suite or class). Between the two sides nothing is added up:

- the reports' counts stand (they list each test once, where a console line may count a teardown
  error or a subtest as a test of its own), and the log's are shown when they differ;
- the side that counts more failures wins, so a failure is never outvoted or under-counted;
- a log whose runner finished and printed no count by design (Gradle on success, plain `go test`,
  prove without -v) is covered by the reports; a log that says its run broke before its tests (a
  build or a suite that failed to load, a bail-out, a killed session) is not, whatever a report
  says: jest-junit leaves a suite that failed to load out of its report;
- a source that cannot be read spoils the total: a sum or a choice that leaves out a source is a
  guess;
- the failed tests named are those of the side whose counts stand, or the other side's when that
  side names none (a JUnit report, whose cases the pipeline lists itself): never both, since a log
  and a report may spell one test's name two ways.

A runner may also write its own log of another format beside its console output, one a log reader
reads (Check's TAP log, `CK_TAP_LOG_FILE_NAME`): given beside that runner's console log, it is
weighed as a report of the same run, so its tests are not counted twice (`WRITTEN_BESIDE`).

Two runners' logs and reports cannot be told apart from one run's here; they are not added up
either (the rule errs on the side of counting less, never of counting fewer failures).
"""

from __future__ import annotations

from collections.abc import Sequence

from evidence_gate.model import Counts, TestSummary
from evidence_gate.summary.base import ZERO
from evidence_gate.summary.read import combine
from evidence_gate.summary.registry import DOCUMENT_PARSERS

# Runners that write the same run's tests into a log of another format beside their console output,
# and that format's parser: Check's TAP log (CK_TAP_LOG_FILE_NAME), which the tap parser reads.
WRITTEN_BESIDE: dict[str, frozenset[str]] = {"check": frozenset({"tap"})}


def is_report(summary: TestSummary) -> bool:
    """A structured report (JUnit, NUnit, xUnit.net or TRX XML, xcresult JSON), as opposed to a runner's
    console log."""
    return summary.parser in DOCUMENT_PARSERS


def weigh(summaries: Sequence[TestSummary]) -> TestSummary:
    """The counts that stand for `summaries`, with notes saying how they were chosen."""
    beside = {name for summary in summaries for name in WRITTEN_BESIDE.get(summary.parser or "", ())}
    reports = [summary for summary in summaries if is_report(summary) or summary.parser in beside]
    logs = [summary for summary in summaries if summary not in reports]
    if not reports or not logs:
        return combine(summaries)
    report_total = combine(reports)
    counted = [log for log in logs if log.counts is not None]
    covered = [log for log in logs if log.counts is None and log.no_count_printed]
    spoiled = [log for log in logs if log.counts is None and not log.no_count_printed]
    if report_total.counts is None or spoiled:
        return _unreadable(summaries, [*(report for report in reports if report.counts is None), *spoiled])
    notes = [
        *report_total.notes,
        *(note for log in counted for note in (f"{log.source}: {note}" for note in log.notes)),
        *(f"{log.source}: no count ({log.reason}); the reports' counts stand" for log in covered),
    ]
    log_names = combine(logs).failed_tests
    if not counted:
        return _with(report_total, notes, log_names)
    log_total = combine(counted)
    log_counts, report_counts = log_total.counts or ZERO, report_total.counts
    if log_counts == report_counts:
        notes.append(f"the log and the reports describe one run: {_counts(report_counts)}, counted once")
        return _with(report_total, notes, log_names)
    notes.append(
        f"the log and the reports disagree: {log_total.source} counts {_counts(log_counts)};"
        f" {report_total.source} count {_counts(report_counts)}"
    )
    if log_counts.failed > report_counts.failed:
        notes.append("the log counts more failures: its counts stand")
        source = f"{log_total.source} (beside {report_total.source})"
        return _with(log_total, notes, report_total.failed_tests, source=source)
    notes.append("taken as one run: the reports' counts stand, not added to the log's")
    return _with(report_total, notes, log_names)


def _counts(counts: Counts) -> str:
    return f"{counts.executed} executed, {counts.failed} failed, {counts.skipped} skipped"


def _with(
    summary: TestSummary, notes: Sequence[str], other_names: tuple[str, ...], source: str | None = None
) -> TestSummary:
    """`summary`'s counts with `notes`, naming its failed tests, or `other_names` (the other side's) when it
    names none."""
    return TestSummary(
        counts=summary.counts,
        parser=summary.parser,
        source=source or summary.source,
        reason=summary.reason,
        notes=tuple(dict.fromkeys(notes)),
        failed_tests=summary.failed_tests or other_names,
    )


def _unreadable(summaries: Sequence[TestSummary], culprits: Sequence[TestSummary]) -> TestSummary:
    total = combine(summaries)
    first = culprits[0]
    more = f" (and {len(culprits) - 1} more)" if len(culprits) > 1 else ""
    return TestSummary(
        counts=None,
        parser=total.parser,
        source=total.source,
        reason=f"{first.source}: {first.reason}{more}",
        notes=total.notes,
        failed_tests=total.failed_tests,
    )
