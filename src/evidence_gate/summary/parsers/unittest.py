"""Python's unittest text runner (`python -m unittest`, Django's and other TextTestRunner users).

The counts come from the last two lines of each run, `Ran N tests in Xs` and, after a blank line,
its status: `OK`, `FAILED` or (Python 3.12+) `NO TESTS RAN`, each with an optional bracket such as
`(failures=1, errors=1, skipped=2, expected failures=1, unexpected successes=1)`.

Mapping: failures and errors are failed (an import error is a synthetic test reported as an error);
skipped and expected failures are skipped; an unexpected success is passed (unittest prints FAILED
for it; a note says so when nothing else failed). `Ran N` counts every test that started, skipped
ones and expected failures included, so passed = N - failures - errors - skipped - expected
failures. Errors of class and module fixtures (`ERROR: setUpClass (mod.Class)`, listed above the
summary) are errors that `Ran N` does not count, so they are left out of that subtraction. A test
whose subtests fail adds one failure per failing subtest (`FAIL: test_x (mod.Class.test_x) (n=1)`,
the subtest's parameters after the test's name) while `Ran N` counts it once: each test is counted
once, as failed, from those headers. Several runs in one log add up.

Not trusted: a `Ran N tests` line not followed by its status line (a truncated log), and a run whose
failures, errors and skips outnumber its tests with no headers to tell which were subtests.
"""

from __future__ import annotations

import re
from typing import ClassVar

from evidence_gate.model import Counts
from evidence_gate.summary.base import LineFilter, LineParser, Reading, RunTotals

_RAN = re.compile(r"^Ran (?P<ran>\d+) tests? in \d+(?:\.\d+)?s$")
_STATUS = re.compile(r"^(?P<status>OK|FAILED|NO TESTS RAN)(?: \((?P<infos>[a-z =0-9,]+)\))?$")
_INFO = re.compile(r"^(?P<key>failures|errors|skipped|expected failures|unexpected successes)=(?P<count>\d+)$")
# Errors that unittest reports for a class or module fixture, not for a test it counted in `Ran N`.
_FIXTURE_ERROR = re.compile(r"^ERROR: (?:setUpClass|tearDownClass|setUpModule|tearDownModule) \(")
# `FAIL: test_x (mod.Class.test_x)`, and for a subtest its description after: ` (n=1)`, ` [msg] (n=1)`.
_FAILURE_HEADER = re.compile(r"^(?:FAIL|ERROR): (?P<test>\S+ \([^)]*\))(?P<subtest> .+)?$")
MAX_NAMES = 10_000  # failing tests' names kept per run to count each test with failing subtests once
_MAX_NAME_CHARS = 1000


def _infos(text: str | None) -> dict[str, int] | None:
    """The bracket's `key=count` parts, or None if any part is not unittest's."""
    found: dict[str, int] = {}
    for part in text.split(", ") if text else ():
        match = _INFO.match(part)
        if match is None:
            return None
        found[match["key"]] = int(match["count"])
    return found


class UnittestParser(LineParser):
    """Adds up the `Ran N tests` + status pairs of every unittest run in the log."""

    name: ClassVar[str] = "unittest"
    trusts: ClassVar[str] = (
        "Each run's 'Ran N tests in Xs' line and the status line after it ('OK', 'FAILED (failures=1, ...)', "
        "'NO TESTS RAN'), added up over runs."
    )
    reads: ClassVar[LineFilter] = LineFilter(starts="RFE", pattern=r"Ran |FAIL: |ERROR: ")

    def __init__(self) -> None:
        self._runs = RunTotals("unittest runs")
        self._ran: int | None = None
        self._fixture_errors = 0
        self._subtest_failures = 0
        self._subtest_parents: set[str] = set()  # tests with failing subtests
        self._failed_tests: set[str] = set()  # tests failing outside any subtest
        self._overflow = False
        self._unread: str | None = None

    @property
    def wants_every_line(self) -> bool:
        return self._ran is not None  # the status line after `Ran N tests`, past blank lines

    def feed(self, line: str) -> None:
        if self._ran is not None:
            if line.strip():
                self._status(line)
        elif line.startswith("Ran "):
            ran = _RAN.match(line)
            if ran:
                self._ran = int(ran["ran"])
        elif line.startswith(("FAIL: ", "ERROR: ")) and len(line) <= 2 * _MAX_NAME_CHARS:
            if _FIXTURE_ERROR.match(line):
                self._fixture_errors += 1
            elif header := _FAILURE_HEADER.match(line):
                self._subtest_failures += header["subtest"] is not None
                self._keep(self._subtest_parents if header["subtest"] else self._failed_tests, header["test"])

    def _keep(self, names: set[str], name: str) -> None:
        if len(names) < MAX_NAMES:
            names.add(name[:_MAX_NAME_CHARS])
        else:
            self._overflow = True

    def _status(self, line: str) -> None:
        """The first non-blank line after `Ran N tests`: the run's status, or a sign the log is cut."""
        ran, self._ran = self._ran or 0, None
        fixture_errors, self._fixture_errors = self._fixture_errors, 0
        subtest_failures, self._subtest_failures = self._subtest_failures, 0
        parents, self._subtest_parents = self._subtest_parents, set()
        failed_tests, self._failed_tests = self._failed_tests, set()
        overflow, self._overflow = self._overflow, False
        status = _STATUS.match(line)
        infos = _infos(status["infos"]) if status else None
        if infos is None:
            self._unread = self._unread or (
                f"unittest printed 'Ran {ran} tests' but no OK/FAILED status line after it (a truncated log?)"
            )
            return
        failed = infos.get("failures", 0) + infos.get("errors", 0)
        skipped = infos.get("skipped", 0) + infos.get("expected failures", 0)
        if subtest_failures and overflow:
            self._unread = self._unread or f"more than {MAX_NAMES} failing tests to count failing subtests with"
            return
        if subtest_failures and subtest_failures <= failed:
            failed += len(parents - failed_tests) - subtest_failures
            self._runs.notes.append(f"{subtest_failures} failing subtests counted once with their tests, as failed")
        started_and_failed = failed - min(fixture_errors, infos.get("errors", 0))
        passed = ran - started_and_failed - skipped
        if passed < 0:
            self._unread = self._unread or (
                f"unittest's 'Ran {ran}' is less than its failures, errors and skips ({failed + skipped}), and the "
                "log does not say which were subtests; the tests cannot be counted once"
            )
            return
        if status and status["status"] == "FAILED" and not failed:
            self._runs.notes.append(
                "unittest printed FAILED only for unexpected successes, which count as passed (like pytest's xpass)"
            )
        self._runs.add(Counts(passed=passed, failed=failed, skipped=skipped))

    def finish(self) -> Reading | None:
        if self._ran is not None:
            self._unread = self._unread or (
                f"unittest printed 'Ran {self._ran} tests' but the log ends before its OK/FAILED status line"
            )
        return self._runs.finish(self, self._unread)


PARSER = UnittestParser
