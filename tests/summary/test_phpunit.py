"""PHPUnit beyond the captured fixtures: every part of the counts line, warnings-only runs, several
runs, PHPUnit 10's lines, fatal errors and truncated runs, and other runners' output."""

from __future__ import annotations

from evidence_gate.model import Counts
from evidence_gate.summary.base import Reading
from evidence_gate.summary.parsers.phpunit import PhpunitParser

BANNER_9 = "PHPUnit 9.6.7 by Sebastian Bergmann and contributors.\n\n"
BANNER_10 = "PHPUnit 10.5.20 by Sebastian Bergmann and contributors.\n\nRuntime:       PHP 8.3.0\n\n"


def read(text: str) -> Reading | None:
    parser = PhpunitParser()
    for line in text.splitlines():
        parser.feed(line)
    return parser.finish()


def test_a_counts_line_with_every_part() -> None:
    reading = read(
        BANNER_9 + "ERRORS!\n"
        "Tests: 12, Assertions: 20, Errors: 1, Failures: 2, Warnings: 1, Skipped: 1, Incomplete: 1, Risky: 1.\n"
    )
    assert reading is not None
    assert reading.counts == Counts(passed=6, failed=3, skipped=2)
    assert any("warning" in note for note in reading.notes)


def test_singular_ok_line() -> None:
    reading = read(BANNER_9 + ".\n\nOK (1 test, 1 assertion)\n")
    assert reading is not None
    assert reading.counts == Counts(passed=1, failed=0, skipped=0)


def test_a_warnings_only_run_leaves_the_warning_out() -> None:
    reading = read(BANNER_9 + ".W\n\nWARNINGS!\nTests: 2, Assertions: 1, Warnings: 1.\n")
    assert reading is not None
    assert reading.counts == Counts(passed=1, failed=0, skipped=0)


def test_several_runs_add_up() -> None:
    reading = read(
        BANNER_9 + "OK (3 tests, 3 assertions)\n" + BANNER_9 + "FAILURES!\nTests: 2, Assertions: 2, Failures: 1.\n"
    )
    assert reading is not None
    assert reading.counts == Counts(passed=4, failed=1, skipped=0)
    assert "2 PHPUnit runs added up" in reading.notes


def test_phpunit_10_issues_are_not_tests() -> None:
    reading = read(BANNER_10 + "OK, but there are issues!\nTests: 5, Assertions: 5, Deprecations: 2.\n")
    assert reading is not None
    assert reading.counts == Counts(passed=5, failed=0, skipped=0)
    reading = read(BANNER_10 + "FAILURES!\nTests: 5, Assertions: 5, Failures: 1, Warnings: 2, Risky: 1.\n")
    assert reading is not None
    assert reading.counts == Counts(passed=4, failed=1, skipped=0)


def test_phpunit_10_with_skipped_tests_is_unparsed() -> None:
    reading = read(BANNER_10 + "OK, but some tests were skipped!\nTests: 5, Assertions: 3, Skipped: 2.\n")
    assert reading is not None
    assert reading.counts is None
    assert reading.reason and "--junit" in reading.reason


def test_an_unknown_part_of_the_counts_line_is_unparsed() -> None:
    reading = read(BANNER_9 + "FAILURES!\nTests: 2, Assertions: 2, Failures: 1, Flukes: 1.\n")
    assert reading is not None
    assert reading.counts is None


def test_a_fatal_error_during_the_run_is_unparsed() -> None:
    reading = read(BANNER_9 + "...PHP Fatal error:  Allowed memory size of 134217728 bytes exhausted\n")
    assert reading is not None
    assert reading.counts is None


def test_a_banner_without_closing_lines_is_unparsed() -> None:
    reading = read(BANNER_9 + "...F.\n")
    assert reading is not None
    assert reading.counts is None


def test_a_parse_error_in_a_test_file_is_phpunit_even_without_a_trace() -> None:
    reading = read("PHP Parse error:  syntax error, unexpected '}' in /app/tests/UserTest.php on line 9\n")
    assert reading is not None
    assert reading.counts is None


def test_other_runners_output_is_not_phpunit() -> None:
    # A plain PHP script's fatal error; JUnit 3's and CppUnit's text runners; minitest.
    assert read("PHP Fatal error:  Uncaught Exception: boom in /app/bin/run.php:3\n") is None
    assert read("FAILURES!!!\nTests run: 3,  Failures: 1,  Errors: 0\n") is None
    assert read("!!!FAILURES!!!\nTest Results:\nRun:  3   Failures: 1   Errors: 0\n") is None
    assert read("3 runs, 3 assertions, 0 failures, 0 errors, 0 skips\n") is None
