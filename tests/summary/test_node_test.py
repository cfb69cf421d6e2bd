"""node --test's summary beyond the captured fixtures: older summaries without `suites`, cancelled
tests, test files with subtests, broken sequences, other TAP producers and dot-like output."""

from __future__ import annotations

from evidence_gate.model import Counts
from evidence_gate.summary.base import Reading
from evidence_gate.summary.parsers.node_test import NodeTestParser


def read(text: str) -> Reading | None:
    parser = NodeTestParser()
    for line in text.splitlines():
        parser.feed(line)
    return parser.finish()


def summary(tests: int, passed: int, failed: int, cancelled: int, skipped: int, todo: int, prefix: str = "# ") -> str:
    values = {"tests": tests, "pass": passed, "fail": failed, "cancelled": cancelled, "skipped": skipped, "todo": todo}
    return "".join(f"{prefix}{key} {value}\n" for key, value in values.items()) + f"{prefix}duration_ms 12.5\n"


def test_a_summary_without_suites_and_cancelled_tests_as_failed() -> None:
    reading = read("TAP version 13\n1..6\n" + summary(6, 3, 1, 1, 0, 1))
    assert reading is not None
    assert reading.counts == Counts(passed=3, failed=2, skipped=1)


def test_spec_summaries_add_up() -> None:
    spec = "\u2139 "
    reading = read(summary(2, 2, 0, 0, 0, 0, spec) + summary(3, 1, 1, 0, 1, 0, spec))
    assert reading is not None
    assert reading.counts == Counts(passed=3, failed=1, skipped=1)
    assert reading.notes


def test_a_test_file_with_subtests_is_not_taken_for_an_empty_file() -> None:
    reading = read(
        "TAP version 13\n# Subtest: /repo/test/a.test.js\n    # Subtest: adds\n    ok 1 - adds\n    1..1\n"
        "ok 1 - /repo/test/a.test.js\n1..1\n" + summary(2, 2, 0, 0, 0, 0)
    )
    assert reading is not None
    assert reading.counts == Counts(passed=2, failed=0, skipped=0)


def test_an_empty_test_file_passing_is_not_a_test() -> None:
    reading = read(
        "TAP version 13\n# Subtest: C:\\repo\\empty.test.mjs\nok 1 - C:\\repo\\empty.test.mjs\n"
        + summary(1, 1, 0, 0, 0, 0)
    )
    assert reading is not None
    assert reading.counts == Counts(passed=0, failed=0, skipped=0)
    assert reading.notes


def test_a_broken_sequence_is_not_read() -> None:
    assert read("# tests 5\n# pass 5\n# skipped 0\n# todo 0\n# duration_ms 3\n") is None


def test_mochas_tap_summary_is_not_nodes() -> None:
    assert read("ok 1 math adds\n# tests 1\n# pass 1\n# fail 0\n1..1\n") is None


def test_dots_after_other_output_are_not_the_dot_reporter() -> None:
    assert read("> app@1.0.0 test\n> something\n....\n") is None
    reading = read("..X.\n\nFailed tests:\n\n✖ adds (1ms)\n")
    assert reading is not None
    assert reading.counts is None


def test_a_tape_file_node_failed_without_a_failing_tap_test_stays_one_failed_test() -> None:
    crashed = (
        "# TAP version 13\n# ok 1 adds\n# ok 2 subtracts\n# 1..2\n"
        "# Subtest: /src/t/crash.test.js\nnot ok 1 - /src/t/crash.test.js\n"
    )
    reading = read(f"TAP version 13\n{crashed}1..1\n" + summary(1, 0, 1, 0, 0, 0))
    assert reading is not None
    assert reading.counts == Counts(passed=2, failed=1, skipped=0)


def test_tap_directives_in_a_tape_files_output_are_honoured_under_spec() -> None:
    output = "TAP version 13\nok 1 adds\nok 2 later # SKIP not yet\nnot ok 3 known # TODO fix\n1..3\n"
    reading = read(f"{output}✔ /src/t/math.test.js (12.5ms)\n" + summary(1, 1, 0, 0, 0, 0, prefix="\u2139 "))
    assert reading is not None
    assert reading.counts == Counts(passed=1, failed=0, skipped=2)
