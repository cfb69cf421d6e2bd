"""The JUnit reader: counting rules, and hostile or broken reports."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from evidence_gate.model import Counts
from evidence_gate.model import TestSummary as Summary
from evidence_gate.summary.base import CaseResult
from evidence_gate.summary.junit_reader import MAX_DEPTH
from evidence_gate.summary.parsers.junit import scan_junit
from evidence_gate.summary.read import read_source


def report(tmp_path: Path, text: str | bytes, name: str = "report.xml") -> Path:
    path = tmp_path / name
    path.write_bytes(text.encode("utf-8") if isinstance(text, str) else text)
    return path


def test_nested_suites_are_not_counted_twice(tmp_path: Path) -> None:
    path = report(
        tmp_path,
        """<?xml version="1.0"?>
<testsuites tests="3" failures="1">
  <testsuite name="outer" tests="3" failures="1">
    <testsuite name="inner" tests="2" failures="1">
      <testcase name="a"/><testcase name="b"><failure message="boom"/></testcase>
    </testsuite>
    <testcase name="c"><skipped/></testcase>
  </testsuite>
</testsuites>""",
    )
    reading = scan_junit(path)
    assert reading.counts == Counts(passed=1, failed=1, skipped=1)
    assert reading.notes == ()


def test_a_suite_claiming_tests_it_does_not_hold_is_zero_tests_and_said(tmp_path: Path) -> None:
    path = report(tmp_path, '<testsuite name="claims" tests="6" failures="0"></testsuite>')
    reading = scan_junit(path)
    assert reading.counts == Counts(passed=0, failed=0, skipped=0)
    assert reading.notes == ("suite 'claims' declares tests=6 but holds 0 test cases; the test cases were counted",)


def test_errors_count_as_failed_and_a_namespace_is_fine(tmp_path: Path) -> None:
    path = report(
        tmp_path,
        '<testsuite xmlns="urn:x" tests="2"><testcase name="a"><error message="NPE"/></testcase>'
        '<testcase name="b"/></testsuite>',
    )
    assert scan_junit(path).counts == Counts(passed=1, failed=1, skipped=0)


def test_case_results_carry_names_outcomes_and_messages(tmp_path: Path) -> None:
    path = report(
        tmp_path,
        '<testsuite><testcase classname="cart" name="adds [SHOP-1#1]" file="cart.py" line="12"/>'
        '<testcase classname="cart" name="totals [SHOP-1#2]"><failure message="3 != 4">trace</failure></testcase>'
        '<testcase classname="cart" name="later"><skipped message="not yet"/></testcase></testsuite>',
    )
    seen: list[CaseResult] = []
    scan_junit(path, seen.append)
    assert [(case.name, case.outcome, case.message) for case in seen] == [
        ("adds [SHOP-1#1]", "passed", None),
        ("totals [SHOP-1#2]", "failed", "3 != 4"),
        ("later", "skipped", None),
    ]
    assert (seen[0].file, seen[0].line) == ("cart.py", 12)


def test_a_message_only_in_the_failures_text_is_read_and_each_case_handed_over_once(tmp_path: Path) -> None:
    # The text of a <failure> without message= is read on a second pass: the cases before it are not handed twice.
    path = report(
        tmp_path,
        '<testsuite><testcase name="a"/><testcase name="b"><skipped/></testcase>'
        '<testcase name="c"><failure type="AssertionError">expected <![CDATA[<1>]]> &amp; got 2<b>x</b>tail</failure>'
        '</testcase><testcase name="d"><failure>  </failure></testcase><testcase name="e"/></testsuite>',
    )
    seen: list[CaseResult] = []
    reading = scan_junit(path, seen.append)
    assert reading.counts == Counts(passed=2, failed=2, skipped=1)
    assert [(case.name, case.outcome, case.message) for case in seen] == [
        ("a", "passed", None),
        ("b", "skipped", None),
        ("c", "failed", "expected <1> & got 2"),
        ("d", "failed", "  "),
        ("e", "passed", None),
    ]


def test_a_suites_own_failure_is_noted_with_its_text(tmp_path: Path) -> None:
    path = report(
        tmp_path, '<testsuite name="s"><testcase name="a"/><error>module   crashed\n  on import</error></testsuite>'
    )
    reading = scan_junit(path)
    assert reading.counts == Counts(passed=1, failed=1, skipped=0)
    assert reading.notes[0] == (
        "suite 's' reports a failure outside any test case, counted as one failed test: module crashed on import"
    )


def test_a_huge_failure_text_is_cut_and_says_how_much(tmp_path: Path) -> None:
    path = report(
        tmp_path, f'<testsuite><testcase name="a"><failure>{"m" * 3_000_000}</failure></testcase></testsuite>'
    )
    seen: list[CaseResult] = []
    scan_junit(path, seen.append)
    assert seen[0].message == "m" * 1000 + "… 2999000 more characters"


def test_a_system_out_longer_than_libxml2s_text_node_limit_is_read(tmp_path: Path) -> None:
    # No tree is built, so the 10 MB limit on a tree's text node does not refuse a test's long output.
    output = "line of output\n" * 800_000  # 12 MB
    path = report(tmp_path, f'<testsuite><testcase name="a"><system-out>{output}</system-out></testcase></testsuite>')
    assert scan_junit(path).counts == Counts(passed=1, failed=0, skipped=0)


@pytest.mark.parametrize(("depth", "counted"), [(MAX_DEPTH, True), (MAX_DEPTH + 1, False), (1_000_000, False)])
def test_elements_nested_deeper_than_libxml2s_limit_are_malformed(tmp_path: Path, depth: int, counted: bool) -> None:
    # The reader builds no tree, so libxml2's own depth limit does not stop it: it keeps to it itself.
    nested = "<x>" * (depth - 2) + "</x>" * (depth - 2)
    reading = scan_junit(report(tmp_path, f'<testsuite><testcase name="a">{nested}</testcase></testsuite>'))
    if counted:
        assert reading.counts == Counts(passed=1, failed=0, skipped=0)
    else:
        assert reading.counts is None
        assert reading.reason == f"malformed XML (elements nested deeper than {MAX_DEPTH} levels)"


def test_a_doctype_after_a_comment_is_refused(tmp_path: Path) -> None:
    path = report(tmp_path, '<?xml version="1.0"?><!-- made by a tool --><!DOCTYPE x [<!ENTITY a "b">]><report/>')
    reading = scan_junit(path)
    assert reading.counts is None
    assert "DOCTYPE" in (reading.reason or "")


def test_several_documents_in_one_file_add_up(tmp_path: Path) -> None:
    document = (
        '<?xml version="1.0" encoding="UTF-8"?>'
        '<testsuites><testsuite tests="1"><testcase name="t"/></testsuite></testsuites>\n'
    )
    path = report(tmp_path, document * 3)
    assert scan_junit(path).counts == Counts(passed=3, failed=0, skipped=0)


def test_a_declaration_split_across_read_chunks_is_still_a_boundary(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from evidence_gate.summary import xml_documents

    monkeypatch.setattr(xml_documents, "CHUNK_BYTES", 7)
    document = '<?xml version="1.0"?><testsuite><testcase name="t"/><testcase name="u"/></testsuite>'
    path = report(tmp_path, document + document)
    assert scan_junit(path).counts == Counts(passed=4, failed=0, skipped=0)


@pytest.mark.parametrize("chunk", [7, 4 * 1024 * 1024])
def test_a_processing_instruction_named_xml_something_is_no_second_document(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, chunk: int
) -> None:
    from evidence_gate.summary import xml_documents

    monkeypatch.setattr(xml_documents, "CHUNK_BYTES", chunk)
    document = (
        '<?xml version="1.0"?>\n<?xml-stylesheet type="text/xsl" href="style.xslt"?>\n'
        '<testsuite><testcase name="t"/><testcase name="u"><failure/></testcase></testsuite>'
    )
    assert scan_junit(report(tmp_path, document + "\n" + document)).counts == Counts(passed=2, failed=2, skipped=0)


def test_checks_own_xml_is_not_read_as_a_run_of_no_tests(tmp_path: Path) -> None:
    path = report(
        tmp_path,
        '<?xml version="1.0"?>\n<?xml-stylesheet type="text/xsl" href="check_unittest.xslt"?>\n'
        '<testsuites xmlns="http://check.sourceforge.net/ns"><suite><title>Money</title>'
        '<test result="failure"><id>test_sub</id></test></suite></testsuites>',
    )
    reading = scan_junit(path)
    assert reading.counts is None
    assert reading.reason is not None and reading.reason.startswith("Check's own XML report")


def test_a_passing_todo_test_of_tap_formatter_junit_is_passed(tmp_path: Path) -> None:
    path = report(
        tmp_path,
        '<testsuites><testsuite name="01-todo_t" tests="2" errors="1" failures="0">'
        '<testcase name="1 - first"></testcase><testcase name="2 - upstream fixed">'
        '<error message="flaky upstream" type="TodoTestSucceeded">ok 2 - upstream fixed # TODO flaky upstream'
        "</error></testcase></testsuite></testsuites>",
    )
    assert scan_junit(path).counts == Counts(passed=2, failed=0, skipped=0)


def test_an_xml_file_that_is_not_junit_is_unparsed(tmp_path: Path) -> None:
    reading = scan_junit(report(tmp_path, '<?xml version="1.0"?><project><testcase/></project>'))
    assert reading.counts is None
    assert reading.reason == "not a JUnit report (no <testsuites> or <testsuite> element)"


def refused(path: Path) -> None:
    summary = read_source(path, ["junit"])
    assert summary.counts is None
    assert summary.reason


def test_an_external_file_entity_is_refused_without_reading_the_file(tmp_path: Path) -> None:
    # The entity names a FIFO: opening it for reading would block until a writer comes, so a
    # parser that tried to read it would hang here instead of answering at once.
    fifo = tmp_path / "secret"
    os.mkfifo(fifo)
    path = report(
        tmp_path,
        f'<?xml version="1.0"?>\n<!DOCTYPE testsuite [<!ENTITY leak SYSTEM "file://{fifo}">]>\n'
        '<testsuite><testcase name="&leak;"/></testsuite>',
    )
    answer: list[Summary] = []
    worker = threading.Thread(target=lambda: answer.append(read_source(path, ["junit"])), daemon=True)
    worker.start()
    worker.join(timeout=5)
    assert answer, "the parser tried to open the entity's file"
    summary = answer[0]
    assert summary.counts is None
    assert "DOCTYPE" in (summary.reason or "")


def test_an_external_http_entity_is_refused(tmp_path: Path) -> None:
    path = report(
        tmp_path,
        '<?xml version="1.0"?><!DOCTYPE t [<!ENTITY x SYSTEM "http://127.0.0.1:9/x">]>'
        '<testsuite><testcase name="&x;"/></testsuite>',
    )
    refused(path)


def test_an_entity_expansion_bomb_is_refused_quickly(tmp_path: Path) -> None:
    entities = "".join(
        f'<!ENTITY e{n} "{"&e" + str(n - 1) + ";" * 1}{("&e" + str(n - 1) + ";") * 9}">' for n in range(1, 12)
    )
    path = report(
        tmp_path,
        f'<?xml version="1.0"?><!DOCTYPE bomb [<!ENTITY e0 "lol">{entities}]>'
        '<testsuite><testcase name="&e11;"/></testsuite>',
    )
    start = time.monotonic()
    refused(path)
    assert time.monotonic() - start < 2


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        (b'<?xml version="1.0"?><testsuite><testcase name="a"/><testcase na', "malformed XML"),
        (b'<?xml version="1.0" encoding="UTF-8"?><testsuite><testcase name="caf\xe9"/></testsuite>', "malformed XML"),
        (b"", "empty input"),
        (b"\x7fELF\x02\x01\x01\x00\x00\x00<testsuite>", "binary content"),
    ],
    ids=["truncated", "invalid-utf8", "empty", "binary"],
)
def test_broken_reports_are_unparsed_with_the_reason(tmp_path: Path, content: bytes, reason: str) -> None:
    summary = read_source(report(tmp_path, content), ["junit"])
    assert summary.counts is None
    assert reason in (summary.reason or "")


def test_a_failure_or_error_beside_a_skip_is_failed(tmp_path: Path) -> None:
    path = report(
        tmp_path,
        '<testsuite><testcase name="a"><skipped/><failure message="boom"/></testcase>'
        '<testcase name="b"><error message="NPE"/><skipped message="later"/></testcase></testsuite>',
    )
    assert scan_junit(path).counts == Counts(passed=0, failed=2, skipped=0)


def test_nodes_failing_todo_is_skipped_by_its_todo_marker(tmp_path: Path) -> None:
    path = report(
        tmp_path,
        '<testsuites><testcase name="known bug" classname="test"><skipped type="todo" message="fix the parser"/>'
        '<failure type="testCodeFailure" message="1 !== 2"/></testcase></testsuites>',
    )
    assert scan_junit(path).counts == Counts(passed=0, failed=0, skipped=1)


def test_a_suite_header_without_test_cases_gives_none_of_its_numbers(tmp_path: Path) -> None:
    path = report(tmp_path, '<testsuites><testsuite name="empty" tests="3" skipped="3"/></testsuites>')
    reading = scan_junit(path)
    assert reading.counts == Counts(passed=0, failed=0, skipped=0)
    assert reading.notes == ("suite 'empty' declares tests=3 but holds 0 test cases; the test cases were counted",)


def test_unlisted_skips_are_counted_only_when_the_header_adds_up(tmp_path: Path) -> None:
    listed = '<testcase name="a"/><testcase name="b"/>'
    exact = report(tmp_path, f'<testsuite tests="3" skipped="1">{listed}</testsuite>', "exact.xml")
    claims = report(tmp_path, f'<testsuite tests="100" skipped="100">{listed}</testsuite>', "claims.xml")
    assert scan_junit(exact).counts == Counts(passed=2, failed=0, skipped=1)
    assert scan_junit(claims).counts == Counts(passed=2, failed=0, skipped=0)


def test_an_error_repeating_the_test_case_before_it_is_that_tests_error_not_a_test(tmp_path: Path) -> None:
    path = report(
        tmp_path,
        '<testsuite><testcase classname="t" name="a"><failure message="assert"/></testcase>'
        '<testcase classname="t" name="a"><error message="failed on teardown"/></testcase>'
        '<testcase classname="t" name="b"/><testcase classname="t" name="b"><error message="teardown"/></testcase>'
        '<testcase classname="t" name="c"/><testcase classname="t" name="c"/></testsuite>',
    )
    reading = scan_junit(path)
    assert reading.counts == Counts(passed=2, failed=2, skipped=0)
    assert any("teardown error" in note for note in reading.notes)


@pytest.mark.parametrize("line", ["0", "-3", "x"])
def test_a_line_that_is_not_a_line_number_is_no_line(tmp_path: Path, line: str) -> None:
    path = report(tmp_path, f'<testsuite><testcase name="a" file="a.py" line="{line}"/></testsuite>')
    seen: list[CaseResult] = []
    scan_junit(path, seen.append)
    assert seen[0].line is None


def test_kept_names_and_messages_are_cut_and_say_how_much(tmp_path: Path) -> None:
    name, message = "n" * 1_000_000, "m" * 5000
    path = report(tmp_path, f'<testsuite><testcase name="{name}"><failure message="{message}"/></testcase></testsuite>')
    seen: list[CaseResult] = []
    scan_junit(path, seen.append)
    assert seen[0].name == "n" * 1000 + "… 999000 more characters"
    assert seen[0].message == "m" * 1000 + "… 4000 more characters"


FAILING_REPORT = (
    '<?xml version="1.0" encoding="{encoding}"?>\n<testsuite name="s" tests="2" failures="1">'
    '<testcase name="caf\u00e9"/><testcase name="b"><failure message="boom"/></testcase></testsuite>'
)


@pytest.mark.parametrize(
    ("encoding", "codec"),
    [("UTF-16", "utf-16"), ("UTF-16", "utf-16-le"), ("UTF-16", "utf-16-be"), ("UTF-32", "utf-32")],
    ids=["utf16-bom", "utf16le-no-bom", "utf16be-no-bom", "utf32-bom"],
)
def test_a_wide_report_with_failures_is_read(tmp_path: Path, encoding: str, codec: str) -> None:
    path = report(tmp_path, FAILING_REPORT.format(encoding=encoding).encode(codec))
    seen: list[CaseResult] = []
    summary = read_source(path, ["junit", "xcresult", "pytest"])
    assert summary.counts == Counts(passed=1, failed=1, skipped=0)
    scan_junit(path, seen.append)
    assert [case.name for case in seen] == ["caf\u00e9", "b"]


def test_a_wide_report_split_across_read_chunks_is_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from evidence_gate.summary import xml_documents

    monkeypatch.setattr(xml_documents, "CHUNK_BYTES", 7)
    cases = "".join(f'<testcase name="t{i}"/>' for i in range(2000))
    path = report(tmp_path, f'<?xml version="1.0" encoding="UTF-16"?><testsuite>{cases}</testsuite>'.encode("utf-16"))
    assert scan_junit(path).counts == Counts(passed=2000, failed=0, skipped=0)


def test_a_pytest_report_gives_the_line_of_the_def_counting_from_1(tmp_path: Path) -> None:
    # pytest writes the 0-based line of a test's `def` (xunit1): annotations must point at the def.
    (tmp_path / "test_refund.py").write_text("import os\n\n\ndef test_refund():\n    assert os.sep == '?'\n")
    report = tmp_path / "junit.xml"
    command = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-o", "junit_family=xunit1"]
    subprocess.run([*command, f"--junitxml={report}", "test_refund.py"], cwd=tmp_path, capture_output=True, check=False)
    cases: list[CaseResult] = []
    scan_junit(report, cases.append)
    assert [(case.file, case.line) for case in cases] == [("test_refund.py", 4)]


def test_a_line_of_0_from_another_writer_is_no_line(tmp_path: Path) -> None:
    report = tmp_path / "junit.xml"
    report.write_text(
        '<testsuite name="suite"><testcase name="t" file="a.js" line="0"><failure/></testcase></testsuite>'
    )
    cases: list[CaseResult] = []
    scan_junit(report, cases.append)
    assert [case.line for case in cases] == [None]


def test_a_case_is_named_as_its_runners_console_names_it() -> None:
    """jest-junit writes `classname=" wrong sum" name=" wrong sum"`; the console says `● wrong sum`.
    One spelling reaches every output: the report's words, without the spaces around them."""
    logs = Path(__file__).resolve().parents[1] / "fixtures" / "stack-logs" / "jest"
    seen: list[CaseResult] = []
    read_source(logs / "failure.junit.xml", ["junit"], on_case=seen.append)
    failed = [case.display_name for case in seen if case.outcome == "failed"]
    assert failed == list(read_source(logs / "failure.log", ["jest"]).failed_tests) == ["wrong sum", "throws"]


