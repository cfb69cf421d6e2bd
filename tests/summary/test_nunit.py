"""The NUnit reader: NUnit 3 and NUnit 2 outcomes, a run marked failed, and hostile or broken reports."""

from __future__ import annotations

from pathlib import Path

import pytest

from evidence_gate.model import Counts
from evidence_gate.summary.base import CaseResult
from evidence_gate.summary.parsers.nunit import PARSER
from evidence_gate.summary.read import read_source
from evidence_gate.summary.registry import ALL_PARSERS, document_format
from tests.summary.reports import (
    HUGE_FAILURE,
    HUGE_NAME,
    assert_cut,
    assert_read_in_flat_memory,
    assert_unparsed,
    report,
)

FIXTURES = Path(__file__).parent.parent / "fixtures" / "stack-logs"


def nunit3(cases: str, run: str = 'result="Passed"') -> str:
    return (
        f'<?xml version="1.0" encoding="utf-8"?>\n<test-run id="2" {run}>'
        '<test-suite type="Assembly" name="Shop.Tests.dll">'
        f'<test-suite type="TestFixture" name="CartTests" classname="Shop.Tests.CartTests">{cases}</test-suite>'
        "</test-suite></test-run>"
    )


def case(result: str, name: str = "t", label: str = "") -> str:
    labelled = f' label="{label}"' if label else ""
    return f'<test-case name="{name}" classname="Shop.Tests.CartTests" result="{result}"{labelled}/>'


def test_each_test_case_counts_and_the_suites_around_a_parameterised_test_do_not(tmp_path: Path) -> None:
    rows = case("Passed", "Adds(1,2)") + case("Failed", "Adds(2,2)")
    path = report(tmp_path, nunit3(f'<test-suite type="ParameterizedMethod" name="Adds">{rows}</test-suite>'))
    assert PARSER.parse(path).counts == Counts(passed=1, failed=1, skipped=0)


@pytest.mark.parametrize(
    ("result", "label", "outcome"),
    [
        ("Passed", "", "passed"),
        ("Warning", "", "passed"),
        ("Failed", "", "failed"),
        ("Failed", "Error", "failed"),
        ("Failed", "Invalid", "failed"),
        ("Failed", "Cancelled", "failed"),
        ("Skipped", "Ignored", "skipped"),
        ("Skipped", "Explicit", "skipped"),
        ("Skipped", "Invalid", "skipped"),
        ("Inconclusive", "", "skipped"),
    ],
)
def test_an_nunit3_case_counts_by_its_result_whatever_its_label(
    tmp_path: Path, result: str, label: str, outcome: str
) -> None:
    seen: list[CaseResult] = []
    PARSER.parse(report(tmp_path, nunit3(case(result, label=label))), seen.append)
    assert [found.outcome for found in seen] == [outcome]


def nunit2(cases: str, suite: str = 'executed="True" result="Success" success="True"', header: str = "") -> str:
    return (
        f'<?xml version="1.0" encoding="utf-8" standalone="no"?>\n<test-results name="Shop.Tests.dll" {header}>'
        f'<test-suite type="Assembly" name="Shop.Tests.dll" {suite}><results>{cases}</results></test-suite>'
        "</test-results>"
    )


@pytest.mark.parametrize(
    ("result", "outcome"),
    [
        ("Success", "passed"),
        ("Failure", "failed"),
        ("Error", "failed"),
        ("Cancelled", "failed"),
        ("NotRunnable", "failed"),
        ("Ignored", "skipped"),
        ("Skipped", "skipped"),
        ("Inconclusive", "skipped"),
    ],
)
def test_an_nunit2_case_counts_as_nunit_2s_console_counts_it(tmp_path: Path, result: str, outcome: str) -> None:
    path = report(tmp_path, nunit2(f'<test-case name="Shop.Tests.CartTests.Adds" executed="True" result="{result}"/>'))
    seen: list[CaseResult] = []
    PARSER.parse(path, seen.append)
    assert [found.outcome for found in seen] == [outcome]


