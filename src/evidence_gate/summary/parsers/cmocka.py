"""cmocka console output (its standard message output, `cmocka_run_group_tests`).

Each group opens with `[==========] Running N test(s).` (`<group>: Running N test(s).` from cmocka
1.1.6 on), prints `[ RUN      ] <test>` and one result line per test (`[       OK ]`,
`[  FAILED  ]`, `[  SKIPPED ]`, or `[  ERROR   ]` for a test whose own setup or teardown failed), and
closes with:

    [==========] N test(s) run.
    [  PASSED  ] P test(s).
    [  SKIPPED ] S test(s), listed below:      <- only when S > 0, then the skipped tests
    [  FAILED  ] F test(s), listed below:      <- only when F > 0, then the failed tests

N counts every test that ran, errors included, and errors are listed nowhere at the close; so the
counts come from the closing lines: passed P, skipped S, failed N - P - S (the F failures and the
errors: errors count as failed). A crash cmocka catches (SIGSEGV, SIGFPE, ...) is a failed test and
the group goes on. Every group's counts are checked against its per-test result lines when it
printed them; a group whose lines disagree, whose closing lines contradict themselves or that ran
fewer tests than it announced makes the reading unparsed. Several groups (and several binaries) in
one log add up.

A group setup that fails (`[  FAILED  ] GROUP SETUP`, then `[  ERROR   ] <group>`) runs none of the
group's tests: the reading is unparsed, "a cmocka group's setup failed before its tests ran", as for
any suite that fails before its tests. A group teardown that fails (`[  FAILED  ] GROUP TEARDOWN`)
comes after tests that ran and is counted as one failed test, an error outside any test. A binary
that dies mid-group without cmocka catching it (`abort()`, a kill, a crash with
`CMOCKA_TEST_ABORT`) leaves a group without its closing lines: unparsed, naming the test it started
last.

The failed tests are named as cmocka prints them: the `[  FAILED  ]` and `[  ERROR   ]` result lines
and the closing list.

googletest prints a very similar format (`[==========] Running 4 tests from 2 test suites.`,
`[  PASSED  ] 2 tests.`), which is not cmocka's: its totals count differently (a googletest run
lists no errors apart). Only cmocka's own `Running N test(s).` opens a group, and every other line
is read only inside one, so a googletest log is left unrecognised, never read with cmocka's counts.

ctest, running cmocka binaries as a CMake project's tests, prints a failing binary's output between
its own lines (`--output-on-failure`): from `Test project <dir>` to its `P% tests passed, F tests
failed out of T` line, cmocka's lines are ctest's tests' output, counted by ctest, and are not read
here (adding them up would count each test twice; `ctest -V` prefixes them with the test's number,
so they are not cmocka's lines to begin with).

Every line read starts with `[`, except ctest's `Test project ` and `% tests passed, ` lines.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import ClassVar

from evidence_gate.model import Counts
from evidence_gate.summary.base import FailedNames, LineFilter, LineParser, Reading, RunTotals, clip

_BANNER = "[==========] "
_RUN = "[ RUN      ] "
_OK = "[       OK ] "
_FAILED = "[  FAILED  ] "
_SKIPPED = "[  SKIPPED ] "
_ERROR = "[  ERROR   ] "
_PASSED = "[  PASSED  ] "
_START = re.compile(r"^(?:(.*): )?Running (\d+) test\(s\)\.$")
_RAN = re.compile(r"^(?:(.*): )?(\d+) test\(s\) run\.$")
_COUNT = re.compile(r"^(\d+) test\(s\)\.$")
_LISTED = re.compile(r"^(\d+) test\(s\), listed below:$")
_MESSAGE = "--- "  # `[  ERROR   ] --- 0x3 != 0x4`: an assertion's message, not a test
_GROUP_SETUP, _GROUP_TEARDOWN = "GROUP SETUP", "GROUP TEARDOWN"
MAX_DIGITS = 15  # a count longer than this is no test run's
_CTEST_START = "Test project "
_CTEST_END = re.compile(r"^\d+% tests passed, \d+ tests? failed out of \d+$")


@dataclass
class _Group:
    """One group as it is read: what it announced, its per-test result lines, and its closing lines."""

    name: str
    announced: int
    last_started: str = ""
    results_seen: bool = False
    ok: int = 0
    failed: int = 0
    skipped: int = 0
    errors: int = 0
    setup_failed: bool = False
    teardown_failed: bool = False
    group_error_next: bool = False  # the `[  ERROR   ]` line after GROUP SETUP/TEARDOWN names the group
    ran: int | None = None  # `N test(s) run.`: the group is closing
    passed: int | None = None
    listed_failed: int = 0
    listed_skipped: int = 0
    listing: str = ""  # the closing list being read: _FAILED or _SKIPPED


class CmockaParser(LineParser):
    """Reads each cmocka group's closing lines, checked against its per-test lines, and adds them up."""

    name: ClassVar[str] = "cmocka"
    trusts: ClassVar[str] = (
        "each cmocka group's `N test(s) run.`, `[  PASSED  ] P test(s).` and `S test(s), listed below` lines "
        "(failed = N - P - S, errors included), checked against its per-test result lines; a failed group "
        "setup or a group cut off before its closing lines makes the run unparsed"
    )
    reads: ClassVar[LineFilter] = LineFilter(
        starts="[T", starts_class=r"\d", pattern=r"\[|Test project |\d+% tests passed, "
    )

    def __init__(self) -> None:
        self._runs = RunTotals(unit="cmocka groups")
        self._group: _Group | None = None
        self._unread: str | None = None
        self._teardowns = 0
        self._failed_names = FailedNames()
        self._in_ctest = False  # between ctest's `Test project` line and its closing line
        self._ctest_groups = 0  # groups printed inside a ctest run: ctest's tests' output

    def feed(self, line: str) -> None:
        if not line.startswith("["):
            if line.startswith(_CTEST_START):
                if self._group is not None:
                    self._close_group(self._group)
                self._in_ctest = True
            elif self._in_ctest and "% tests passed, " in line and _CTEST_END.match(line):
                self._in_ctest = False
            return
        if self._in_ctest:
            if line.startswith(_BANNER) and _START.match(line[len(_BANNER) :]):
                self._ctest_groups += 1
            return
        if line.startswith(_BANNER):
            self._banner(line[len(_BANNER) :])
            return
        group = self._group
        if group is None:
            return  # outside a cmocka group: googletest's look-alike lines among them
        if group.ran is None:
            self._result(group, line)
        else:
            self._closing(group, line)

    def _banner(self, rest: str) -> None:
        start = _START.match(rest)
        if start:
            if self._group is not None:
                self._close_group(self._group)
            announced = self._count(start.group(2), rest)
            self._group = _Group(name=clip(start.group(1) or ""), announced=announced or 0)
            return
        ran = _RAN.match(rest)
        group = self._group
        if ran and group is not None and group.ran is None:
            group.ran = self._count(ran.group(2), rest) or 0

    def _result(self, group: _Group, line: str) -> None:
        """A line between a group's `Running` and `run.` lines."""
        if line.startswith(_RUN):
            group.last_started = clip(line[len(_RUN) :])
            return
        tag = next((tag for tag in (_OK, _FAILED, _SKIPPED, _ERROR) if line.startswith(tag)), None)
        if tag is None:
            return
        test = line[len(tag) :]
        if tag == _ERROR and test.startswith(_MESSAGE):
            return
        if tag == _FAILED and test in (_GROUP_SETUP, _GROUP_TEARDOWN):
            group.setup_failed = group.setup_failed or test == _GROUP_SETUP
            group.teardown_failed = group.teardown_failed or test == _GROUP_TEARDOWN
            group.group_error_next = True
            return
        if tag == _ERROR and group.group_error_next:
            group.group_error_next = False
            group.name = group.name or clip(test)
            return
        group.results_seen = True
        if tag == _OK:
            group.ok += 1
        elif tag == _SKIPPED:
            group.skipped += 1
        else:
            if tag == _FAILED:
                group.failed += 1
            else:
                group.errors += 1
            self._failed_names.add(test)

    def _closing(self, group: _Group, line: str) -> None:
        """A line after a group's `N test(s) run.` line: its totals and lists."""
        if line.startswith(_PASSED) and group.passed is None:
            match = _COUNT.match(line[len(_PASSED) :])
            if match:
                group.passed = self._count(match.group(1), line) or 0
            return
        for tag in (_FAILED, _SKIPPED):
            if line.startswith(tag):
                rest = line[len(tag) :]
                listed = _LISTED.match(rest)
                if listed:
                    count = self._count(listed.group(1), line) or 0
                    if tag == _FAILED:
                        group.listed_failed = count
                    else:
                        group.listed_skipped = count
                    group.listing = tag
                elif group.listing == tag and tag == _FAILED:
                    self._failed_names.add(rest)
                return
        if line.startswith((_RUN, _OK, _ERROR)):
            self._close_group(group)  # another runner's lines after the group: it is over

    def _count(self, digits: str, line: str) -> int | None:
        if len(digits) > MAX_DIGITS:
            self._unread = self._unread or f"cmocka's output holds a count no test run has: {clip(line)}"
            return None
        return int(digits)

    def _close_group(self, group: _Group) -> None:
        self._group = None
        where = f"`{group.name}`" if group.name else "a cmocka group"
        if group.setup_failed:
            self._unread = self._unread or f"a cmocka group's setup failed before its tests ran: {where}"
            return
        if group.ran is None:
            started = f" (last test started: {group.last_started})" if group.last_started else ""
            self._unread = self._unread or (
                f"the output ends inside {where} before its `test(s) run.` closing line{started}: the test "
                "binary crashed or was killed"
            )
            return
        if group.passed is None:
            self._unread = self._unread or f"{where} closes without its `[  PASSED  ]` line (a truncated log?)"
            return
        errors = group.ran - group.passed - group.listed_skipped - group.listed_failed
        seen = (group.ok, group.failed, group.skipped, group.errors)
        if errors < 0 or group.ran > group.announced:
            self._unread = self._unread or f"{where}'s closing lines contradict themselves"
        elif group.results_seen and seen != (group.passed, group.listed_failed, group.listed_skipped, errors):
            self._unread = self._unread or f"{where}'s closing lines disagree with its per-test result lines"
        elif group.ran < group.announced:
            self._unread = self._unread or (f"{where} ran {group.ran} of the {group.announced} tests it announced")
        else:
            teardown = 1 if group.teardown_failed else 0
            self._teardowns += teardown
            failed = group.listed_failed + errors + teardown
            self._runs.add(Counts(passed=group.passed, failed=failed, skipped=group.listed_skipped))

    def finish(self) -> Reading | None:
        if self._group is not None:
            self._close_group(self._group)
        notes: list[str] = []
        if self._teardowns:
            notes.append(f"{self._teardowns} cmocka group teardown(s) failed: counted as 1 failed test each")
        if self._ctest_groups:
            notes.append(
                f"{self._ctest_groups} cmocka group(s) printed inside a ctest run are its tests' output: "
                "ctest counts them"
            )
        return self._runs.finish(self, self._unread, tuple(notes), self._failed_names.names)


PARSER = CmockaParser
