"""`go test -json` (test2json) event streams, also as written by gotestsum's `--jsonfile`.

Counts are the result events that carry a `Test` field: `pass` is passed, `fail` failed, `skip`
skipped. Subtests and examples have their own events, and a parent counts in addition to its
subtests (as gotestsum and go-junit-report count). Events without `Test` are package results,
not tests: a package-level `skip` is a package without test files.

A package that fails without a failing test event (a build failure, a panic in TestMain, a
timeout) counts as one failed test: errors count as failed. Go before 1.24 emits no JSON at all
for a package that fails to build, only the plain `FAIL\t<pkg> [build failed]` line on stderr,
which is read too so that such a run can never read as passed.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import ClassVar

from evidence_gate.model import Counts
from evidence_gate.summary.base import ZERO, LineParser, Reading

_ACTION = re.compile(r'"Action"\s*:\s*"([a-z-]+)"')
_RESULTS = {"pass", "fail", "skip"}
_READ = _RESULTS | {"run", "start"}
_BUILD_FAILED = re.compile(r"^FAIL\t(\S+) \[\w+ failed\]$")
_ONE_FAILED = Counts(passed=0, failed=1, skipped=0)


@dataclass
class _Package:
    failed_tests: int = 0
    finished: bool = False


class GoTestJsonParser(LineParser):
    """Reads test2json events; O(packages) state, one small record per package."""

    name: ClassVar[str] = "go-test-json"
    trusts: ClassVar[str] = (
        "test2json `pass`/`fail`/`skip` events with a `Test` field, and each package's own result event "
        "(a package that failed without a failing test is one error)"
    )

    def __init__(self) -> None:
        self._counts = ZERO
        self._packages: dict[str, _Package] = {}
        self._events = 0
        self._malformed = 0

    def feed(self, line: str) -> None:
        if line.startswith("{"):
            if '"Action"' in line and ('"Package"' in line or '"ImportPath"' in line):
                self._event(line)
        elif line.startswith("FAIL\t"):
            match = _BUILD_FAILED.match(line)
            if match:
                self._package_failed(match.group(1))

    def _event(self, line: str) -> None:
        match = _ACTION.search(line)
        if not match:
            return
        self._events += 1
        action = match.group(1)
        if action not in _READ:
            return  # output, pause, cont, bench, build-output...: the bulk of the stream, not needed
        try:
            event = json.loads(line)
        except json.JSONDecodeError:
            self._malformed += 1
            return
        package = event.get("Package") if isinstance(event, dict) else None
        if not isinstance(package, str):
            return
        test = event.get("Test")
        record = self._packages.setdefault(package, _Package())
        if action not in _RESULTS:
            return
        if test:
            if action == "pass":
                self._counts = self._counts + Counts(passed=1, failed=0, skipped=0)
            elif action == "skip":
                self._counts = self._counts + Counts(passed=0, failed=0, skipped=1)
            else:
                record.failed_tests += 1
                self._counts = self._counts + _ONE_FAILED
        elif action == "fail":
            self._package_failed(package)
        else:
            record.finished = True

    def _package_failed(self, package: str) -> None:
        record = self._packages.setdefault(package, _Package())
        if not record.failed_tests:
            record.failed_tests = 1
            self._counts = self._counts + _ONE_FAILED
        record.finished = True

    def finish(self) -> Reading | None:
        if not self._events:
            return None
        if self._malformed:
            return self.reading(None, f"{self._malformed} test2json result event(s) are not valid JSON")
        unfinished = sorted(name for name, record in self._packages.items() if not record.finished)
        if unfinished:
            return self.reading(
                None,
                f"the stream ends before the result event of package {unfinished[0]}"
                + (f" (and {len(unfinished) - 1} more)" if len(unfinished) > 1 else "")
                + " (a truncated log or an interrupted run?)",
            )
        return self.reading(self._counts)


PARSER = GoTestJsonParser
