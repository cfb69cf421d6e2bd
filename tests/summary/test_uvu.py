"""uvu beyond the captured fixtures: runs adding up, summaries cut or contradicting themselves, huge
counts, runs that ended before their summary, the failed tests' names, and other runners' output."""

from __future__ import annotations

from pathlib import Path

import pytest

from evidence_gate.model import Counts
from evidence_gate.summary.base import MAX_FAILED_NAMES, Reading
from evidence_gate.summary.parsers.uvu import UvuParser
from evidence_gate.summary.read import read_source
from evidence_gate.summary.registry import ALL_PARSERS


def read(text: str) -> Reading | None:
    parser = UvuParser()
    for line in text.splitlines():
        parser.feed(line)
    return parser.finish()


def summary(total: object, passed: object, skipped: object = 0, duration: str = "1.25ms") -> str:
    return f"\n  Total:     {total}\n  Passed:    {passed}\n  Skipped:   {skipped}\n  Duration:  {duration}\n\n"


def unread(text: str) -> str:
    reading = read(text)
    assert reading is not None
    assert reading.counts is None
    assert reading.reason is not None
    return reading.reason


def test_failed_is_total_minus_passed_and_skipped_is_outside_total() -> None:
    reading = read("• ✘ •   (2 / 3)\n" + summary(3, 2, 4))
    assert reading is not None
    assert reading.counts == Counts(passed=2, failed=1, skipped=4)
    assert reading.notes  # the failure has no FAIL block here: the note says it is counted all the same


def test_runs_add_up_and_say_so() -> None:
    reading = read("•   (1 / 1)\n" + summary(1, 1) + " math  • •   (2 / 2)\n" + summary(2, 2, 1))
    assert reading is not None
    assert reading.counts == Counts(passed=3, failed=0, skipped=1)
    assert reading.notes == ("2 uvu runs added up",)


def test_zero_tests_is_zero_counts() -> None:
    reading = read(summary(0, 0))
    assert reading is not None
    assert reading.counts == Counts(passed=0, failed=0, skipped=0)


def test_colours_and_crlf_are_read_through(tmp_path: Path) -> None:
    log = tmp_path / "uvu.log"
    log.write_bytes(
        b"\x1b[90m\xe2\x80\xa2 \x1b[39m\x1b[32m  (1 / 1)\r\n\x1b[39m\r\n  Total:     1\x1b[32m\r\n"
        b"  Passed:    1\x1b[39m\r\n  Skipped:   \x1b[33m2\x1b[39m\r\n  Duration:  0.50ms\r\n\r\n"
    )
    found = read_source(log, ALL_PARSERS)
    assert (found.parser, found.counts) == ("uvu", Counts(passed=1, failed=0, skipped=2))


def test_the_failed_tests_are_named_with_their_suite_and_capped_at_the_failed_count() -> None:
    log = (
        "• ✘   (1 / 2)\n\n"
        '   FAIL  "wrong sum"\n    Expected values to be strictly equal:  (is)\n\n'
        " text  ✘   (0 / 1)\n\n"
        '   FAIL  text  "splits on  \\"commas\\""\n    boom\n'
        '   FAIL  "printed by a test, not uvu\'s"\n' + summary(3, 1)
    )
    reading = read(log)
    assert reading is not None
    assert reading.counts == Counts(passed=1, failed=2, skipped=0)
    assert reading.failed_tests == ("wrong sum", 'text > splits on  \\"commas\\"')
    assert reading.notes == ()


def test_a_before_hook_that_threw_leaves_tests_counted_as_failed_with_a_note() -> None:
    reading = read(" db    (0 / 2)\n other  •   (1 / 1)\n" + summary(3, 1))
    assert reading is not None
    assert reading.counts == Counts(passed=1, failed=2, skipped=0)
    assert reading.failed_tests == ()
    assert len(reading.notes) == 1 and reading.notes[0].startswith("2 test(s) in uvu's Total")


def test_more_passed_than_in_total_is_unparsed() -> None:
    assert "contradicts itself" in unread(summary(2, 3))


@pytest.mark.parametrize(
    ("text", "missing"),
    [
        ("  Total:     3\n  Passed:    3\n", "Skipped"),  # the log ends inside the summary
        ("  Total:     3\n  Passed:    3\n  Skipped:   0\n", "Duration"),
        ("  Total:     3\n  Passed:    3\n\n  Skipped:   0\n  Duration:  1.00ms\n", "Skipped"),  # a line between
        ("  Total:     3\n  Passed:    3\n  Duration:  1.00ms\n", "Skipped"),  # out of order
        ("  Total:     3\n  Passed:    3\n  Skipped:   0\nnpm ERR! Test failed.\n", "Duration"),
    ],
)
def test_a_cut_summary_is_unparsed(text: str, missing: str) -> None:
    assert unread(text).endswith(f"is not followed by its `{missing}:` line")


