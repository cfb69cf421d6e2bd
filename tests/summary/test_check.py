"""Check beyond the captured fixtures: several runners and programs, runners cut off, summary lines
that contradict themselves, huge counts, interleaved junk, and other runners' output."""

from __future__ import annotations

from pathlib import Path

from evidence_gate.model import Counts
from evidence_gate.summary.base import MAX_FAILED_NAMES, Reading
from evidence_gate.summary.parsers.check import CheckParser
from evidence_gate.summary.read import read_source

FIXTURES = Path(__file__).parent.parent / "fixtures"


def read(text: str) -> Reading | None:
    parser = CheckParser()
    for line in text.splitlines():
        parser.feed(line)
    return parser.finish()


RUNNER = (
    "Running suite(s): Money\n"
    " Parser\n"
    "60%: Checks: 5, Failures: 1, Errors: 1\n"
    "money.c:12:F:Core:test_sub:0: Assertion 'a == b' failed\n"
    "money.c:20:E:Core:test_crash:0: (after this point) Received signal 11 (Segmentation fault)\n"
)


def test_failures_and_errors_are_failed_and_nothing_is_skipped() -> None:
    reading = read(RUNNER)
    assert reading is not None
    assert reading.counts == Counts(passed=3, failed=2, skipped=0)
    assert reading.failed_tests == ("Core:test_sub", "Core:test_crash")


def test_programs_in_one_log_add_up_and_say_so() -> None:
    reading = read(RUNNER + "make[1]: Entering directory 'tests'\n" + RUNNER.replace("Money", "Dates"))
    assert reading is not None
    assert reading.counts == Counts(passed=6, failed=4, skipped=0)
    assert reading.notes == ("2 Check runners added up",)


def test_a_runner_cut_before_its_summary_is_unparsed_even_after_good_runners() -> None:
    reading = read(RUNNER + "Running suite(s): Storage\n")
    assert reading is not None
    assert reading.counts is None
    assert reading.reason is not None
    assert "`Running suite(s): Storage`" in reading.reason
    assert reading.failed_tests == ("Core:test_sub", "Core:test_crash")


def test_a_runner_cut_then_followed_by_another_is_unparsed() -> None:
    reading = read("Running suite(s): Money\n" + RUNNER.replace("Money", "Dates"))
    assert reading is not None
    assert reading.counts is None
    assert reading.reason is not None and "`Running suite(s): Money`" in reading.reason


def test_a_summary_that_contradicts_itself_is_unparsed() -> None:
    for summary in (
        "100%: Checks: 3, Failures: 2, Errors: 0",  # failures, yet 100%
        "50%: Checks: 2, Failures: 2, Errors: 1",  # more failed than checks
        "0%: Checks: 4, Failures: 0, Errors: 1",  # 75% passed
    ):
        reading = read(f"Running suite(s): Money\n{summary}\n")
        assert reading is not None, summary
        assert reading.counts is None, summary
        assert reading.reason == f"Check's summary line contradicts itself: {summary}"


def test_check_s_truncated_percentage_is_accepted() -> None:
    reading = read("Running suite(s): Money\n45%: Checks: 11, Failures: 3, Errors: 3\n")
    assert reading is not None
    assert reading.counts == Counts(passed=5, failed=6, skipped=0)


def test_interleaved_junk_and_a_message_spanning_lines_do_not_change_the_count() -> None:
    reading = read(
        "Running suite(s): Money\n"
        "\x00\x01 garbage :F: line\n"
        "money.c:9:F:Core:looks_like:0: printed by a test before the summary\n"
        "50%: Checks: 2, Failures: 1, Errors: 0\n"
        "money.c:12:F:Core:test_sub:0: first line of the message\n"
        "money.c:13:F:Core:not_a_test:0: second line of the same message\n"
    )
    assert reading is not None
    assert reading.counts == Counts(passed=1, failed=1, skipped=0)
    assert reading.failed_tests == ("Core:test_sub",)


def test_names_are_clipped_and_capped() -> None:
    long_name = "t" * 5000
    lines = [f"0%: Checks: {MAX_FAILED_NAMES + 5}, Failures: {MAX_FAILED_NAMES + 5}, Errors: 0"]
    lines += [f"x.c:1:F:Core:n{index}{long_name}:0: failed" for index in range(MAX_FAILED_NAMES + 5)]
    reading = read("Running suite(s): Big\n" + "\n".join(lines) + "\n")
    assert reading is not None
    assert reading.counts == Counts(passed=0, failed=MAX_FAILED_NAMES + 5, skipped=0)
    assert len(reading.failed_tests) == MAX_FAILED_NAMES
    assert all(len(name) < 300 for name in reading.failed_tests)


def test_a_summary_line_alone_is_read() -> None:
    """`srunner_print` after a silent run prints the summary without `Running suite(s):`."""
    reading = read("100%: Checks: 2, Failures: 0, Errors: 0\n")
    assert reading is not None
    assert reading.counts == Counts(passed=2, failed=0, skipped=0)


def test_other_runners_output_is_not_check() -> None:
    assert read("Files=2, Tests=5,  0 wallclock secs\nResult: PASS\n") is None
    assert read("100% tests passed, 0 tests failed out of 3\n") is None
    assert read("[==========] Running 3 test(s).\n[  PASSED  ] 3 test(s).\n") is None
    assert read("src/a.c:12:F:not:check:0: no summary before it\n") is None
    assert read("Checks: 3, Failures: 0, Errors: 0\n") is None


def test_googletest_output_is_not_check() -> None:
    for name in ("mixed.log", "mixed.tty.log", "success.log"):
        summary = read_source(FIXTURES / "googletest" / name, ["check"])
        assert summary.counts is None
        assert summary.parser is None


CTEST_RUN = (
    "Test project /build\n"
    "    Start 1: money\n"
    "1/2 Test #1: money ....***Failed    0.01 sec\n"
    "{inner}"
    "    Start 2: dates\n"
    "2/2 Test #2: dates ....   Passed    0.01 sec\n\n"
    "50% tests passed, 1 tests failed out of 2\n"
)


def test_check_output_inside_a_ctest_run_is_left_to_ctest() -> None:
    assert read(CTEST_RUN.format(inner=RUNNER)) is None


def test_a_check_run_after_a_ctest_run_is_read_and_the_one_inside_noted() -> None:
    reading = read(CTEST_RUN.format(inner=RUNNER) + RUNNER)
    assert reading is not None
    assert reading.counts == Counts(passed=3, failed=2, skipped=0)
    assert reading.notes == ("1 Check runner(s) printed inside a ctest run are its tests' output: ctest counts them",)


def test_a_ctest_run_cut_off_leaves_its_check_output_unread() -> None:
    """ctest's own reading of such a log is unparsed (no closing line); Check's output in it is ctest's."""
    assert read("Test project /build\n" + RUNNER) is None
