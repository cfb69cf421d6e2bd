"""The pull request body's readers fuzzed: the acceptance criteria and parked items
(`criteria_source.py`, and `read_body` of a body or event payload file), the `Scope:` and `Smoke:`
lists (`body_lists.py`) and the coverage section's markers (`github/pr_body.py`).

Bodies are made of the lines those readers look for (headings, task boxes, fences, HTML comments,
labels, markers), long runs of one character, and random text. A body is read in bounded time (the
profile's deadline) without a traceback; criteria come only from under an "Acceptance criteria"
heading; and writing the coverage section keeps every character of the author's text outside it."""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evidence_gate.body_lists import label_line, listed_under
from evidence_gate.criteria_source import MAX_CRITERIA, criteria_from_body, parked_items, read_body
from evidence_gate.errors import UsageError
from evidence_gate.github.pr_body import UNKEYED_END, UNKEYED_START, replace_section, section_markers

from .inputs import HUGE_NUMBERS, examples, json_texts, random_text

pytestmark = pytest.mark.fuzz

LINES = (
    "## Acceptance criteria",
    "### Acceptance Criteria:",
    "Acceptance criteria",
    "=====",
    "- [ ] totals add up",
    "- [x] a discount never makes the total negative",
    "* [X] ",
    "1. [ ] numbered",
    "  - [ ] nested",
    "- plain item",
    "```",
    "~~~",
    "    - [ ] indented code",
    "<!--",
    "-->",
    "> - [ ] quoted",
    "## Later",
    "# Parked",
    "Scope:",
    "**Scope:** src/**, docs/*.md",
    "## Smoke tests",
    "- `curl -fsS localhost:8080/health`",
    "- `",
    "Smoke: make smoke",
    section_markers("Evidence Gate").start,
    section_markers("Evidence Gate").end,
    UNKEYED_START,
    UNKEYED_END,
    "",
    "\r",
)


@st.composite
def long_run(draw: st.DrawFn, lines: tuple[str, ...] = LINES, longest: int = 20_000) -> str:
    """A line of the body with one character repeated thousands of times at some point in it."""
    line = draw(st.sampled_from(lines))
    at = draw(st.integers(0, len(line)))
    run = draw(st.sampled_from(" \t-*`#[>x\\")) * draw(st.integers(1_000, longest))
    return line[:at] + run + line[at:] + draw(st.sampled_from(("", "`x", "x", "]", " x`")))


ITEMS = ("- src/**", "- `docs/*.md`", "* `make smoke`", "+ a, b", "-   spaced  ", "- `", "- a`b`")


def labelled_lists(longest: int) -> st.SearchStrategy[str]:
    """A label line and the list under it, whose items may hold runs of up to `longest` characters."""
    return st.tuples(
        st.sampled_from(("Scope:", "**Scope:**", "## Scope", "Smoke:", "### Smoke tests", "Scope: src/, `x`")),
        st.lists(st.one_of(st.sampled_from(ITEMS), long_run(ITEMS, longest)), min_size=1, max_size=5),
    ).map(lambda label_items: "\n".join((label_items[0], *label_items[1])))


labelled_list = labelled_lists(20_000)
# A body of labelled lists whose runs reach GitHub's 65,536 characters: no markdown is parsed for these,
# so a pattern that is quadratic in a line's length shows as a deadline missed.
labelled_bodies = st.lists(st.one_of(labelled_lists(65_536), st.sampled_from(LINES)), max_size=8).map("\n".join)


@st.composite
def bodies(draw: st.DrawFn) -> str:
    """Lines of a body, a labelled list or two, and at most three long runs (a body GitHub holds is
    at most 65,536 characters; markdown-it reads some characters at about 75 µs each)."""
    lines = draw(st.lists(st.one_of(st.sampled_from(LINES), labelled_list, st.text(max_size=80)), max_size=60))
    for run in draw(st.lists(long_run(), max_size=3)):
        lines.insert(draw(st.integers(0, len(lines))), run)
    return draw(st.sampled_from(("\n", "\r\n"))).join(lines)


# markdown-it reads some characters at about 75 µs each: linear, but a body of long runs takes seconds.
@settings(deadline=timedelta(seconds=30), max_examples=examples(0.5))
@given(body=bodies())
def test_criteria_come_only_from_under_their_heading(body: str) -> None:
    try:
        criteria = criteria_from_body(body, "body")
    except UsageError as error:
        assert len(error.one_line()) < 1_000
    else:
        assert "acceptance criteria" in body.lower(), "criteria read from a body without their heading"
        assert 1 <= len(criteria) <= MAX_CRITERIA
        assert all(criterion.text and "\n" not in criterion.text for criterion in criteria)
        assert [criterion.number for criterion in criteria] == list(range(1, len(criteria) + 1))
    assert len(parked_items(body)) <= MAX_CRITERIA


@given(body=bodies() | labelled_bodies, label=st.sampled_from(["Scope", "Smoke(?: tests?)?"]), inline=st.booleans())
def test_a_labelled_list_is_read_in_bounded_time(body: str, label: str, inline: bool) -> None:
    items = listed_under(body, label_line(label), 1000, inline=inline)
    assert len(items) <= 1000


@given(body=bodies(), section=st.text(max_size=200), check=st.sampled_from(["Evidence Gate", "Evidence Gate (py)"]))
def test_the_coverage_section_keeps_the_authors_text(body: str, section: str, check: str) -> None:
    written = replace_section(body, section, check)
    markers = section_markers(check)
    start = written.find(markers.start)
    if start == -1:  # the body's first unkeyed section was taken over
        start = written.find(UNKEYED_START)
        assert start != -1
    assert written.startswith(body[:start])
    again = replace_section(written, "other", check)
    assert again.startswith(body[:start]), "a second write moved the author's text"
    assert again.count(markers.start) <= max(1, body.count(markers.start))


events = json_texts(
    ({"pull_request": {"number": 1, "body": "## Acceptance criteria\n- [ ] a\n"}}, {"action": "opened"})
)


@pytest.fixture(scope="module")
def body_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("body") / "body"


@given(
    data=st.one_of(
        events,
        bodies().map(lambda body: body.encode("utf-8")),
        random_text,
        st.sampled_from(HUGE_NUMBERS).map(lambda number: b'{"pull_request": {"number": ' + number + b"}}"),
        st.integers(60, 20_000).map(lambda depth: b"{" + b'"a":[' * depth),
    )
)
def test_a_body_file_is_a_body_or_a_one_line_error(body_path: Path, data: bytes) -> None:
    body_path.write_bytes(data)
    try:
        body = read_body(body_path)
    except UsageError as error:
        assert len(error.one_line()) < 1_000, error.one_line()
        return
    text = data.decode("utf-8")
    if text.lstrip().startswith("{"):
        pull = json.loads(text)["pull_request"]
        stated = pull.get("body") if isinstance(pull, dict) else None
        assert body == (stated if isinstance(stated, str) else "")
    else:
        assert body == text
