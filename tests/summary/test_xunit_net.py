"""The xUnit.net reader: test results, errors outside any test, and hostile or broken reports."""

from __future__ import annotations

from pathlib import Path

import pytest

from evidence_gate.model import Counts
from evidence_gate.summary.base import CaseResult
from evidence_gate.summary.parsers.xunit_net import PARSER
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


def assembly(tests: str, errors: str = "", totals: str = "", name: str = "Shop.Tests.dll") -> str:
    return (
        f'<assembly name="{name}" test-framework="xUnit.net 2.9.2" {totals}><errors>{errors}</errors>'
        f'<collection name="Test collection for Shop.Tests.CartTests">{tests}</collection></assembly>'
    )


def xunit(*assemblies: str) -> str:
    return f'<?xml version="1.0" encoding="utf-8"?>\n<assemblies>{"".join(assemblies)}</assemblies>'


def one_test(result: str, name: str = "Shop.Tests.CartTests.Adds") -> str:
    return f'<test name="{name}" type="Shop.Tests.CartTests" method="Adds" result="{result}" time="0.01"/>'


@pytest.mark.parametrize(
    ("result", "outcome"), [("Pass", "passed"), ("Fail", "failed"), ("Skip", "skipped"), ("NotRun", "skipped")]
)
def test_a_test_counts_by_its_result(tmp_path: Path, result: str, outcome: str) -> None:
    seen: list[CaseResult] = []
    PARSER.parse(report(tmp_path, xunit(assembly(one_test(result)))), seen.append)
    assert [found.outcome for found in seen] == [outcome]


def test_a_result_xunit_does_not_define_makes_the_report_unparsed(tmp_path: Path) -> None:
    reading = PARSER.parse(report(tmp_path, xunit(assembly(one_test("Passed")))))
    assert reading.counts is None
    assert reading.reason == (
        "test 'Shop.Tests.CartTests.Adds' has the outcome 'Passed', which the format does not define"
    )


CLEANUP = (
    '<error type="test-class-cleanup" name="Shop.Tests.CartTests"><failure exception-type="System.IO.IOException">'
    "<message>System.IO.IOException : the fixture's file is locked</message></failure></error>"
)


def test_an_error_outside_any_test_with_no_failed_test_counts_one_failed_test(tmp_path: Path) -> None:
    reading = PARSER.parse(report(tmp_path, xunit(assembly(one_test("Pass"), CLEANUP))))
    assert reading.counts == Counts(passed=1, failed=1, skipped=0)
    assert reading.notes == (
        "assembly 'Shop.Tests.dll' reports an error outside its tests (the first: test-class-cleanup:"
        " System.IO.IOException : the fixture's file is locked) but no test case failed; counted as one failed test",
    )


def test_an_error_beside_a_failed_test_adds_nothing_and_each_assembly_is_judged_apart(tmp_path: Path) -> None:
    failing = assembly(one_test("Fail"), CLEANUP, name="a.dll")
    passing = assembly(one_test("Pass"), CLEANUP, name="b.dll")
    reading = PARSER.parse(report(tmp_path, xunit(failing, passing, assembly(one_test("Pass"), name="c.dll"))))
    assert reading.counts == Counts(passed=2, failed=2, skipped=0)
    assert [note.split(" reports")[0] for note in reading.notes] == ["assembly 'b.dll'"]


def test_an_xunit1_class_failure_with_no_failed_test_counts_one_failed_test(tmp_path: Path) -> None:
    text = (
        '<assembly name="Shop.Tests.dll" total="0" failed="0"><class name="Shop.Tests.CartTests" total="0">'
        '<failure exception-type="System.InvalidOperationException"><message>fixture failed</message></failure>'
        "</class></assembly>"
    )
    reading = PARSER.parse(report(tmp_path, text))
    assert reading.counts == Counts(passed=0, failed=1, skipped=0)


def test_declared_totals_that_disagree_are_noted_and_the_tests_win(tmp_path: Path) -> None:
    reading = PARSER.parse(report(tmp_path, xunit(assembly(one_test("Pass"), totals='total="1" failed="2"'))))
    assert reading.counts == Counts(passed=1, failed=0, skipped=0)
    assert reading.notes == (
        "assembly 'Shop.Tests.dll' declares 2 failed tests but 0 test cases failed; the test cases were counted",
    )


