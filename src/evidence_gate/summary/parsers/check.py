"""Check (libcheck, the C unit test framework) console output, from `srunner_run_all`.

Each runner prints `Running suite(s): <suite>` (one more line per further suite), runs its tests and
closes with `P%: Checks: C, Failures: F, Errors: E`, then one line per failed or errored test,
`file.c:12:F:<tcase>:<test>:<iteration>: <message>` (`:E:` for an error), and with `CK_VERBOSE` a
`:P:` line for each passed test too. Several runners in one log (one program running two runners,
or several test programs) add up, each from its own summary line.

Mapping: failed is F + E, where an error is a test that crashed (`Received signal 11`), exited early
or timed out: errors count as failed; passed is C - F - E. Check has no skipped tests: a test left
out by `CK_RUN_SUITE`, `CK_EXCLUDE_CASE` or a tag filter is not run and not reported, so there is
no skipped count to read, and the reading's skipped is always 0. A loop test counts once per
iteration, as Check counts it.

The failed tests are named `<tcase>:<test>` from the `:F:`/`:E:` lines after a summary, at most F + E
of them per runner (a message may itself look like such a line).

With `CK_FORK=no` a test that crashes takes the whole runner down before its summary: a
`Running suite(s):` line without its `Checks:` line makes the reading unparsed, since the tests
after the crash never ran. So does a summary line that contradicts itself (more failures than
checks, or a percentage that is not its counts'). `CK_VERBOSITY=silent` prints nothing, so there
is nothing to recognise.

ctest, running Check programs as a CMake project's tests, prints a failing program's output between
its own lines (`--output-on-failure`): from `Test project <dir>` to its `P% tests passed, F tests
failed out of T` line, Check's lines are ctest's tests' output, counted by ctest, and are not read
here (adding them up would count each test twice; `ctest -V` prefixes them with the test's number,
so they are not Check's lines to begin with).

The lines read all hold one of `Running suite(s):`, `Checks: `, `:P:`, `:F:` or `:E:`, or are
ctest's `Test project ` and `% tests passed, ` lines.
"""

from __future__ import annotations

import re
from typing import ClassVar

from evidence_gate.model import Counts
from evidence_gate.summary.base import FailedNames, LineFilter, LineParser, Reading, RunTotals, clip

_RUNNING = "Running suite(s):"
_SUMMARY = re.compile(r"^(\d+)%: Checks: (\d+), Failures: (\d+), Errors: (\d+)$")
# `file:line:kind:tcase:test:iteration: message`; the test is a C identifier (START_TEST's name).
_TEST = re.compile(r"^.+?:\d+:([PFE]):([^:]*):(\w+):-?\d+: ")
_TEST_MARKS = (":P:", ":F:", ":E:")
_CTEST_START = "Test project "
_CTEST_END = re.compile(r"^\d+% tests passed, \d+ tests? failed out of \d+$")
MAX_DIGITS = 15  # a count longer than this is no test run's


class CheckParser(LineParser):
    """Adds up the summary line of every Check runner in the log."""

    name: ClassVar[str] = "check"
    trusts: ClassVar[str] = (
        "each Check runner's `P%: Checks: C, Failures: F, Errors: E` line, added up (errors count as failed; "
        "Check has no skipped tests); a runner that printed `Running suite(s):` but no summary makes the run "
        "unparsed"
    )
    reads: ClassVar[LineFilter] = LineFilter(
        starts="TR",
        starts_class=r"\d",
        pattern=r"Test project |Running suite\(s\):|\d+%: Checks: |\d+% tests passed, ",
    )

    def __init__(self) -> None:
        self._runs = RunTotals(unit="Check runners")
        self._open = False  # a `Running suite(s):` line without its summary yet
        self._cut = 0  # runners that ended before their summary
        self._first_cut = ""  # the suite line of the first of them
        self._suites = ""
        self._names_left = 0  # failed tests the last summary counts and no line has named yet
        self._unread: str | None = None
        self._failed_names = FailedNames()
        self._in_ctest = False  # between ctest's `Test project` line and its closing line
        self._ctest_runners = 0  # runners printed inside a ctest run: ctest's tests' output

    @property
    def wants_every_line(self) -> bool:
        return self._names_left > 0  # the failed tests' lines after a summary, which name them

    def feed(self, line: str) -> None:
        if line.startswith(_CTEST_START):
            self._in_ctest = True
        elif self._in_ctest:
            if line.startswith(_RUNNING):
                self._ctest_runners += 1
            elif "% tests passed, " in line and _CTEST_END.match(line):
                self._in_ctest = False
        elif line.startswith(_RUNNING):
            if self._open:
                self._runner_cut()
            self._open = True
            self._suites = clip(line)
            self._names_left = 0
        elif "Checks: " in line:
            match = _SUMMARY.match(line)
            if match:
                self._summary(line, *match.groups())
        elif self._names_left and any(mark in line for mark in _TEST_MARKS):
            test = _TEST.match(line)
            if test and test.group(1) != "P":
                self._failed_names.add(f"{test.group(2)}:{test.group(3)}")
                self._names_left -= 1

    def _runner_cut(self) -> None:
        self._cut += 1
        self._first_cut = self._first_cut or self._suites

    def _summary(self, line: str, *groups: str) -> None:
        self._open = False
        if any(len(group) > MAX_DIGITS for group in groups):
            self._unread = self._unread or f"Check's summary holds a count no test run has: {clip(line)}"
            return
        percent, checks, failures, errors = (int(group) for group in groups)
        failed = failures + errors
        if failed > checks or abs(percent - _percent_passed(checks, failed)) > 1:
            self._unread = self._unread or f"Check's summary line contradicts itself: {clip(line)}"
            return
        self._runs.add(Counts(passed=checks - failed, failed=failed, skipped=0))
        self._names_left = failed

    def finish(self) -> Reading | None:
        if self._open:
            self._runner_cut()
            self._open = False
        names = self._failed_names.names
        if self._cut:
            more = f" (and {self._cut - 1} more)" if self._cut > 1 else ""
            return self.reading(
                None,
                f"a Check runner ended before its `Checks:` summary line: `{self._first_cut}`{more} (a crashed or "
                "killed test program; without fork, a test that crashes takes the runner down)",
                failed_tests=names,
            )
        inside = (
            (
                f"{self._ctest_runners} Check runner(s) printed inside a ctest run are its tests' output: "
                "ctest counts them",
            )
            if self._ctest_runners
            else ()
        )
        return self._runs.finish(self, self._unread, inside, failed_tests=names)


def _percent_passed(checks: int, failed: int) -> int:
    """Check's own percentage: 100 without failures, else the passed share, truncated (Check computes it
    in single precision, hence the tolerance of one where it is compared)."""
    if not failed:
        return 100
    return (checks - failed) * 100 // checks if checks else 0


PARSER = CheckParser
