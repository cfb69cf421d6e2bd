"""The evidence gate as a pure function: literal facts in, a verdict out."""

from __future__ import annotations

from evidence_gate.claims import ClaimFacts, LogEvidence, judge_claim
from evidence_gate.markers import Claim, MarkerHit, MarkerKind, MarkerScan
from evidence_gate.model import Counts
from evidence_gate.model import TestSummary as Summary
from evidence_gate.summary.read import UNRECOGNISED


def hit(kind: MarkerKind, line: str, number: int = 1) -> MarkerHit:
    return MarkerHit(kind=kind, pattern="p", line_number=number, line=line)


def scan(*hits: MarkerHit, exit_code: int | None = None, lines: int = 10) -> MarkerScan:
    return MarkerScan(hits=hits, exit_code=exit_code, lines=lines)


def counted(passed: int, failed: int = 0, skipped: int = 0, parser: str = "pytest") -> Summary:
    return Summary(counts=Counts(passed=passed, failed=failed, skipped=skipped), parser=parser, source="log")


def unread(
    reason: str = UNRECOGNISED, parser: str | None = None, source: str = "log", *, by_design: bool = False
) -> Summary:
    """A source without counts: no parser recognised it, or (`parser`) its runner printed none, by
    design (`by_design`: Gradle on success) or because its run broke before its tests."""
    return Summary(counts=None, parser=parser, source=source, reason=reason, no_count_printed=by_design)


def facts(**changes: object) -> ClaimFacts:
    """One log's facts: `scan` and `log_summary` make its LogEvidence, `report_summary` its one report;
    `logs` and `reports` give several."""
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
    log = LogEvidence(source="log", scan=values.pop("scan"), summary=values.pop("log_summary"))  # type: ignore[arg-type]  # the test's literal facts
    report = values.pop("report_summary")
    values.setdefault("logs", (log,))
    values.setdefault("reports", () if report is None else (report,))
    return ClaimFacts(**values)  # type: ignore[arg-type]  # the test's literal facts


def test_counts_with_every_test_passing_hold_the_claim() -> None:
    verdict = judge_claim(facts())
    assert (verdict.ok, verdict.reason) == (True, "3 tests executed, all passed (0 skipped)")
    assert verdict.counts == Counts(passed=3, failed=0, skipped=0)


def test_a_failure_marker_is_decisive_even_beside_passing_counts() -> None:
    verdict = judge_claim(facts(scan=scan(hit(MarkerKind.FAILURE, "BUILD FAILED in 2s", 40))))
    assert (verdict.ok, verdict.reason) == (False, "the log reports a failure at line 40: BUILD FAILED in 2s")


def test_a_load_error_marker_fails_a_test_claim_when_no_parser_read_counts() -> None:
    marker = hit(MarkerKind.LOAD_ERROR, "E   ModuleNotFoundError: x", 7)
    verdict = judge_claim(facts(scan=scan(marker), log_summary=unread("no closing line", parser="pytest")))
    assert verdict.reason == "the log reports a load error at line 7: E   ModuleNotFoundError: x"
    assert not verdict.ok


def test_zero_tests_executed_fails_whatever_the_markers_say() -> None:
    verdict = judge_claim(
        facts(scan=scan(hit(MarkerKind.SUCCESS, "** TEST SUCCEEDED **")), log_summary=counted(0, skipped=4))
    )
    assert (verdict.ok, verdict.reason) == (False, "no tests executed (4 skipped)")


def test_a_failed_test_fails_the_claim() -> None:
    verdict = judge_claim(facts(log_summary=counted(5, failed=1)))
    assert (verdict.ok, verdict.reason) == (False, "1 of 6 tests failed")


def test_reports_supply_the_count_when_the_log_has_none() -> None:
    gradle = unread("Gradle prints no counts", parser="gradle", by_design=True)
    verdict = judge_claim(facts(log_summary=gradle, report_summary=counted(9, parser="junit")))
    assert (verdict.ok, verdict.counts, verdict.counts_source) == (
        True,
        Counts(passed=9, failed=0, skipped=0),
        "junit (log)",
    )


