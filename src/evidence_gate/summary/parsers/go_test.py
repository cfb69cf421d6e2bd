"""`go test` console output, plain or `-v` (the `-json` stream is `go_test_json`'s).

go prints no count line in any mode, so the counts are the per-test result lines of `-v`:
`--- PASS` is passed, `--- FAIL` failed, `--- SKIP` skipped. Every result line counts once:
top-level tests, subtests and examples, and a parent counts in addition to its subtests (as
test2json consumers such as gotestsum and go-junit-report count). A package whose line says
`FAIL` without any failing test under it (a build or setup failure, a panic in TestMain, a
timeout) counts as one failed test: errors count as failed.

Plain `go test` lists only failing tests, so passes and skips are invisible: it is read only when
no package ran a test (`[no test files]`, `[no tests to run]`, `[build failed]`), and is otherwise
unparsed with the reason, never guessed.
"""

from __future__ import annotations

import re
from typing import ClassVar

from evidence_gate.model import Counts
from evidence_gate.summary.base import ZERO, LineParser, Reading

# `ok  \t<pkg>\t0.01s`, `FAIL\t<pkg>\t0.01s`, `?   \t<pkg>\t[no test files]`, `FAIL\t<pkg> [build failed]`.
_PACKAGE_PREFIXES = ("ok  \t", "FAIL\t", "?   \t")
_PACKAGE = re.compile(r"^(ok|FAIL|\?) *\t(\S+)(\t.*| \[\w+ failed\])$")
_RESULT = re.compile(r"^\s*--- (PASS|FAIL|SKIP): \S.* \(\d[\d.]*\s?s(?:econds)?\)$")
_NO_TESTS = ("[no test files]", "[no tests to run]")


class GoTestParser(LineParser):
    """Reads `go test -v` result lines per package; plain `go test` only when nothing ran."""

    name: ClassVar[str] = "go-test"
    trusts: ClassVar[str] = (
        "`go test -v` result lines (`--- PASS/FAIL/SKIP`, subtests included) closed by each package's "
        "`ok`/`FAIL` line; plain `go test` only when every package line says no test ran"
    )

    def __init__(self) -> None:
        self._total = ZERO
        self._pending = ZERO  # results since the last package line
        self._verbose = False
        self._json = False
        self._packages = 0
        self._ran_packages = 0  # plain mode: packages whose tests ran (their counts are hidden)
        self._failing_listed = 0  # plain mode: `--- FAIL` lines
        self._build_failures = 0

    def feed(self, line: str) -> None:
        if line.startswith(_PACKAGE_PREFIXES):
            self._package(line)
        elif "--- " in line:
            self._result(line)
        elif line.startswith("=== RUN "):
            self._verbose = True
        elif line.startswith('{"') and '"Action":' in line:
            self._json = True

    def _package(self, line: str) -> None:
        match = _PACKAGE.match(line)
        if not match:
            return
        word, _, rest = match.groups()
        self._packages += 1
        pending, self._pending = self._pending, ZERO
        if word == "FAIL" and not pending.failed:
            # The package failed without a failing test line: a build/setup failure, a panic in
            # TestMain or a timeout. One error.
            pending = pending + Counts(passed=0, failed=1, skipped=0)
            if rest.endswith(" failed]"):
                self._build_failures += 1
        self._total = self._total + pending
        if word != "?" and not rest.endswith((*_NO_TESTS, " failed]")):
            self._ran_packages += 1

    def _result(self, line: str) -> None:
        match = _RESULT.match(line)
        if not match:
            return
        word = match.group(1)
        if word == "PASS":
            self._verbose = True
            self._pending = self._pending + Counts(passed=1, failed=0, skipped=0)
        elif word == "SKIP":
            self._verbose = True
            self._pending = self._pending + Counts(passed=0, failed=0, skipped=1)
        else:
            self._failing_listed += 1
            self._pending = self._pending + Counts(passed=0, failed=1, skipped=0)

    def finish(self) -> Reading | None:
        if self._json or not (self._packages or self._verbose):
            return None
        if self._pending != ZERO:
            return self.reading(
                None,
                "the output ends before the `ok`/`FAIL` line of the package whose tests it shows last "
                "(a truncated log?)",
            )
        if self._verbose or not self._ran_packages:
            return self.reading(self._total)
        return self.reading(
            None,
            f"plain `go test` (without -v or -json) prints no passed or skipped tests: {self._ran_packages} "
            f"package(s) ran tests, {self._failing_listed} failing test line(s) listed"
            + (f", {self._build_failures} package(s) failed to build" if self._build_failures else ""),
        )


PARSER = GoTestParser
