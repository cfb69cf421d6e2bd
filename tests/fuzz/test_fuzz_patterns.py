"""The patterns fuzzed for time: every idiom of the integrity table (each language's, and the screens
that join a kind of file's), every line parser (fed one of its runner's logs, then the line), the
tool recognisers, the location patterns and the runtime-error table, on long lines a pull request
could write to make them try hard: a pattern's own literal pieces, or a text one of its patterns
matches, repeated (`it.each(rows)` many times, `:1:1: ` with no message after it, `(((((`, a run of
spaces or word characters with no terminator), after some of them or none.

Each call on a line of 32,000 characters takes no more than 128 times its call on the same line cut
to 1,000 (linear is 32, quadratic 1,024; a nested pattern never returns), plus a little for the
machine's noise, and never raises. A call still running after a few seconds is stopped and fails the example."""

from __future__ import annotations

import functools
import re
import signal
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from types import FrameType

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from evidence_gate.integrity import compare
from evidence_gate.integrity.idioms import ANY_LANGUAGE, default_idioms
from evidence_gate.model import FileKind
from evidence_gate.quality.locate import default_patterns, locate
from evidence_gate.quality.recognise import default_recognisers, recognise
from evidence_gate.strength.evidence import errors_for, runtime_errors
from evidence_gate.summary.registry import LINE_PARSERS, line_parser

from .inputs import FIXTURES, fixture_files

pytestmark = pytest.mark.fuzz

SHORT = 1_000
LONG = 32_000
GROWTH = 4 * LONG // SHORT  # four times linear growth: quadratic growth is 32 times
NOISE_SECONDS = 0.05  # a scheduler's or collector's pause, more than any linear call of these takes
STOP_SECONDS = 5.0

# Characters a pattern's runs are made of, whatever its pieces: spaces, word characters, digits,
# brackets, separators, quotes.
FILLERS = (" ", "\t", "a", "1", "(", ")", "[", ".", ":", "-", '"', "'", "a ", "a.", "a:1:", ".a(b)")
_GROUP_OPENING = re.compile(r"\(\?(?:P<\w+>|P=\w+\)|[:=!>]|<[=!])")
_PIECE_BREAK = re.compile(r"\\[A-Za-z]|[\\^$.|?*+()\[\]{}]")


@functools.cache
def pieces(*patterns: re.Pattern[str]) -> tuple[str, ...]:
    """The literal runs of the patterns' sources (`it`, `each`, ` FAIL `, `Tests: `): the text
    between their operators, an escaped character taken as itself."""
    found: dict[str, None] = {}
    for pattern in patterns:
        source = _GROUP_OPENING.sub("(", pattern.pattern)
        source = re.sub(r"\\([^A-Za-z0-9])", lambda escaped: "\0" + escaped.group(1), source)
        for run in _PIECE_BREAK.split(source.replace("\0.", "\1")):
            text = run.replace("\0", "").replace("\1", ".")
            if text and not text.startswith("?"):
                found[text] = None
    return tuple(found)


@dataclass(frozen=True)
class Target:
    """What is timed: `call(line, variant)`, where a line parser reads `variant` for which of its
    runner's logs it reads first, and how much of it; the other calls leave it."""

    name: str
    call: Callable[[str, int], object]
    patterns: tuple[re.Pattern[str], ...]  # what the call reads the line with

    @property
    def pieces(self) -> tuple[str, ...]:
        return pieces(*self.patterns)

    def __repr__(self) -> str:  # what Hypothesis prints for a failing example
        return f"Target({self.name!r})"


def _searched(pattern: re.Pattern[str]) -> Callable[[str, int], object]:
    return lambda line, _variant: list(pattern.finditer(line))


def _each_searched(patterns: tuple[re.Pattern[str], ...]) -> Callable[[str, int], object]:
    return lambda line, _variant: [pattern.search(line) for pattern in patterns]


