"""The idioms on lines a pull request writes to make them try hard: a chain of calls with no string
after it (`it.each(rows)` many times), a run of spaces where a number is looked for, a build tool
named over and over: each is read in time linear in the line, and the lines the idioms matched
before they still match."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

from evidence_gate.integrity.compare import checks_removed, definitions
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
        from evidence_gate.integrity.compare import checks_removed, definitions
        from evidence_gate.integrity.idioms import default_idioms
        print(definitions(["it" + ".each(rows)" * 30 + ";"], "javascript", default_idioms()))
        """
    )
    assert counted == "0"


def test_twice_the_links_take_about_twice_the_time() -> None:
    """The ratio of the best of five timings, 8,000 links against 2,000, in one process: linear is 4,
    quadratic 16 (four times the length, so a loaded machine's noise cannot blur the two), and the
    nested pattern never finished either."""
    ratio = in_child(
        """
        import time
        from evidence_gate.integrity.compare import checks_removed, definitions
        from evidence_gate.integrity.idioms import default_idioms
        idioms = default_idioms()
        def best(links):
            line = "it" + ".each(rows)" * links
            times = []
            for _ in range(5):
                started = time.process_time()
                definitions([line], "javascript", idioms)
                times.append(time.process_time() - started)
            return min(times)
        print(best(8_000) / best(2_000))
        """
    )
    assert float(ratio) < 8, ratio


# (the idiom, by a piece of its text; what the line starts with; what repeats in it)
HARD_LINES = [
    ("minimum_coverage", "minimum_coverage", " "),
    ("mutationThreshold", "mutationThreshold", "\t"),
    ("gradlew", "", "./gradlew"),
    ("(?P<scope>", "go test", " -v"),
    ("(?P<scope>", "", "go test a "),
]


@pytest.mark.parametrize(("idiom", "start", "piece"), HARD_LINES, ids=[line[0] for line in HARD_LINES])
def test_a_line_of_one_piece_repeated_takes_time_linear_in_its_length(idiom: str, start: str, piece: str) -> None:
    """The best of five timings of each idiom naming `idiom` on 64,000 repeats against 16,000: linear
    is 4, quadratic 16 (four times the length, so a loaded machine's noise cannot blur the two)."""
    ratio = in_child(
        f"""
        import time
        from evidence_gate.integrity.idioms import default_idioms
        idioms = default_idioms()
        patterns = [
            *(threshold.pattern for threshold in idioms.thresholds),
            *idioms.ci_checks,
            *idioms.narrowed,
        ]
        chosen = [pattern for pattern in patterns if {idiom!r} in pattern.pattern]
        assert chosen, {idiom!r}
        def best(repeats):
            line = {start!r} + {piece!r} * repeats
            times = []
            for _ in range(5):
                started = time.process_time()
                for pattern in chosen:
                    list(pattern.finditer(line))
                times.append(time.process_time() - started)
            return min(times)
        print(best(64_000) / best(16_000))
        """
    )
    assert float(ratio) < 8, ratio


@pytest.mark.parametrize(
    ("removed", "added", "lost"),
    [
        ("mvn clean && mvn test", "mvn test", False),  # the check is the same command: kept
        ("mvn -q verify; ./gradlew check", "mvn -q verify", True),
        ("./gradlew build test --info", "./gradlew build", True),
    ],
)
def test_a_build_tools_check_is_read_up_to_the_next_tool_on_the_line(removed: str, added: str, lost: bool) -> None:
    assert checks_removed([removed], [added], default_idioms()) is lost


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
