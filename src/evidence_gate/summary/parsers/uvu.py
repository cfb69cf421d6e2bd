"""uvu's console output (lukeed/uvu): its CLI (`uvu tests`, `uvu -r esm test`) and a test file run by
node (`node tests/math.js`, a file that runs its own suites with `test.run()`), which print alike.

The counts come from the summary uvu closes each run with, four lines, two-space indented:

      Total:     5
      Passed:    3
      Skipped:   1
      Duration:  1.63ms

Mapping: `Passed` is passed. `Total` counts the tests that were to run, so failed is Total - Passed:
failed assertions and thrown errors, and the tests of a suite whose `before` hook threw, which uvu
never runs, prints no error for and does not fail the run with (exit 0): counted as failed all the
same, with a note. `Skipped` (`test.skip`, and the tests a `test.only` leaves out) is skipped and is
not in Total. A run without tests is `Total: 0`. Several runs in one log (a `test` script running
each file with node) add up.

The failed tests are named from uvu's `FAIL  <suite>  "<test>"` lines (printed after each suite's
progress line) as `<suite> > <test>`, or the test alone in the unnamed default suite; at most
Total - Passed per run.

Recognised without counts, as a run that ended before its summary:
- `Exiting early before testing is finished.`: the process exited while tests ran (`--bail` after a
  failure, a test that calls `process.exit`, a promise that never settles);
- the CLI's stack trace of a test file that threw while it was loaded: a frame in uvu's runner
  (`uvu/run/index.js`) with no frame of its test loop (`uvu/dist/index.js`) since the last summary.
  The CLI loads every file before it runs a test, so no test ran;
- uvu's progress lines (` math  • • ✘   (2 / 3)`, the marks matching the counts) or `FAIL` lines
  after the last summary: a run cut off (killed, a log cut short).
So is a summary that is cut (its four lines not all there, in order) or contradicts itself (Passed
over Total, a count no test run has). The summary is told from other runners' lines by its lines
whole, with uvu's own spacing: a `Total:` line not followed by `Passed:` is not uvu's.

Not recognised: a test file that throws while node loads it (`node tests/broken.js`), or while the
CLI loads it under `-r esm` (whose stack trace names no uvu file): uvu printed nothing of its own.
"""

from __future__ import annotations

import re
from typing import ClassVar

from evidence_gate.model import Counts
from evidence_gate.summary.base import (
    MAX_FAILED_NAMES,
    FailedNames,
    LineFilter,
    LineParser,
    Reading,
    RunTotals,
    clip,
)

# The summary's lines in uvu's order, each with uvu's own spacing (its values start in column 13).
_ORDER = ("Total", "Passed", "Skipped", "Duration")
_PREFIXES = {
    "Total": "  Total:     ",
    "Passed": "  Passed:    ",
    "Skipped": "  Skipped:   ",
    "Duration": "  Duration:  ",
}
_VALUE = re.compile(r"^\S+$")
_COUNT = re.compile(r"^[0-9]+$")
_DURATION = re.compile(r"^[0-9]+(?:\.[0-9]+)?ms$")
_FAIL = "   FAIL  "  # `   FAIL  "test"` / `   FAIL  suite  "test"`, after colours are removed
_FAIL_LINE = re.compile(r'^   FAIL  (?:(?P<suite>\S.*?)  )?"(?P<test>.*)"$')
# A suite's progress line: its name (if any) on a white background, a mark per test, `(passed / total)`.
_PROGRESS = re.compile(r"^(?: (?P<suite>.+?)  )?(?P<marks>(?:[•✘] )+)  \((?P<passed>\d+) / (?P<total>\d+)\)$")
_EXITED_EARLY = "Exiting early before testing is finished."
_RUNNER_FRAME = re.compile(r"^\s+at .*[\\/]uvu[\\/]run[\\/]index\.m?js:\d+:\d+\)?$")
_LOOP_FRAME = re.compile(r"^\s+at .*[\\/]uvu[\\/]dist[\\/]index\.m?js:\d+:\d+\)?$")
_FRAMES = ("/uvu/run/index.", "\\uvu\\run\\index.", "/uvu/dist/index.", "\\uvu\\dist\\index.")
MAX_DIGITS = 15  # a count longer than this is no test run's