def _compared(language: str) -> Callable[[str, int], object]:
    """What the tagger weighs a language's lines by: definitions, assertions, their literals."""
    idioms = default_idioms()
    return lambda line, _variant: (
        compare.definitions([line], language, idioms),
        compare.assertions_lost([line], [line + " "], language, idioms),
        compare.expectation_changed([line], [line + "1"], language, idioms),
    )


def idiom_targets() -> Iterator[Target]:
    idioms = default_idioms()
    for tag in idioms.tags:
        for side_name, side in (("added", tag.added), ("removed", tag.removed)):
            for language, patterns in side.items():
                for pattern in patterns:
                    name = f"{tag.id} {side_name} {language}: {pattern.pattern}"
                    yield Target(name, _searched(pattern), (pattern,))
    for table_name, table in (
        ("definitions", idioms.definitions),
        ("assertions", idioms.assertions),
        ("vacuous", idioms.vacuous),
        ("weak", idioms.weak),
    ):
        for language, patterns in table.items():
            for pattern in patterns:
                yield Target(f"{table_name} {language}: {pattern.pattern}", _searched(pattern), (pattern,))
    singles = (
        *(threshold.pattern for threshold in idioms.thresholds),
        *idioms.switched_off,
        *idioms.severity_error,
        *idioms.severity_lower,
        *idioms.ci_checks,
        *idioms.narrowed,
        idioms.audit.reason,
        *idioms.audit.within,
    )
    for pattern in singles:
        yield Target(pattern.pattern, _searched(pattern), (pattern,))
    # The screens join every idiom of a kind of file and language into one alternation: the tagger's
    # first reading of each line.
    for language in (*idioms.languages, ANY_LANGUAGE):
        for kind in FileKind:
            added, removed = idioms.screen(kind, language)
            joined = tuple(screen for screen in (added, removed) if screen is not None)
            if joined:
                yield Target(
                    f"screen {kind} {language}",
                    _each_searched(joined),
                    joined,
                )
        compared = (
            *compare.of_language(idioms.definitions, language),
            *compare.of_language(idioms.assertions, language),
        )
        if not compared:
            continue
        yield Target(f"comparisons {language}", _compared(language), compared)


def _parser_logs(name: str) -> tuple[tuple[str, ...], ...]:
    """The lines of each of the runner's captured logs: a parser reads some lines only in a state its
    runner's earlier lines put it in."""
    folder = name if (FIXTURES / "stack-logs" / name).is_dir() else name.rsplit("-", 1)[0]
    logs = fixture_files(f"stack-logs/{folder}", ".log")
    return tuple(tuple(log.decode("utf-8", "replace").splitlines()) for log in logs)


