"""Claims: is "the build passed" / "the tests passed" backed by what the logs say? The rules the
evidence gate (`gates/evidence.py`) and the `evidence` verb judge a claim by.

| step | rule |
|---|---|
| exit | a non-zero exit code echoed into a log (`EXIT_CODE=1`, the tool's exit marker) is decisive |
| failure | a failure marker is decisive; where the log's parser read counts, only the runner's own |
| | verdict lines (the stack's `failure` markers), not diagnostics its tests print (`load_error`) |
| freshness | a report git tracks, older than the run or dated in the future is stale: the claim fails naming it |
| unread | a source that cannot be read fails the claim with its reason when it would be left out |
| counts | the logs and reports weighed as one run (summary/weigh.py): any failure fails, none run fails |
| skipped | a marker that the test task did not run counts as zero tests when nothing was counted |
| no count | unattended (always in CI) the claim fails: markers do not say how many tests ran |
| unknown | the `unknown` stack: evidence without a failure marker is ok, `notApplicable` |
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from evidence_gate.markers import Claim, MarkerHit, MarkerKind, MarkerScan
from evidence_gate.model import Counts, TestSummary
from evidence_gate.summary.read import UNRECOGNISED
from evidence_gate.summary.weigh import is_report, weigh
from evidence_gate.wording import failed_of, plural


@dataclass(frozen=True, kw_only=True)
class LogEvidence:
    """One log: what its markers said and, for a test claim, what its parser read."""

    source: str
    scan: MarkerScan
    summary: TestSummary | None


@dataclass(frozen=True, kw_only=True)
class ClaimFacts:
    """Everything the gate needs, gathered by the caller."""

    claim: Claim
    unknown_stack: bool
    logs: tuple[LogEvidence, ...]
    reports: tuple[TestSummary, ...]
    stale: tuple[str, ...]
    attended: bool
    in_ci: bool


@dataclass(frozen=True, kw_only=True)
class ClaimVerdict:
    ok: bool
    not_applicable: bool
    reason: str
    markers: tuple[MarkerHit, ...]
    counts: Counts | None
    counts_source: str | None
    stale: tuple[str, ...]
    details: tuple[str, ...] = ()

    def document(self) -> dict[str, object]:
        counts = self.counts
        return {
            "ok": self.ok,
            "notApplicable": self.not_applicable,
            "reason": self.reason,
            "markers": [hit.document() for hit in self.markers],
            "counts": (
                {
                    "executed": counts.executed,
                    "passed": counts.passed,
                    "failed": counts.failed,
                    "skipped": counts.skipped,
                    "source": self.counts_source,
                }
                if counts
                else {}
            ),
            "stale": list(self.stale),
            "details": list(self.details),
        }


Decision = tuple[bool, str, bool]  # ok, reason, not applicable


def judge_claim(facts: ClaimFacts) -> ClaimVerdict:
    total = _weighed(facts)
    counts = total.counts if total else None
    ok, reason, not_applicable = _decide(facts, total)
    return ClaimVerdict(
        ok=ok,
        not_applicable=not_applicable,
        reason=reason,
        markers=tuple(hit for log in facts.logs for hit in log.scan.hits),
        counts=counts,
        counts_source=f"{total.parser} ({total.source})" if total and counts else None,
        stale=facts.stale,
        details=(*_marker_details(facts), *_exit_details(facts), *(total.notes if total else ())),
    )


def _weighed(facts: ClaimFacts) -> TestSummary | None:
    return weighed(facts.logs, facts.reports)


def weighed(logs: Sequence[LogEvidence], reports: Sequence[TestSummary]) -> TestSummary | None:
    """The logs and reports weighed as one run (summary/weigh.py); None when nothing was read."""
    summaries = [*(log.summary for log in logs if log.summary is not None), *reports]
    return weigh(summaries) if summaries else None


def _marker_details(facts: ClaimFacts) -> list[str]:
    decisive = _decisive(facts)
    if decisive is None:
        return []
    source, first = decisive
    what = "a failure" if first.kind is MarkerKind.FAILURE else "a load error"
    return [f"the log{source} reports {what} at line {first.line_number}: {first.line.strip()}"]


def _exit_details(facts: ClaimFacts) -> list[str]:
    return [
        f"{log.source}: exit code {log.scan.exit_code} read from the log (line {hit.line_number}: {hit.line.strip()})"
        for log in facts.logs
        if (hit := log.scan.exit_line) is not None
    ]


def _decide(facts: ClaimFacts, total: TestSummary | None) -> Decision:
    decisive = _decisive(facts)
    if decisive:
        counts = total.counts if total else None
        if counts is not None and counts.failed:
            return False, failed_of(counts), False  # the marker's line is in the details
        return False, _marker_details(facts)[0], False
    exited = next((log for log in facts.logs if log.scan.exit_code not in (None, 0)), None)
    if exited is not None:
        return False, f"the command exited {exited.scan.exit_code}{_where(facts, exited)}", False
    if facts.stale:
        return False, "stale evidence: " + "; ".join(facts.stale), False
    if all(log.scan.lines == 0 for log in facts.logs) and not facts.reports:
        return False, "no evidence: the log is empty", False
    if facts.claim is Claim.BUILD:
        return _build(facts)
    if total is not None and total.counts is None and _unreadable(facts):
        return False, _cannot_read(facts), False
    return _tests(facts, total.counts if total else None)


def _decisive(facts: ClaimFacts) -> tuple[str, MarkerHit] | None:
    """The first decisive marker: a failure marker, or a load-error marker in a log that no parser
    read counts from (where a parser read counts, a test's printed diagnostics do not decide)."""
    for log in facts.logs:
        counted = log.summary is not None and log.summary.counts is not None
        kinds = (MarkerKind.FAILURE,) if counted else (MarkerKind.FAILURE, MarkerKind.LOAD_ERROR)
        hits = [hit for hit in log.scan.hits if hit.kind in kinds]
        if hits:
            return _where(facts, log), hits[0]
    return None


def _where(facts: ClaimFacts, log: LogEvidence) -> str:
    return f" of {log.source}" if len(facts.logs) > 1 else ""


def _summaries(facts: ClaimFacts) -> list[TestSummary]:
    return [*(log.summary for log in facts.logs if log.summary is not None), *facts.reports]


def _unreadable(facts: ClaimFacts) -> bool:
    """Whether a source that could not be read would otherwise be left out of the verdict: a report,
    content that is not text, or any source beside others that count tests."""
    summaries = _summaries(facts)
    if any(summary.counts is not None for summary in summaries):
        return True
    return any(summary.counts is None and (is_report(summary) or _not_text(summary)) for summary in summaries)


def _not_text(summary: TestSummary) -> bool:
    return summary.parser is None and not (summary.reason or "").startswith(UNRECOGNISED)


def _cannot_read(facts: ClaimFacts) -> str:
    """The unread sources, the ones no runner was recognised in first (a recognised log without a
    count is covered by its reports when they can be read)."""
    unread = sorted(
        (summary for summary in _summaries(facts) if summary.counts is None),
        key=lambda summary: summary.no_count_printed,
    )
    more = f" (and {len(unread) - 1} more)" if len(unread) > 1 else ""
    return f"cannot read {unread[0].source}: {unread[0].reason}{more}"


def _build(facts: ClaimFacts) -> Decision:
    success = [hit for log in facts.logs for hit in log.scan.of(MarkerKind.SUCCESS)]
    if success:
        return True, f"build success marker at line {success[0].line_number}: {success[0].line.strip()}", False
    if any(log.scan.exit_code == 0 for log in facts.logs):
        return True, "the build command exited 0 (exit marker)", False
    if facts.unknown_stack:
        return True, "unknown stack: no failure marker in the evidence, and no markers to judge success by", True
    return False, "no build success marker in the log", False


def _tests(facts: ClaimFacts, counts: Counts | None) -> Decision:
    if counts is not None:
        if counts.failed:
            return False, failed_of(counts), False
        if counts.executed == 0:
            return False, f"no tests executed ({counts.skipped} skipped)", False
        return True, f"{plural(counts.executed, 'test')} executed, all passed ({counts.skipped:,} skipped)", False
    skipped = [hit for log in facts.logs for hit in log.scan.of(MarkerKind.SKIPPED)]
    if skipped:
        line = f"line {skipped[0].line_number}: {skipped[0].line.strip()}"
        return False, f"no tests executed: the test task did not run ({line})", False
    unread = _unread_reason(facts)
    if facts.unknown_stack:
        return True, f"unknown stack: no failure marker in the evidence, and no count ({unread})", True
    if facts.attended and not facts.in_ci:
        success = [hit for log in facts.logs for hit in log.scan.of(MarkerKind.SUCCESS)]
        if not success:
            return False, f"attended run: no success marker, and no count ({unread})", False
        marker = f"line {success[0].line_number}: {success[0].line.strip()}"
        return True, f"attended run: decided by the success marker ({marker}), not by a count ({unread})", False
    ignored = " (--attended is ignored in CI)" if facts.attended else ""
    reason = f"no test count could be read ({unread}); markers alone do not say how many tests ran{ignored}"
    return False, reason, False


def _unread_reason(facts: ClaimFacts) -> str:
    summaries = _summaries(facts)
    reasons = list(dict.fromkeys(s.reason for s in summaries if s.reason))
    return "; ".join(reasons) or UNRECOGNISED
