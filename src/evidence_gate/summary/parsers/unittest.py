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
whose subtests fail adds one failure per failing subtest while `Ran N` counts it once; when that
makes the subtraction negative, passed is read as 0 and a note says so. Several runs in one log add
up.

Not trusted: a `Ran N tests` line not followed by its status line (a truncated log).
"""

from __future__ import annotations

import re
from typing import ClassVar

from evidence_gate.model import Counts
from evidence_gate.summary.base import LineParser, Reading, RunTotals

_RAN = re.compile(r"^Ran (?P<ran>\d+) tests? in \d+(?:\.\d+)?s$")
_STATUS = re.compile(r"^(?P<status>OK|FAILED|NO TESTS RAN)(?: \((?P<infos>[a-z =0-9,]+)\))?$")
_INFO = re.compile(r"^(?P<key>failures|errors|skipped|expected failures|unexpected successes)=(?P<count>\d+)$")
# Errors that unittest reports for a class or module fixture, not for a test it counted in `Ran N`.
_FIXTURE_ERROR = re.compile(r"^ERROR: (?:setUpClass|tearDownClass|setUpModule|tearDownModule) \(")


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

    def __init__(self) -> None:
        self._runs = RunTotals("unittest runs")
        self._ran: int | None = None
        self._fixture_errors = 0
        self._unread: str | None = None

    def feed(self, line: str) -> None:
        if self._ran is not None:
            if line.strip():
                self._status(line)
        elif line.startswith("Ran "):
            ran = _RAN.match(line)
            if ran:
                self._ran = int(ran["ran"])
        elif line.startswith("ERROR: ") and _FIXTURE_ERROR.match(line):
            self._fixture_errors += 1

    def _status(self, line: str) -> None:
        """The first non-blank line after `Ran N tests`: the run's status, or a sign the log is cut."""
        ran, self._ran = self._ran or 0, None
        fixture_errors, self._fixture_errors = self._fixture_errors, 0
        status = _STATUS.match(line)
        infos = _infos(status["infos"]) if status else None
        if infos is None:
            self._unread = self._unread or (
                f"unittest printed 'Ran {ran} tests' but no OK/FAILED status line after it (a truncated log?)"
            )
            return
        failed = infos.get("failures", 0) + infos.get("errors", 0)
        skipped = infos.get("skipped", 0) + infos.get("expected failures", 0)
        started_and_failed = failed - min(fixture_errors, infos.get("errors", 0))
        passed = ran - started_and_failed - skipped
        if passed < 0:
            self._runs.notes.append(
                f"'Ran {ran}' is less than its failures, errors and skips ({failed + skipped}): subtests or "
                "class/module fixtures were counted apart from tests; passed read as 0"
            )
            passed = 0
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
