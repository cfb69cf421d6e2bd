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

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

from evidence_gate.coverage.measure import Measures
from evidence_gate.ledger.payloads.coverage import ACCEPT_RISK, INTENTIONAL, OVERRIDE, Outcome, shown

SKIPPED = "Coverage gate: could not determine percentage — skipping."
UNMEASURED = "Coverage gate: no coverage report measures the changed files — skipping."
NO_STATEMENT = "Coverage gate: the changed lines hold no executable statement — skipping."
MAX_NAMED = 5  # the files named in why there is no percentage; the rest are counted


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
