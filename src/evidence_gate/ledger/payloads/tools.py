"""The payload of the checks that run a project's own tool (1 type checker, 2 linter, 8 smoke test):
the Toolchain row, each run's command, output, exit code and count, and its diagnostics told apart,
new or the base's (`Located`, which quality/debt.py fills)."""

from __future__ import annotations

from dataclasses import dataclass, field

from evidence_gate.ledger.payload import spec
from evidence_gate.ledger.quality_record import tool_figures
from evidence_gate.model import ToolRow

MAX_SHOWN = 20  # of the new diagnostics and of the pre-existing ones, each
MAX_RUNS = 50
_COUNT = spec(schema={"minimum": 0})
_SHOWN = spec(schema={"maxItems": MAX_SHOWN}, required=True)


@dataclass(frozen=True, kw_only=True)
class Diagnostic:
    """One diagnostic as the report shows it: `path:line`, repository-relative, or None (no place)."""

    where: str | None
    message: str

    @property
    def text(self) -> str:
        return self.message if self.where is None else f"{self.where}: {self.message}"


@dataclass(frozen=True, kw_only=True)
class Located:
    """A run's diagnostics, told apart: on lines the change did not touch, or new."""

    pre_existing: int = field(metadata=_COUNT)
    new: int = field(metadata=_COUNT)  # on a changed line, or with no place
    # of the new ones, those with no place (counted by the tool, located by no line)
    unlocated: int = field(metadata=_COUNT)
    new_shown: tuple[Diagnostic, ...] = field(default=(), metadata=_SHOWN)  # the first MAX_SHOWN new ones
    # the first MAX_SHOWN pre-existing ones
    pre_existing_shown: tuple[Diagnostic, ...] = field(default=(), metadata=_SHOWN)

    def __add__(self, other: Located) -> Located:
        return Located(
            pre_existing=self.pre_existing + other.pre_existing,
            new=self.new + other.new,
            unlocated=self.unlocated + other.unlocated,
            new_shown=(*self.new_shown, *other.new_shown)[:MAX_SHOWN],
            pre_existing_shown=(*self.pre_existing_shown, *other.pre_existing_shown)[:MAX_SHOWN],
        )


@dataclass(frozen=True, kw_only=True)
class ToolRun:
    command: str
    source: str  # `ran`, or the log it was read from
    exit_code: int | None
    output: str  # first 50 and last 10 lines
    count: int | None = field(metadata=_COUNT)  # errors or warnings it printed; None: not counted
    first_error: str | None
    located: Located | None = None  # its diagnostics on changed lines and on the rest; None: not located

    @property
    def shown_output(self) -> str:
        """The output as the report shows it, above its own `EXIT_CODE=` line: without the marker the
        command echoed last, when it records the same code (the report's line says it once)."""
        head, _, last = self.output.rstrip("\n").rpartition("\n")
        if self.exit_code is not None and last.strip() == f"EXIT_CODE={self.exit_code}":
            return head
        return self.output


@dataclass(frozen=True, kw_only=True)
class ToolData:
    row: ToolRow
    runs: tuple[ToolRun, ...] = field(metadata=spec(schema={"maxItems": MAX_RUNS}))
    # the baseline's errors or warnings, when it has them
    baseline_count: int | None = field(default=None, metadata=spec(schema={"minimum": 0}, required=True))
    # what `count` counts
    counted: str = field(
        default="errors", metadata=spec(schema={"enum": ["errors", "warnings", "commands"]}, required=True)
    )

    @property
    def first_error(self) -> str | None:
        """The first new diagnostic when the runs were located, else the first error line."""
        located = self.located
        if located is not None and located.new_shown:
            return located.new_shown[0].text
        return next((run.first_error for run in self.runs if run.first_error), None)

    @property
    def located(self) -> Located | None:
        """Every run's diagnostics told apart, old and new; None when a run's were not located."""
        if not self.runs or any(run.located is None for run in self.runs):
            return None
        return sum((run.located for run in self.runs if run.located), Located(pre_existing=0, new=0, unlocated=0))

    @property
    def total(self) -> int | None:
        counts = [run.count for run in self.runs]
        return None if not counts or None in counts else sum(c for c in counts if c is not None)

    @property
    def current(self) -> str | None:
        """The Results table's current cell: what the tool counted, and its exit code."""
        if not self.runs:
            return None
        if self.counted == "commands":  # smoke commands: how many exited 0
            return f"{sum(1 for run in self.runs if run.exit_code == 0)} of {len(self.runs)} exited 0"
        failing = next((run.exit_code for run in self.runs if run.exit_code != 0), 0)
        return tool_figures(failing, self.total, self.counted)
