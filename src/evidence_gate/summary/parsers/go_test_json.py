"""`go test -json` (test2json) event streams, also as written by gotestsum's `--jsonfile`.

Counts are the result events that carry a `Test` field: `pass` is passed, `fail` failed, `skip`
skipped. Subtests and examples have their own events, and a parent counts in addition to its
subtests (as gotestsum and go-junit-report count). Events without `Test` are package results,
not tests: a package-level `skip` is a package without test files.

A package that fails without a failing test event (a panic in TestMain, a timeout) counts as one
failed test: errors count as failed. A package that go could not build, set up or vet ran no test:
as for `go test -v`, it counts as one failed test beside the packages that ran theirs, with a note
giving the first error, and the reading is unparsed, "the build failed before any test ran", when no
package ran a test. Go before 1.24 emits no JSON at all for such a package, only the plain
`FAIL\\t<pkg> [build failed]` line on stderr, which is read too. Go 1.24 adds `build-output` and
`build-fail` events, a package `output` event `FAIL\\t<pkg> [setup failed]` and a package `fail`
event with `FailedBuild`: the package is the one those package events name (a `build-fail` event
names what go tried to build, which for a missing import is the missing package), and `build-fail`
events alone, without those, are enough.

The failed tests are named by the `Test` field of their `fail` events (`TestDiv/by-zero` for a
subtest), as `go test -v` prints them, then the packages that failed to build (`<pkg> [build failed]`).

Each line is read in bounded time and memory: test2json events are flat objects, so a line nested
deeper than JSON allows, or not JSON at all, is an event this parser cannot read and makes the
reading unparsed; package names are kept clipped.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import ClassVar

from evidence_gate.model import Counts
from evidence_gate.summary.base import ZERO, FailedNames, LineFilter, LineParser, Reading, failed_names, name_key
from evidence_gate.summary.parsers.go_test import BUILD_FAILED, GoBuildFailures

_ACTION = re.compile(r'"Action"\s*:\s*"([a-z-]+)"')
_RESULTS = {"pass", "fail", "skip"}
_READ = _RESULTS | {"run", "start", "build-output", "build-fail"}
_ONE_FAILED = Counts(passed=0, failed=1, skipped=0)
_MAX_PACKAGES = 100_000
_PACKAGE_BUILD_FAILED = ' failed]\\n"'  # the end of an output event's `FAIL\t<pkg> [build failed]\n`


@dataclass
class _Package:
    failed_tests: int = 0
    ran_tests: bool = False
    build_failed: bool = False
    finished: bool = False


class GoTestJsonParser(LineParser):
    """Reads test2json events; O(packages) state, one small record per package."""

    name: ClassVar[str] = "go-test-json"
    trusts: ClassVar[str] = (
        "test2json `pass`/`fail`/`skip` events with a `Test` field, and each package's own result event "
        "(a package that failed without a failing test, or failed to build, is one error; a run where every "
        "package failed to build is unparsed)"
    )
    reads: ClassVar[LineFilter] = LineFilter(starts="{F#", pattern=r"\{|FAIL\t|# ")

    def __init__(self) -> None:
        self._counts = ZERO
        self._packages: dict[str, _Package] = {}
        self._events = 0
        self._malformed = 0
        self._build_failures = GoBuildFailures()
        self._build_fail_events = FailedNames()  # what `build-fail` events name, for a stream without package events
        self._failed_names = FailedNames()

    @property
    def wants_every_line(self) -> bool:
        return self._build_failures.awaits_error  # the first error line under a `# <pkg>` header

    def feed(self, line: str) -> None:
        if line.startswith("{"):
            if '"Action"' in line and ('"Package"' in line or '"ImportPath"' in line):
                self._event(line)
        else:
            self._build_failures.feed(line)

    def _event(self, line: str) -> None:
        match = _ACTION.search(line)
        if not match:
            return
        self._events += 1
        action = match.group(1)
        if action not in _READ and not (action == "output" and _PACKAGE_BUILD_FAILED in line):
            return  # output, pause, cont, bench...: the bulk of the stream, not needed
        try:
            event = json.loads(line)
        except (json.JSONDecodeError, RecursionError):
            self._malformed += 1
            return
        if not isinstance(event, dict):
            return
        if action == "build-output":
            output = event.get("Output")
            if isinstance(output, str):
                self._build_failures.feed(output.rstrip("\n"))
            return
        if action == "build-fail":
            built = event.get("ImportPath")
            if isinstance(built, str):
                self._build_fail_events.add(built.split(" ", 1)[0])
            return
        package = event.get("Package")
        if not isinstance(package, str):
            return
        record = self._record(package)
        if record is None:
            return
        if action == "output" and not event.get("Test"):
            self._package_output(record, event.get("Output"))
        if action not in _RESULTS:
            return
        if test := event.get("Test"):
            record.ran_tests = True
            if action == "pass":
                self._counts = self._counts + Counts(passed=1, failed=0, skipped=0)
            elif action == "skip":
                self._counts = self._counts + Counts(passed=0, failed=0, skipped=1)
            else:
                record.failed_tests += 1
                self._counts = self._counts + _ONE_FAILED
                self._failed_names.add(str(test))
        elif action == "fail" and (record.build_failed or event.get("FailedBuild")):
            if not record.build_failed:
                record.build_failed = True
                self._build_failures.failed(package, "build")
            record.finished = True
        elif action == "fail" and not record.failed_tests:
            # The package's tests ran and it failed without a failing test: a panic in TestMain or a timeout.
            record.failed_tests = 1
            record.finished = True
            self._counts = self._counts + _ONE_FAILED
        else:
            record.finished = True

    def _package_output(self, record: _Package, output: object) -> None:
        """A package's own output event `FAIL\t<pkg> [build failed]` (Go 1.24 writes it before the
        package's `fail` event) marks it as not built, whether or not that event carries `FailedBuild`."""
        match = BUILD_FAILED.match(output.rstrip("\n")) if isinstance(output, str) else None
        if match and not record.build_failed:
            record.build_failed = True
            self._build_failures.failed(match.group(1), match.group(2))

    def _record(self, package: str) -> _Package | None:
        key = name_key(package)
        record = self._packages.get(key)
        if record is None and len(self._packages) < _MAX_PACKAGES:
            record = self._packages[key] = _Package()
        return record

    def finish(self) -> Reading | None:
        if not self._events:
            return None
        if self._malformed:
            return self.reading(
                None, f"{self._malformed} line(s) that look like test2json result events are not valid JSON"
            )
        if len(self._packages) >= _MAX_PACKAGES:
            return self.reading(None, f"the stream names more than {_MAX_PACKAGES:,} packages; not read further")
        unfinished = sorted(name for name, record in self._packages.items() if not record.finished)
        if unfinished:
            return self.reading(
                None,
                f"the stream ends before the result event of package {unfinished[0]}"
                + (f" (and {len(unfinished) - 1} more)" if len(unfinished) > 1 else "")
                + " (a truncated log or an interrupted run?)",
            )
        named = self._failed_names.names
        if not self._build_failures.count:
            # `build-fail` events without the package events that name the package (a cut or filtered stream).
            for built in self._build_fail_events.names:
                self._build_failures.failed(built, "build")
        if self._build_failures.count:
            ran = sum(1 for record in self._packages.values() if record.ran_tests)
            if not ran:
                return self.reading(None, self._build_failures.reason(ran, self._counts), failed_tests=named)
            counts, note = self._build_failures.counted(self._counts)
            return self.reading(
                counts, notes=(note,), failed_tests=failed_names(named, self._build_failures.names.names)
            )
        return self.reading(self._counts, failed_tests=named)


PARSER = GoTestJsonParser
