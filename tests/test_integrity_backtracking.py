"""A test definition's idiom on a line a pull request writes to make it try hard: a chain of calls
with no string after it (`it.each(rows)` many times) is read in time linear in the line, and the
chains a definition is written with are still counted."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

from evidence_gate.integrity.compare import definitions
from evidence_gate.integrity.idioms import default_idioms

# Run in a child process, so that a pattern that backtracks fails the test when the bound runs out
# instead of hanging the run.
BOUND_SECONDS = 10


def in_child(code: str) -> str:
    try:
        done = subprocess.run(
            [sys.executable, "-c", textwrap.dedent(code)],
            capture_output=True,
            text=True,
            timeout=BOUND_SECONDS,
            check=True,
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"still matching after {BOUND_SECONDS} s: the pattern backtracks")
    return done.stdout.strip()


def test_a_chain_of_thirty_calls_with_no_string_after_it_is_read_at_once() -> None:
    """`it.each(rows)` 30 times on one line (335 characters) hung the nested pattern: 20 links took
    a second, each link more doubled it."""
    counted = in_child(
        """
        from evidence_gate.integrity.compare import definitions
        from evidence_gate.integrity.idioms import default_idioms
        print(definitions(["it" + ".each(rows)" * 30 + ";"], "javascript", default_idioms()))
        """
    )
    assert counted == "0"


def test_twice_the_links_take_about_twice_the_time() -> None:
    """The ratio of the best of five timings, 4,000 links against 2,000, in one process: linear is 2,
    quadratic 4, and the nested pattern never finished either."""
    ratio = in_child(
        """
        import time
        from evidence_gate.integrity.compare import definitions
        from evidence_gate.integrity.idioms import default_idioms
        idioms = default_idioms()
        def best(links):
            line = "it" + ".each(rows)" * links
            times = []
            for _ in range(5):
                started = time.perf_counter()
                definitions([line], "javascript", idioms)
                times.append(time.perf_counter() - started)
            return min(times)
        print(best(4_000) / best(2_000))
        """
    )
    assert float(ratio) < 3, ratio


@pytest.mark.parametrize(
    ("line", "counted"),
    [
        ("it('adds', () => {", 1),
        ('  test.each(rows)("adds %s", (row) => {', 1),
        ("test.concurrent.each([1, 2].map(double))('doubles %i', (n) => {", 1),
        ("it.only.each([[1, (2)]]).skip('nested calls', () => {", 1),
        ("xit ( 'parked', () => {", 1),
        ("fit(`focused`, () => {", 1),
        ("specify.skip( 'x')", 1),
        ("it.each(rows)(name, () => {", 0),  # the name is no string: not counted, as before
        ("it(foo)('x')", 0),  # a call before any chain
        ("it.each(rows)", 0),
        ("items.each(rows)('x')", 0),
    ],
)
def test_a_definition_is_counted_through_its_chain_of_calls(line: str, counted: int) -> None:
    assert definitions([line], "javascript", default_idioms()) == counted
