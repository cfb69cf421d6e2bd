"""The summary readers fuzzed: every document and line parser of `summary/registry.py`, through
`read_source`, tried with every parser (no hint) and with each named.

A reading never raises, an unparsed one says why on one line, counts are never negative, names kept
are clipped and capped; random bytes or text never read as tests that ran; and a large hostile log
is read in memory bounded by a fixed cap, not by its size."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evidence_gate.model import SummaryStatus
from evidence_gate.model import TestSummary as Summary
from evidence_gate.summary.base import MAX_FAILED_NAMES, SHOWN_CHARS, CaseResult
from evidence_gate.summary.read import read_source
from evidence_gate.summary.registry import ALL_PARSERS

from .inputs import LARGE_EXAMPLES, fixture_files, garbage, mutated, peak_memory, random_bytes, random_text

pytestmark = pytest.mark.fuzz

LOGS = fixture_files("stack-logs", ".log")
XML = fixture_files("stack-logs", ".xml")
XCRESULT = fixture_files("stack-logs/xcresult", ".legacy.json", ".summary.json")
HINTS = [None, *ALL_PARSERS]  # None: every parser, as a run without --parser or --stack tries them

inputs = st.one_of(garbage, mutated(LOGS), mutated(XML, xml=True), mutated(XCRESULT, json=True))


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
@given(data=st.one_of(mutated(LOGS), mutated(XML, xml=True)), copies=st.integers(200, 400))
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