def test_an_nunit22_case_without_a_result_is_read_from_executed_success_or_its_failure(tmp_path: Path) -> None:
    cases = (
        '<test-case name="a" executed="False"/><test-case name="b" executed="True" success="True"/>'
        '<test-case name="c" executed="true" success="false"/><test-case name="d" executed="True"/>'
        '<test-case name="e" executed="True"><failure><message>boom</message></failure></test-case>'
    )
    path = report(tmp_path, nunit2(cases, suite='success="False"'))
    assert PARSER.parse(path).counts == Counts(passed=2, failed=2, skipped=1)


@pytest.mark.parametrize("case_xml", [case("Passd"), '<test-case name="t" executed="True" success="Yes"/>'])
def test_a_word_nunit_does_not_define_makes_the_report_unparsed(tmp_path: Path, case_xml: str) -> None:
    reading = PARSER.parse(report(tmp_path, nunit3(case_xml)))
    assert reading.counts is None
    assert reading.reason and "which the format does not define" in reading.reason


def test_a_run_marked_failed_without_a_failed_case_counts_one_failed_test(tmp_path: Path) -> None:
    # A one-time tear-down that throws leaves every case passed and the fixture and run failed.
    path = report(tmp_path, nunit3(case("Passed"), run='result="Failed" total="1" passed="1" failed="0"'))
    reading = PARSER.parse(path)
    assert reading.counts == Counts(passed=1, failed=1, skipped=0)
    assert reading.notes == ("the <test-run> is marked 'Failed' but no test case failed; counted as one failed test",)


def test_an_nunit2_assembly_marked_failed_without_a_failed_case_counts_one_failed_test(tmp_path: Path) -> None:
    suite = 'executed="True" result="Error" success="False" site="TearDown"'
    path = report(tmp_path, nunit2('<test-case name="a" executed="True" result="Success"/>', suite))
    reading = PARSER.parse(path)
    assert reading.counts == Counts(passed=1, failed=1, skipped=0)
    assert reading.notes == (
        "suite 'Shop.Tests.dll' is marked 'Error' (TearDown) but no test case failed; counted as one failed test",
    )


def test_a_failed_run_whose_failure_a_case_shows_counts_only_the_case(tmp_path: Path) -> None:
    path = report(tmp_path, nunit3(case("Failed") + case("Passed", "u"), run='result="Failed" total="2" failed="1"'))
    reading = PARSER.parse(path)
    assert (reading.counts, reading.notes) == (Counts(passed=1, failed=1, skipped=0), ())


def test_declared_totals_that_disagree_are_noted_and_the_cases_win(tmp_path: Path) -> None:
    tests = report(tmp_path, nunit3(case("Passed"), run='result="Passed" total="5" failed="0"'), "a.xml")
    failed = report(tmp_path, nunit2(case("Success"), header='total="1" errors="1" failures="1"'), "b.xml")
    tests_reading, failed_reading = PARSER.parse(tests), PARSER.parse(failed)
    assert tests_reading.counts == failed_reading.counts == Counts(passed=1, failed=0, skipped=0)
    assert tests_reading.notes == (
        "the <test-run> declares 5 tests but holds 1 test cases; the test cases were counted",
    )
    assert failed_reading.notes == (
        "the <test-results> declares 2 failed tests but 0 test cases failed; the test cases were counted",
    )


def test_cases_are_named_by_class_and_name_and_a_failure_carries_its_message() -> None:
    seen: list[CaseResult] = []
    read_source(FIXTURES / "nunit" / "dotnet-nunit.xml", ALL_PARSERS, on_case=seen.append)
    failed = [found for found in seen if found.outcome == "failed"]
    assert failed[0].display_name == "DotnetTests.XUnitTests.CalculatorTests::Exception_In_TargetTest"
    assert failed[0].message == "System.DivideByZeroException : Attempted to divide by zero."
    assert len(seen) == 9


