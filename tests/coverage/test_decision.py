"""The coverage gate's number and words, from literal measures: every row of the decision table."""

from __future__ import annotations

from dataclasses import replace
from decimal import Decimal

import pytest

from evidence_gate.coverage.decision import NO_STATEMENT, SKIPPED, UNMEASURED, Thresholds, decide
from evidence_gate.coverage.measure import Attribution, Measures, measure
from evidence_gate.coverage.model import Lines
from evidence_gate.ledger.payloads.coverage import LABELS, Outcome, PathState, choices, shown

DEFAULT = Thresholds(minimum=60, target=80, min_changed_lines=0, value_weighting=True)


def measured(covered: int, total: int, strong: int | None, contexts: bool = True) -> Measures:
    """A file of `total` changed lines, the first `covered` run, the first `strong` by a red test."""
    lines = tuple(range(1, total + 1))
    contexts_by_line = (
        {
            line: frozenset(
                {"tests/test_red.py::t" if strong is not None and line <= strong else "tests/test_weak.py::t"}
            )
            for line in lines[:covered]
        }
        if contexts
        else None
    )
    report = Lines(measured=frozenset(lines), covered=frozenset(lines[:covered]), contexts=contexts_by_line)
    verdicts = {"tests/test_red.py": "red", "tests/test_weak.py": "still-green"} if strong is not None else None
    attribution = Attribution(
        verdicts=verdicts,
        unavailable=None if strong is not None else "test strength judged no test",
        paired={},
        test_of_context=lambda context: context.split("::")[0],
    )
    return measure({"app.py": lines}, {"app.py": report}, attribution)


@pytest.mark.parametrize(
    ("number", "text"),
    [(Decimal("79.999"), "79.99"), (Decimal(80), "80"), (Decimal(200) / 3, "66.66"), (Decimal("0.001"), "0")],
)
def test_percentages_are_shown_rounded_down(number: Decimal, text: str) -> None:
    assert shown(number) == text


def test_no_percentage_is_skipped_never_zero() -> None:
    decision = decide(None, DEFAULT, frozenset())
    assert (decision.outcome, decision.number, decision.message) == (Outcome.SKIPPED, None, SKIPPED)
    nothing_executable = measure({"a.py": (1,)}, {"a.py": Lines(measured=frozenset({5}), covered=frozenset())}, _none())
    assert decide(nothing_executable, DEFAULT, frozenset()).outcome is Outcome.SKIPPED


def test_with_a_report_read_a_skip_says_whether_it_measured_the_files_or_found_no_statement() -> None:
    """Never "could not determine percentage" once a report was read: it says what it found."""
    report = {"a.py": Lines(measured=frozenset({5}), covered=frozenset())}
    no_statement = decide(measure({"a.py": (1, 2)}, report, _none()), DEFAULT, frozenset())
    assert (no_statement.outcome, no_statement.message) == (Outcome.SKIPPED, NO_STATEMENT)
    assert no_statement.message == "Coverage gate: the changed lines hold no executable statement — skipping."
    assert no_statement.notes == (
        "the reports measure no statement on the changed lines of a.py: comments, blank lines, or lines they "
        "count in no statement",
    )
    changed = {"a.py": (1,), **{f"m{n}.py": (1,) for n in range(7)}}
    unmeasured = decide(measure(changed, report, _none()), DEFAULT, frozenset())
    assert (unmeasured.outcome, unmeasured.message) == (Outcome.SKIPPED, UNMEASURED)
    assert unmeasured.message == "Coverage gate: no coverage report measures the changed files — skipping."
    assert unmeasured.notes == (
        "no coverage report measures m0.py, m1.py, m2.py, m3.py, m4.py and 2 more files",
        "the reports measure no statement on the changed lines of a.py: comments, blank lines, or lines they "
        "count in no statement",
    )


def _none() -> Attribution:
    return Attribution(verdicts=None, unavailable="none", paired={}, test_of_context=lambda context: None)


