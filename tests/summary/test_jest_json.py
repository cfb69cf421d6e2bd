"""jest --json beyond the fixtures' counts: how each status maps, a test file that failed to run,
the declared totals against the entries, and reports that cannot be read."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from evidence_gate.model import Counts
from evidence_gate.summary.base import CaseResult, Reading
from evidence_gate.summary.parsers import jest_json
from evidence_gate.summary.parsers.jest_json import PARSER

FIXTURES = Path(__file__).parent.parent / "fixtures" / "stack-logs" / "jest-json"


def entry(status: str, title: str = "t", **more: object) -> dict[str, object]:
    return {"ancestorTitles": ["group"], "title": title, "status": status, "failureMessages": [], **more}


def read(tmp_path: Path, document: object, cases: list[CaseResult] | None = None) -> Reading:
    path = tmp_path / "report.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    return PARSER.parse(path, cases.append if cases is not None else None)


def report(*files: object, **totals: object) -> dict[str, object]:
    return {"numFailedTestSuites": 0, "numTotalTests": 0, **totals, "testResults": list(files)}


def file(*tests: object, status: str = "passed", **more: object) -> dict[str, object]:
    return {"assertionResults": list(tests), "name": "/src/a.test.js", "status": status, "message": "", **more}


def test_the_mixed_fixture_names_each_case_as_jest_prints_it() -> None:
    cases: list[CaseResult] = []
    reading = PARSER.parse(FIXTURES / "mixed.json", cases.append)
    assert reading.counts == Counts(passed=5, failed=2, skipped=3)
    outcomes = {case.shown_as: case.outcome for case in cases}
    assert outcomes["mixed \u203a fails on assertion"] == "failed"
    assert outcomes["mixed \u203a known bug (expected to fail)"] == "skipped"  # test.failing, failed as expected
    assert outcomes["mixed \u203a write this test"] == "skipped"  # test.todo
    assert outcomes["other passes one"] == "passed"
    failed = next(case for case in cases if case.outcome == "failed")
    assert failed.file is not None and failed.file.endswith("mixed/mixed.test.js")
    assert failed.message is not None and failed.message.startswith("Error: expect(received).toEqual")


def test_a_file_that_failed_to_run_counts_as_one_failed_test_and_is_named_in_a_note() -> None:
    cases: list[CaseResult] = []
    reading = PARSER.parse(FIXTURES / "load-error.json", cases.append)
    assert reading.counts == Counts(passed=2, failed=1, skipped=0)
    assert any(
        "broken.test.js failed without a failed test: Test suite failed to run" in note for note in reading.notes
    )
    assert [case.outcome for case in cases] == ["passed", "passed"]  # the broken file is not a test case


@pytest.mark.parametrize(
    ("status", "outcome"),
    [
        ("passed", "passed"),
        ("failed", "failed"),
        ("pending", "skipped"),
        ("skipped", "skipped"),
        ("disabled", "skipped"),
        ("todo", "skipped"),
    ],
)
def test_each_status_maps_to_one_outcome(tmp_path: Path, status: str, outcome: str) -> None:
    cases: list[CaseResult] = []
    failed = status == "failed"
    reading = read(tmp_path, report(file(entry(status), status="failed" if failed else "passed")), cases)
    assert reading.counts is not None
    assert {"passed": reading.counts.passed, "failed": reading.counts.failed, "skipped": reading.counts.skipped}[
        outcome
    ] == 1
    assert reading.counts.executed + reading.counts.skipped == 1
    assert [case.outcome for case in cases] == [outcome]


def test_a_failing_test_that_passed_is_failed(tmp_path: Path) -> None:
    reading = read(tmp_path, report(file(entry("failed", failing=True), status="failed")))
    assert reading.counts == Counts(passed=0, failed=1, skipped=0)


def test_a_test_exec_error_fails_the_file_even_if_its_status_says_passed(tmp_path: Path) -> None:
    reading = read(tmp_path, report(file(testExecError={"message": "boom"})))
    assert reading.counts == Counts(passed=0, failed=1, skipped=0)


def test_a_failed_file_whose_tests_all_passed_counts_one_failure(tmp_path: Path) -> None:
    """A failing afterAll: every test passed, the file failed."""
    reading = read(tmp_path, report(file(entry("passed"), status="failed", message="afterAll threw")))
    assert reading.counts == Counts(passed=1, failed=1, skipped=0)
    assert "afterAll threw" in reading.notes[0]


def test_declared_failures_beyond_the_entries_count(tmp_path: Path) -> None:
    reading = read(tmp_path, report(file(entry("passed")), numFailedTests=3, numTotalTests=4))
    assert reading.counts == Counts(passed=1, failed=3, skipped=0)
    assert any("`numTotalTests` is 4 but the report lists 1" in note for note in reading.notes)
    assert any("3 more failures than the entries show" in note for note in reading.notes)


def test_fewer_declared_tests_are_noted_and_the_entries_win(tmp_path: Path) -> None:
    reading = read(tmp_path, report(file(entry("passed"), entry("passed")), numTotalTests=1, numPassedTests=1))
    assert reading.counts == Counts(passed=2, failed=0, skipped=0)
    assert "`numTotalTests` is 1 but the report lists 2" in reading.notes[0]


def test_success_false_with_nothing_failed_counts_one_failure(tmp_path: Path) -> None:
    reading = read(tmp_path, report(file(entry("passed")), success=False, numTotalTests=1))
    assert reading.counts == Counts(passed=1, failed=1, skipped=0)


def test_an_interrupted_run_is_unparsed(tmp_path: Path) -> None:
    reading = read(tmp_path, report(file(entry("passed")), wasInterrupted=True, numTotalTests=1))
    assert reading.counts is None
    assert reading.reason is not None and "wasInterrupted" in reading.reason


def test_names_beyond_what_is_held_for_a_file_are_handed_on_without_the_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(jest_json, "_HELD_CASES", 2)
    cases: list[CaseResult] = []
    read(tmp_path, report(file(*(entry("passed", f"t{n}") for n in range(5))), numTotalTests=5), cases)
    assert [case.name for case in cases] == ["t2", "t3", "t4", "t0", "t1"]
    assert [case.file for case in cases] == [None, None, None, "/src/a.test.js", "/src/a.test.js"]


@pytest.mark.parametrize(
    ("document", "reason"),
    [
        (report(file(entry("exploded"))), "unknown status 'exploded'"),
        (report(file({"title": "t"})), "has no `status`"),
        (report(numTotalTests="3"), "`numTotalTests` is not a count of tests ('3')"),
        (report(numTotalTests=1.5), "`numTotalTests` is not a count of tests"),
        (report(numTotalTests=True), "`numTotalTests` is not a count of tests (True)"),
        (report(numTotalTests=-1), "`numTotalTests` is not a count of tests (-1)"),
        (report(numTotalTests=10**30), "`numTotalTests` is not a count of tests"),
        (report(numFailedTests=[1]), "`numFailedTests` is not a count of tests (an array)"),
        ({"numFailedTestSuites": 0, "numTotalTests": 0, "testResults": {}}, "`testResults` is not an array"),
        ({"numFailedTestSuites": 0, "numTotalTests": 5}, "no `testResults`"),
        (report("not a file"), "a `testResults` entry is not an object"),
        (report(file("not a test")), "an `assertionResults` entry is not an object"),
        (report({"assertionResults": 3, "status": "passed"}), "`assertionResults` is not an array"),
    ],
)
def test_a_malformed_report_is_unparsed_with_the_reason(tmp_path: Path, document: object, reason: str) -> None:
    reading = read(tmp_path, document)
    assert reading.counts is None
    assert reading.reason is not None and reason in reading.reason


def test_a_huge_number_written_as_an_exponent_is_not_a_count(tmp_path: Path) -> None:
    path = tmp_path / "report.json"
    path.write_text('{"numFailedTestSuites": 0, "numTotalTests": 1e999, "testResults": []}', encoding="utf-8")
    reading = PARSER.parse(path)
    assert reading.counts is None
    assert reading.reason == "`numTotalTests` is not a count of tests (Decimal('1E+999'))"


def test_recognises_jest_and_not_a_lookalike() -> None:
    assert PARSER.recognises((FIXTURES / "success.json").read_bytes()[:65536])
    assert PARSER.recognises(b'\xef\xbb\xbf  {"numFailedTestSuites": 1, "numTotalTests": 2')
    # vitest's json reporter: the same keys, other meanings (its suites include describe blocks)
    assert not PARSER.recognises(b'{"numTotalTestSuites":2,"numPassedTestSuites":0,"numTotalTests":5')
    assert not PARSER.recognises(b'{"results": {"numTotalTests": 2}, "numFailedTests": 0}')
    assert not PARSER.recognises(b'{"numbers": 1, "numTotalTests": 2}')
    assert not PARSER.recognises(b'{"numFailedTests": 0}')  # no numTotalTests in the head