@pytest.mark.parametrize("total", ["three", "-1", "9" * 40, ""])
def test_a_declared_total_that_is_no_count_or_a_huge_one_never_changes_the_count(tmp_path: Path, total: str) -> None:
    reading = PARSER.parse(report(tmp_path, xunit(assembly(one_test("Fail"), totals=f'total="{total}" failed="x"'))))
    assert reading.counts == Counts(passed=0, failed=1, skipped=0)


def test_a_test_is_named_as_the_runner_prints_it_with_its_place_and_message(tmp_path: Path) -> None:
    failed = (
        '<test name="Shop.Tests.CartTests.Adds(a: 1, b: 2)" type="Shop.Tests.CartTests" method="Adds" result="Fail"'
        ' source-file="tests/CartTests.cs" source-line="42"><failure exception-type="Xunit.Sdk.EqualException">'
        "<message>Assert.Equal() Failure\nExpected: 3\nActual:   4</message></failure></test>"
    )
    seen: list[CaseResult] = []
    PARSER.parse(report(tmp_path, xunit(assembly(failed))), seen.append)
    assert seen[0].display_name == "Shop.Tests.CartTests.Adds(a: 1, b: 2)"
    assert (seen[0].classname, seen[0].file, seen[0].line) == ("Shop.Tests.CartTests", "tests/CartTests.cs", 42)
    assert seen[0].message == "Assert.Equal() Failure\nExpected: 3\nActual:   4"


def test_a_published_report_names_every_test() -> None:
    seen: list[CaseResult] = []
    summary = read_source(FIXTURES / "xunit-net" / "fixie.xml", ALL_PARSERS, on_case=seen.append)
    assert summary.parser == "xunit-net"
    assert [found.outcome for found in seen].count("failed") == 3
    assert len(seen) == 7


@pytest.mark.parametrize("codec", ["utf-16", "utf-16-le", "utf-32"])
def test_a_wide_report_is_recognised_and_read(tmp_path: Path, codec: str) -> None:
    text = xunit(assembly(one_test("Fail", "caf\u00e9") + one_test("Pass"))).replace("utf-8", codec[:6])
    path = report(tmp_path, text.encode(codec))
    assert document_format(path.read_bytes()) == "xunit-net"
    summary = read_source(path, ALL_PARSERS)
    assert (summary.parser, summary.counts) == ("xunit-net", Counts(passed=1, failed=1, skipped=0))


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        (b"PK\x03\x04\x14\x00\x00\x00<assemblies>", "binary content"),
        (b'<?xml version="1.0"?><test-run><test-case result="Passed"/></test-run>', "not an xUnit.net report"),
        (b"<assemblies><assembly><collection><test result=", "malformed XML"),
        (b'<!DOCTYPE assemblies [<!ENTITY e SYSTEM "http://127.0.0.1:9/">]><assemblies/>', "DOCTYPE"),
    ],
    ids=["junk", "nunit", "truncated", "doctype"],
)
def test_junk_another_format_a_cut_report_or_a_doctype_is_unparsed_with_the_reason(
    tmp_path: Path, content: bytes, reason: str
) -> None:
    assert_unparsed(report(tmp_path, content), "xunit-net", reason)


def test_huge_names_and_messages_are_cut_and_say_how_much(tmp_path: Path) -> None:
    failed = f'<test name="{HUGE_NAME}" type="T" result="Fail">{HUGE_FAILURE}</test>'
    seen: list[CaseResult] = []
    PARSER.parse(report(tmp_path, xunit(assembly(failed))), seen.append)
    assert_cut(seen[0])


def test_a_large_report_is_read_in_flat_memory(tmp_path: Path) -> None:
    assert_read_in_flat_memory(
        report(tmp_path, xunit(assembly(one_test("Fail"))), "small.xml"),
        tmp_path / "large.xml",
        '<?xml version="1.0"?><assemblies><assembly name="a"><errors/><collection name="c">',
        '<test name="T.Adds({n})" type="T" method="Adds" result="Pass"><output>{pad}</output></test>',
        one_test("Fail") + "</collection></assembly></assemblies>",
    )
