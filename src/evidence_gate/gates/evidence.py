"""The evidence gate: is "the build passed" / "the tests passed" backed by what the log says?

| step | rule |
|---|---|
| failure | a failure marker (or, for tests, a load-error marker, or a non-zero exit marker) is decisive |
| freshness | a report git tracks, or older than the run, is stale: the claim fails naming it |
| counts | tests: the log's counts, else the reports'; none executed fails, any failed fails |
| skipped | a marker that the test task did not run counts as zero tests when nothing was counted |
| unread | unattended (always in CI) the claim fails: markers do not say how many tests ran |
| unknown | the `unknown` stack: evidence without a failure marker is ok, `notApplicable` |
"""

from __future__ import annotations

from dataclasses import dataclass

from evidence_gate.markers import Claim, MarkerHit, MarkerKind, MarkerScan
from evidence_gate.model import Counts, TestSummary


@dataclass(frozen=True, kw_only=True)
class EvidenceFacts:
    """Everything the gate needs, gathered by the caller."""

    claim: Claim
    unknown_stack: bool
    scan: MarkerScan
    log_summary: TestSummary | None
    report_summary: TestSummary | None
    stale: tuple[str, ...]
    attended: bool
    in_ci: bool


@dataclass(frozen=True, kw_only=True)
class EvidenceVerdict:
    ok: bool
    not_applicable: bool
    reason: str
    markers: tuple[MarkerHit, ...]
    counts: Counts | None
    counts_source: str | None
    stale: tuple[str, ...]

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
        }


Decision = tuple[bool, str, bool]  # ok, reason, not applicable


def evaluate_evidence(facts: EvidenceFacts) -> EvidenceVerdict:
    counts, source = _counts(facts)
    ok, reason, not_applicable = _decide(facts, counts)
    return EvidenceVerdict(
        ok=ok,
        not_applicable=not_applicable,
        reason=reason,
        markers=facts.scan.hits,
        counts=counts,
        counts_source=source,
        stale=facts.stale,
    )


def _decide(facts: EvidenceFacts, counts: Counts | None) -> Decision:
    scan = facts.scan
    decisive = scan.of(MarkerKind.FAILURE) or scan.of(MarkerKind.LOAD_ERROR)
    if decisive:
        first = decisive[0]
        what = "failure" if first.kind is MarkerKind.FAILURE else "load-error"
        return False, f"{what} marker at line {first.line_number}: {first.line.strip()}", False
    if scan.exit_code not in (None, 0):
        return False, f"the command exited {scan.exit_code}", False
    if facts.stale:
        return False, "stale evidence: " + "; ".join(facts.stale), False
    if scan.lines == 0 and facts.report_summary is None:
        return False, "no evidence: the log is empty", False
    if facts.claim is Claim.BUILD:
        return _build(facts)
    return _tests(facts, counts)


def _counts(facts: EvidenceFacts) -> tuple[Counts | None, str | None]:
    for summary in (facts.log_summary, facts.report_summary):
        if summary is not None and summary.counts is not None:
            return summary.counts, f"{summary.parser} ({summary.source})"
    return None, None


def _build(facts: EvidenceFacts) -> Decision:
    success = facts.scan.of(MarkerKind.SUCCESS)
    if success:
        return True, f"build success marker at line {success[0].line_number}: {success[0].line.strip()}", False
    if facts.scan.exit_code == 0:
        return True, "the build command exited 0 (exit marker)", False
    if facts.unknown_stack:
        return True, "unknown stack: no failure marker in the evidence, and no markers to judge success by", True
    return False, "no build success marker in the log", False


def _tests(facts: EvidenceFacts, counts: Counts | None) -> Decision:
    if counts is not None:
        if counts.failed:
            return False, f"{counts.failed} of {counts.executed} tests failed", False
        if counts.executed == 0:
            return False, f"no tests executed ({counts.skipped} skipped)", False
        return True, f"{counts.executed} tests executed, all passed ({counts.skipped} skipped)", False
    skipped = facts.scan.of(MarkerKind.SKIPPED)
    if skipped:
        line = f"line {skipped[0].line_number}: {skipped[0].line.strip()}"
        return False, f"no tests executed: the test task did not run ({line})", False
    unread = _unread_reason(facts)
    if facts.unknown_stack:
        return True, f"unknown stack: no failure marker in the evidence, and no count ({unread})", True
    if facts.attended and not facts.in_ci:
        success = facts.scan.of(MarkerKind.SUCCESS)
        if not success:
            return False, f"attended run: no success marker, and no count ({unread})", False
        marker = f"line {success[0].line_number}: {success[0].line.strip()}"
        return True, f"attended run: decided by the success marker ({marker}), not by a count ({unread})", False
    ignored = " (--attended is ignored in CI)" if facts.attended else ""
    reason = f"no test count could be read ({unread}); markers alone do not say how many tests ran{ignored}"
    return False, reason, False


def _unread_reason(facts: EvidenceFacts) -> str:
    reasons = [s.reason for s in (facts.log_summary, facts.report_summary) if s is not None and s.reason]
    return "; ".join(reasons) or "no parser recognised the output"