def test_reports_never_stand_for_a_log_whose_run_broke_before_its_tests() -> None:
    jest = unread("a test suite failed to load before its tests ran: ./broken.test.js", parser="jest")
    verdict = judge_claim(facts(log_summary=jest, report_summary=counted(2, parser="junit")))
    assert not verdict.ok
    assert "a test suite failed to load" in verdict.reason


def test_a_skipped_task_marker_counts_as_zero_tests_when_nothing_was_counted() -> None:
    marker = hit(MarkerKind.SKIPPED, "> Task :app:test NO-SOURCE", 12)
    verdict = judge_claim(facts(scan=scan(marker), log_summary=unread()))
    assert verdict.reason == "no tests executed: the test task did not run (line 12: > Task :app:test NO-SOURCE)"


def test_markers_alone_never_pass_a_test_claim_unattended() -> None:
    success = hit(MarkerKind.SUCCESS, "BUILD SUCCESSFUL in 6s")
    verdict = judge_claim(
        facts(scan=scan(success), log_summary=unread("Gradle prints no counts", parser="gradle"), in_ci=False)
    )
    assert not verdict.ok
    assert verdict.reason == (
        "no test count could be read (Gradle prints no counts); markers alone do not say how many tests ran"
    )


def test_attended_outside_ci_the_markers_decide_and_the_verdict_says_so() -> None:
    success = hit(MarkerKind.SUCCESS, "BUILD SUCCESSFUL in 6s", 3)
    verdict = judge_claim(
        facts(scan=scan(success), log_summary=unread("x", parser="gradle"), attended=True, in_ci=False)
    )
    assert verdict.ok
    assert verdict.reason == (
        "attended run: decided by the success marker (line 3: BUILD SUCCESSFUL in 6s), not by a count (x)"
    )


def test_attended_is_ignored_in_ci() -> None:
    success = hit(MarkerKind.SUCCESS, "BUILD SUCCESSFUL in 6s")
    verdict = judge_claim(
        facts(scan=scan(success), log_summary=unread("x", parser="gradle"), attended=True, in_ci=True)
    )
    assert not verdict.ok
    assert verdict.reason.endswith("(--attended is ignored in CI)")


def test_stale_evidence_fails_and_names_the_file() -> None:
    verdict = judge_claim(facts(stale=("junit.xml is committed to git, not produced by this run",)))
    assert (verdict.ok, verdict.reason) == (
        False,
        "stale evidence: junit.xml is committed to git, not produced by this run",
    )


def test_an_unknown_stack_with_present_evidence_and_no_failure_is_not_applicable() -> None:
    verdict = judge_claim(facts(unknown_stack=True, log_summary=unread()))
    assert (verdict.ok, verdict.not_applicable) == (True, True)


def test_an_unknown_stack_still_fails_on_a_failure_marker_or_an_empty_log() -> None:
    failing = judge_claim(facts(unknown_stack=True, log_summary=unread(), scan=scan(hit(MarkerKind.FAILURE, "FAIL"))))
    empty = judge_claim(facts(unknown_stack=True, log_summary=unread(), scan=scan(lines=0)))
    assert (failing.ok, failing.not_applicable) == (False, False)
    assert (empty.ok, empty.reason) == (False, "no evidence: the log is empty")


def test_an_unknown_stack_with_counts_is_judged_by_them() -> None:
    verdict = judge_claim(facts(unknown_stack=True, log_summary=counted(0)))
    assert (verdict.ok, verdict.not_applicable) == (False, False)


