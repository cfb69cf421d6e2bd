"""ctest beyond the captured fixtures: several runs in one log, tests not run for a failed
fixture, truncated logs, inconsistent lists, and other runners' output."""

from __future__ import annotations

from evidence_gate.model import Counts
from evidence_gate.summary.base import Reading
from evidence_gate.summary.parsers.ctest import CtestParser


def read(text: str) -> Reading | None:
    parser = CtestParser()
    for line in text.splitlines():
        parser.feed(line)
    return parser.finish()


RUN_WITH_SKIPS = (
    "Test project /tmp/b1\n"
    "    Start 1: a\n"
    "1/4 Test #1: a ................   Passed    0.00 sec\n"
    "2/4 Test #2: setup ............***Failed    0.00 sec\n"
    "3/4 Test #3: needs_setup ......***Not Run   0.00 sec\n"
    "4/4 Test #4: net ..............***Skipped   0.00 sec\n"
    "\n"
    "33% tests passed, 2 tests failed out of 4\n"
    "\n"
    "The following tests did not run:\n"
    "\t  4 - net (Skipped)\n"
    "\n"
    "The following tests FAILED:\n"
    "\t  2 - setup (Failed)\n"
    "\t  3 - needs_setup (Not Run)\n"
    "Errors while running CTest\n"
)


def test_not_run_tests_are_failed_and_return_code_skips_are_not_passed() -> None:
    reading = read(RUN_WITH_SKIPS)
    assert reading is not None
    assert reading.counts == Counts(passed=1, failed=2, skipped=1)


def test_several_runs_add_up() -> None:
    second = (
        "Test project /tmp/b2\n"
        "1/2 Test #1: x ................   Passed    0.00 sec\n"
        "2/2 Test #2: old ..............***Not Run (Disabled)   0.00 sec\n"
        "\n100% tests passed, 0 tests failed out of 1\n\n"
        "The following tests did not run:\n\t  2 - old (Disabled)\n"
    )
    reading = read(RUN_WITH_SKIPS + second)
    assert reading is not None
    assert reading.counts == Counts(passed=2, failed=2, skipped=2)


def test_a_log_cut_before_the_closing_line_is_unparsed() -> None:
    reading = read("Test project /tmp/b\n    Start 1: a\n1/3 Test #1: a ....   Passed    0.00 sec\n")
    assert reading is not None
    assert reading.counts is None


def test_a_did_not_run_list_longer_than_the_total_is_unparsed() -> None:
    reading = read(
        "Test project /tmp/b\n100% tests passed, 0 tests failed out of 1\n\n"
        "The following tests did not run:\n\t  1 - a (Skipped)\n\t  2 - b (Skipped)\n"
    )
    assert reading is not None
    assert reading.counts is None


def test_a_configure_error_is_unparsed_even_when_stale_tests_ran() -> None:
    reading = read(
        "CMake Error at CMakeLists.txt:3 (oops):\n-- Configuring incomplete, errors occurred!\n"
        "Test project /tmp/b\n1/1 Test #1: a ....   Passed    0.00 sec\n\n"
        "100% tests passed, 0 tests failed out of 1\n"
    )
    assert reading is not None
    assert reading.counts is None
    assert reading.reason == (
        "the build failed before any test ran: CMake's configure step failed: CMake Error at CMakeLists.txt:3 (oops):"
    )


def test_a_missing_executable_beside_tests_that_ran_is_unparsed() -> None:
    reading = read(
        "Test project /tmp/b\n"
        "1/2 Test #1: a ....   Passed    0.00 sec\n"
        "Unable to find executable: /tmp/b/gone\n"
        "2/2 Test #2: b ....***Not Run   0.00 sec\n\n"
        "50% tests passed, 1 tests failed out of 2\n"
    )
    assert reading is not None
    assert reading.counts is None
    assert reading.reason == (
        "the build failed before some tests ran: ctest found no executable for 1 test(s) "
        "(`Unable to find executable: /tmp/b/gone`); 1 other test(s) ran"
    )


def test_a_build_that_failed_for_some_executables_says_which_tests_did_not_run() -> None:
    reading = read(
        "gmake: *** [Makefile:101: all] Error 2\n"
        "Test project /tmp/b\n"
        "1/2 Test #1: a ....   Passed    0.00 sec\n"
        "Unable to find executable: /tmp/b/broken\n"
        "2/2 Test #2: b ....***Not Run   0.00 sec\n\n"
        "50% tests passed, 1 tests failed out of 2\n"
    )
    assert reading is not None
    assert reading.counts is None
    assert reading.reason == (
        "the build failed before some tests ran; ctest found no executable for 1 test(s) "
        "(`Unable to find executable: /tmp/b/broken`); 1 other test(s) ran, whose executables may be this "
        "build's or an earlier one's"
    )


def test_tests_ctest_did_not_run_are_failed_and_said() -> None:
    reading = read(RUN_WITH_SKIPS)
    assert reading is not None
    assert reading.notes == (
        "1 test(s) did not run (`***Not Run`: a failed fixture setup or a missing required file); counted as "
        "failed, as ctest counts them",
    )


def test_a_make_error_printed_by_a_test_is_its_output() -> None:
    reading = read(
        "Test project /tmp/b\n"
        "    Start 1: builds_a_fixture\n"
        "make: *** [Makefile:3: broken] Error 2\n"
        "1/1 Test #1: builds_a_fixture ....   Passed    0.00 sec\n\n"
        "100% tests passed, 0 tests failed out of 1\n"
    )
    assert reading is not None
    assert reading.counts == Counts(passed=1, failed=0, skipped=0)


def test_a_configure_error_alone_is_not_ctest_output() -> None:
    assert read("CMake Error at CMakeLists.txt:3 (oops):\n-- Configuring incomplete, errors occurred!\n") is None


def test_other_runners_output_is_not_ctest() -> None:
    assert read("Files=2, Tests=5,  0 wallclock secs\nResult: PASS\n") is None
    assert read("[ 50%] Built target calc\n[100%] Built target unit\n") is None
