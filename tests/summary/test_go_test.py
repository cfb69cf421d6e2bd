"""`go test` plain and -v output beyond the captured fixtures: packages that fail without a failing
test, truncated logs, cached and coverage package lines, and other runners' output."""

from __future__ import annotations

from evidence_gate.model import Counts
from evidence_gate.summary.base import Reading
from evidence_gate.summary.parsers.go_test import GoTestParser


def read(text: str) -> Reading | None:
    parser = GoTestParser()
    for line in text.splitlines():
        parser.feed(line)
    return parser.finish()


def test_a_package_that_times_out_without_a_failing_test_line_counts_one_failed() -> None:
    reading = read(
        "=== RUN   TestFast\n"
        "--- PASS: TestFast (0.00s)\n"
        "=== RUN   TestSlow\n"
        "panic: test timed out after 1s\n"
        "running tests:\n"
        "\tTestSlow (1s)\n"
        "FAIL\texample.com/fx/slow\t1.012s\n"
        "=== RUN   TestOther\n"
        "--- PASS: TestOther (0.00s)\n"
        "PASS\n"
        "ok  \texample.com/fx/other\t0.003s\tcoverage: 80.0% of statements\n"
        "FAIL\n"
    )
    assert reading is not None
    assert reading.counts == Counts(passed=2, failed=1, skipped=0)


def test_a_failing_package_with_failing_tests_gets_no_extra_error() -> None:
    reading = read(
        "=== RUN   TestA\n    a_test.go:9: nope\n--- FAIL: TestA (0.01s)\nFAIL\nFAIL\texample.com/fx/a\t0.011s\nFAIL\n"
    )
    assert reading is not None
    assert reading.counts == Counts(passed=0, failed=1, skipped=0)


def test_a_verbose_log_cut_before_its_package_line_is_unparsed() -> None:
    reading = read("=== RUN   TestA\n--- PASS: TestA (0.00s)\n=== RUN   TestB\n--- PASS: TestB (0.00s)\n")
    assert reading is not None
    assert reading.counts is None
    assert reading.reason and "ends before" in reading.reason


def test_plain_output_with_passing_packages_is_unparsed_even_when_cached() -> None:
    reading = read("ok  \texample.com/fx/a\t(cached)\n?   \texample.com/fx/b\t[no test files]\n")
    assert reading is not None
    assert reading.counts is None
    assert reading.reason and "without -v" in reading.reason


def test_plain_output_where_only_builds_failed_is_unparsed_with_the_first_error() -> None:
    reading = read(
        "# example.com/fx/a [example.com/fx/a.test]\n"
        "a/a_test.go:3:2: undefined: nope\n"
        "FAIL\texample.com/fx/a [build failed]\n"
        "FAIL\texample.com/fx/b [setup failed]\n"
        "?   \texample.com/fx/c\t[no test files]\n"
        "FAIL\n"
    )
    assert reading is not None
    assert reading.counts is None
    assert reading.reason == (
        "the build failed before any test ran: example.com/fx/a [build failed]: a/a_test.go:3:2: undefined: nope "
        "(and 1 more package(s))"
    )


def test_a_verbose_run_where_one_package_failed_to_build_counts_it_as_one_failed_beside_what_ran() -> None:
    reading = read(
        "# example.com/fx/a\n"
        "a/a_test.go:7:3: (*testing.common).Errorf format %s has arg got of wrong type int\n"
        "FAIL\texample.com/fx/a [build failed]\n"
        "=== RUN   TestB\n"
        "--- PASS: TestB (0.00s)\n"
        "PASS\n"
        "ok  \texample.com/fx/b\t0.002s\n"
        "FAIL\n"
    )
    assert reading is not None
    assert reading.counts == Counts(passed=1, failed=1, skipped=0)
    assert reading.failed_tests == ("example.com/fx/a [build failed]",)
    assert reading.notes == (
        "the build failed before the tests of 1 package(s) ran: example.com/fx/a [build failed]: "
        "a/a_test.go:7:3: (*testing.common).Errorf format %s has arg got of wrong type int; "
        "each is counted as 1 failed test beside the tests the other packages ran",
    )


def test_plain_output_where_one_package_failed_to_build_beside_others_is_unparsed_with_the_failure() -> None:
    reading = read(
        "# example.com/fx/a\n"
        "a/a.go:3:2: undefined: nope\n"
        "FAIL\texample.com/fx/a [build failed]\n"
        "ok  \texample.com/fx/b\t0.002s\n"
        "FAIL\n"
    )
    assert reading is not None
    assert reading.counts is None
    assert reading.reason == (
        "the build failed before the tests of 1 package(s) ran: example.com/fx/a [build failed]: "
        "a/a.go:3:2: undefined: nope; only 1 other package(s) ran their tests"
    )


def test_a_one_megabyte_build_error_line_is_clipped_in_the_reason() -> None:
    reading = read("# example.com/fx/a\n" + "x" * 1_000_000 + "\nFAIL\texample.com/fx/a [build failed]\nFAIL\n")
    assert reading is not None
    assert reading.reason and len(reading.reason) < 400


def test_older_go_result_lines_in_seconds_are_read() -> None:
    reading = read("=== RUN TestA\n--- PASS: TestA (0.00 seconds)\nPASS\nok  \texample.com/fx/a\t0.002s\n")
    assert reading is not None
    assert reading.counts == Counts(passed=1, failed=0, skipped=0)


def test_a_json_stream_is_left_to_the_json_parser() -> None:
    assert (
        read(
            "FAIL\texample.com/fx/a [build failed]\n"
            '{"Time":"2026-01-01T00:00:00Z","Action":"pass","Package":"example.com/fx/b","Test":"TestB"}\n'
            '{"Time":"2026-01-01T00:00:00Z","Action":"pass","Package":"example.com/fx/b"}\n'
        )
        is None
    )


def test_other_runners_output_is_not_go_test() -> None:
    assert read("test result: ok. 3 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out\n") is None
    assert read("ok 1 - addition\nok 2 - subtraction\n1..2\n") is None
    assert read("tests/test_a.py::test_one PASSED\n=== 1 passed in 0.01s ===\n") is None


def test_a_gotestsum_log_that_reran_failed_tests_is_unparsed_and_a_report_may_stand_for_it() -> None:
    reading = read(
        "=== RUN   TestA\n--- FAIL: TestA (0.00s)\nFAIL\nFAIL\texample.com/fx/a\t0.003s\n\n"
        "DONE 1 tests, 1 failure in 0.004s\n\n"
        "=== RUN   TestA\n--- PASS: TestA (0.00s)\nPASS\nok  \texample.com/fx/a\t0.003s\n\n"
        "DONE 2 runs, 2 tests, 1 failure in 0.4s\n"
    )
    assert reading is not None
    assert reading.counts is None
    assert reading.no_count_printed
    assert reading.failed_tests == ()
    assert reading.reason == (
        "gotestsum reran the failed tests ('DONE 2 runs, 2 tests, 1 failure in 0.4s'): the result lines count every "
        "run, not each test once; its JUnit report (--junitfile) lists the runs of each test"
    )


def test_a_gotestsum_log_of_one_run_is_read_as_go_test_v() -> None:
    reading = read(
        "=== RUN   TestA\n--- PASS: TestA (0.00s)\nPASS\nok  \texample.com/fx/a\t0.003s\n\nDONE 1 tests in 0.4s\n"
    )
    assert reading is not None
    assert reading.counts == Counts(passed=1, failed=0, skipped=0)