def test_a_build_claim_needs_a_success_marker_or_a_zero_exit() -> None:
    build = Claim.BUILD
    assert judge_claim(facts(claim=build, scan=scan(hit(MarkerKind.SUCCESS, "BUILD SUCCESS")))).ok
    assert judge_claim(facts(claim=build, scan=scan(exit_code=0))).ok
    exited = judge_claim(facts(claim=build, scan=scan(exit_code=2)))
    assert (exited.ok, exited.reason) == (False, "the command exited 2")
    silent = judge_claim(facts(claim=build, scan=scan()))
    assert (silent.ok, silent.reason) == (False, "no build success marker in the log")


def test_the_document_has_the_documented_keys() -> None:
    document = judge_claim(facts()).document()
    assert set(document) == {"ok", "notApplicable", "reason", "markers", "counts", "stale", "details"}
    assert document["counts"] == {"executed": 3, "passed": 3, "failed": 0, "skipped": 0, "source": "pytest (log)"}


def test_a_failing_report_is_not_outvoted_by_a_passing_log() -> None:
    report = Summary(counts=Counts(passed=2, failed=3, skipped=0), parser="junit", source="junit.xml")
    verdict = judge_claim(facts(log_summary=counted(5), report_summary=report))
    assert (verdict.ok, verdict.reason) == (False, "3 of 5 tests failed")
    assert "the log and the reports disagree: log counts 5 executed, 0 failed, 0 skipped;" in verdict.details[0]


def test_the_log_wins_when_it_counts_more_failures_than_the_report() -> None:
    report = Summary(counts=Counts(passed=5, failed=0, skipped=0), parser="junit", source="junit.xml")
    verdict = judge_claim(facts(log_summary=counted(4, failed=1), report_summary=report))
    assert (verdict.ok, verdict.reason) == (False, "1 of 5 tests failed")
    assert "the log counts more failures: its counts stand" in verdict.details


def test_an_unreadable_report_fails_the_claim_with_its_reason() -> None:
    report = unread("the input is UTF-16", parser="junit", source="evidence/junit.xml")
    verdict = judge_claim(facts(log_summary=counted(5), report_summary=report))
    assert (verdict.ok, verdict.reason) == (False, "cannot read evidence/junit.xml: the input is UTF-16")


def test_an_unreadable_log_beside_a_counted_one_fails_the_claim() -> None:
    logs = (
        LogEvidence(source="a.log", scan=scan(), summary=counted(5)),
        LogEvidence(source="killed.log", scan=scan(), summary=unread(source="killed.log")),
    )
    verdict = judge_claim(facts(logs=logs))
    assert (verdict.ok, verdict.reason) == (False, f"cannot read killed.log: {UNRECOGNISED}")


def test_content_that_is_not_text_fails_even_on_the_unknown_stack() -> None:
    verdict = judge_claim(facts(unknown_stack=True, log_summary=unread("binary content (NUL bytes)")))
    assert (verdict.ok, verdict.not_applicable, verdict.reason) == (
        False,
        False,
        "cannot read log: binary content (NUL bytes)",
    )


def test_a_non_zero_exit_code_in_the_log_fails_passing_counts_and_is_shown() -> None:
    echoed = hit(MarkerKind.EXIT, "EXIT_CODE=1", 9)
    verdict = judge_claim(facts(scan=scan(echoed, exit_code=1)))
    assert (verdict.ok, verdict.reason) == (False, "the command exited 1")
    bare = judge_claim(facts(scan=MarkerScan(hits=(echoed,), exit_code=1, lines=9, exit_line=echoed)))
    assert bare.details == ("log: exit code 1 read from the log (line 9: EXIT_CODE=1)",)


def test_a_load_error_marker_does_not_decide_where_the_parser_read_counts() -> None:
    printed = hit(MarkerKind.LOAD_ERROR, "error[E0308]: mismatched types", 21)
    verdict = judge_claim(facts(scan=scan(printed), log_summary=counted(7, parser="cargo-test")))
    assert (verdict.ok, verdict.reason) == (True, "7 tests executed, all passed (0 skipped)")
