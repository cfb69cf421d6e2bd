"""The summary readers fuzzed: every document and line parser of `summary/registry.py`, through
`read_source`, tried with every parser (no hint) and with each named.

A reading never raises, an unparsed one says why on one line, counts are never negative, names kept
are clipped and capped; random bytes or text never read as tests that ran; a large hostile log is
read in memory bounded by a fixed cap, not by its size; and the block scan reads any input as the
line-by-line reference does."""

from __future__ import annotations

import io
from pathlib import Path
from xml.sax.saxutils import quoteattr

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evidence_gate.model import SummaryStatus
from evidence_gate.model import TestSummary as Summary
from evidence_gate.summary.base import MAX_FAILED_NAMES, SHOWN_CHARS, CaseResult, Reading
from evidence_gate.summary.encoding import detect_encoding, text_reader
from evidence_gate.summary.line_scan import feed_every_line, feed_log
from evidence_gate.summary.read import HEAD_BYTES, read_source
from evidence_gate.summary.registry import ALL_PARSERS, LINE_PARSERS, line_parser

from .inputs import (
    HUGE_NUMBERS,
    LARGE_EXAMPLES,
    LARGE_PIECE_BYTES,
    fixture_files,
    garbage,
    mutated,
    peak_memory,
    random_bytes,
    random_text,
)

pytestmark = pytest.mark.fuzz

LOGS = fixture_files("stack-logs", ".log")
XML = fixture_files("stack-logs", ".xml")
XCRESULT = fixture_files("stack-logs/xcresult", ".legacy.json", ".summary.json")
HINTS = [None, *ALL_PARSERS]  # None: every parser, as a run without --parser or --stack tries them

# JUnit XML built from its grammar: suites nested in suites, cases with every outcome, and counts
# that are huge, negative, fractional, non-ASCII digits or contradict the cases.
counts = st.one_of(st.integers(0, 5).map(str), st.sampled_from([number.decode() for number in HUGE_NUMBERS]))
names = st.one_of(st.text(max_size=20), st.sampled_from(["a" * 5_000, "[S-1#1] tagged", "x::y"]))
outcomes = st.sampled_from(
    ["", "<failure message='m'>trace</failure>", "<error/>", "<skipped/>", "<skipped>why</skipped>"]
)
cases = st.builds(
    lambda name, classname, time, outcome: (
        f"<testcase name={quoteattr(name)} classname={quoteattr(classname)} time={quoteattr(time)}>{outcome}</testcase>"
    ),
    names,
    names,
    counts,
    outcomes,
)
suites = st.recursive(
    st.lists(cases, max_size=5).map("".join),
    lambda inner: st.builds(
        lambda attrs, body: (
            "<testsuite " + " ".join(f"{k}={quoteattr(v)}" for k, v in attrs.items()) + f">{body}</testsuite>"
        ),
        st.dictionaries(st.sampled_from(["tests", "failures", "errors", "skipped", "disabled", "name"]), counts),
        inner,
    ),
    max_leaves=6,
)
junit_reports = st.builds(
    lambda declaration, body: f"{declaration}<testsuites>{body}</testsuites>".encode(),
    st.sampled_from(["", '<?xml version="1.0" encoding="UTF-8"?>\n']),
    suites,
)

inputs = st.one_of(garbage, mutated(LOGS), mutated(XML, xml=True), mutated(XCRESULT, json=True), junit_reports)


@pytest.fixture(scope="module")
def scratch(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("summary") / "output"


def read(path: Path, data: bytes, hint: str | None) -> tuple[Summary, list[CaseResult]]:
    path.write_bytes(data)
    cases: list[CaseResult] = []
    summary = read_source(path, ALL_PARSERS if hint is None else (hint,), label="fuzzed", on_case=cases.append)
    return summary, cases


def assert_well_formed(summary: Summary) -> None:
    if summary.counts is None:
        assert summary.reason, "an unparsed reading says why"
        assert "\n" not in summary.reason, summary.reason
    else:
        assert min(summary.counts.passed, summary.counts.failed, summary.counts.skipped) >= 0, summary.counts
    assert len(summary.failed_tests) <= MAX_FAILED_NAMES
    assert all(len(name) <= SHOWN_CHARS + 40 for name in summary.failed_tests)


@pytest.mark.parametrize("hint", HINTS)
@given(data=inputs)
def test_any_input_is_a_reading_or_unparsed_with_the_reason(scratch: Path, hint: str | None, data: bytes) -> None:
    summary, _ = read(scratch, data, hint)
    assert_well_formed(summary)


@pytest.mark.parametrize("hint", HINTS)
@given(data=st.one_of(random_bytes, random_text))
def test_random_input_never_reads_as_tests_that_ran(scratch: Path, hint: str | None, data: bytes) -> None:
    summary, cases = read(scratch, data, hint)
    assert_well_formed(summary)
    assert summary.status is not SummaryStatus.PASSED, summary
    assert summary.counts is None or summary.counts.executed == 0, summary
    assert not cases


# Large inputs, measured under tracemalloc: the bound is what is tested, not variety or speed.
@settings(max_examples=LARGE_EXAMPLES, deadline=None)
@pytest.mark.parametrize("hint", [None])  # every parser: the logs reach all line parsers, the XML junit
@given(
    data=st.one_of(mutated(LOGS, max_bytes=LARGE_PIECE_BYTES), mutated(XML, xml=True, max_bytes=LARGE_PIECE_BYTES)),
    copies=st.integers(200, 400),
)
def test_a_large_hostile_input_is_read_in_bounded_memory(
    scratch: Path, hint: str | None, data: bytes, copies: int
) -> None:
    """Some megabytes of a mutated fixture, repeated, with a line of 2 MiB: the readers stream, so what
    they hold at once is bounded by a fixed cap (lines are cut at 1 Mi characters), not by the input."""
    big = data * copies + b"\n" + b"x" * (2 * 1024 * 1024) + b"\n" + data
    scratch.write_bytes(big)
    with peak_memory() as peak:
        summary = read_source(scratch, ALL_PARSERS if hint is None else (hint,), label="fuzzed")
    assert_well_formed(summary)
    assert peak() < 48 * 1024 * 1024, f"{peak():,} bytes held reading {len(big):,}"


def line_readings(data: bytes, *, scan: bool) -> list[Reading | None]:
    """Every line parser's reading of `data`, fed by the block scan or the reference, line by line."""
    parsers = [line_parser(name) for name in LINE_PARSERS]
    encoding = detect_encoding(data[:HEAD_BYTES])
    if scan:
        feed_log(io.BytesIO(data), encoding, parsers)
    else:
        feed_every_line(text_reader(io.BytesIO(data), encoding), parsers)
    return [parser.finish() for parser in parsers]


@given(data=st.one_of(garbage, mutated(LOGS)), repeat=st.integers(1, 3))
def test_the_block_scan_reads_any_input_as_the_reference_does(data: bytes, repeat: int) -> None:
    """Each parser fed only the lines its filter selects reads what it reads when fed every line:
    a filter that leaves out a line its parser needs is found here, on logs no runner printed."""
    data = data * repeat
    try:
        reference = line_readings(data, scan=False)
    except ValueError:  # a count of thousands of digits: read_source makes it unparsed, the scan must fail too
        with pytest.raises(ValueError):
            line_readings(data, scan=True)
        return
    assert line_readings(data, scan=True) == reference
