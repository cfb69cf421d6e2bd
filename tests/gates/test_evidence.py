"""The evidence gate as a pure function: literal facts in, a verdict out."""

from __future__ import annotations

from evidence_gate.gates.evidence import EvidenceFacts, evaluate_evidence
from evidence_gate.markers import Claim, MarkerHit, MarkerKind, MarkerScan
from evidence_gate.model import Counts
from evidence_gate.model import TestSummary as Summary


def hit(kind: MarkerKind, line: str, number: int = 1) -> MarkerHit:
    return MarkerHit(kind=kind, pattern="p", line_number=number, line=line)


def scan(*hits: MarkerHit, exit_code: int | None = None, lines: int = 10) -> MarkerScan:
    return MarkerScan(hits=hits, exit_code=exit_code, lines=lines)


def counted(passed: int, failed: int = 0, skipped: int = 0, parser: str = "pytest") -> Summary:
    return Summary(counts=Counts(passed=passed, failed=failed, skipped=skipped), parser=parser, source="log")


def unread(reason: str = "no parser recognised this output") -> Summary:
    return Summary(counts=None, parser=None, source="log", reason=reason)


def facts(**changes: object) -> EvidenceFacts:
    values: dict[str, object] = {
        "claim": Claim.TEST,
        "unknown_stack": False,
        "scan": scan(),
        "log_summary": counted(3),
        "report_summary": None,
        "stale": (),
        "attended": False,
        "in_ci": True,
    }
    values.update(changes)
    return EvidenceFacts(**values)  # type: ignore[arg-type]  # the test's literal facts


def test_counts_with_every_test_passing_hold_the_claim() -> None:
    verdict = evaluate_evidence(facts())
    assert (verdict.ok, verdict.reason) == (True, "3 tests executed, all passed (0 skipped)")
    assert verdict.counts == Counts(passed=3, failed=0, skipped=0)


def test_a_failure_marker_is_decisive_even_beside_passing_counts() -> None:
    verdict = evaluate_evidence(facts(scan=scan(hit(MarkerKind.FAILURE, "BUILD FAILED in 2s", 40))))
    assert (verdict.ok, verdict.reason) == (False, "failure marker at line 40: BUILD FAILED in 2s")


def test_a_load_error_marker_fails_a_test_claim() -> None:
    verdict = evaluate_evidence(facts(scan=scan(hit(MarkerKind.LOAD_ERROR, "E   ModuleNotFoundError: x", 7))))
    assert verdict.reason == "load-error marker at line 7: E   ModuleNotFoundError: x"
    assert not verdict.ok


def test_zero_tests_executed_fails_whatever_the_markers_say() -> None:
    verdict = evaluate_evidence(
        facts(scan=scan(hit(MarkerKind.SUCCESS, "** TEST SUCCEEDED **")), log_summary=counted(0, skipped=4))
    )
    assert (verdict.ok, verdict.reason) == (False, "no tests executed (4 skipped)")


def test_a_failed_test_fails_the_claim() -> None:
    verdict = evaluate_evidence(facts(log_summary=counted(5, failed=1)))
    assert (verdict.ok, verdict.reason) == (False, "1 of 6 tests failed")


def test_reports_are_read_only_when_the_log_has_no_counts() -> None:
    with_log = evaluate_evidence(facts(log_summary=counted(2), report_summary=counted(9, parser="junit")))
    assert with_log.counts == Counts(passed=2, failed=0, skipped=0)
    without = evaluate_evidence(facts(log_summary=unread(), report_summary=counted(9, parser="junit")))
    assert (without.ok, without.counts, without.counts_source) == (
        True,
        Counts(passed=9, failed=0, skipped=0),
        "junit (log)",
    )


def test_a_skipped_task_marker_counts_as_zero_tests_when_nothing_was_counted() -> None:
    marker = hit(MarkerKind.SKIPPED, "> Task :app:test NO-SOURCE", 12)
    verdict = evaluate_evidence(facts(scan=scan(marker), log_summary=unread()))
    assert verdict.reason == "no tests executed: the test task did not run (line 12: > Task :app:test NO-SOURCE)"


