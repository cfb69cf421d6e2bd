"""The PR body's Test Coverage section says the coverage decision in its own words, then draws the
changed paths, then names each coverage label the author put on the pull request with what it did
(one that did nothing too); the decision and the choices are in every form the section's room
allows, and a path's name cannot break out of where it is shown."""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path

import jsonschema
import pytest
from lxml.html import HtmlElement

from evidence_gate.coverage.measure import Attribution, Measures, measure
from evidence_gate.coverage.model import Lines
from evidence_gate.gates.coverage import CoverageFacts, judge
from evidence_gate.ledger.model import FailedTest, Ledger
from evidence_gate.ledger.payload import read, schema, write
from evidence_gate.ledger.payloads.coverage import CoverageData
from evidence_gate.render import LimitError, render_pr_section
from evidence_gate.settings import Settings
from tests.render.checks import check_structure, folded, quality_markers, seen
from tests.render.gfm import to_html
from tests.render.ledgers import HOSTILE, ledger

RED_TEST = "tests/test_app.py"
CHOICES = "**Author's choices:**"


def measured(files: Mapping[str, tuple[int, int]]) -> Measures:
    """Each file's first `changed` lines changed, the first `run` of them run by a test that fails
    without the change: (changed, run) by file."""
    changed = {path: tuple(range(1, count + 1)) for path, (count, _) in files.items()}
    reports = {
        path: Lines(
            measured=frozenset(changed[path]),
            covered=frozenset(range(1, run + 1)),
            contexts={line: frozenset({f"{RED_TEST}::test"}) for line in range(1, run + 1)},
        )
        for path, (_, run) in files.items()
    }
    attribution = Attribution(
        verdicts={RED_TEST: "red"},
        unavailable=None,
        paired={},
        test_of_context=lambda context: context.split("::")[0],
    )
    return measure(changed, reports, attribution)


def judged(files: Mapping[str, tuple[int, int]], *labels: str, **fields: object) -> Ledger:
    """A ledger whose coverage gate judged `files` (see `measured`) under the default thresholds
    (minimum 60, target 80), the pull request carrying `labels`."""
    result = judge(CoverageFacts(measures=measured(files), labels=frozenset(labels)), Settings(repo=Path("checkout")))
    return ledger(gates=(result,), **{"failed_tests": (), **fields})


def choice_list(root: HtmlElement) -> list[HtmlElement]:
    """The Author's choices: the list items under its heading."""
    heading = [p for p in root.iter("p") if seen(p) == "Author's choices:"]
    assert len(heading) == 1
    listing = heading[0].getnext()
    assert listing is not None and listing.tag == "ul"
    return list(listing.findall("li"))


def choice_items(root: HtmlElement) -> list[str]:
    """The Author's choices, each as a reader sees its list item (its listed paths included)."""
    return [" ".join(seen(item).split()) for item in choice_list(root)]


def checked(section: str, subject: Ledger) -> HtmlElement:
    return check_structure(section, quality_markers(subject, "pr section"))


def test_accept_risk_shows_the_decision_then_the_diagram_then_the_choice() -> None:
    subject = judged({"app.py": (10, 7)}, "coverage:accept-risk")
    section = render_pr_section(subject, 65_000)
    sentence = "Coverage gate: 70% — user accepted risk."
    assert section.count(sentence) == 1
    assert section.index(sentence) < section.index("```mermaid") < section.index(CHOICES)
    assert choice_items(checked(section, subject)) == [
        "coverage:accept-risk: user accepted risk at 70%, below the target: the gate passes."
    ]


def test_intentional_names_the_paths_it_leaves_uncovered() -> None:
    subject = judged({"shop/cart.py": (10, 7), "shop/tax_rates.py": (4, 3)}, "coverage:intentional")
    section = render_pr_section(subject, 65_000)
    sentence = "Coverage gate: 71.42% — 2 paths intentionally uncovered."
    assert section.count(sentence) == 1
    assert section.index(sentence) < section.index("```mermaid") < section.index(CHOICES)
    assert choice_items(checked(section, subject)) == [
        "coverage:intentional: paths intentionally uncovered at 71.42%, below the target: the gate passes."
        " shop/cart.py lines 8-10 shop/tax_rates.py line 4"
    ]
    assert "  - shop/tax\\_rates.py line 4\n" in section  # escaped as the coverage body escapes it


def test_override_says_it_overrode_the_minimum() -> None:
    subject = judged({"app.py": (10, 5)}, "coverage:override")
    section = render_pr_section(subject, 65_000)
    sentence = "Coverage gate: OVERRIDDEN at 50%."
    assert section.count(sentence) == 1
    assert section.index(sentence) < section.index("```mermaid") < section.index(CHOICES)
    assert choice_items(checked(section, subject)) == [
        "coverage:override: OVERRIDDEN at 50%, below the minimum: the gate passes."
    ]


