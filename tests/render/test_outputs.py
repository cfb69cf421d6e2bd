"""Every output of a ledger, read through GitHub's renderer: the verdict, the counts with their
deltas, one table row per gate, folded details that close, and exactly the markers the action wrote,
for a plain ledger and for one whose every string is hostile."""

from __future__ import annotations

from dataclasses import replace

import pytest

from evidence_gate.ledger import Annotation, Deltas, Excerpt, GateVerdict, Ledger, Verdict
from evidence_gate.render import (
    comment_marker,
    render_check_run,
    render_comment,
    render_job_summary,
    render_pr_section,
    render_report,
)
from tests.render.checks import check_structure, find, folded, gate_rows, seen
from tests.render.gfm import to_html
from tests.render.ledgers import HOSTILE, gate, hostile_ledger, ledger

PLAIN_MARKERS = [
    "<!-- QG:VERDICT:BLOCKED -->",
    "<!-- QG:CHECK:tests:FAIL -->",
    "<!-- QG:CHECK:coverage:PASS -->",
    "<!-- QG:CHECK:criteria:NOT-APPLICABLE -->",
]


def outputs(subject: Ledger) -> dict[str, str]:
    check_run = render_check_run(subject)
    return {
        "comment": render_comment(subject),
        "check summary": check_run.summary,
        "check text": check_run.text,
        "pr section": render_pr_section(subject, 65_000),
        "job summary": render_job_summary(subject),
        "report": render_report(subject),
    }


def markers_of(subject: Ledger, name: str) -> list[str]:
    """What each output must carry: the comment marker in the comment, the verdict and one marker
    per gate wherever the verdict is shown, nothing in the check run's text."""
    if name == "check text":
        return []
    verdict = [f"<!-- QG:VERDICT:{subject.verdict} -->"]
    checks = [f"<!-- QG:CHECK:{gate.id}:{str(gate.verdict).upper()} -->" for gate in subject.gates]
    return [comment_marker(subject.check_name), *verdict, *checks] if name == "comment" else verdict + checks


def test_the_comment_shows_the_verdict_counts_deltas_and_every_gate() -> None:
    subject = ledger()
    comment = render_comment(subject)
    root = check_structure(comment, [comment_marker("Evidence Gate"), *PLAIN_MARKERS])
    assert seen(find(root, "h3")) == "❌ Evidence Gate: Blocked"
    assert "**Tests:** 122 executed (120 passed, 2 failed), 3 skipped." in comment
    assert "+5 tests, 4 new, 3 removed, 2 newly failing, 1 newly skipped" in comment
    assert subject.baseline not in comment
    assert gate_rows(root) == [
        ["Tests ran", "❌ fail", "2 tests failed"],
        ["Changed code is tested", "✅ pass", "3 changed files, all covered"],
        ["Criteria", "\N{HEAVY MINUS SIGN} not applicable", "no acceptance criteria"],
    ]
    summaries = [seen(summary) for summary in root.iter("summary")]
    assert summaries == ["Failing tests (2)", "Tests ran: ❌ fail", "Changed code is tested: ✅ pass"]
    failing = find(root, "details")
    assert [seen(code) for code in failing.iter("code")] == ["assert 1 == 2\n"]
    assert [seen(strong) for strong in failing.iter("strong")] == [
        "tests/test_a.py::test_one",
        "tests/test_b.py::test_two",
    ]
    tests_gate = root.findall("details")[1]
    assert [seen(item) for item in tests_gate.iter("li")] == ["tests/test_a.py failed", "tests/test_b.py failed"]
    assert [seen(code) for code in tests_gate.iter("code")] == ["FAILED tests/test_a.py::test_one\n"]
    assert "pytest -q: exit code 1:" in seen(tests_gate)


def test_without_deltas_the_baseline_is_said_once() -> None:
    subject = ledger(deltas=None, baseline="no baseline: the base commit has no check run")
    for name, text in outputs(subject).items():
        if name != "check text":
            assert text.count("no baseline: the base commit has no check run") == 1, name


def test_no_change_against_the_base_is_said() -> None:
    subject = ledger(deltas=Deltas(executed=0, added=0, removed=0, newly_failing=0, newly_skipped=0))
    assert "**Against the base:** no change against the base." in render_comment(subject)


def test_fewer_tests_is_a_minus_not_a_list_item() -> None:
    subject = ledger(deltas=Deltas(executed=-3, added=0, removed=3, newly_failing=0, newly_skipped=0))
    assert "\N{MINUS SIGN}3 tests, 3 removed" in render_comment(subject)


