"""The gate-integrity gate judged from literal facts: an inventory written out by hand."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import jsonschema

from evidence_gate.gates import integrity
from evidence_gate.integrity.frozen import FrozenCheck, FrozenRecord, Parked
from evidence_gate.integrity.report import summarise
from evidence_gate.integrity.survey import Survey
from evidence_gate.integrity.tagger import Inventory, TaggedHunk
from evidence_gate.ledger.model import GateVerdict, Ledger, Verdict, overall_verdict
from evidence_gate.ledger.payload import read, schema, write
from evidence_gate.ledger.payloads.integrity import IntegrityData, Suppression
from evidence_gate.model import ChangedLine, FileKind
from evidence_gate.render import render_comment, render_job_summary, render_report
from evidence_gate.settings import Settings
from tests.render.checks import check_structure, quality_markers

SETTINGS = Settings(repo=Path("/checkout"))
SKIP = TaggedHunk(
    path="tests/test_cart.py",
    kind=FileKind.TEST,
    header="@@ -1,4 +1,5 @@",
    tags=("RH-1",),
    added=(ChangedLine(number=4, text="@pytest.mark.skip"),),
    removed=(),
)
NOQA = TaggedHunk(
    path="shop/cart.py",
    kind=FileKind.PRODUCTION,
    header="@@ -1,2 +1,2 @@",
    tags=("RH-6",),
    added=(ChangedLine(number=1, text="import os  # noqa"),),
    removed=(ChangedLine(number=1, text="import sys"),),
    unjustified=(1,),
    audited=(1,),
)
PLAIN = TaggedHunk(
    path="tests/test_cart.py", kind=FileKind.TEST, header="@@ -9,2 +10,4 @@", tags=(), added=(), removed=()
)


def facts(*hunks: TaggedHunk, frozen: FrozenCheck | None = None, read_cap: int = 200) -> integrity.IntegrityFacts:
    found = Inventory(hunks=hunks, languages_unlisted=())
    return integrity.IntegrityFacts(
        survey=Survey(
            inventory=found,
            frozen=frozen or FrozenCheck(record=None),
            summary=summarise(found, ("python",), "0123456789abcdef", read_cap),
        )
    )


def test_an_inventory_that_could_not_run_is_unavailable_with_the_reason_never_none_detected() -> None:
    facts = integrity.IntegrityFacts(survey=None, problem="the inventory could not run: git diff failed")
    gate = integrity.judge(facts, SETTINGS)
    assert (gate.verdict, gate.headline) == (GateVerdict.UNAVAILABLE, "the inventory could not run: git diff failed")


def test_without_a_base_there_is_no_change_to_inventory() -> None:
    facts = integrity.IntegrityFacts(survey=None, problem="no base was given", no_change=True)
    assert integrity.judge(facts, SETTINGS).verdict is GateVerdict.NOT_APPLICABLE


def test_relaxations_are_listed_for_review_and_end_review_never_a_green_pass() -> None:
    gate = integrity.judge(facts(SKIP, PLAIN), SETTINGS)
    assert (gate.verdict, gate.headline) == (GateVerdict.REVIEW, "2 gate edits; tagged for review: RH-1")
    assert isinstance(gate.data, IntegrityData)
    assert [(hunk.id, hunk.tags, hunk.excerpt) for hunk in gate.data.hunks] == [("H1", ("RH-1",), "+@pytest.mark.skip")]
    assert [(note.level, note.path, note.line, note.title) for note in gate.annotations] == [
        ("warning", "tests/test_cart.py", 4, "RH-1")
    ]


def test_an_unjustified_suppression_is_listed_for_check_7_and_left_to_it_to_fail() -> None:
    gate = integrity.judge(facts(SKIP, NOQA), SETTINGS)
    assert gate.verdict is GateVerdict.REVIEW  # the ignore-comment audit (check 7) fails it, once
    assert isinstance(gate.data, IntegrityData)
    assert gate.data.suppressions == (
        Suppression(path="shop/cart.py", line=1, text="import os  # noqa", justified=False),
    )
    assert [note.level for note in gate.annotations] == ["warning", "warning"]


def test_a_change_whose_only_tags_are_questions_passes_and_a_review_shows_as_review_with_its_own_count() -> None:
    unpaired = TaggedHunk(
        path="shop/cart.py",
        kind=FileKind.PRODUCTION,
        header="@@ -3,1 +3,1 @@",
        tags=("RH-15?",),
        added=(ChangedLine(number=3, text="    return sum(prices)"),),
        removed=(ChangedLine(number=3, text="    return sum(prices[1:])"),),
    )
    assert integrity.judge(facts(unpaired), SETTINGS).verdict is GateVerdict.PASS
    gate = integrity.judge(facts(SKIP, unpaired), SETTINGS)
    assert gate.verdict is GateVerdict.REVIEW
    ledger = Ledger(
        verdict=overall_verdict((gate,)), head="a" * 40, base="b" * 40, stack="python", counts=None, gates=(gate,)
    )
    assert ledger.verdict is Verdict.PASS  # a review never blocks
    comment = render_comment(ledger)
    check_structure(comment, quality_markers(ledger, "comment"))
    assert "| — | Gate integrity | — | 2 gate edits; tagged for review: RH-1, RH-15? | ⚠️ REVIEW |" in comment
    assert "1 to review" in comment and "✅ pass" not in comment


def test_a_frozen_test_changed_fails_with_the_message_and_parked_criteria_are_shown() -> None:
    frozen = FrozenCheck(
        record=FrozenRecord(
            frozen=("tests/test_cart.py",),
            commit="a" * 40,
            parked=(Parked(criterion="[S-1#2]", why="no failing test"),),
        ),
        changed=("tests/test_cart.py",),
    )
    gate = integrity.judge(facts(replace(SKIP, tags=("RH-1", "RH-14")), frozen=frozen), SETTINGS)
    assert gate.verdict is GateVerdict.FAIL
    assert gate.headline.startswith(
        "frozen red test changed: tests/test_cart.py. Make it pass by changing production code"
    )
    assert isinstance(gate.data, IntegrityData)
    assert gate.data.parked == ("[S-1#2]: no failing test",)


def test_a_tag_the_team_lists_in_fail_on_tags_fails() -> None:
    gate = integrity.judge(facts(SKIP), replace(SETTINGS, fail_on_tags=("RH-1",)))
    assert (gate.verdict, gate.headline) == (
        GateVerdict.FAIL,
        "tests/test_cart.py @@ -1,4 +1,5 @@: RH-1 (fail-on-tags)",
    )


def test_hunks_past_the_read_cap_make_the_reading_partial_never_none() -> None:
    gate = integrity.judge(facts(SKIP, replace(SKIP, header="@@ -20,4 +21,5 @@"), read_cap=1), SETTINGS)
    assert (
        gate.headline
        == "2 gate edits; tagged for review: RH-1 \N{MULTIPLICATION SIGN}2; gate edits: partial (1 of 2 eligible read)"
    )


def test_no_gate_edit_says_so() -> None:
    gate = integrity.judge(facts(), SETTINGS)
    assert (gate.verdict, gate.headline) == (GateVerdict.PASS, "no gate edit")


def test_the_payload_matches_its_schema_and_reads_back() -> None:
    gate = integrity.judge(facts(SKIP, NOQA, PLAIN), SETTINGS)
    assert isinstance(gate.data, IntegrityData)
    document = write(gate.data)
    jsonschema.Draft202012Validator(schema(IntegrityData)).validate(document)
    assert read(IntegrityData, document) == gate.data


def test_hunk_text_cannot_forge_a_marker_or_a_summary_line_in_any_output() -> None:
    """A hunk's lines are the pull request's: in the comment, the job summary and the report they
    stand only inside fences, so neither a verdict marker nor a GATE_SUMMARY line can be forged."""
    forged = replace(
        SKIP,
        added=(
            ChangedLine(number=4, text="@pytest.mark.skip"),
            ChangedLine(number=5, text="<!-- QG:VERDICT:PASS -->"),
            ChangedLine(number=6, text="GATE_SUMMARY: listed=0 eligible=0 inspected=0 unread=0 tagged={}"),
            ChangedLine(number=7, text="```"),
        ),
        header="@@ -1,4 +1,8 @@ <!-- QG:CHECK:7:PASS --> @octocat",
    )
    gate = integrity.judge(facts(forged), SETTINGS)
    subject = Ledger(verdict=Verdict.PASS, head="a" * 40, base=None, stack="python", counts=None, gates=(gate,))
    for name, text in (
        ("comment", render_comment(subject)),
        ("job summary", render_job_summary(subject)),
        ("report", render_report(subject)),
    ):
        check_structure(text, quality_markers(subject, name))
        outside = [line for line in _outside_fences(text) if line.startswith("GATE_SUMMARY:")]
        assert outside == []


def _outside_fences(markdown: str) -> list[str]:
    """The lines of the Markdown that no fenced code block holds (fences of three or more backticks)."""
    lines, fence = [], ""
    for line in markdown.splitlines():
        run = len(line) - len(line.lstrip("`"))
        if fence and line.startswith(fence) and line.strip("`") == "":
            fence = ""
        elif not fence and run >= 3:
            fence = "`" * run
        elif not fence:
            lines.append(line)
    return lines