@pytest.mark.parametrize(
    ("files", "labels", "sentence", "items"),
    [
        (
            {"app.py": (10, 10)},
            ("coverage:override",),
            "Coverage gate: PASS (100%).",
            ["coverage:override: not needed: 100% is at or above the target."],
        ),
        (
            {"app.py": (10, 7)},
            ("coverage:accept-risk", "coverage:intentional", "coverage:override"),
            "Coverage gate: 70% — user accepted risk.",
            [
                "coverage:accept-risk: user accepted risk at 70%, below the target: the gate passes.",
                "coverage:intentional: not needed: coverage:accept-risk already passes the gate below the target.",
                "coverage:override: not needed: 70% is not below the minimum, and coverage:override passes only"
                " coverage below it.",
            ],
        ),
        (
            {"app.py": (10, 5)},
            ("coverage:accept-risk",),
            "Value-weighted coverage is critically low (50%; 50% including 0 weakly covered paths). 1 of 2 code"
            " paths have no tests. Minimum threshold is 60%.",
            [
                "coverage:accept-risk: no effect: 50% is below the minimum, where only coverage:override passes"
                " the gate."
            ],
        ),
    ],
)
def test_a_label_that_did_nothing_is_shown_with_why(
    files: Mapping[str, tuple[int, int]], labels: tuple[str, ...], sentence: str, items: list[str]
) -> None:
    subject = judged(files, *labels)
    section = render_pr_section(subject, 65_000)
    assert section.count(f"\n\n{sentence}\n") == 1  # its own paragraph (a failed gate's is also a reason)
    assert choice_items(checked(section, subject)) == items


def test_without_a_label_the_decision_is_shown_and_no_choice() -> None:
    subject = judged({"app.py": (10, 7)})
    section = render_pr_section(subject, 65_000)
    sentence = (
        "Value-weighted coverage is 70% (70% including 0 weakly covered paths). 0 paths have only weak tests and 1"
        " have none. Target is 80%."
    )
    assert section.count(sentence) == 1
    assert section.index(sentence) < section.index("```mermaid")
    assert "Author's choices" not in section
    checked(section, subject)


def shortest_size(subject: Ledger) -> int:
    """How many characters the section's shortest form needs, as the refusal says it."""
    with pytest.raises(LimitError) as refusal:
        render_pr_section(subject, 1)
    found = re.search(r"its shortest form needs ([\d,]+)", str(refusal.value))
    assert found is not None
    return int(found.group(1).replace(",", ""))


def test_the_decision_and_the_choices_survive_fitting_the_paths_go_last_and_are_counted() -> None:
    subject = judged(
        {"shop/cart.py": (10, 7), "shop/tax.py": (4, 3), "shop/refund.py": (2, 2)},
        "coverage:intentional",
        failed_tests=tuple(FailedTest(name=f"test {index} " + "n" * 150, message="m") for index in range(40)),
    )
    sentence = "Coverage gate: 75% — 2 paths intentionally uncovered."
    choice = "coverage:intentional: paths intentionally uncovered at 75%, below the target: the gate passes."
    full = render_pr_section(subject, 65_000)
    assert "```mermaid" in full
    # A little short: the passing coverage gate's body goes first; the decision and the choices stay.
    tight = render_pr_section(subject, len(full) - 1)
    assert len(tight) < len(full) and "```mermaid" not in tight
    assert tight.count(sentence) == 1
    assert choice_items(checked(tight, subject)) == [f"{choice} shop/cart.py lines 8-10 shop/tax.py line 4"]
    # The shortest form: every failing test is counted, the listed paths too; the choice stays.
    room = shortest_size(subject)
    shortest = render_pr_section(subject, room)
    assert len(shortest) <= room
    assert shortest.count(sentence) == 1
    root = checked(shortest, subject)
    assert choice_items(root) == [f"{choice} … 2 more intentionally uncovered paths"]
    assert "test 0" not in shortest


def test_hostile_paths_cannot_break_out_of_the_choices_in_any_form() -> None:
    subject = judged(dict.fromkeys(HOSTILE, (3, 2)), "coverage:intentional")
    data = subject.gates[0].data
    assert isinstance(data, CoverageData) and data.outcome == "intentional"
    full = render_pr_section(subject, 65_000)
    shortest = render_pr_section(subject, shortest_size(subject))
    for section, html in zip((full, shortest), to_html(full, shortest), strict=True):
        check_structure(section, quality_markers(subject, "pr section"), html)
    (choice,) = choice_list(checked(full, subject))
    listed = choice.findall("ul/li")
    assert [" ".join(seen(item).split()) for item in listed] == [f"{folded(text)} line 3" for text in HOSTILE]


def test_the_labels_are_kept_in_the_ledger_and_a_ledger_without_them_reads() -> None:
    subject = judged({"app.py": (10, 7)}, "coverage:override", "coverage:accept-risk", "triage")
    data = subject.gates[0].data
    assert isinstance(data, CoverageData)
    assert data.labels == ("coverage:accept-risk", "coverage:override")
    document = write(data)
    jsonschema.Draft202012Validator(schema(CoverageData)).validate(document)
    assert read(CoverageData, document) == data
    del document["labels"]  # a ledger written before the labels were kept
    jsonschema.Draft202012Validator(schema(CoverageData)).validate(document)
    assert read(CoverageData, document).choices == ()
    assert not jsonschema.Draft202012Validator(schema(CoverageData)).is_valid(
        {**document, "labels": ["coverage:other"]}
    )
