"""Jest's default reporter (the summary block jest prints on stderr at the end of a run).

The counts come from the two lines of the summary block:

    Test Suites: 1 failed, 1 passed, 2 total
    Tests:       2 failed, 1 skipped, 1 todo, 6 passed, 10 total

Mapping: `failed` is failed; `skipped` and `todo` are skipped; `passed` is passed. Jest counts a
`test.failing` that failed as expected in `passed` and never shows it apart, so it is read as passed.
A suite that fails to run (`● Test suite failed to run`: a syntax or import error, so none of its
tests ran and it is missing from `Tests:`; jest prints the same for an error in `afterAll`) counts
as one failed test beside the tests the other suites ran, named by its path as jest prints it on its
`FAIL` line, with a note giving its first error line: the run failed, and the tests that ran are
counted. When no test ran at all, the reading is unparsed, "a test suite failed to load before its
tests ran (or failed outside them)", with the suite and its first error line; so do failed suites
in a run where no test ran. Headers reprinted
under `Summary of all failing tests` are not read again. A failed suite that the failed tests cannot
account for and that shows no such header counts as one failed test, so a failed suite always makes
the reading failed. `No tests found, exiting with code N` is zero counts. Several runs in one log
add up.

The failed tests are named by the `● ` headers jest prints over each failure, as it prints them
(describe blocks and the test joined by U+203A, a right-pointing angle quote), each once;
`● Test suite failed to run` and `● Console` are not tests: the suites that failed to run follow,
by their paths.

On an interactive terminal jest redraws a live status with its own summary lines while it runs; a
run there begins with `Determining test suites to run...` and only its last block is taken. Not
trusted: a run that ended with `Test run was interrupted.` and shows no failure.
"""

from __future__ import annotations

import re
from typing import ClassVar

from evidence_gate.model import Counts
from evidence_gate.summary.base import WHITESPACE, ZERO, FailedNames, LineFilter, LineParser, Reading, RunTotals, clip

_SUITES = re.compile(
    r"^Test Suites: (?:(?P<failed>\d+) failed, )?(?:\d+ skipped, )?(?:\d+ passed, )?(?:\d+ of )?\d+ total$"
)
_TESTS = re.compile(
    r"^Tests: +(?:(?P<failed>\d+) failed, )?(?:(?P<skipped>\d+) skipped, )?(?:(?P<todo>\d+) todo, )?"
    r"(?:(?P<passed>\d+) passed, )?\d+ total$"
)
_NO_TESTS = re.compile(r"No tests found, exiting with code \d+$")
_SUITE_FAILED_TO_RUN = "● Test suite failed to run"
_FAILURE_SUMMARY = "Summary of all failing tests"
_SUITE_FAILED = "FAIL "
_INTERACTIVE_START = "Determining test suites to run..."
_RUN_DONE = "Ran all test suites"
_FAILURE_HEADER = "  ● "
_NOT_TESTS = frozenset({"Test suite failed to run", "Console"})
_INTERRUPTED = "Test run was interrupted."