class UvuParser(LineParser):
    """Adds up uvu's `Total:` / `Passed:` / `Skipped:` / `Duration:` summaries over the runs in the log."""

    name: ClassVar[str] = "uvu"
    trusts: ClassVar[str] = (
        "The closing block '  Total:     N' / '  Passed:    N' / '  Skipped:   N' / '  Duration:  T', whole and in "
        "order (failed is Total - Passed), added up over runs; a run that ended before its block (`Exiting early`, "
        "a test file that did not load, progress cut off) makes the reading unparsed."
    )
    reads: ClassVar[LineFilter] = LineFilter(
        starts=" •✘",
        pattern=r"  (?:Total|Passed|Skipped|Duration):|   FAIL  | [^\n]*?  [•✘] |[•✘] ",
        holds=(_EXITED_EARLY, *_FRAMES),
    )

    def __init__(self) -> None:
        self._runs = RunTotals("uvu runs")
        self._next = -1  # index in _ORDER of the summary line expected next; -1 outside a summary
        self._values: dict[str, str] = {}  # the summary's values read so far, as printed
        self._block: list[str] = []  # ... and its lines, for a reason
        self._open: str | None = None  # the first sign of a run since the last summary
        self._looped = False  # a frame of uvu's test loop since the last summary: tests ran
        self._fail_lines = 0  # `FAIL` lines since the last summary
        self._pending: list[str] = []  # the tests they name
        self._failed_names = FailedNames()
        self._unread: str | None = None

    @property
    def wants_every_line(self) -> bool:
        return self._next > 0  # inside the summary: its next line must be the next of its four

    def feed(self, line: str) -> None:
        if self._next > 0:
            self._summary_line(line)
        elif line.startswith(_PREFIXES["Total"]):
            self._start_summary(line)
        elif line.startswith(_FAIL):
            self._fail_line(line)
        elif _EXITED_EARLY in line:
            self._unread = self._unread or (
                f"uvu exited before its tests finished ('{_EXITED_EARLY}': --bail after a failure, a test that "
                "called process.exit, or a promise that never settled) and printed no summary"
            )
        elif any(frame in line for frame in _FRAMES):
            self._frame(line)
        elif ("• " in line or "✘ " in line) and (progress := _PROGRESS.match(line)):
            marks = progress["marks"]
            if str(marks.count("•")) == progress["passed"] and str(len(marks) // 2) == progress["total"]:
                self._open = self._open or clip(line)

    def _start_summary(self, line: str) -> None:
        self._next, self._values, self._block = 0, {}, []
        self._summary_line(line)

    def _summary_line(self, line: str) -> None:
        """One of the summary's four lines, which must come whole and in uvu's order."""
        key = _ORDER[self._next]
        prefix = _PREFIXES[key]
        value = line[len(prefix) :] if line.startswith(prefix) else ""
        if not _VALUE.match(value):
            if self._next >= 2:  # `Total:` and `Passed:` were uvu's: its summary is cut
                shown = clip(" / ".join(self._block))
                self._unread = self._unread or f"uvu's summary is cut: `{shown}` is not followed by its `{key}:` line"
            broken_after_total, self._next = self._next > 0, -1
            if broken_after_total and line.startswith(_PREFIXES["Total"]):
                self._start_summary(line)  # the next summary starts where a look-alike broke off
            return
        self._values[key] = value
        self._block.append(line.strip())
        self._next += 1
        if self._next == len(_ORDER):
            self._next = -1
            self._close_run()

    def _close_run(self) -> None:
        """A whole summary: the run's counts, unless they cannot be a run's."""
        values = self._values
        counts = (values["Total"], values["Passed"], values["Skipped"])
        shown = clip(" / ".join(self._block))
        if not all(_COUNT.match(count) for count in counts) or not _DURATION.match(values["Duration"]):
            self._unread = self._unread or f"uvu's summary holds a value uvu never prints: `{shown}`"
        elif any(len(count) > MAX_DIGITS for count in counts):
            self._unread = self._unread or f"uvu's summary holds a count no test run has: `{shown}`"
        else:
            total, passed, skipped = (int(count) for count in counts)
            if passed > total:
                self._unread = self._unread or f"uvu's summary contradicts itself (Passed over Total): `{shown}`"
            else:
                self._add(Counts(passed=passed, failed=total - passed, skipped=skipped))
        self._open, self._looped, self._fail_lines, self._pending = None, False, 0, []

    def _add(self, counts: Counts) -> None:
        self._runs.add(counts)
        self._failed_names.extend(self._pending[: counts.failed])
        unnamed = counts.failed - min(self._fail_lines, counts.failed)
        if unnamed:
            self._runs.notes.append(
                f"{unnamed} test(s) in uvu's Total neither passed nor failed with a FAIL block (the tests of a suite "
                "whose `before` hook threw, which uvu does not run, names nowhere and does not fail the run with): "
                "counted as failed"
            )

    def _fail_line(self, line: str) -> None:
        self._open = self._open or clip(line)
        self._fail_lines += 1
        named = _FAIL_LINE.match(line) if line.endswith('"') else None  # one pass over the line, whatever it holds
        if named is not None and len(self._pending) < MAX_FAILED_NAMES:
            suite, test = named["suite"], named["test"]
            self._pending.append(clip(f"{suite} > {test}" if suite else test))

    def _frame(self, line: str) -> None:
        if _LOOP_FRAME.match(line):
            self._looped = True
        elif not self._looped and _RUNNER_FRAME.match(line):
            self._unread = self._unread or (
                "uvu stopped before running any test: a test file threw while the uvu CLI loaded it (a stack "
                f"trace through its runner, `{clip(line)}`, with no test run before it) and it printed no summary"
            )

    def finish(self) -> Reading | None:
        if self._next >= 2:
            self._summary_line("")  # the log ends inside the summary: cut
        self._next = -1
        if self._unread is None and self._open is not None:
            self._unread = (
                f"uvu's run ended before its Total/Passed/Skipped summary (killed, or a log cut short): `{self._open}` "
                "has no summary after it"
            )
        if self._unread is not None:
            self._failed_names.extend(self._pending)
        return self._runs.finish(self, self._unread, failed_tests=self._failed_names.names)


PARSER = UvuParser