def test_markers_alone_never_pass_a_test_claim_unattended() -> None:
    success = hit(MarkerKind.SUCCESS, "BUILD SUCCESSFUL in 6s")
    verdict = evaluate_evidence(facts(scan=scan(success), log_summary=unread("Gradle prints no counts"), in_ci=False))
    assert not verdict.ok
    assert verdict.reason == (
        "no test count could be read (Gradle prints no counts); markers alone do not say how many tests ran"
    )


def test_attended_outside_ci_the_markers_decide_and_the_verdict_says_so() -> None:
    success = hit(MarkerKind.SUCCESS, "BUILD SUCCESSFUL in 6s", 3)
    verdict = evaluate_evidence(facts(scan=scan(success), log_summary=unread("x"), attended=True, in_ci=False))
    assert verdict.ok
    assert verdict.reason == (
        "attended run: decided by the success marker (line 3: BUILD SUCCESSFUL in 6s), not by a count (x)"
    )


def test_attended_is_ignored_in_ci() -> None:
    success = hit(MarkerKind.SUCCESS, "BUILD SUCCESSFUL in 6s")
    verdict = evaluate_evidence(facts(scan=scan(success), log_summary=unread("x"), attended=True, in_ci=True))
    assert not verdict.ok
    assert verdict.reason.endswith("(--attended is ignored in CI)")


def test_stale_evidence_fails_and_names_the_file() -> None:
    verdict = evaluate_evidence(facts(stale=("junit.xml is committed to git, not produced by this run",)))
    assert (verdict.ok, verdict.reason) == (
        False,
        "stale evidence: junit.xml is committed to git, not produced by this run",
    )


def test_an_unknown_stack_with_present_evidence_and_no_failure_is_not_applicable() -> None:
    verdict = evaluate_evidence(facts(unknown_stack=True, log_summary=unread()))
    assert (verdict.ok, verdict.not_applicable) == (True, True)


def test_an_unknown_stack_still_fails_on_a_failure_marker_or_an_empty_log() -> None:
    failing = evaluate_evidence(
        facts(unknown_stack=True, log_summary=unread(), scan=scan(hit(MarkerKind.FAILURE, "FAIL")))
    )
    empty = evaluate_evidence(facts(unknown_stack=True, log_summary=unread(), scan=scan(lines=0)))
    assert (failing.ok, failing.not_applicable) == (False, False)
    assert (empty.ok, empty.reason) == (False, "no evidence: the log is empty")


def test_an_unknown_stack_with_counts_is_judged_by_them() -> None:
    verdict = evaluate_evidence(facts(unknown_stack=True, log_summary=counted(0)))
    assert (verdict.ok, verdict.not_applicable) == (False, False)


def test_a_build_claim_needs_a_success_marker_or_a_zero_exit() -> None:
    build = Claim.BUILD
    assert evaluate_evidence(facts(claim=build, scan=scan(hit(MarkerKind.SUCCESS, "BUILD SUCCESS")))).ok
    assert evaluate_evidence(facts(claim=build, scan=scan(exit_code=0))).ok
    exited = evaluate_evidence(facts(claim=build, scan=scan(exit_code=2)))
    assert (exited.ok, exited.reason) == (False, "the command exited 2")
    silent = evaluate_evidence(facts(claim=build, scan=scan()))
    assert (silent.ok, silent.reason) == (False, "no build success marker in the log")


def test_the_document_has_the_documented_keys() -> None:
    document = evaluate_evidence(facts()).document()
    assert set(document) == {"ok", "notApplicable", "reason", "markers", "counts", "stale"}
    assert document["counts"] == {"executed": 3, "passed": 3, "failed": 0, "skipped": 0, "source": "pytest (log)"}