SUREFIRE_RERUNS = """<?xml version="1.0" encoding="UTF-8"?>
<testsuite name="com.example.T" tests="3" failures="1" errors="0" skipped="0">
  <testcase name="flaky" classname="com.example.T">
    <flakyFailure message="first run" type="AssertionError"><stackTrace>at T</stackTrace></flakyFailure>
    <flakyError message="second run" type="IllegalStateException"><stackTrace>at T</stackTrace></flakyError>
  </testcase>
  <testcase name="broken" classname="com.example.T">
    <failure message="every run" type="AssertionError">at T</failure>
    <rerunFailure message="every run" type="AssertionError"><stackTrace>at T</stackTrace></rerunFailure>
    <rerunError message="every run" type="IllegalStateException"><stackTrace>at T</stackTrace></rerunError>
  </testcase>
  <testcase name="passes" classname="com.example.T"/>
</testsuite>"""


def test_surefire_flaky_test_passed_and_is_named_and_a_test_failing_every_rerun_is_one_failed(tmp_path: Path) -> None:
    seen: list[CaseResult] = []
    reading = scan_junit(report(tmp_path, SUREFIRE_RERUNS), seen.append)
    assert reading.counts == Counts(passed=2, failed=1, skipped=0)
    assert reading.notes == (
        "1 failed test(s) failed on every rerun too (Surefire's <rerunFailure> or <rerunError>): each counted once, "
        "as failed",
        "1 flaky test(s) failed and then passed on a rerun, counted as passed: com.example.T::flaky",
    )
    assert [(case.name, case.outcome) for case in seen] == [
        ("flaky", "passed"),
        ("broken", "failed"),
        ("passes", "passed"),
    ]