class JestParser(LineParser):
    """Adds up the final summary block of every jest run in the log."""

    name: ClassVar[str] = "jest"
    trusts: ClassVar[str] = (
        "The summary block's 'Test Suites:' and 'Tests:' lines, added up over runs; on a terminal, the last "
        "block of each run. A suite that failed to run is one failed test beside the suites that ran (unparsed "
        "when no test ran)."
    )
    reads: ClassVar[LineFilter] = LineFilter(
        starts="TRSDF " + WHITESPACE,
        pattern=(
            r"Test Suites: |Test run was interrupted\.|Ran all test suites|\s*FAIL |  ● |Summary of all failing tests|"
            r"Determining test suites to run"
        ),
        holds=(_SUITE_FAILED_TO_RUN, "No tests found"),
    )

    def __init__(self) -> None:
        self._runs = RunTotals("jest runs")
        self._unread: str | None = None
        self._interactive = False
        self._failed_suites: int | None = None  # set between a `Test Suites:` line and the next line
        self._suites_failed_to_run = 0
        self._in_failure_summary = False
        self._failed_suite = ""  # the last `FAIL <path>` line's path
        self._unloaded = ""  # the first suite that failed to run, and its first error line
        self._unloaded_suites = FailedNames()  # this run's suites that failed to run, by path
        self._error_pending = False  # the next non-empty line is the error of the suite that failed to run
        self._last: Counts | None = None
        self._pending: Counts | None = None  # an interactive run's latest block, until the run ends
        self._pending_extra = 0
        self._failed_names = FailedNames()

    @property
    def wants_every_line(self) -> bool:
        # The line after `Test Suites:`, and the first non-blank line after a suite that failed to run.
        return self._failed_suites is not None or self._error_pending

    def feed(self, line: str) -> None:
        if self._error_pending and line.strip():
            self._error_pending = False
            self._unloaded += f": {clip(line)}"
        if self._failed_suites is not None:
            self._tests(line)
        elif line.startswith("Test"):
            if line.startswith("Test Suites: ") and (suites := _SUITES.match(line)):
                self._failed_suites = int(suites["failed"] or 0)
            elif line.startswith(_INTERRUPTED):
                self._interrupted()
        elif line.startswith(_RUN_DONE):
            self._commit_pending()
        elif line.lstrip().startswith(_SUITE_FAILED):  # ` FAIL  ./a.test.js` on a terminal
            self._failed_suite = clip(line.lstrip()[len(_SUITE_FAILED) :])
        elif line.startswith(_FAILURE_HEADER) and line[len(_FAILURE_HEADER) :].strip() not in _NOT_TESTS:
            self._failed_names.add(line[len(_FAILURE_HEADER) :])
        elif _SUITE_FAILED_TO_RUN in line:
            if not self._in_failure_summary:
                self._suites_failed_to_run += 1
                self._unloaded_suites.add(self._failed_suite or "a suite")
                if not self._unloaded:
                    self._unloaded = self._failed_suite or "a suite"
                    self._error_pending = True
        elif line.startswith(_FAILURE_SUMMARY):
            self._in_failure_summary = True
        elif "No tests found" in line and _NO_TESTS.search(line):
            self._commit_pending()
            self._add(ZERO)
        elif line.startswith(_INTERACTIVE_START):
            self._commit_pending()
            self._interactive = True

    def _tests(self, line: str) -> None:
        """The line right after `Test Suites:`; only a `Tests:` line there completes a block."""
        failed_suites, self._failed_suites = self._failed_suites or 0, None
        tests = _TESTS.match(line)
        if tests is None:
            return
        failed = int(tests["failed"] or 0)
        # A failed suite holds a failed test or failed to run: at least this many failed without a header.
        extra = max(failed_suites - failed - self._suites_failed_to_run, 0)
        counts = Counts(
            passed=int(tests["passed"] or 0),
            failed=failed + extra,
            skipped=int(tests["skipped"] or 0) + int(tests["todo"] or 0),
        )
        self._last = counts
        if self._interactive:
            self._pending, self._pending_extra = counts, extra
        else:
            self._add(counts, extra)

    def _interrupted(self) -> None:
        if self._last is None or not self._last.failed:
            self._unread = self._unread or (
                "jest printed 'Test run was interrupted.': its summary counts only the tests run before the stop"
            )
        else:
            self._runs.notes.append("jest's run was interrupted; the counts cover the tests run before it")
        self._commit_pending()

    def _commit_pending(self) -> None:
        if self._pending is not None:
            self._add(self._pending, self._pending_extra)
            self._pending = None
        self._interactive = False

    def _add(self, counts: Counts, extra: int = 0) -> None:
        unloaded = self._suites_failed_to_run
        more = f" (and {unloaded - 1} more)" if unloaded > 1 else ""
        if unloaded and counts != ZERO:
            # The other suites ran: their tests are the run's count; each suite that failed to run is 1 failed.
            counts = counts + Counts(passed=0, failed=unloaded, skipped=0)
        self._runs.add(counts)
        if extra:
            self._runs.notes.append(
                f"{extra} test suite(s) failed and are missing from 'Tests:'; each is counted as 1 failed test"
            )
        if unloaded and counts == ZERO:
            self._unread = self._unread or (
                f"a test suite failed to load before its tests ran (or failed outside them): {self._unloaded}{more}"
            )
        elif unloaded:
            self._runs.notes.append(
                f"{unloaded} test suite(s) failed to load before their tests ran (or failed outside them), each "
                f"counted as 1 failed test: {self._unloaded}{more}"
            )
            self._failed_names.extend(self._unloaded_suites.names)
        elif extra and counts.passed == 0 and counts.failed == extra and not self._unread:
            self._unread = f"{extra} test suite(s) failed and no test ran: the suites failed before their tests ran"
        self._suites_failed_to_run = 0
        self._unloaded = ""
        self._unloaded_suites = FailedNames()
        self._in_failure_summary = False
        self._last = counts

    def finish(self) -> Reading | None:
        self._commit_pending()
        return self._runs.finish(self, self._unread, failed_tests=self._failed_names.names)


PARSER = JestParser
