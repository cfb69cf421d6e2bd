"""vitest's summary beyond the captured fixtures: unhandled errors, several runs, reruns, a run that
never printed its final block, and parts this parser does not know."""

from __future__ import annotations

from evidence_gate.model import Counts
from evidence_gate.summary.base import Reading
from evidence_gate.summary.parsers.vitest import VitestParser

RUN = "\n RUN  v3.2.4 /repo\n\n"


def read(text: str) -> Reading | None:
    parser = VitestParser()
    for line in text.splitlines():
        parser.feed(line)
    return parser.finish()


def final(files: str, tests: str, *extra: str) -> str:
    lines = [f" Test Files  {files}", f"      Tests  {tests}", *extra, "   Start at  10:00:00", "   Duration  1.2s"]
    return "\n".join(lines) + "\n"


def test_unhandled_errors_count_as_failed() -> None:
    reading = read(RUN + final("1 passed (1)", "4 passed (4)", "     Errors  2 errors"))
    assert reading is not None
    assert reading.counts == Counts(passed=4, failed=2, skipped=0)
    assert reading.notes


def test_runs_add_up_and_within_a_run_the_last_final_block_wins() -> None:
    reading = read(
        RUN
        + final("1 failed (1)", "1 failed | 2 passed (3)")
        + final("1 passed (1)", "3 passed (3)")
        + RUN
        + final("1 passed (1)", "1 passed | 1 todo (2)")
    )
    assert reading is not None
    assert reading.counts == Counts(passed=4, failed=0, skipped=1)


def test_a_live_block_alone_is_not_a_result() -> None:
    reading = read(RUN + " Test Files 0 passed (2)\n      Tests 3 passed (3)\n   Start at 10:00:00\n")
    assert reading is not None
    assert reading.counts is None
    assert reading.reason


def test_a_failed_file_without_failed_tests_or_banner_reads_failed() -> None:
    reading = read(RUN + final("1 failed | 2 passed (3)", "6 passed (6)"))
    assert reading is not None
    assert reading.counts == Counts(passed=6, failed=1, skipped=0)


def test_no_tests_is_zero() -> None:
    reading = read(RUN + final("1 passed (1)", "no tests"))
    assert reading is not None
    assert reading.counts == Counts(passed=0, failed=0, skipped=0)


def test_an_unknown_part_is_not_guessed() -> None:
    reading = read(RUN + final("1 passed (1)", "2 passed | 1 flaky (3)"))
    assert reading is not None
    assert reading.counts is None
    assert reading.reason and "flaky" in reading.reason


def test_the_failed_tests_banner_is_not_a_summary_line() -> None:
    assert read("⎯⎯⎯⎯⎯⎯ Failed Tests 2 ⎯⎯⎯⎯⎯⎯\n FAIL  a.test.js > x\n") is None


def test_a_block_without_its_timing_lines_does_not_hide_the_next_run() -> None:
    reading = read(
        RUN + " Test Files  1 failed (1)\n      Tests  1 failed (1)\n" + RUN + final("1 passed (1)", "2 passed (2)")
    )
    assert reading is not None
    assert reading.counts == Counts(passed=2, failed=1, skipped=0)


def test_a_file_that_collected_no_test_beside_others_is_one_failed_named_with_its_error() -> None:
    reading = read(
        RUN
        + " ✓ ok.test.js (2 tests) 3ms\n \u276f broken.test.js (0 test)\n\n"
        + "⎯⎯⎯ Failed Suites 1 ⎯⎯⎯\n\n FAIL  broken.test.js [ broken.test.js ]\nSyntaxError: Unexpected token\n\n"
        + final("1 failed | 1 passed (2)", "2 passed (2)")
    )
    assert reading is not None
    assert reading.counts == Counts(passed=2, failed=1, skipped=0)
    assert reading.failed_tests == ("broken.test.js",)
    assert reading.notes == (
        "1 test file(s) failed to load before their tests ran, each counted as 1 failed test: broken.test.js: "
        "SyntaxError: Unexpected token",
    )


def test_a_file_that_collected_no_test_alone_is_unparsed_with_its_error() -> None:
    reading = read(
        RUN
        + " \u276f missing.test.js (0 test)\n\n"
        + "⎯⎯⎯ Failed Suites 1 ⎯⎯⎯\n\n FAIL  missing.test.js [ missing.test.js ]\nError: Cannot find module\n\n"
        + final("1 failed (1)", "no tests")
    )
    assert reading is not None
    assert reading.counts is None
    assert (
        reading.reason == "a test suite failed to load before its tests ran: missing.test.js: Error: Cannot find module"
    )


def test_failed_files_in_a_run_where_no_test_ran_are_unparsed() -> None:
    reading = read(RUN + final("2 failed (2)", "no tests"))
    assert reading is not None
    assert reading.counts is None
    assert reading.reason == "2 test file(s) failed and no test ran: they failed before their tests ran"


def test_a_failing_before_all_hook_counts_its_file_as_one_failed() -> None:
    reading = read(
        RUN
        + " ✓ ok.test.js (2 tests) 3ms\n"
        + " \u276f hook.test.js (1 test | 1 skipped) 6ms\n   ↓ needs the database\n\n"
        + "⎯⎯⎯ Failed Suites 1 ⎯⎯⎯\n\n FAIL  hook.test.js [ hook.test.js ]\nError: database is down\n\n"
        + final("1 failed | 1 passed (2)", "2 passed | 1 skipped (3)")
    )
    assert reading is not None
    assert reading.counts == Counts(passed=2, failed=1, skipped=1)


def test_a_test_s_output_ending_in_zero_tests_is_not_a_file_that_failed_to_load() -> None:
    reading = read(RUN + "stdout | a.test.js > counts\nselected (0 tests)\n\n" + final("1 passed (1)", "1 passed (1)"))
    assert reading is not None
    assert reading.counts == Counts(passed=1, failed=0, skipped=0)