def _fed(name: str) -> Callable[[str, int], object]:
    logs = _parser_logs(name)

    def feed(line: str, variant: int) -> object:
        """The lines of one log up to a point, the line, and the line again."""
        log = logs[variant % len(logs)]
        parser = line_parser(name)
        for earlier in log[: variant // len(logs) % (len(log) + 1)]:
            parser.feed(earlier)
        parser.feed(line)
        parser.feed(line)  # a header's next line is read in the state the header put the parser in
        return parser.finish()

    return feed


def _module_patterns(name: str) -> tuple[re.Pattern[str], ...]:
    module = type(line_parser(name)).__module__
    found = vars(__import__(module, fromlist=["PARSER"])).values()
    return tuple(value for value in found if isinstance(value, re.Pattern) and isinstance(value.pattern, str))


def reader_targets() -> Iterator[Target]:
    for name in LINE_PARSERS:
        yield Target(f"line parser {name}", _fed(name), _module_patterns(name))
    recognisers = default_recognisers()
    yield Target(
        "recognisers",
        lambda line, _variant: recognise([line], recognisers),
        tuple(pattern for tool in recognisers for pattern in tool.patterns),
    )
    locations = default_patterns()
    yield Target(
        "locations",
        lambda line, _variant: locate([line], locations),
        tuple(entry.pattern for entry in locations),
    )
    for language in runtime_errors():
        errors = errors_for(language)
        patterns = (*errors.missing, *errors.assertion, *errors.load, *errors.coverage_threshold)
        if errors.fallback is not None:
            patterns = (*patterns, errors.fallback)
        yield Target(
            f"runtime errors {language}",
            _each_searched(patterns),
            patterns,
        )


TARGETS = (*idiom_targets(), *reader_targets())
BY_NAME = {target.name: target for target in TARGETS}
JS_DEFINITION = next(target for target in TARGETS if target.name.startswith("definitions javascript"))


class StillRunning(Exception):
    pass


@contextmanager
def stopped_after(seconds: float) -> Iterator[None]:
    """The block interrupted by SIGALRM (the `re` module checks for signals while it matches)."""

    def stop(_signal: int, _frame: FrameType | None) -> None:
        raise StillRunning

    previous = signal.signal(signal.SIGALRM, stop)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def best_time(target: Target, line: str, variant: int, runs: int) -> float:
    times = []
    for _ in range(runs):
        started = time.process_time()
        try:
            with stopped_after(STOP_SECONDS):
                target.call(line, variant)
        except StillRunning:
            pytest.fail(f"{target.name}: still running after {STOP_SECONDS} s on {line[:80]!r}…")
        times.append(time.process_time() - started)
    return min(times)


@st.composite
def hard_lines(draw: st.DrawFn) -> tuple[Target, str, str, int]:
    """A target, what its hard line starts with and repeats (one of its pieces or a text one of its
    patterns matches, two of them, or a filler, after up to three of them), and its variant."""
    target = draw(st.sampled_from(TARGETS))
    own = st.one_of(
        st.sampled_from(target.pieces),
        # text one of its patterns matches whole: `:1:1: `, `it.each(rows)('x'`, `a.go:10:2: x (err)`
        st.sampled_from(target.patterns).flatmap(lambda pattern: st.from_regex(pattern, fullmatch=True).filter(bool)),
    )
    piece = draw(st.one_of(own, st.sampled_from(FILLERS), st.tuples(own, own).map("".join)))
    start = draw(st.lists(own, max_size=3).map(draw(st.sampled_from(("", " ")).map(lambda glue: glue.join))))
    return target, start, piece, draw(st.integers(0, 2**20))


def repeated(start: str, piece: str, length: int) -> str:
    return start + piece * max(1, (length - len(start)) // len(piece))


@given(hard=hard_lines())
@example(hard=(JS_DEFINITION, "it", ".each(rows)", 0))
@example(hard=(BY_NAME["line parser uvu"], "   FAIL  ", '"  ', 0))
@example(hard=(BY_NAME["line parser phpunit"], "PHP Fatal error:  Uncaught ", "a", 0))
@example(hard=(BY_NAME["line parser minitest"], "a", ":1:in 'x': ", 0))
@example(hard=(BY_NAME["runtime errors kotlin"], "", "error", 0))
@example(hard=(BY_NAME["recognisers"], "", ":1:1: ", 0))
@example(hard=(BY_NAME["recognisers"], "", "a.go:1:1: ", 0))
@example(hard=(BY_NAME["runtime errors javascript"], "", "a.", 0))
def test_a_long_line_of_a_patterns_own_pieces_takes_time_linear_in_its_length(
    hard: tuple[Target, str, str, int],
) -> None:
    target, start, piece, variant = hard
    short = best_time(target, repeated(start, piece, SHORT), variant, runs=3)
    long = best_time(target, repeated(start, piece, LONG), variant, runs=2)
    assert long <= GROWTH * short + NOISE_SECONDS, (
        f"{target.name}: {long:.3f} s on {LONG:,} characters of {start!r} + {piece!r}…, {short:.4f} s on {SHORT:,}"
    )


def test_every_pattern_table_and_line_parser_is_a_target() -> None:
    names = {target.name for target in TARGETS}
    assert {f"line parser {name}" for name in LINE_PARSERS} <= names
    assert any(name.startswith("definitions javascript") for name in names)
    assert "recognisers" in names and "locations" in names
    assert all(target.pieces for target in TARGETS), [target.name for target in TARGETS if not target.pieces]
