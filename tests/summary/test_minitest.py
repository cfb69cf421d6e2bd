"""Minitest beyond the captured fixtures: several runs, load errors beside a closing line, truncated
and interrupted runs, Test::Unit's and other runners' output."""

from __future__ import annotations

from evidence_gate.model import Counts
from evidence_gate.summary.base import Reading
from evidence_gate.summary.parsers.minitest import MinitestParser

RUN = "Run options: --seed 1\n\n# Running:\n\n"


def read(text: str) -> Reading | None:
    parser = MinitestParser()
    for line in text.splitlines():
        parser.feed(line)
    return parser.finish()


def test_every_outcome_and_singular_words() -> None:
    reading = read(RUN + "..FES\n\n1 run, 1 assertion, 1 failure, 1 error, 1 skip\n")
    assert reading is not None
    assert reading.counts is None  # one run cannot hold three outcomes
    reading = read(RUN + "..FES\n\n5 runs, 4 assertions, 1 failures, 1 errors, 1 skips\n")
    assert reading is not None
    assert reading.counts == Counts(passed=2, failed=2, skipped=1)


def test_several_runs_add_up() -> None:
    reading = read(
        RUN + "3 runs, 3 assertions, 0 failures, 0 errors, 0 skips\n"
        "# Running tests with run options --seed 2:\n\n2 tests, 2 assertions, 1 failures, 0 errors, 0 skips\n"
    )
    assert reading is not None
    assert reading.counts == Counts(passed=4, failed=1, skipped=0)
    assert "2 Minitest runs added up" in reading.notes


def test_a_file_that_does_not_load_makes_the_log_unparsed_even_beside_a_closing_line() -> None:
    reading = read(
        RUN + "2 runs, 2 assertions, 0 failures, 0 errors, 0 skips\n"
        "test/models/user_test.rb:3:in `<top (required)>': uninitialized constant User (NameError)\n"
        "\tfrom -e:1:in `load'\n"
    )
    assert reading is not None
    assert reading.counts is None
    assert reading.reason and "NameError" in reading.reason


def test_ruby_3_4_quotes_the_method_with_a_straight_quote() -> None:
    reading = read("-e:1:in 'Kernel#load': test/b_test.rb:6: syntax errors found (SyntaxError)\n")
    assert reading is not None
    assert reading.counts is None


def test_an_exception_outside_any_test_file_is_not_minitest() -> None:
    assert read("script.rb:1:in `run': boom (RuntimeError)\n") is None


def test_a_run_without_its_closing_line_is_unparsed() -> None:
    reading = read(RUN + "..F\n")
    assert reading is not None
    assert reading.counts is None


def test_an_interrupted_run_without_failures_is_unparsed() -> None:
    reading = read(RUN + "..Interrupted. Exiting...\n\n\n2 runs, 2 assertions, 0 failures, 0 errors, 0 skips\n")
    assert reading is not None
    assert reading.counts is None
    assert reading.reason and "interrupted" in reading.reason


def test_an_interrupted_run_with_failures_keeps_its_counts() -> None:
    reading = read(RUN + ".FInterrupted. Exiting...\n\n2 runs, 2 assertions, 1 failures, 0 errors, 0 skips\n")
    assert reading is not None
    assert reading.counts == Counts(passed=1, failed=1, skipped=0)


def test_other_runners_output_is_not_minitest() -> None:
    # Test::Unit's closing line goes on with pendings, omissions and notifications.
    assert read("5 tests, 5 assertions, 0 failures, 0 errors, 0 pendings, 0 omissions, 0 notifications\n") is None
    assert read("Tests: 4, Assertions: 4, Failures: 1.\n") is None
    assert read("5 examples, 0 failures\n") is None
