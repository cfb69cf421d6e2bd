"""Mocha's console reporters that close with its epilogue (spec, the default, and dot, list, min,
progress...). Mocha's tap reporter output is plain TAP and is left to the `tap` parser.

The counts come from the epilogue, two-space indented, the `pending` and `failing` lines present
only when not zero:

      3 passing (10ms)
      2 pending
      3 failing

Mapping: `passing` is passed; `failing` is failed, and includes a failed hook (`"before all" hook
for "..."`), which mocha reports as one failure while the tests behind it never run and are counted
nowhere; `pending` (`it.skip`, `it()` without a body, `this.skip()`, `describe.skip`) is skipped.
`Error: No test files found` is zero counts. Several runs in one log add up.

Recognised without counts: ` Exception during run: ...`, a spec file that failed to load; mocha then
runs nothing and prints no counts, although other files may be fine.
"""

from __future__ import annotations

import re
from typing import ClassVar

from evidence_gate.model import Counts
from evidence_gate.summary.base import WHITESPACE, ZERO, LineFilter, LineParser, Reading, RunTotals

# mocha formats the duration with the `ms` package: 10ms, 2s, 1m, 1h.
_PASSING = re.compile(r"^  (?P<count>\d+) passing \(\d+(?:\.\d+)?(?:ms|s|m|h|d)\)$")
_PENDING = re.compile(r"^  (?P<count>\d+) pending$")
_FAILING = re.compile(r"^  (?P<count>\d+) failing$")
_EXCEPTION = re.compile(r"^\s*Exception during run: ")
_NO_FILES = "Error: No test files found"


class MochaParser(LineParser):
    """Adds up mocha's epilogue (`N passing` / `N pending` / `N failing`) over the runs in the log."""

    name: ClassVar[str] = "mocha"
    trusts: ClassVar[str] = (
        "The epilogue lines '  N passing (T)', '  N pending', '  N failing' (the last two right after it), "
        "added up over runs."
    )
    reads: ClassVar[LineFilter] = LineFilter(
        starts="E" + WHITESPACE, pattern=r"  \d|\s*Exception during run: |Error: No test files found"
    )

    def __init__(self) -> None:
        self._runs = RunTotals("mocha runs")
        self._epilogue: str | None = None  # "passing" or "pending": the epilogue line just read
        self._unread: str | None = None

    @property
    def wants_every_line(self) -> bool:
        return self._epilogue is not None  # the pending and failing lines right after the passing one

    def feed(self, line: str) -> None:
        epilogue, self._epilogue = self._epilogue, None
        if not (line.startswith("  ") and line[2:3].isdigit()):
            if "Exception during run: " in line and _EXCEPTION.match(line):
                self._unread = self._unread or (
                    "mocha stopped before running any test (' Exception during run:', e.g. a spec file that does "
                    "not load) and printed no counts"
                )
            elif line.startswith(_NO_FILES):
                self._runs.add(ZERO)
            return
        # The passing line is a run; the pending and failing lines after it complete that run's counts.
        if passing := _PASSING.match(line):
            self._runs.add(Counts(passed=int(passing["count"]), failed=0, skipped=0))
            self._epilogue = "passing"
        elif epilogue == "passing" and (pending := _PENDING.match(line)):
            self._runs.total = self._runs.total + Counts(passed=0, failed=0, skipped=int(pending["count"]))
            self._epilogue = "pending"
        elif epilogue and (failing := _FAILING.match(line)):
            self._runs.total = self._runs.total + Counts(passed=0, failed=int(failing["count"]), skipped=0)

    def finish(self) -> Reading | None:
        return self._runs.finish(self, self._unread)


PARSER = MochaParser