@pytest.mark.parametrize(
    "text",
    [
        "  Total:     3\n",  # a Total line alone is nobody's
        "  Total:     3\nsomething else\n  Passed:    3\n  Skipped:   0\n  Duration:  1.00ms\n",
        "  Total:      3\n  Passed:     3\n  Skipped:    0\n  Duration:   1.00ms\n",  # not uvu's spacing
        "Total:     3\nPassed:    3\nSkipped:   0\nDuration:  1.00ms\n",
        "  Total:     3\n  Passed:    3 of them\n  Skipped:   0\n  Duration:  1.00ms\n",
    ],
)
def test_look_alikes_of_the_summary_are_not_uvu(text: str) -> None:
    assert read(text) is None


def test_values_uvu_never_prints_are_unparsed() -> None:
    assert "a value uvu never prints" in unread(summary("three", 3))
    assert "a value uvu never prints" in unread(summary(3, 3, duration="soon"))
    assert "a value uvu never prints" in unread(summary("٣", "٣"))  # Arabic-Indic digits


def test_a_summary_after_a_broken_one_is_still_read() -> None:
    """A Total line that was not uvu's does not hide the summary that follows it."""
    reading = read("  Total:     9\n" + summary(2, 2))
    assert reading is not None
    assert reading.counts == Counts(passed=2, failed=0, skipped=0)


def test_exiting_early_makes_the_run_unparsed_even_beside_a_finished_run() -> None:
    for text in (
        "• Exiting early before testing is finished.\n" + summary(2, 2),
        summary(2, 2) + "• • Exiting early before testing is finished.\n",
    ):
        assert unread(text).startswith("uvu exited before its tests finished")


def test_bail_keeps_the_failure_it_stopped_at() -> None:
    reading = read('• ✘   (1 / 2)\n\n   FAIL  "wrong sum"\n    boom\n\nExiting early before testing is finished.\n')
    assert reading is not None
    assert reading.counts is None
    assert reading.failed_tests == ("wrong sum",)


@pytest.mark.parametrize(
    "frame",
    [
        "    at async Module.run (file:///build/app/node_modules/uvu/run/index.mjs:9:3)",
        "    at Object.exports.run (/build/app/node_modules/uvu/run/index.js:9:3)",
        "    at async Module.run (C:\\build\\app\\node_modules\\uvu\\run\\index.js:9:3)",
    ],
)
def test_a_test_file_the_cli_could_not_load_is_unparsed(frame: str) -> None:
    text = f"Error: cannot load this test file\n    at Object.<anonymous> (/build/app/tests/broken.js:3:7)\n{frame}\n"
    assert unread(text).startswith("uvu stopped before running any test")
    assert unread(summary(1, 1) + text).startswith("uvu stopped before running any test")


def test_a_failing_tests_stack_through_the_runner_is_not_a_load_error() -> None:
    reading = read(
        " math  ✘   (0 / 1)\n\n"
        '   FAIL  math  "adds"\n    boom\n\n'
        "    at Object.handler (/build/app/tests/math.js:4:9)\n"
        "    at Number.runner (/build/app/node_modules/uvu/dist/index.js:78:16)\n"
        "    at async Module.exec (file:///build/app/node_modules/uvu/dist/index.mjs:141:33)\n"
        "    at async Module.run (file:///build/app/node_modules/uvu/run/index.mjs:12:2)\n" + summary(1, 0)
    )
    assert reading is not None
    assert reading.counts == Counts(passed=0, failed=1, skipped=0)
    assert reading.failed_tests == ("math > adds",)


def test_progress_or_a_failure_without_a_summary_after_it_is_unparsed() -> None:
    for text in (
        " math  • • ✘   (2 / 3)\n",
        summary(2, 2) + "• •   (2 / 2)\n",
        '•   (1 / 1)\n\n   FAIL  "cut"\n',
    ):
        assert unread(text).startswith("uvu's run ended before its Total/Passed/Skipped summary")


def test_progress_look_alikes_are_not_uvu() -> None:
    for text in (
        "  (0 / 0)\n",  # an empty suite's line says too little alone
        "• •   (3 / 2)\n",  # marks that are not its counts
        "• item one\n• item two\n",
        "Progress: (2 / 3)\n",
    ):
        assert read(text) is None, text


def test_names_are_clipped_and_capped() -> None:
    count = MAX_FAILED_NAMES + 5
    fails = "".join(f'   FAIL  "n{index}{"t" * 5000}"\n' for index in range(count))
    reading = read(fails + summary(count, 0))
    assert reading is not None
    assert reading.counts == Counts(passed=0, failed=count, skipped=0)
    assert len(reading.failed_tests) == MAX_FAILED_NAMES
    assert all(len(name) < 300 for name in reading.failed_tests)
