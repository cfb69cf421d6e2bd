"""What the coverage gate decides, from the measures, the thresholds and the author's labels.

The number judged, first matching row: no percentage (no changed production line, a test-only diff,
no report, nothing executable) → skipped, and where a report was read, said which: no report names
some changed files, or the reports measure no statement on their changed lines; value weighting
switched off → coverage by any test; value-weighted coverage unavailable (strength judged no test,
or none of those that ran the changed lines) → coverage by any test, and said why; value-weighted
above coverage by any test → clamped to it, and said; else value-weighted, where lines whose tests
strength did not judge count as coverage of any test, and said why. Percentages are exact
(Decimal) and shown rounded down, so a number never overstates: 79.99 is not "80%".

The author's choices are labels: each one the pull request carries is said with what it did
(`choices`), one that changed nothing too, so a reviewer sees every choice and never guesses.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from decimal import ROUND_FLOOR, Decimal
from enum import StrEnum

from evidence_gate.coverage.measure import Measures

SKIPPED = "Coverage gate: could not determine percentage — skipping."
UNMEASURED = "Coverage gate: no coverage report measures the changed files — skipping."
NO_STATEMENT = "Coverage gate: the changed lines hold no executable statement — skipping."
MAX_NAMED = 5  # the files named in why there is no percentage; the rest are counted
ACCEPT_RISK = "coverage:accept-risk"
INTENTIONAL = "coverage:intentional"
OVERRIDE = "coverage:override"
LABELS = (ACCEPT_RISK, INTENTIONAL, OVERRIDE)  # the author's choices, in the order the decision reads them


class Outcome(StrEnum):
    SKIPPED = "skipped"
    INFORMATIONAL = "informational"  # fewer changed lines than `min-changed-lines`
    TARGET = "target"  # at or above the target
    BELOW_TARGET = "below-target"  # at or above the minimum
    ACCEPTED = "accepted"  # below the target, `coverage:accept-risk`
    INTENTIONAL = "intentional"  # below the target, `coverage:intentional`
    CRITICAL = "critical"  # below the minimum
    OVERRIDDEN = "overridden"  # below the minimum, `coverage:override`


@dataclass(frozen=True, kw_only=True)
class Thresholds:
    minimum: int
    target: int
    min_changed_lines: int
    value_weighting: bool


@dataclass(frozen=True, kw_only=True)
class Decision:
    outcome: Outcome
    number: Decimal | None  # the percentage judged
    value_weighted: bool  # whether `number` is the value-weighted one
    message: str
    notes: tuple[str, ...] = ()


def shown(number: Decimal) -> str:
    """A percentage rounded down to two decimals, without trailing zeros: `79.99`, `80`, `33.33`."""
    text = f"{number.quantize(Decimal('0.01'), rounding=ROUND_FLOOR):f}"
    return text.rstrip("0").rstrip(".") if "." in text else text


def decide(measures: Measures | None, thresholds: Thresholds, labels: frozenset[str]) -> Decision:
    if measures is None:
        return Decision(outcome=Outcome.SKIPPED, number=None, value_weighted=False, message=SKIPPED)
    if measures.coverage_pct is None:
        return _nothing_executable(measures)
    number, value_weighted, notes = _number(measures, measures.coverage_pct, thresholds)
    x = shown(number)
    weak, gaps = len(measures.weak_gaps), len(measures.gaps)
    y = shown(measures.coverage_pct)
    if measures.total < thresholds.min_changed_lines:
        message = (
            f"Coverage gate: {x}% on {measures.total} changed lines, fewer than min-changed-lines "
            f"({thresholds.min_changed_lines}): informational only."
        )
        return Decision(
            outcome=Outcome.INFORMATIONAL, number=number, value_weighted=value_weighted, message=message, notes=notes
        )
    kind = " value-weighted" if value_weighted else ""
    if number == 100:
        return _decision(Outcome.TARGET, number, value_weighted, "Coverage gate: PASS (100%).", notes)
    if number >= thresholds.target:
        return _decision(Outcome.TARGET, number, value_weighted, f"Coverage gate: PASS ({x}%{kind}).", notes)
    label = "Value-weighted coverage" if value_weighted else "Coverage"
    if number >= thresholds.minimum:
        if ACCEPT_RISK in labels:
            return _decision(
                Outcome.ACCEPTED, number, value_weighted, f"Coverage gate: {x}% — user accepted risk.", notes
            )
        if INTENTIONAL in labels:
            message = f"Coverage gate: {x}% — {gaps} paths intentionally uncovered."
            return _decision(Outcome.INTENTIONAL, number, value_weighted, message, notes)
        message = (
            f"{label} is {x}% ({y}% including {weak} weakly covered paths). {weak} paths have only weak tests "
            f"and {gaps} have none. Target is {thresholds.target}%."
        )
        return _decision(Outcome.BELOW_TARGET, number, value_weighted, message, notes)
    if OVERRIDE in labels:
        return _decision(Outcome.OVERRIDDEN, number, value_weighted, f"Coverage gate: OVERRIDDEN at {x}%.", notes)
    message = (
        f"{label} is critically low ({x}%; {y}% including {weak} weakly covered paths). {gaps} of "
        f"{len(measures.paths)} code paths have no tests. Minimum threshold is {thresholds.minimum}%."
    )
    return _decision(Outcome.CRITICAL, number, value_weighted, message, notes)


def _nothing_executable(measures: Measures) -> Decision:
    """Skipped, and why, when the reports were read but measure no changed line: they name none of
    some changed files, or measure no statement on the changed lines of the files they name."""
    notes = []
    if measures.unmeasured:
        notes.append(f"no coverage report measures {_files(measures.unmeasured)}")
    if measures.no_statement:
        notes.append(
            f"the reports measure no statement on the changed lines of {_files(measures.no_statement)}: "
            "comments, blank lines, or lines they count in no statement"
        )
    message = UNMEASURED if measures.unmeasured else NO_STATEMENT
    return Decision(outcome=Outcome.SKIPPED, number=None, value_weighted=False, message=message, notes=tuple(notes))


def _files(paths: Sequence[str]) -> str:
    more = f" and {len(paths) - MAX_NAMED} more files" if len(paths) > MAX_NAMED else ""
    return ", ".join(paths[:MAX_NAMED]) + more


def _decision(
    outcome: Outcome, number: Decimal, value_weighted: bool, message: str, notes: tuple[str, ...]
) -> Decision:
    return Decision(outcome=outcome, number=number, value_weighted=value_weighted, message=message, notes=notes)


def _number(measures: Measures, coverage: Decimal, thresholds: Thresholds) -> tuple[Decimal, bool, tuple[str, ...]]:
    if not thresholds.value_weighting:
        return (
            coverage,
            False,
            ("value weighting is off (coverage-value-weighting: false); the gate used coverage of any test",),
        )
    if measures.value_pct is None:
        why = measures.value_unavailable or "no strength verdicts"
        return coverage, False, (f"value-weighted coverage unavailable: {why}; the gate used coverage of any test",)
    if measures.value_pct > coverage:
        value = shown(measures.value_pct)
        note = f"value-weighted coverage ({value}%) is above coverage of any test; clamped to {shown(coverage)}%"
        return coverage, True, (note,)
    if measures.unknown and measures.unknown_why:
        note = (
            f"value-weighted coverage unavailable for {measures.unknown} of {measures.total} changed lines: "
            f"{measures.unknown_why}; they count as coverage of any test"
        )
        return measures.value_pct, True, (note,)
    return measures.value_pct, True, ()


@dataclass(frozen=True, kw_only=True)
class Choice:
    """A coverage label the pull request carries, and what it did to the decision."""

    label: str
    effect: str  # in the decision's words; a label that changed nothing says why it did not
    applied: bool  # whether the label made the decision


# The outcome each label makes, and what it then did, in the decision's words (X: the percentage).
_APPLIED = {
    ACCEPT_RISK: (Outcome.ACCEPTED, "user accepted risk at {x}, below the target: the gate passes."),
    INTENTIONAL: (Outcome.INTENTIONAL, "paths intentionally uncovered at {x}, below the target: the gate passes."),
    OVERRIDE: (Outcome.OVERRIDDEN, "OVERRIDDEN at {x}, below the minimum: the gate passes."),
}


def choices(outcome: Outcome, number: str | None, labels: Collection[str]) -> tuple[Choice, ...]:
    """Each coverage label among `labels`, in the order the decision reads them, with what it did
    to `outcome` (`number`: the percentage judged, as shown)."""
    x = "no percentage" if number is None else f"{number}%"
    return tuple(_choice(label, outcome, x) for label in LABELS if label in labels)


def _choice(label: str, outcome: Outcome, x: str) -> Choice:
    made, effect = _APPLIED[label]
    if outcome is made:
        return Choice(label=label, effect=effect.format(x=x), applied=True)
    return Choice(label=label, effect=_unused(label, outcome, x), applied=False)


def _unused(label: str, outcome: Outcome, x: str) -> str:
    """Why a label the pull request carries did not make the decision."""
    if outcome is Outcome.SKIPPED:
        return "not needed: there is no percentage to judge."
    if outcome is Outcome.INFORMATIONAL:
        return f"not needed: {x} on fewer changed lines than min-changed-lines is informational only."
    if outcome is Outcome.TARGET:
        return f"not needed: {x} is at or above the target."
    below_minimum = outcome in (Outcome.CRITICAL, Outcome.OVERRIDDEN)
    if label == OVERRIDE and not below_minimum:
        return f"not needed: {x} is not below the minimum, and {OVERRIDE} passes only coverage below it."
    if label != OVERRIDE and below_minimum:
        return f"no effect: {x} is below the minimum, where only {OVERRIDE} passes the gate."
    if label == INTENTIONAL and outcome is Outcome.ACCEPTED:
        return f"not needed: {ACCEPT_RISK} already passes the gate below the target."
    return "no effect on this decision."  # a ledger whose outcome its labels do not explain
