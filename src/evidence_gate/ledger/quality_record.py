"""What a run's quality-gate report holds beyond its gates: the stage, the state of the candidate,
the toolchain table, the baseline the checks compared with, each failed check's error signature and,
when the same check failed the same way on three runs in a row, the stagnation.

Plain values only: the ledger holds them, and the report is rendered from them alone.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from evidence_gate.model import ToolRow


class Stage(StrEnum):
    POST_TDD = "post-tdd"
    POST_REFACTOR = "post-refactor"  # checks 1-4 only: scope, plan and ignore checks don't apply to a refactor
    PRE_PR = "pre-pr"


@dataclass(frozen=True, kw_only=True)
class State:
    """The candidate the report is about: `git log --oneline -1`, `git diff --stat`'s last line, the time."""

    commit: str
    diff: str
    time: str  # ISO 8601, UTC


@dataclass(frozen=True, kw_only=True)
class ToolFigures:
    """A type checker's or linter's exit code and the errors or warnings it printed (None: not counted)."""

    exit: int | None
    count: int | None


def tool_figures(exit_code: int | None, count: int | None, counted: str) -> str:
    """A tool's figures as the Results table shows them: `3 errors, exit 1`."""
    code = "no exit code" if exit_code is None else f"exit {exit_code}"
    noun = counted[:-1] if count == 1 else counted  # errors, warnings, commands
    return code if count is None else f"{count:,} {noun}, {code}"


@dataclass(frozen=True, kw_only=True)
class SuiteFigures:
    exit: int | None
    passed: int
    failed: int
    skipped: int

    @property
    def executed(self) -> int:
        return self.passed + self.failed


@dataclass(frozen=True, kw_only=True)
class Baseline:
    """What the checks measured at a revision, to compare with: None for a tool not detected there."""

    type_check: ToolFigures | None = None
    lint: ToolFigures | None = None
    test: SuiteFigures | None = None
    coverage: str | None = None  # percent, as the coverage gate shows it (rounded down, never overstated)
    timestamp: str = ""
    outcomes: dict[str, str] = field(default_factory=dict)  # test identity -> outcome, to tell which tests went
    names: dict[str, str] = field(default_factory=dict)  # test identity -> name, to name them


@dataclass(frozen=True, kw_only=True)
class Stagnation:
    check: int
    title: str
    summary: str  # the first error line the three runs share

    @property
    def message(self) -> str:
        return f"STAGNATION DETECTED: {self.title} has failed 3 consecutive times with: {self.summary}"


@dataclass(frozen=True, kw_only=True)
class QualityRecord:
    stage: Stage = Stage.PRE_PR
    state: State | None = None  # None: not a git checkout
    toolchain: tuple[ToolRow, ...] = ()
    baseline: Baseline | None = None
    baseline_source: str = "no baseline was given"  # where it came from, or why there is none
    signatures: dict[int, str] = field(default_factory=dict)  # a failed check's number -> its error signature
    history: str = "no earlier runs were read"  # where the earlier runs' signatures came from
    earlier: tuple[
        dict[int, str], ...
    ] = ()  # the two runs before this one, their failed checks' signatures, latest last
    stagnation: Stagnation | None = None
    measured: Baseline | None = None  # what this run's checks measured: a later run's baseline (without tests)
