"""RSpec beyond the captured fixtures: every optional part of the summary, several runs, a summary
printed by another tool, interrupted and truncated runs, and other runners' output."""

from __future__ import annotations

from evidence_gate.model import Counts
from evidence_gate.summary.base import Reading
from evidence_gate.summary.parsers.rspec import RspecParser

FINISHED = "Finished in 0.0123 seconds (files took 0.1 seconds to load)\n"


def read(text: str) -> Reading | None:
    parser = RspecParser()
    for line in text.splitlines():
        parser.feed(line)
    return parser.finish()


def test_a_summary_with_every_part() -> None:
    reading = read(FINISHED + "10 examples, 2 failures, 3 pending, 1 error occurred outside of examples\n")
    assert reading is not None
    assert reading.counts == Counts(passed=5, failed=3, skipped=3)
    assert reading.notes


def test_singular_forms() -> None:
    reading = read(FINISHED + "1 example, 1 failure, 1 error occurred outside of examples\n")
    assert reading is not None
    assert reading.counts == Counts(passed=0, failed=2, skipped=0)
    reading = read(FINISHED + "1 example, 0 failures, 1 pending\n")
    assert reading is not None
    assert reading.counts == Counts(passed=0, failed=0, skipped=1)


def test_durations_past_a_minute() -> None:
    finished = "Finished in 1 minute 5.3 seconds (files took 1 minute 2 seconds to load)\n"
    reading = read(finished + "3 examples, 0 failures\n")
    assert reading is not None
    assert reading.counts == Counts(passed=3, failed=0, skipped=0)


def test_several_runs_add_up_and_a_combined_total_is_not_added_again() -> None:
    # parallel_tests prints each process's summary, then its own total without a `Finished in` line.
    log = FINISHED + "3 examples, 1 failure\n\n" + FINISHED + "2 examples, 0 failures\n\n\n5 examples, 1 failure\n"
    reading = read(log)
    assert reading is not None
    assert reading.counts == Counts(passed=4, failed=1, skipped=0)
    assert "2 RSpec runs added up" in reading.notes


def test_a_log_cut_after_finished_in_is_unparsed() -> None:
    reading = read("..\n\n" + FINISHED)
    assert reading is not None
    assert reading.counts is None
    assert reading.reason


def test_an_interrupted_run_without_failures_is_unparsed() -> None:
    log = ".\nRSpec is shutting down and will print the summary report... Interrupt again to force quit.\n.\n\n"
    reading = read(log + FINISHED + "2 examples, 0 failures\n")
    assert reading is not None
    assert reading.counts is None
    assert reading.reason and "interrupted" in reading.reason


def test_an_interrupted_run_with_failures_keeps_its_counts() -> None:
    log = "F\nRSpec is shutting down and will print the summary report... Interrupt again to force quit.\n\n"
    reading = read(log + FINISHED + "2 examples, 1 failure\n")
    assert reading is not None
    assert reading.counts == Counts(passed=1, failed=1, skipped=0)


def test_a_summary_counting_more_than_its_examples_is_unparsed() -> None:
    reading = read(FINISHED + "2 examples, 2 failures, 1 pending\n")
    assert reading is not None
    assert reading.counts is None


def test_other_runners_output_is_not_rspec() -> None:
    # Minitest's `Finished in` line, and a summary without RSpec's `Finished in` line before it.
    assert (
        read("Finished in 0.002041s, 1469.8872 runs/s.\n\n3 runs, 1 assertions, 0 failures, 0 errors, 0 skips\n")
        is None
    )
    assert read("3 examples, 0 failures\n") is None
    assert read("Finished in 0.5 seconds\n3 examples, 0 failures\n") is None