def test_an_nunit2_case_is_named_by_its_full_name() -> None:
    seen: list[CaseResult] = []
    PARSER.parse(FIXTURES / "nunit" / "nunit2-pickles.xml", seen.append)
    assert seen[-1].display_name == "Pickles.TestHarness.AdditionFeature.FailToAddTwoNumbers"
    assert seen[-1].outcome == "failed"


@pytest.mark.parametrize("codec", ["utf-16", "utf-16-be", "utf-32"])
def test_a_wide_report_is_recognised_and_read(tmp_path: Path, codec: str) -> None:
    text = nunit3(case("Failed", "caf\u00e9") + case("Passed")).replace('encoding="utf-8"', f'encoding="{codec[:6]}"')
    path = report(tmp_path, text.encode(codec))
    assert document_format(path.read_bytes()) == "nunit"
    summary = read_source(path, ALL_PARSERS)
    assert (summary.parser, summary.counts) == ("nunit", Counts(passed=1, failed=1, skipped=0))


def test_a_report_whose_output_mentions_a_junit_element_is_still_nunit(tmp_path: Path) -> None:
    output = "<output><![CDATA[wrote <testsuite name='x'> to junit.xml]]></output>"
    path = report(tmp_path, nunit3(case("Passed")).replace("<test-suite type=", output + "<test-suite type=", 1))
    summary = read_source(path, ALL_PARSERS)
    assert (summary.parser, summary.counts) == ("nunit", Counts(passed=1, failed=0, skipped=0))


def test_an_internal_entity_is_refused_with_its_doctype(tmp_path: Path) -> None:
    text = (
        '<?xml version="1.0"?><!-- a comment first --><!DOCTYPE test-run [<!ENTITY e "x">]>'
        + nunit3(case("Passed", "&e;")).split("\n", 1)[1]
    )
    summary = read_source(report(tmp_path, text), ALL_PARSERS)
    assert (summary.parser, summary.counts) == ("nunit", None)
    assert summary.reason == "the report declares a DOCTYPE; test reports never need one, so it is refused"


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        (b"\x7fELF\x02\x01\x01\x00<test-run>", "binary content"),
        (b'<?xml version="1.0"?><testsuite><testcase name="a"/></testsuite>', "not an NUnit report"),
        (b'<?xml version="1.0"?><test-run><test-suite><test-case name="a" result="Passed"/>', "malformed XML"),
        (b"", "empty input"),
        (b'<test-case name="a" result="Passed"/>', "not an NUnit report"),
    ],
    ids=["junk", "junit", "truncated", "empty", "a-case-alone"],
)
def test_junk_another_format_or_a_cut_report_is_unparsed_with_the_reason(
    tmp_path: Path, content: bytes, reason: str
) -> None:
    assert_unparsed(report(tmp_path, content), "nunit", reason)


def test_suites_nested_deeper_than_the_parser_allows_are_unparsed_not_a_crash(tmp_path: Path) -> None:
    nested = '<test-suite type="TestSuite" name="s">' * 10_000 + case("Passed") + "</test-suite>" * 10_000
    assert_unparsed(report(tmp_path, nunit3(nested)), "nunit", "malformed XML")


def test_huge_names_and_messages_are_cut_and_say_how_much(tmp_path: Path) -> None:
    failed = f'<test-case name="{HUGE_NAME}" result="Failed">{HUGE_FAILURE}</test-case>'
    seen: list[CaseResult] = []
    PARSER.parse(report(tmp_path, nunit3(failed)), seen.append)
    assert_cut(seen[0])


def test_a_large_report_is_read_in_flat_memory(tmp_path: Path) -> None:
    assert_read_in_flat_memory(
        report(tmp_path, nunit3(case("Failed")), "small.xml"),
        tmp_path / "large.xml",
        '<?xml version="1.0"?><test-run result="Failed"><test-suite type="TestFixture" name="f">',
        '<test-case name="Adds({n})" result="Passed"><output>{pad}</output></test-case>',
        case("Failed") + "</test-suite></test-run>",
    )
