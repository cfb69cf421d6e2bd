"""xcodebuild and `swift test` output beyond the fixtures: swift-corelibs-xctest names, SF Symbol
prefixes, known issues, parallel Swift Testing lines, crashes, verdicts without counts, and other
runners' output."""

from __future__ import annotations

from evidence_gate.model import Counts
from evidence_gate.summary.base import Reading
from evidence_gate.summary.parsers.xcodebuild import XcodebuildParser
from tests.summary.memory import memory_kept


def read(text: str) -> Reading | None:
    parser = XcodebuildParser()
    for line in text.splitlines():
        parser.feed(line)
    return parser.finish()


CORELIBS_RUN = (
    "Test Suite 'All tests' started at 2024-11-29 10:00:00.000\n"
    "Test Suite 'FxPackageTests.xctest' started at 2024-11-29 10:00:00.000\n"
    "Test Suite 'MathTests' started at 2024-11-29 10:00:00.000\n"
    "Test Case 'MathTests.testAdd' started at 2024-11-29 10:00:00.000\n"
    "Test Case 'MathTests.testAdd' passed (0.001 seconds)\n"
    "Test Case 'MathTests.testDiv' started at 2024-11-29 10:00:00.001\n"
    "/src/Tests/MathTests.swift:9: error: MathTests.testDiv : XCTAssertEqual failed\n"
    "/src/Tests/MathTests.swift:10: error: MathTests.testDiv : XCTAssertEqual failed\n"
    "Test Case 'MathTests.testDiv' failed (0.001 seconds)\n"
    "Test Suite 'MathTests' failed at 2024-11-29 10:00:00.002\n"
    "\t Executed 2 tests, with 2 failures (0 unexpected) in 0.002 (0.002) seconds\n"
    "Test Suite 'FxPackageTests.xctest' failed at 2024-11-29 10:00:00.002\n"
    "\t Executed 2 tests, with 2 failures (0 unexpected) in 0.002 (0.002) seconds\n"
    "Test Suite 'All tests' failed at 2024-11-29 10:00:00.002\n"
    "\t Executed 2 tests, with 2 failures (0 unexpected) in 0.002 (0.002) seconds\n"
)


def test_swift_test_on_linux_counts_failed_tests_not_failures() -> None:
    reading = read(CORELIBS_RUN)
    assert reading is not None
    assert reading.counts == Counts(passed=1, failed=1, skipped=0)


def test_swift_testing_with_sf_symbols_and_a_known_issue_adds_to_xctest() -> None:
    reading = read(
        CORELIBS_RUN
        + "\U001007c8  Test run started.\n"
        + "\U0010105b  Test sum() passed after 0.001 seconds.\n"
        + '\U00100884  Test "Rounds down" passed after 0.001 seconds with 1 known issue.\n'
        + "\U0010065f  Test later() skipped.\n"
        + "\U00100884  Test run with 3 tests passed after 0.002 seconds with 1 known issue.\n"
    )
    assert reading is not None
    assert reading.counts == Counts(passed=2, failed=1, skipped=2)


def test_parallel_swift_testing_lines_count_unless_the_run_line_has_them() -> None:
    parallel = (
        "Test case 'MathTests.testAdd()' passed on 'My Mac - xctest (101)' (0.001 seconds)\n"
        "Test case 'OperationTests/divide()' failed on 'My Mac - xctest (101)' (0.002 seconds)\n"
    )
    alone = read(parallel)
    assert alone is not None
    assert alone.counts == Counts(passed=1, failed=1, skipped=0)
    with_run = read(
        parallel
        + "\u2718 Test divide() failed after 0.002 seconds with 1 issue.\n"
        + "\u2718 Test run with 1 test failed after 0.002 seconds with 1 issue.\n"
    )
    assert with_run is not None
    assert with_run.counts == Counts(passed=1, failed=1, skipped=0)


def test_a_root_with_failures_but_no_failed_test_line_is_one_error() -> None:
    reading = read(
        "Test Suite 'All tests' started at 2024-11-29 10:00:00.000\n"
        "Test Suite 'All tests' failed at 2024-11-29 10:00:00.002\n"
        "\t Executed 3 tests, with 1 failure (1 unexpected) in 0.002 (0.002) seconds\n"
    )
    assert reading is not None
    assert reading.counts == Counts(passed=2, failed=1, skipped=0)


def test_a_suite_that_never_closes_is_unparsed() -> None:
    reading = read(CORELIBS_RUN.rsplit("Test Suite 'FxPackageTests.xctest'", 1)[0])
    assert reading is not None
    assert reading.counts is None