def test_a_test_case_repeated_after_its_failed_runs_is_one_test_failed_if_any_run_failed(tmp_path: Path) -> None:
    """A test case per run (gotestsum --rerun-fails) names no retry: a later pass of a failed test case
    is named flaky, and does not clear the failure (cmocka writes a failed teardown the same way)."""
    path = report(
        tmp_path,
        '<testsuite name="p" tests="6" failures="4">'
        '<testcase classname="p" name="Flaky"><failure message="Failed"/></testcase>'
        '<testcase classname="p" name="Broken"><failure message="Failed"/></testcase>'
        '<testcase classname="p" name="Broken"><failure message="Failed"/></testcase>'
        '<testcase classname="p" name="Broken"><failure message="Failed"/></testcase>'
        '<testcase classname="p" name="Passes"/>'
        '<testcase classname="p" name="Flaky"/>'
        "</testsuite>",
    )
    reading = scan_junit(path)
    assert reading.counts == Counts(passed=1, failed=2, skipped=0)
    assert "2 test(s) appear as a test case per run (a rerun): each counted once, failed if any run failed" in (
        reading.notes
    )
    assert (
        "1 test(s) failed and then passed in a later test case of the same name, counted as failed (a report that"
        " writes a test case per run says nothing that makes the pass a retry's): p::Flaky"
    ) in reading.notes
    assert not any("declares" in note for note in reading.notes)


def test_a_test_case_repeating_a_passed_one_is_another_test_and_its_failure_counts(tmp_path: Path) -> None:
    path = report(
        tmp_path,
        '<testsuites><testsuite><testcase classname="p" name="same"/>'
        '<testcase classname="p" name="same"><failure message="boom"/></testcase>'
        '<testcase classname="q" name="same"><failure message="boom"/></testcase></testsuite>'
        '<testsuite><testcase classname="p" name="same"/></testsuite></testsuites>',
    )
    reading = scan_junit(path)
    assert reading.counts == Counts(passed=2, failed=2, skipped=0)
    assert not any("rerun" in note for note in reading.notes)


def test_test_cases_repeated_in_another_suite_are_other_tests(tmp_path: Path) -> None:
    path = report(
        tmp_path,
        '<testsuites><testsuite name="a"><testcase classname="p" name="t"><failure message="x"/></testcase></testsuite>'
        '<testsuite name="b"><testcase classname="p" name="t"/></testsuite></testsuites>',
    )
    assert scan_junit(path).counts == Counts(passed=1, failed=1, skipped=0)
