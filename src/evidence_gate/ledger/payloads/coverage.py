"""The coverage gate's payload: the change's executable lines, how many ran and under which tests,
its code paths and the author's coverage labels; with the few pure pieces its properties need
(the outcomes, the path states, the author's choices, a percentage as shown), which the coverage
readers take from here."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field
from decimal import ROUND_FLOOR, Decimal
from enum import StrEnum

from evidence_gate.ledger.payload import spec

MAX_PATHS = 200  # code paths kept in the ledger; the rest are counted
DIAGRAM_PATHS = 40  # past this many paths, a text tree: a Mermaid chart that large does not read
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


class PathState(StrEnum):
    STRONG = "strong"  # run by a test that fails without the change
    WEAK = "weak"  # run only by tests strength judged still-green
    COVERED = "covered"  # run by tests whose strength is unknown: strength did not judge them
    UNCOVERED = "uncovered"


def shown(number: Decimal) -> str:
    """A percentage rounded down to two decimals, without trailing zeros: `79.99`, `80`, `33.33`."""
    text = f"{number.quantize(Decimal('0.01'), rounding=ROUND_FLOOR):f}"
    return text.rstrip("0").rstrip(".") if "." in text else text


def percent(part: int, whole: int) -> Decimal:
    return Decimal(part) * 100 / Decimal(whole)


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


_COUNT = spec(schema={"minimum": 0})
_LINE = spec(schema={"minimum": 1})


@dataclass(frozen=True, kw_only=True)
class PathRow:
    path: str
    start: int = field(metadata=_LINE)
    end: int = field(metadata=_LINE)
    # strong (run by red tests), weak (only still-green ones), covered (strength unknown), uncovered
    state: str = field(metadata=spec(schema={"enum": [str(state) for state in PathState]}))
    tests: tuple[str, ...]  # a weak path's tests, with their verdicts

    @property
    def lines(self) -> str:
        """`line 3`, `lines 14-15`."""
        return f"line {self.start}" if self.start == self.end else f"lines {self.start}-{self.end}"


STATE_WORDS = {
    str(PathState.STRONG): "covered by tests that fail without the change",
    str(PathState.WEAK): "weakly covered",
    str(PathState.COVERED): "covered (test strength not judged)",
    str(PathState.UNCOVERED): "uncovered",
}


@dataclass(frozen=True, kw_only=True)
class PathNode:
    node: str  # the diagram's node id
    row: PathRow

    @property
    def state_words(self) -> str:
        return STATE_WORDS[self.row.state]


@dataclass(frozen=True, kw_only=True)
class FileGroup:
    node: str
    path: str
    paths: tuple[PathNode, ...]


@dataclass(frozen=True, kw_only=True)
class ChoiceRow:
    """A coverage label the author put on the pull request, with what it did, and for a
    `coverage:intentional` that decided, the paths it leaves uncovered."""

    label: str
    effect: str
    paths: tuple[PathRow, ...]


@dataclass(frozen=True, kw_only=True)
class CoverageData:
    total: int = field(metadata=_COUNT)  # executable changed lines
    covered: int = field(metadata=_COUNT)  # of them, run by any test
    strong: int | None = field(metadata=_COUNT)  # of them, run by a red test; None: value weighting unavailable
    value_weighted: bool  # whether the gate judged the value-weighted number
    # the percentage judged, rounded down; None: skipped
    number: str | None = field(metadata=spec(schema={"pattern": "^[0-9]{1,3}(\\.[0-9]{1,2})?$"}))
    outcome: str = field(metadata=spec(schema={"enum": [str(outcome) for outcome in Outcome]}))
    paths: tuple[PathRow, ...] = field(metadata=spec(schema={"maxItems": MAX_PATHS}))  # the first MAX_PATHS
    paths_total: int = field(metadata=_COUNT)
    unmapped: tuple[str, ...]
    unmapped_total: int = field(metadata=_COUNT)
    # of them, run by tests strength did not judge: counted as coverage of any test
    unknown: int = field(default=0, metadata=_COUNT)
    # the coverage labels the pull request carries (LABELS, in that order)
    labels: tuple[str, ...] = field(
        default=(), metadata=spec(schema={"uniqueItems": True}, items={"enum": list(LABELS)})
    )

    @property
    def coverage_pct(self) -> str | None:
        return shown(percent(self.covered, self.total)) if self.total else None

    @property
    def current(self) -> str | None:
        """The quality report's Results cell: the percentage judged."""
        return None if self.number is None else f"{self.number}%"

    @property
    def value_pct(self) -> str | None:
        if not self.total or self.strong is None:
            return None
        return shown(percent(self.strong + self.unknown, self.total))

    @property
    def weak(self) -> int:
        return sum(1 for row in self.paths if row.state == PathState.WEAK)

    @property
    def gaps(self) -> int:
        return sum(1 for row in self.paths if row.state == PathState.UNCOVERED)

    @property
    def summary_line(self) -> str:
        """The PR body's one line: `Coverage: X% value-weighted (Y% including W weakly covered paths), N gaps.`"""
        if self.number is None:
            return "Coverage: could not determine percentage."
        kind = " value-weighted" if self.value_weighted else ""
        return (
            f"Coverage: {self.number}%{kind} ({self.coverage_pct}% including {self.weak} weakly covered paths), "
            f"{self.gaps} gaps."
        )

    @property
    def files(self) -> tuple[FileGroup, ...]:
        """The paths grouped by file, in order, with a node id each for the diagram."""
        grouped: dict[str, list[PathNode]] = {}
        for index, row in enumerate(self.paths):
            grouped.setdefault(row.path, []).append(PathNode(node=f"p{index}", row=row))
        return tuple(
            FileGroup(node=f"f{index}", path=path, paths=tuple(rows))
            for index, (path, rows) in enumerate(grouped.items())
        )

    @property
    def diagram(self) -> bool:
        """Whether the paths fit a Mermaid chart; past that, `tree` shows them."""
        return 0 < len(self.paths) <= DIAGRAM_PATHS

    @property
    def tree(self) -> str:
        """The paths as a text tree: each file, then its paths with their state."""
        lines = []
        for group in self.files:
            lines.append(group.path)
            lines += [f"  {item.row.lines}: {item.state_words}" for item in group.paths]
        if self.paths_total > len(self.paths):
            lines.append(f"... and {self.paths_total - len(self.paths)} more paths")
        return "\n".join(lines)

    @property
    def choices(self) -> tuple[ChoiceRow, ...]:
        """The author's coverage labels, each with what it did to the decision (one that did nothing
        says so); a `coverage:intentional` that decided names the uncovered paths it leaves."""
        return tuple(
            ChoiceRow(
                label=choice.label,
                effect=choice.effect,
                paths=self.proposed_tests if choice.applied and choice.label == INTENTIONAL else (),
            )
            for choice in choices(Outcome(self.outcome), self.number, self.labels)
        )

    @property
    def proposed_strengthening(self) -> tuple[PathRow, ...]:
        return tuple(row for row in self.paths if row.state == PathState.WEAK)

    @property
    def proposed_tests(self) -> tuple[PathRow, ...]:
        return tuple(row for row in self.paths if row.state == PathState.UNCOVERED)