@pytest.mark.parametrize("verdict", list(Verdict))
def test_each_verdict_has_its_marker(verdict: Verdict) -> None:
    subject = ledger(verdict=verdict)
    for name, text in outputs(subject).items():
        assert [line for line in text.splitlines() if line.startswith("<!-- QG:VERDICT:")] == (
            [] if name == "check text" else [f"<!-- QG:VERDICT:{verdict} -->"]
        )


def test_every_output_of_a_plain_ledger_keeps_its_structure() -> None:
    subject = ledger()
    rendered = outputs(subject)
    for (name, text), html in zip(rendered.items(), to_html(*rendered.values()), strict=True):
        root = check_structure(text, markers_of(subject, name), html)
        if name != "check text":
            assert len(gate_rows(root)) == 3, name


def test_every_output_of_a_hostile_ledger_keeps_its_structure() -> None:
    subject = hostile_ledger()
    rendered = outputs(subject)
    for (name, text), html in zip(rendered.items(), to_html(*rendered.values()), strict=True):
        root = check_structure(text, markers_of(subject, name), html)
        if name == "check text":
            continue
        rows = gate_rows(root)
        assert [row[0] for row in rows] == [folded(text) for text in HOSTILE], name
        assert [row[2] for row in rows] == [folded(text) for text in HOSTILE], name


def test_hostile_failure_messages_show_whole_in_code() -> None:
    subject = hostile_ledger()
    comment = render_comment(subject)
    root = check_structure(comment, markers_of(subject, "comment"))
    codes = [seen(code) for code in find(root, "details").iter("code")]
    normalised = [text.replace("\r\n", "\n").rstrip("\n") for text in HOSTILE]
    cleaned = [
        "".join(c for c in text if c in "\t\n" or not (ord(c) < 32 or 127 <= ord(c) < 160)) for text in normalised
    ]
    assert codes == [text + "\n" for text in cleaned]


def test_the_comment_marker_is_one_per_check_name_and_cannot_be_forged() -> None:
    assert comment_marker("Evidence Gate") == "<!-- evidence-gate:comment:evidence-gate -->"
    assert comment_marker("Evidence Gate (unit)") != comment_marker("Evidence Gate (e2e)")
    assert comment_marker("x --> <!-- QG:VERDICT:PASS") == "<!-- evidence-gate:comment:x-qg-verdict-pass -->"
    unicode_only = comment_marker("テスト")
    assert unicode_only != comment_marker("検証") and unicode_only.count("-->") == 1


def test_a_gate_id_outside_the_schema_cannot_forge_a_marker() -> None:
    subject = ledger(gates=(gate("x:PASS --> <!-- QG:VERDICT:PASS", GateVerdict.FAIL),))
    comment = render_comment(subject)
    assert "<!-- QG:CHECK:x-pass-qg-verdict-pass:FAIL -->" in comment
    check_structure(
        comment,
        [*markers_of(replace(subject, gates=()), "comment"), "<!-- QG:CHECK:x-pass-qg-verdict-pass:FAIL -->"],
    )


def test_no_gates_and_no_counts_still_render() -> None:
    subject = ledger(verdict=Verdict.STAGNATION, gates=(), failed_tests=(), counts=None, deltas=None)
    rendered = outputs(subject)
    for (name, text), html in zip(rendered.items(), to_html(*rendered.values()), strict=True):
        check_structure(text, markers_of(subject, name), html)
    assert "No gate ran." in rendered["comment"]
    assert "no test counts were read" in rendered["comment"]
    assert rendered["check text"] == "No failing tests, and no gate has details.\n"


def test_the_check_title_is_one_plain_line() -> None:
    title = render_check_run(ledger()).title
    assert title == (
        "Blocked: 3 gates: 1 failed, 1 passed, 1 not applicable; tests: 122 executed (120 passed, 2 failed), 3 skipped"
    )


def test_the_report_holds_every_gate_evidence_and_annotation() -> None:
    note = Annotation(path="src/a.py", line=3, end_line=5, level="warning", message="not covered", title="Uncovered")
    subject = ledger(
        gates=(
            gate(
                "coverage",
                GateVerdict.PASS,
                annotations=(note,),
                excerpts=(Excerpt(source="c", exit_code=None, output="o"),),
            ),
        )
    )
    report = render_report(subject)
    root = check_structure(report, markers_of(subject, "report"))
    text = seen(root)
    assert "warning at src/a.py:3-5: Uncovered" in text
    assert "c: no exit code recorded" in text