def test_each_threshold_row_and_label() -> None:
    assert decide(measured(10, 10, 10), DEFAULT, frozenset()).message == "Coverage gate: PASS (100%)."
    assert decide(measured(9, 10, 9), DEFAULT, frozenset()).message == "Coverage gate: PASS (90% value-weighted)."
    below = measured(10, 10, 7)
    assert decide(below, DEFAULT, frozenset()).message == (
        "Value-weighted coverage is 70% (100% including 1 weakly covered paths). "
        "1 paths have only weak tests and 0 have none. Target is 80%."
    )
    assert (
        decide(below, DEFAULT, frozenset({"coverage:accept-risk"})).message
        == "Coverage gate: 70% — user accepted risk."
    )
    assert decide(below, DEFAULT, frozenset({"coverage:intentional"})).message == (
        "Coverage gate: 70% — 0 paths intentionally uncovered."
    )
    critical = measured(8, 10, 5)
    assert decide(critical, DEFAULT, frozenset()).message == (
        "Value-weighted coverage is critically low (50%; 80% including 1 weakly covered paths). "
        "1 of 3 code paths have no tests. Minimum threshold is 60%."
    )
    assert decide(critical, DEFAULT, frozenset({"coverage:accept-risk"})).outcome is Outcome.CRITICAL
    assert decide(critical, DEFAULT, frozenset({"coverage:override"})).message == "Coverage gate: OVERRIDDEN at 50%."


def test_value_weighting_off_or_unavailable_falls_back_to_any_test_and_says_so() -> None:
    off = decide(
        measured(9, 10, 1), Thresholds(minimum=60, target=80, min_changed_lines=0, value_weighting=False), frozenset()
    )
    assert (off.number, off.value_weighted, off.message) == (Decimal(90), False, "Coverage gate: PASS (90%).")
    assert "value weighting is off" in off.notes[0]
    unavailable = decide(measured(9, 10, None), DEFAULT, frozenset())
    assert unavailable.number == 90
    assert unavailable.notes == (
        "value-weighted coverage unavailable: test strength judged no test; the gate used coverage of any test",
    )
    no_attribution = measured(9, 10, 9, contexts=False)
    assert no_attribution.value_pct is None
    assert "no test can be named for app.py" in (no_attribution.value_unavailable or "")


def test_few_changed_lines_are_informational() -> None:
    small = Thresholds(minimum=60, target=80, min_changed_lines=20, value_weighting=True)
    decision = decide(measured(1, 10, 1), small, frozenset())
    assert decision.outcome is Outcome.INFORMATIONAL
    assert decision.message.endswith("fewer than min-changed-lines (20): informational only.")


def test_paths_join_over_unmeasured_lines_only_and_name_weak_tests() -> None:
    report = Lines(
        measured=frozenset({1, 2, 4, 5, 6, 9, 10}),
        covered=frozenset({1, 2, 4}),
        contexts={1: frozenset({"t.py::a"}), 2: frozenset({"t.py::a"}), 4: frozenset({""})},
    )
    attribution = Attribution(
        verdicts={"t.py": "still-green"}, unavailable=None, paired={}, test_of_context=lambda c: c.split("::")[0]
    )
    # 3 is blank (unmeasured) and joins 2 to 4; 7-8 are unchanged code, so 9 starts a new path.
    result = measure({"a.py": (1, 2, 3, 4, 5, 9, 10)}, {"a.py": report}, attribution)
    states = [(p.start, p.end, p.state, p.tests) for p in result.paths]
    assert states == [
        (1, 4, PathState.WEAK, ("t.py (still-green)",)),  # line 4 ran on import: on behalf of t.py
        (5, 5, PathState.UNCOVERED, ()),
        (9, 10, PathState.UNCOVERED, ()),
    ]


def test_a_value_weighted_number_above_coverage_of_any_test_is_clamped_and_said() -> None:
    """The measures never give one (a strong line is a covered line); a payload that claims one is held down."""
    claimed = replace(measured(7, 10, 7), value_pct=Decimal(90))
    decision = decide(claimed, DEFAULT, frozenset())
    assert (decision.number, decision.value_weighted) == (Decimal(70), True)
    assert decision.notes == ("value-weighted coverage (90%) is above coverage of any test; clamped to 70%",)


