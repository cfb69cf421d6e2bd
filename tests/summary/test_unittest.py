"""unittest's summary beyond the captured fixtures: Python 3.12's `NO TESTS RAN`, fixture errors
that `Ran N` does not count, subtests, several runs and truncated logs."""

from __future__ import annotations

from evidence_gate.model import Counts
from evidence_gate.summary.base import Reading
from evidence_gate.summary.parsers.unittest import UnittestParser

SEPARATOR = "-" * 70


def read(text: str) -> Reading | None:
    parser = UnittestParser()
    for line in text.splitlines():
        parser.feed(line)
    return parser.finish()


def test_no_tests_ran_of_python_3_12_is_zero() -> None:
    reading = read(f"\n{SEPARATOR}\nRan 0 tests in 0.000s\n\nNO TESTS RAN")
    assert reading is not None
    assert reading.counts == Counts(passed=0, failed=0, skipped=0)


def test_every_bracket_part_is_mapped() -> None:
    reading = read(
        "Ran 12 tests in 1.500s\n\n"
        "FAILED (failures=2, errors=1, skipped=3, expected failures=1, unexpected successes=1)"
    )
    assert reading is not None
    assert reading.counts == Counts(passed=5, failed=3, skipped=4)


def test_a_set_up_class_error_is_failed_without_taking_a_pass_away() -> None:
    reading = read(
        "..E\n"
        "======================================================================\n"
        "ERROR: setUpClass (test_db.DatabaseTests)\n"
        f"{SEPARATOR}\n"
        "Traceback (most recent call last):\n"
        "RuntimeError: no database\n\n"
        f"{SEPARATOR}\n"
        "Ran 2 tests in 0.001s\n\n"
        "FAILED (errors=1)"
    )
    assert reading is not None
    assert reading.counts == Counts(passed=2, failed=1, skipped=0)


def test_more_failures_than_tests_ran_without_subtest_headers_is_unparsed_not_over_counted() -> None:
    reading = read("Ran 1 test in 0.001s\n\nFAILED (failures=3)")
    assert reading is not None
    assert reading.counts is None
    assert reading.reason and "subtests" in reading.reason


def test_a_test_failing_in_its_own_body_and_in_subtests_is_one_failed_test() -> None:
    headers = "".join(
        f"{SEPARATOR}\nFAIL: test_a (m.T.test_a){subtest}\n" for subtest in (" (n=1)", " [msg] (n=2)", "")
    )
    reading = read(f"{headers}Ran 2 tests in 0.001s\n\nFAILED (failures=3)")
    assert reading is not None
    assert reading.counts == Counts(passed=1, failed=1, skipped=0)


def test_runs_add_up() -> None:
    reading = read("Ran 4 tests in 0.010s\n\nOK\nRan 3 tests in 0.020s\n\nFAILED (failures=1, skipped=1)")
    assert reading is not None
    assert reading.counts == Counts(passed=5, failed=1, skipped=1)
    assert "2 unittest runs added up" in reading.notes


def test_a_log_cut_after_the_ran_line_is_unparsed() -> None:
    reading = read(f"....\n{SEPARATOR}\nRan 4 tests in 0.010s\n")
    assert reading is not None
    assert reading.counts is None
    assert reading.reason


def test_a_ran_line_followed_by_something_else_is_unparsed() -> None:
    reading = read("Ran 3 tests in 0.005s\n\nPASSED (successes=3)")
    assert reading is not None
    assert reading.counts is None


def test_a_lone_ok_is_not_unittest() -> None:
    assert read("OK\nall good") is None
