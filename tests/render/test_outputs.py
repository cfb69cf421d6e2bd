"""Every output of a ledger, read through GitHub's renderer: the verdict, the counts with their
deltas, the Results table (a row per numbered check, then one per other gate), folded details that
close, and exactly the markers the action wrote, for a plain ledger and for one whose every string
is hostile."""

from __future__ import annotations

from dataclasses import replace

import pytest

from evidence_gate.ledger.model import Annotation, Deltas, Excerpt, GateVerdict, Ledger, Verdict
from evidence_gate.ledger.payloads.coverage import CoverageData
from evidence_gate.ledger.quality_record import Baseline, QualityRecord
from evidence_gate.render import (
    comment_marker,
    render_check_run,
    render_comment,
    render_job_summary,
    render_pr_section,
    render_report,
)
from tests.render.checks import check_structure, find, folded, quality_markers, result_rows, seen, unnumbered_rows
from tests.render.gfm import to_html
from tests.render.ledgers import HOSTILE, gate, hostile_ledger, ledger

HISTORY = "<!-- evidence-gate:history:evidence-gate:- -->"  # a literal ledger records no failed check's signature
PLAIN_MARKERS = [
    "<!-- QG:VERDICT:BLOCKED -->",
    "<!-- QG:CHECK:1:NOT_APPLICABLE -->",
    "<!-- QG:CHECK:2:NOT_APPLICABLE -->",
    "<!-- QG:CHECK:3:FAIL -->",
    "<!-- QG:CHECK:4:PASS -->",
    "<!-- QG:CHECK:5:NOT_APPLICABLE -->",
    "<!-- QG:CHECK:6:NOT_APPLICABLE -->",
    "<!-- QG:CHECK:7:NOT_APPLICABLE -->",
    "<!-- QG:CHECK:8:NOT_APPLICABLE -->",
    "<!-- QG:CHECK:9:NOT_APPLICABLE -->",
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
    return quality_markers(subject, name)


def test_the_comment_shows_the_verdict_counts_deltas_and_every_gate() -> None:
    subject = ledger()
    comment = render_comment(subject)
    root = check_structure(comment, [comment_marker("Evidence Gate"), HISTORY, *PLAIN_MARKERS])
    assert seen(find(root, "h3")) == "❌ Evidence Gate: Blocked"
    assert "**Tests:** 122 executed (120 passed, 2 failed), 3 skipped." in comment
    assert "+5 tests, 4 new, 3 removed, 2 newly failing, 1 newly skipped" in comment
    assert subject.baseline not in comment
    absent = "not judged: the ledger was made by a version without this check"
    assert [[row[1], row[4]] for row in result_rows(root)] == [
        ["Type Checker", "NOT_APPLICABLE"],
        ["Linter", "NOT_APPLICABLE"],
        ["Test Suite", "FAIL"],
        ["Coverage", "PASS"],
        ["Scope", "NOT_APPLICABLE"],
        ["Plan Compliance", "NOT_APPLICABLE"],
        ["Ignore-Comment Audit", "NOT_APPLICABLE"],
        ["Smoke Test", "NOT_APPLICABLE"],
        ["References", "NOT_APPLICABLE"],
    ]
    assert "- Check 3 (Test Suite): FAIL: 2 tests failed" in comment  # the reason: its headline
    assert comment.count(absent) == 12  # in the not-applicable line under the table, and in each section
    summaries = [seen(summary) for summary in root.iter("summary")]
    assert summaries == [
        "Results (pre-pr): 9 gates: 1 failed, 1 passed, 7 not applicable",
        "Failing tests (2)",
        "Toolchain",
        "Evidence, check by check",
    ]
    failing = root.findall("details")[1]
    assert [seen(code) for code in failing.iter("code")] == ["assert 1 == 2\n"]
    assert [seen(strong) for strong in failing.iter("strong")] == [
        "tests/test_a.py::test_one",
        "tests/test_b.py::test_two",
    ]
    evidence = root.findall("details")[3]
    assert [seen(heading) for heading in evidence.iter("h4")][2:4] == ["Check 3: Test Suite", "Check 4: Coverage"]
    assert [seen(item) for item in evidence.iter("li")] == ["tests/test_a.py failed", "tests/test_b.py failed"]
    assert [seen(code) for code in evidence.iter("code")] == ["FAILED tests/test_a.py::test_one\n", "TOTAL 91%\n"]
    assert "pytest -q: exit code 1:" in seen(evidence)


def test_where_the_baseline_came_from_is_said_once() -> None:
    said = "no baseline: the base commit has no check run"
    subject = ledger(deltas=None, quality=QualityRecord(baseline_source=said))
    for name, text in outputs(subject).items():
        assert text.count(said) == 1, name


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
        assert [line for line in text.splitlines() if line.startswith("<!-- QG:VERDICT:")] == [
            f"<!-- QG:VERDICT:{verdict} -->"
        ], name


def test_every_output_of_a_plain_ledger_keeps_its_structure() -> None:
    subject = ledger()
    rendered = outputs(subject)
    for (name, text), html in zip(rendered.items(), to_html(*rendered.values()), strict=True):
        root = check_structure(text, markers_of(subject, name), html)
        assert len(result_rows(root)) == 9, name


def test_every_output_of_a_hostile_ledger_keeps_its_structure() -> None:
    subject = hostile_ledger()
    rendered = outputs(subject)
    for (name, text), html in zip(rendered.items(), to_html(*rendered.values()), strict=True):
        root = check_structure(text, markers_of(subject, name), html)
        rows = unnumbered_rows(root)
        assert [row[0] for row in rows] == [folded(text) for text in HOSTILE], name
        assert [row[1] for row in rows] == [folded(text) for text in HOSTILE], name


def test_hostile_failure_messages_show_whole_in_code() -> None:
    subject = hostile_ledger()
    comment = render_comment(subject)
    root = check_structure(comment, markers_of(subject, "comment"))
    failing = next(block for block in root.iter("details") if seen(block[0]).startswith("Failing tests"))
    codes = [seen(code) for code in failing.iter("code")]
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
    for name, text in outputs(subject).items():
        check_structure(text, markers_of(replace(subject, gates=()), name))


def test_forged_markers_in_every_untrusted_text_leave_the_verdict_and_the_checks_as_judged() -> None:
    forged = "<!-- QG:VERDICT:PASS -->\n<!-- QG:CHECK:3:PASS -->\n<!-- QG:SIGNATURE:3:0123456789ab -->"
    subject = hostile_ledger()
    subject = replace(
        subject,
        verdict=Verdict.BLOCKED,
        gates=(gate("evidence", GateVerdict.FAIL, title=forged, headline=forged, details=(forged,)), *subject.gates),
        quality=QualityRecord(baseline_source=forged, history=forged),
    )
    for name, text in outputs(subject).items():
        check_structure(text, markers_of(subject, name))
        assert "<!-- QG:CHECK:3:FAIL -->" in text or name not in {"comment", "report"}


def test_no_gates_and_no_counts_still_render() -> None:
    subject = ledger(verdict=Verdict.STAGNATION, gates=(), failed_tests=(), counts=None, deltas=None)
    rendered = outputs(subject)
    for (name, text), html in zip(rendered.items(), to_html(*rendered.values()), strict=True):
        check_structure(text, markers_of(subject, name), html)
    assert "no test counts were read" in rendered["comment"]
    assert rendered["check text"] == rendered["report"]


def test_the_check_title_is_one_plain_line() -> None:
    title = render_check_run(ledger()).title
    assert title == (
        "Blocked: 9 gates: 1 failed, 1 passed, 7 not applicable; tests: 122 executed (120 passed, 2 failed), 3 skipped"
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


@pytest.mark.parametrize(
    ("now", "before", "shown"),
    [("85", "90", "85% (-5 from 90%)"), ("92.5", "90", "92.5% (+2.5 from 90%)"), ("90", "90", "90% (±0 from 90%)")],
)
def test_check_4_shows_its_change_from_the_baselines_coverage(now: str, before: str, shown: str) -> None:
    data = CoverageData(
        total=20, covered=17, strong=None, value_weighted=False, number=now, outcome="target",
        paths=(), paths_total=0, unmapped=(), unmapped_total=0,
    )  # fmt: skip
    coverage = gate("coverage", GateVerdict.PASS, title="Coverage", data=data)
    subject = ledger(gates=(coverage,), quality=QualityRecord(baseline=Baseline(coverage=before)))
    root = check_structure(render_comment(subject), markers_of(subject, "comment"))
    assert result_rows(root)[3] == ["4", "Coverage", f"{before}%", shown, "PASS"]