def test_weak_is_only_still_green_and_lines_strength_did_not_judge_count_as_any_tests_with_the_reason() -> None:
    """Line 1 runs under a red test, 2 under a still-green one, 3 under a still-green and a not-run
    one, 4 under a test strength never ran (not a changed test), 5 under an unjudged one; 6 never runs."""
    by_line = {1: "red", 2: "green", 3: "green broken", 4: "old", 5: "new"}
    report = Lines(
        measured=frozenset(range(1, 7)),
        covered=frozenset(by_line),
        contexts={
            line: frozenset(f"tests/test_{name}.py::t" for name in names.split()) for line, names in by_line.items()
        },
    )
    attribution = Attribution(
        verdicts={
            "tests/test_red.py": "red",
            "tests/test_green.py": "still-green",
            "tests/test_broken.py": "not-run",
            "tests/test_new.py": "unjudged",
        },
        unavailable=None,
        paired={},
        test_of_context=lambda context: context.split("::")[0],
        reasons={"tests/test_broken.py": "fails at the head (1 failed)", "tests/test_new.py": "does not load"},
    )
    result = measure({"app.py": tuple(range(1, 7))}, {"app.py": report}, attribution)
    assert [(p.start, p.end, p.state, p.tests) for p in result.paths] == [
        (1, 1, PathState.STRONG, ()),
        (2, 2, PathState.WEAK, ("tests/test_green.py (still-green)",)),
        (3, 5, PathState.COVERED, ()),
        (6, 6, PathState.UNCOVERED, ()),
    ]
    # Red, and the three lines whose tests strength did not judge, of six.
    assert (result.strong, result.unknown, result.value_pct) == (1, 3, Decimal(4) * 100 / 6)
    decision = decide(result, DEFAULT, frozenset())
    assert (decision.outcome, shown(decision.number or Decimal(0)), decision.value_weighted) == (
        Outcome.BELOW_TARGET,
        "66.66",
        True,
    )
    assert decision.notes == (
        "value-weighted coverage unavailable for 3 of 6 changed lines: strength did not judge the tests that run "
        "these lines (tests/test_broken.py: not-run: fails at the head (1 failed); tests/test_old.py: not judged "
        "by strength in this run; tests/test_new.py: unjudged: does not load); they count as coverage of any test",
    )


def test_each_label_says_what_it_did_or_why_it_did_nothing() -> None:
    every = frozenset(LABELS)
    assert [(choice.label, choice.applied) for choice in choices(Outcome.ACCEPTED, "70", every)] == [
        ("coverage:accept-risk", True),
        ("coverage:intentional", False),
        ("coverage:override", False),
    ]
    said = {(outcome, choice.label): choice.effect for outcome in Outcome for choice in choices(outcome, "70", every)}
    assert (
        said[Outcome.ACCEPTED, "coverage:accept-risk"]
        == "user accepted risk at 70%, below the target: the gate passes."
    )
    assert said[Outcome.INTENTIONAL, "coverage:intentional"] == (
        "paths intentionally uncovered at 70%, below the target: the gate passes."
    )
    assert said[Outcome.OVERRIDDEN, "coverage:override"] == "OVERRIDDEN at 70%, below the minimum: the gate passes."
    assert said[Outcome.TARGET, "coverage:override"] == "not needed: 70% is at or above the target."
    assert said[Outcome.INFORMATIONAL, "coverage:accept-risk"] == (
        "not needed: 70% on fewer changed lines than min-changed-lines is informational only."
    )
    assert said[Outcome.CRITICAL, "coverage:intentional"] == (
        "no effect: 70% is below the minimum, where only coverage:override passes the gate."
    )
    assert choices(Outcome.SKIPPED, None, {"coverage:override"})[0].effect == (
        "not needed: there is no percentage to judge."
    )
    assert choices(Outcome.TARGET, "100", {"triage", "coverage:other"}) == ()