def test_swift_testing_results_without_the_run_line_are_unparsed() -> None:
    reading = read("\u25c7 Test run started.\n\u2714 Test sum() passed after 0.001 seconds.\n")
    assert reading is not None
    assert reading.counts is None


def test_a_failed_or_green_verdict_without_counts_is_unparsed() -> None:
    failed = read("Testing failed:\n\tTest crashed with signal kill.\n\n** TEST EXECUTE FAILED **\n")
    assert failed is not None
    assert failed.counts is None
    assert failed.reason == "xcodebuild says `** TEST EXECUTE FAILED **` but printed no test result"
    green = read("** TEST SUCCEEDED **\n")
    assert green is not None
    assert green.counts is None


def test_a_failed_verdict_after_compile_errors_is_a_build_failure() -> None:
    reading = read(
        "/src/Tests/ParserTests.swift:12:5: error: cannot find 'parse' in scope\n"
        "Testing failed:\n\tCannot find 'parse' in scope\n** TEST FAILED **\n"
    )
    assert reading is not None
    assert reading.counts is None
    assert reading.reason == (
        "the build failed before any test ran: /src/Tests/ParserTests.swift:12:5: error: cannot find 'parse' in scope"
    )


def test_an_xctest_assertion_line_is_not_a_build_error() -> None:
    reading = read(
        "Test Suite 'All tests' started at 2024-11-29 10:00:00.000\n"
        "Test Case '-[T.A testX]' started.\n"
        "/src/Tests/A.swift:21: error: -[T.A testX] : XCTAssertEqual failed\n"
        "Test Case '-[T.A testX]' failed (0.001 seconds).\n"
        "Test Suite 'All tests' failed at 2024-11-29 10:00:00.100.\n"
        "\t Executed 1 test, with 1 failure (0 unexpected) in 0.001 (0.002) seconds\n"
        "** TEST FAILED **\n"
    )
    assert reading is not None
    assert reading.counts == Counts(passed=0, failed=1, skipped=0)


def test_other_runners_output_is_not_xcodebuild() -> None:
    assert read("=== RUN   TestA\n--- PASS: TestA (0.00s)\nok  \texample.com/fx/a\t0.01s\n") is None
    assert read("Tests run: 3, Failures: 0, Errors: 0, Skipped: 0\n[INFO] BUILD SUCCESS\n") is None
    assert read("✓ adds (2 ms)\nTest Suites: 1 passed, 1 total\nTests:       1 passed, 1 total\n") is None


def test_a_relaunch_after_a_crash_reads_the_final_root() -> None:
    reading = read(
        "Test Suite 'All tests' started at 2024-11-29 10:00:00.000\n"
        "Test Suite 'Fx.xctest' started at 2024-11-29 10:00:00.000\n"
        "Test Suite 'CrashTests' started at 2024-11-29 10:00:00.000\n"
        "Test Case '-[Fx.CrashTests testA]' passed (0.001 seconds).\n"
        "Test Case '-[Fx.CrashTests testCrash]' started.\n"
        "Restarting after unexpected exit, crash, or test timeout in CrashTests.testCrash(); "
        "summary will include totals from previous launches.\n"
        "Test Suite 'Selected tests' started at 2024-11-29 10:00:01.000\n"
        "Test Suite 'Fx.xctest' started at 2024-11-29 10:00:01.000\n"
        "Test Suite 'CrashTests' started at 2024-11-29 10:00:01.000\n"
        "Test Case '-[Fx.CrashTests testB]' passed (0.001 seconds).\n"
        "Test Suite 'CrashTests' failed at 2024-11-29 10:00:01.002\n"
        "\t Executed 3 tests, with 1 failure (0 unexpected) in 0.002 (0.002) seconds\n"
        "Test Suite 'Fx.xctest' failed at 2024-11-29 10:00:01.002\n"
        "\t Executed 3 tests, with 1 failure (0 unexpected) in 0.002 (0.002) seconds\n"
        "Test Suite 'Selected tests' failed at 2024-11-29 10:00:01.002\n"
        "\t Executed 3 tests, with 1 failure (0 unexpected) in 0.002 (0.002) seconds\n"
    )
    assert reading is not None
    assert reading.counts == Counts(passed=2, failed=1, skipped=0)


def test_expected_failures_with_one_megabyte_names_keep_the_parser_small() -> None:
    lines = [f"A.swift:1: Expected failure in -[T.A test{number}{'x' * 1_000_000}]: reason" for number in range(20)]
    parser = XcodebuildParser()
    assert memory_kept(parser, lines) < 1_000_000
