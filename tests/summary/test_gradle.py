"""Gradle beyond the captured fixtures: several failing test tasks, singular words, progress lines,
NO-SOURCE beside a task that ran, up-to-date test tasks, and other build tools' output."""

from __future__ import annotations

from evidence_gate.model import Counts
from evidence_gate.summary.base import Reading
from evidence_gate.summary.parsers.gradle import GradleParser

FAILED_END = "\nFAILURE: Build failed with an exception.\n\nBUILD FAILED in 9s\n6 actionable tasks: 6 executed\n"
SUCCESS_END = "\nBUILD SUCCESSFUL in 5s\n4 actionable tasks: 4 executed\n"


def read(text: str) -> Reading | None:
    parser = GradleParser()
    for line in text.splitlines():
        parser.feed(line)
    return parser.finish()


def test_failing_test_tasks_add_up() -> None:
    log = (
        "> Task :core:test FAILED\n\ncom.example.A > a FAILED\n    java.lang.AssertionError at A.java:9\n\n"
        "5 tests completed, 1 failed, 2 skipped\n"
        "> Task :app:test FAILED\n\ncom.example.B > b FAILED\n    java.lang.AssertionError at B.java:3\n\n"
        "1 test completed, 1 failed\n" + FAILED_END
    )
    reading = read(log)
    assert reading is not None
    assert reading.counts == Counts(passed=2, failed=2, skipped=2)
    assert "2 failing test tasks added up" in reading.notes


def test_progress_lines_are_not_counts() -> None:
    log = "> Task :test\n> :test > 3 tests completed, 1 failed\n<===========--> 85% EXECUTING [4s]\n" + SUCCESS_END
    reading = read(log)
    assert reading is not None
    assert reading.counts is None
    assert reading.reason and reading.reason.startswith("Gradle prints test counts only when a test fails")


def test_no_source_reads_as_zero_in_the_rich_console_form() -> None:
    reading = read(
        "> Task :compileTestJava NO-SOURCE\n> Task :testClasses UP-TO-DATE\n> Task :test NO-SOURCE\n" + SUCCESS_END
    )
    assert reading is not None
    assert reading.counts == Counts(passed=0, failed=0, skipped=0)


def test_no_source_beside_a_test_task_that_ran_is_unparsed() -> None:
    reading = read(":core:test NO-SOURCE\n:app:test\n" + SUCCESS_END)
    assert reading is not None
    assert reading.counts is None


def test_an_up_to_date_test_task_did_not_run() -> None:
    reading = read("> Task :test UP-TO-DATE\n" + SUCCESS_END)
    assert reading is not None
    assert reading.counts is None
    assert reading.reason and "UP-TO-DATE" in reading.reason


def test_a_compile_failure_beside_a_count_line_keeps_the_counts_with_a_note() -> None:
    log = (
        "> Task :app:compileTestJava FAILED\n> Task :core:test FAILED\n\n3 tests completed, 1 failed\n\n"
        "* What went wrong:\nExecution failed for task ':app:compileTestJava'.\n" + FAILED_END
    )
    reading = read(log)
    assert reading is not None
    assert reading.counts == Counts(passed=2, failed=1, skipped=0)
    assert any("compileTestJava" in note for note in reading.notes)


def test_a_count_line_counting_more_than_completed_is_unparsed() -> None:
    reading = read("2 tests completed, 2 failed, 1 skipped\n" + FAILED_END)
    assert reading is not None
    assert reading.counts is None


def test_other_build_tools_output_is_not_gradle() -> None:
    # Ant (targets end with a colon, no `actionable tasks` line) and Maven.
    assert read("compile:\n\nBUILD SUCCESSFUL\nTotal time: 1 second\n") is None
    assert read("[INFO] Tests run: 3, Failures: 0, Errors: 0, Skipped: 0\n[INFO] BUILD SUCCESS\n") is None
