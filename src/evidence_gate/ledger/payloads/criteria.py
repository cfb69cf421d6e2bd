"""The acceptance-criteria gate's payload: the story, and each criterion of the pull request's
checklist with its status, why, and the tagged tests that decided it."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from evidence_gate.ledger.payload import spec


class CriterionStatus(StrEnum):
    GREEN = "green"
    RED = "red"
    MISSING = "missing"
    PARKED = "parked"  # the freeze could not prove it red: shown as parked, never as proven
    UNVERIFIABLE = "unverifiable"  # marked `(manual)`: a reviewer's judgment, shown and never blocking


@dataclass(frozen=True, kw_only=True)
class Criterion:
    """An item of the checklist (criteria_source.py reads them): its number and its text."""

    number: int = field(metadata=spec(key="n", schema={"minimum": 1}))
    text: str | None


@dataclass(frozen=True, kw_only=True)
class CriterionResult:
    criterion: Criterion = field(metadata=spec(flatten=True))  # written as `n` and `text`
    tag: str
    status: CriterionStatus
    reason: str
    # (test name, outcome)
    tests: tuple[tuple[str, str], ...] = field(default=(), metadata=spec(names=("name", "outcome"), required=True))

    @property
    def shown(self) -> str:
        """The criterion as a row shows it: its tag and its text."""
        return f"{self.tag} {self.criterion.text}" if self.criterion.text else self.tag


@dataclass(frozen=True, kw_only=True)
class CriteriaData:
    story: str | None
    criteria: tuple[CriterionResult, ...]
