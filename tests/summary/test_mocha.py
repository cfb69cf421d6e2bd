"""mocha's epilogue beyond the captured fixtures: long durations, several runs, stray `N failing`
lines, a load error beside a finished run, and mocha's own TAP (left to the tap parser)."""

from __future__ import annotations

from pathlib import Path

from evidence_gate.model import Counts
from evidence_gate.summary.base import Reading
from evidence_gate.summary.parsers.mocha import MochaParser
from evidence_gate.summary.read import read_lines

FIXTURES = Path(__file__).parent.parent / "fixtures" / "stack-logs"


def read(text: str) -> Reading | None:
    parser = MochaParser()
    for line in text.splitlines():
        parser.feed(line)
    return parser.finish()


def test_durations_in_seconds_and_minutes_and_runs_adding_up() -> None:
    reading = read("\n  12 passing (2s)\n  1 pending\n\n\n  40 passing (1m)\n  2 failing\n\n  1) x:\n")
    assert reading is not None
    assert reading.counts == Counts(passed=52, failed=2, skipped=1)
    assert reading.notes


def test_pending_and_failing_lines_count_only_right_after_passing() -> None:
    reading = read("  3 failing\n\n  5 passing (10ms)\n\n  2 pending\n")
    assert reading is not None
    assert reading.counts == Counts(passed=5, failed=0, skipped=0)


def test_a_load_error_beside_a_finished_run_is_unparsed() -> None:
    reading = read("  5 passing (10ms)\n\n Exception during run: /repo/test/broken.spec.js:3\n")
    assert reading is not None
    assert reading.counts is None
    assert reading.reason


def test_mochas_tap_is_left_to_the_tap_parser() -> None:
    paths = sorted((FIXTURES / "mocha").glob("*.tap.log"))
    assert paths, f"no TAP fixture log under {FIXTURES / 'mocha'}"
    for path in paths:
        parser = MochaParser()
        for line in read_lines(path):
            parser.feed(line)
        reading = parser.finish()
        if path.name.startswith("load-error"):
            assert reading is not None
            assert reading.counts is None
        else:
            assert reading is None, path
