"""The TRX reader: outcomes, data-driven inner results, a run marked failed, and hostile or broken reports."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from evidence_gate.model import Counts
from evidence_gate.summary.base import CaseResult
from evidence_gate.summary.parsers.trx import PARSER
from evidence_gate.summary.read import read_source
from evidence_gate.summary.registry import ALL_PARSERS, document_format
from tests.summary.reports import (
    HUGE_MESSAGE,
    HUGE_NAME,
    assert_cut,
    assert_read_in_flat_memory,
    assert_unparsed,
    report,
)

FIXTURES = Path(__file__).parent.parent / "fixtures" / "stack-logs"
NAMESPACE = "http://microsoft.com/schemas/VisualStudio/TeamTest/2010"


def trx(results: str, summary: str = '<ResultSummary outcome="Completed"/>') -> str:
    return (
        f'\ufeff<?xml version="1.0" encoding="utf-8"?>\n<TestRun id="1" name="run" xmlns="{NAMESPACE}">'
        f"<Results>{results}</Results><TestDefinitions/>{summary}</TestRun>"
    )


def result(outcome: str, name: str = "Shop.Tests.CartTests.Adds", inner: str = "", message: str = "") -> str:
    output = f"<Output><ErrorInfo><Message>{message}</Message></ErrorInfo></Output>" if message else ""
    inner_results = f"<InnerResults>{inner}</InnerResults>" if inner else ""
    return f'<UnitTestResult testName="{name}" outcome="{outcome}">{output}{inner_results}</UnitTestResult>'


@pytest.mark.parametrize(
    ("outcome", "counted"),
    [
        ("Passed", "passed"),
        ("PassedButRunAborted", "passed"),
        ("Warning", "passed"),
        ("Failed", "failed"),
        ("Error", "failed"),
        ("Timeout", "failed"),
        ("Aborted", "failed"),
        ("NotRunnable", "failed"),
        ("Disconnected", "failed"),
        ("InProgress", "failed"),
        ("NotExecuted", "skipped"),
        ("Inconclusive", "skipped"),
        ("Pending", "skipped"),
        ("Completed", "skipped"),
    ],
)
def test_a_result_counts_by_its_outcome(tmp_path: Path, outcome: str, counted: str) -> None:
    seen: list[CaseResult] = []
    PARSER.parse(report(tmp_path, trx(result(outcome))), seen.append)
    assert [found.outcome for found in seen] == [counted]


def test_an_outcome_the_schema_does_not_define_makes_the_report_unparsed(tmp_path: Path) -> None:
    reading = PARSER.parse(report(tmp_path, trx(result("Skipped"))))
    assert reading.counts is None
    assert (
        reading.reason
        == "result 'Shop.Tests.CartTests.Adds' has the outcome 'Skipped', which the format does not define"
    )


def test_a_data_driven_result_counts_its_rows_not_itself(tmp_path: Path) -> None:
    rows = result("Passed", "Adds (Data Row 0)") + result("Failed", "Adds (Data Row 1)") + result("Passed", "Adds (2)")
    seen: list[CaseResult] = []
    reading = PARSER.parse(report(tmp_path, trx(result("Failed", "Adds", rows))), seen.append)
    assert reading.counts == Counts(passed=2, failed=1, skipped=0)
    assert [found.name for found in seen] == ["Adds (Data Row 0)", "Adds (Data Row 1)", "Adds (2)"]
    assert reading.notes == ()


def test_an_outer_result_failed_with_no_failed_row_counts_one_failed_test_at_any_depth(tmp_path: Path) -> None:
    ordered = result("Failed", "Ordered", result("Passed", "First") + result("Failed", "Data", result("Passed", "Row")))
    reading = PARSER.parse(report(tmp_path, trx(ordered)))
    assert reading.counts == Counts(passed=2, failed=1, skipped=0)
    assert reading.notes == (
        "result 'Data' is marked 'Failed' but none of its inner results failed; counted as one failed test",
    )


def test_a_run_marked_failed_with_no_failed_result_counts_one_failed_test(tmp_path: Path) -> None:
    summary = (
        '<ResultSummary outcome="Failed"><Counters total="1" passed="1" failed="0"/><RunInfos>'
        '<RunInfo outcome="Error"><Text>The active test run was aborted. Reason: Test host process crashed</Text>'
        "</RunInfo></RunInfos></ResultSummary>"
    )
    reading = PARSER.parse(report(tmp_path, trx(result("Passed"), summary)))
    assert reading.counts == Counts(passed=1, failed=1, skipped=0)
    assert reading.notes == (
        "the run is marked 'Failed' (The active test run was aborted. Reason: Test host process crashed) but no"
        " test case failed; counted as one failed test",
    )


def test_counters_that_disagree_are_noted_and_the_results_win(tmp_path: Path) -> None:
    summary = '<ResultSummary outcome="Failed"><Counters total="1" passed="0" failed="0" error="1"/></ResultSummary>'
    tests = PARSER.parse(report(tmp_path, trx(result("Passed") * 2, summary), "a.trx"))
    failed = PARSER.parse(report(tmp_path, trx(result("Passed"), summary), "b.trx"))
    assert tests.counts == Counts(passed=2, failed=1, skipped=0)
    assert tests.notes[0] == "the <Counters> declares 1 tests but holds 2 test cases; the test cases were counted"
    assert failed.notes[0] == (
        "the <Counters> declares 1 failed tests but 0 test cases failed; the test cases were counted"
    )


@pytest.mark.parametrize(
    ("results", "reason"),
    [
        (result("Passed") + '<LoadTestResult outcome="Passed"/>', "<Results> holds a <LoadTestResult>"),
        ('<LoadTestResult outcome="Passed"/>' + result("Passed"), "<Results> holds a <LoadTestResult>"),
    ],
    ids=["after", "before"],
)
def test_a_result_of_a_kind_this_reader_does_not_know_makes_the_report_unparsed(
    tmp_path: Path, results: str, reason: str
) -> None:
    reading = PARSER.parse(report(tmp_path, trx(results)))
    assert reading.counts is None
    assert reading.reason and reading.reason.startswith(reason)


def test_a_result_outside_results_makes_the_report_unparsed(tmp_path: Path) -> None:
    text = trx("").replace("<TestDefinitions/>", f"<TestDefinitions>{result('Passed')}</TestDefinitions>")
    reading = PARSER.parse(report(tmp_path, text))
    assert (reading.counts, reading.reason) == (None, "a <UnitTestResult> outside <Results>")


def test_a_result_is_named_by_its_test_name_and_a_failure_carries_its_message(tmp_path: Path) -> None:
    seen: list[CaseResult] = []
    read_source(FIXTURES / "trx" / "dotnet-xunitv3.trx", ALL_PARSERS, on_case=seen.append)
    assert seen[0].display_name == "DotnetTests.XUnitV3Tests.FixtureTests.Failing_Test"
    assert seen[0].message == "Assert.Null() Failure: Value is not null\nExpected: null\nActual:   Fixture { }"
    assert [found.outcome for found in seen] == ["failed", "passed", "failed", "failed"]


@pytest.mark.parametrize("codec", ["utf-16", "utf-16-le", "utf-32"])
def test_a_wide_report_is_recognised_and_read(tmp_path: Path, codec: str) -> None:
    text = trx(result("Failed", "caf\u00e9") + result("Passed")).lstrip("\ufeff").replace("utf-8", codec[:6])
    path = report(tmp_path, text.encode(codec))
    assert document_format(path.read_bytes()) == "trx"
    summary = read_source(path, ALL_PARSERS)
    assert (summary.parser, summary.counts) == ("trx", Counts(passed=1, failed=1, skipped=0))


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR<TestRun>", "binary content"),
        (b'<?xml version="1.0"?><testsuite><testcase name="a"/></testsuite>', "not a TRX report"),
        (f'<TestRun xmlns="{NAMESPACE}"><Results><UnitTestResult outcome="Passed"'.encode(), "malformed XML"),
        (b'<?xml version="1.0"?><!DOCTYPE TestRun SYSTEM "http://127.0.0.1:9/trx.dtd"><TestRun/>', "DOCTYPE"),
    ],
    ids=["junk", "junit", "truncated", "external-dtd"],
)
def test_junk_another_format_a_cut_report_or_a_doctype_is_unparsed_with_the_reason(
    tmp_path: Path, content: bytes, reason: str
) -> None:
    assert_unparsed(report(tmp_path, content), "trx", reason)


def test_a_link_to_something_that_is_not_a_regular_file_is_refused_unread(tmp_path: Path) -> None:
    # A FIFO would block a reader that opened it until a writer came: the refusal must come at once.
    os.mkfifo(tmp_path / "pipe")
    (tmp_path / "run.trx").symlink_to(tmp_path / "pipe")
    reading = PARSER.parse(tmp_path / "run.trx")
    assert reading.counts is None
    assert reading.reason and "not a regular file" in reading.reason


def test_huge_names_and_messages_are_cut_and_say_how_much(tmp_path: Path) -> None:
    seen: list[CaseResult] = []
    PARSER.parse(report(tmp_path, trx(result("Failed", HUGE_NAME, message=HUGE_MESSAGE))), seen.append)
    assert_cut(seen[0])


def test_a_large_report_is_read_in_flat_memory(tmp_path: Path) -> None:
    assert_read_in_flat_memory(
        report(tmp_path, trx(result("Failed")), "small.trx"),
        tmp_path / "large.trx",
        f'<?xml version="1.0"?><TestRun xmlns="{NAMESPACE}"><Results>',
        '<UnitTestResult testName="T.Adds({n})" outcome="Passed"><Output>{pad}</Output></UnitTestResult>',
        result("Failed") + '</Results><ResultSummary outcome="Failed"/></TestRun>',
    )
