"""The verdict block names every check and gate that blocks, each with what to do, before the
Results table in the short outputs; the header counts the Results rows by the word each shows."""

from __future__ import annotations

import re

from lxml.html import HtmlElement

from evidence_gate.ledger.catalog import CHECKS
from evidence_gate.ledger.model import GateVerdict, Ledger
from evidence_gate.render import render_check_run, render_comment, render_job_summary, render_report
from tests.render.checks import check_structure, quality_markers, result_rows, seen
from tests.render.ledgers import gate, ledger

PASSING = tuple(
    gate(check.gate, GateVerdict.PASS if check.number <= 4 else GateVerdict.NOT_APPLICABLE) for check in CHECKS
)
STRENGTH_UNAVAILABLE = gate(
    "strength",
    GateVerdict.UNAVAILABLE,
    title="Test strength",
    headline="tests/test_cart.py: not run: the tests cannot run in the action's container",
)
INTEGRITY_PASS = gate("gate-integrity", GateVerdict.PASS, title="Gate integrity", headline="no relaxation")


def reasons(root: HtmlElement) -> list[str]:
    """The verdict block's list: the first list of the output, or in the comment, whose first screen
    lists what needs the author, the first list of its folded Results."""
    folds = [block for block in root.iter("details") if seen(block[0]).startswith("Results")]
    found = (folds[0] if folds else root).find(".//ul")
    assert found is not None, "no reasons listed"
    return [" ".join(seen(item).split()) for item in found.findall("li")]


def header_counts(text: str) -> dict[str, int]:
    match = re.search(r"(\d+) gates: ([^.;<]+)", text)
    assert match is not None
    counts = {words: int(count) for count, words in (part.split(" ", 1) for part in match.group(2).split(", "))}
    assert sum(counts.values()) == int(match.group(1))
    return counts


def row_counts(root: HtmlElement) -> dict[str, int]:
    words = {"FAIL": "failed", "MISSING": "missing", "PASS": "passed", "NOT_APPLICABLE": "not applicable", "OFF": "off"}
    counts: dict[str, int] = {}
    for row in result_rows(root):
        counts[words[row[4]]] = counts.get(words[row[4]], 0) + 1
    return counts


def test_an_unavailable_gate_alone_is_listed_with_what_to_do() -> None:
    subject = ledger(gates=(*PASSING, INTEGRITY_PASS, STRENGTH_UNAVAILABLE))
    comment = render_comment(subject)
    root = check_structure(comment, quality_markers(subject, "comment"))
    assert reasons(root) == [
        "Test strength: MISSING: tests/test_cart.py: not run: the tests cannot run in the action's container."
        " What to do: run the tests where they can run (the runner step, uses: your-org/evidence-gate/run@<sha>),"
        " or switch strength off in the base branch's config (gates-off: [strength])."
    ]
    # The reasons come before the Results table: the first screen.
    assert comment.index("What to do:") < comment.index("| # | Check |")
    assert header_counts(comment) == row_counts(root) == {"missing": 1, "passed": 5, "not applicable": 5}


def test_failed_missing_and_unavailable_are_all_listed_and_the_header_counts_the_rows() -> None:
    gates = {item.id: item for item in PASSING}
    gates["evidence"] = gate("evidence", GateVerdict.FAIL, headline="2 tests failed")
    gates["type-check"] = gate(
        "type-check", GateVerdict.MISSING, headline="no mypy or pyright is configured: give its evidence"
    )
    gates["lint"] = gate(
        "lint", GateVerdict.UNAVAILABLE, headline="evidence/ruff.log records no exit code (no `EXIT_CODE=` line)"
    )
    gates["smoke"] = gate("smoke", GateVerdict.OFF, headline="switched off by the workflow's `gates-off` input")
    off = gate("gate-integrity", GateVerdict.OFF, title="Gate integrity", headline="switched off")
    subject: Ledger = ledger(gates=(*gates.values(), STRENGTH_UNAVAILABLE, off))
    outputs = {
        "comment": render_comment(subject),
        "check summary": render_check_run(subject).summary,
        "job summary": render_job_summary(subject),
        "report": render_report(subject),
    }
    for name, text in outputs.items():
        root = check_structure(text, quality_markers(subject, name))
        listed = reasons(root)
        assert [line.split(":")[0] for line in listed] == [
            "Check 1 (Type Checker)",
            "Check 2 (Linter)",
            "Check 3 (Test Suite)",
            "Test strength",
        ], name
        assert all(" What to do: " in line for line in listed)
        assert listed[1].startswith("Check 2 (Linter): MISSING: evidence/ruff.log records no exit code")
        assert 'append ; echo "EXIT_CODE=$?" to the command' in listed[1]
        counts = row_counts(root)
        assert counts == {"failed": 1, "missing": 3, "passed": 1, "not applicable": 4, "off": 2}, name
    assert header_counts(outputs["comment"]) == counts
    assert render_check_run(subject).title.startswith("Blocked: 11 gates: 1 failed, 3 missing, 1 passed, 4 not")
