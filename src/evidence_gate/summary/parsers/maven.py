"""Maven's console output with the Surefire (or Failsafe) plugin, `-B` or coloured.

Surefire prints a `Tests run:` line per test class and, after `Results:`, one total per module:

    [INFO] Results:
    [INFO]
    [ERROR] Tests run: 8, Failures: 2, Errors: 1, Skipped: 2

The counts are the sum of those per-module totals (the per-class lines repeat them and are not
added again); Maven prints no build-wide total. A module whose plugin finds no test prints
`No tests to run.`, and one run with `-DskipTests` prints `Tests are skipped.`: both add nothing.

Mapping: `Tests run` includes failures, errors and skipped tests; failures and errors are failed,
skipped (`@Ignore`/`@Disabled`, failed assumptions) is skipped, passed = run - failures - errors -
skipped; a flaky test that passed on a rerun (`Flakes: N`, with `rerunFailingTestsCount`) passed.
Surefire counts a JUnit 4 class with `@Ignore` as one skipped test whatever its number of methods.

Not trusted, so the reading has no counts: a build that fails (`BUILD FAILURE`) while the totals
show no failed test, since then some tests did not run or did not report: test sources that do not
compile (`COMPILATION ERROR`), a module that failed before its tests, a crashed test JVM. Maven stops
at the first module whose tests fail and lists the later ones as `SKIPPED` in its Reactor Summary;
their tests appear nowhere, which a note says. Also untrusted: Surefire's ` T E S T S` banner
without the module's `Results:` total after it (a truncated log).
"""

from __future__ import annotations

import re
from typing import ClassVar

from evidence_gate.model import Counts
from evidence_gate.summary.base import WHITESPACE, ZERO, LineFilter, LineParser, Reading

# Maven's level prefix; Surefire before 2.19 printed its lines without one.
_LEVEL = re.compile(r"^\[(?:INFO|WARNING|ERROR)\] ?")
_TOTAL = re.compile(
    r"^Tests run: (?P<run>\d+), Failures: (?P<failures>\d+), Errors: (?P<errors>\d+), Skipped: (?P<skipped>\d+)"
    r"(?:, Flakes: (?P<flakes>\d+))?$"
)
# `--- maven-surefire-plugin:2.22.3:test (default-test) @ core ---` (Maven 3.9: `--- surefire:3.2.5:test ...`).
_MOJO = re.compile(r"^--- (?P<plugin>[\w.-]+):[\w.-]+:[\w-]+ .*---$")
_TEST_PLUGINS = frozenset({"maven-surefire-plugin", "surefire", "maven-failsafe-plugin", "failsafe"})
_SKIPPED_MODULE = re.compile(r"^\S.*? \.+ SKIPPED$")


class MavenParser(LineParser):
    """Adds up Surefire's per-module `Results:` totals."""

    name: ClassVar[str] = "maven"
    trusts: ClassVar[str] = (
        "Surefire's per-module total after 'Results:' ('Tests run: 8, Failures: 2, Errors: 1, Skipped: 2'), "
        "added up over modules, and 'No tests to run.'; never the per-class lines."
    )
    reads: ClassVar[LineFilter] = LineFilter(
        starts="[TR" + WHITESPACE, pattern=r"\[(?:INFO|WARNING|ERROR)\]|Tests run: |Results ?:|\s*T E S T S"
    )

    def __init__(self) -> None:
        self._total = ZERO
        self._modules = 0  # `Results:` totals read
        self._no_tests = 0  # `No tests to run.` / `Tests are skipped.` of a test plugin
        self._flakes = 0
        self._in_test_plugin = False
        self._testing = False  # between ` T E S T S` and the module's total
        self._results = False  # after `Results:`, before its total
        self._build: str | None = None  # `BUILD SUCCESS` / `BUILD FAILURE`, the last one
        self._compile_error = False
        self._skipped_modules = 0
        self._tests_skipped = False
        self._unread: str | None = None

    def feed(self, line: str) -> None:
        prefix = _LEVEL.match(line)
        body = line[prefix.end() :] if prefix else line
        if not body:
            return
        if self._results and body.startswith("Tests run: "):
            match = _TOTAL.match(body)
            if match:
                self._module_total(match)
        elif body.rstrip() in ("Results:", "Results :"):
            self._results = True
        elif body.strip() == "T E S T S":
            self._testing = True
        elif prefix is None:
            return
        elif body.startswith("--- "):
            mojo = _MOJO.match(body)
            self._in_test_plugin = mojo is not None and mojo["plugin"] in _TEST_PLUGINS
        elif body in ("No tests to run.", "Tests are skipped."):
            if self._in_test_plugin:
                self._no_tests += 1
                self._tests_skipped = self._tests_skipped or body == "Tests are skipped."
        elif body in ("BUILD SUCCESS", "BUILD FAILURE"):
            self._build = body
        elif body.startswith("COMPILATION ERROR"):
            self._compile_error = True
        elif body.endswith(" SKIPPED") and _SKIPPED_MODULE.match(body):
            self._skipped_modules += 1

    def _module_total(self, match: re.Match[str]) -> None:
        run, failures, errors, skipped = (int(match[key]) for key in ("run", "failures", "errors", "skipped"))
        self._results = False
        self._testing = False
        self._modules += 1
        self._flakes += int(match["flakes"] or 0)
        passed = run - failures - errors - skipped
        if passed < 0:
            self._unread = self._unread or f"Surefire's total '{match[0]}' counts more outcomes than tests run"
            return
        self._total = self._total + Counts(passed=passed, failed=failures + errors, skipped=skipped)

    def finish(self) -> Reading | None:
        if not (self._modules or self._no_tests or self._testing or self._build):
            return None
        if self._build == "BUILD FAILURE" and not self._total.failed:
            if self._compile_error:
                return self.reading(
                    None, "the build failed with a COMPILATION ERROR, so Surefire did not run that module's tests"
                )
            return self.reading(
                None,
                "Maven's BUILD FAILURE while Surefire's totals show no failed test: some tests did not run or did not "
                "report (a module failed before its tests, a crashed test JVM)",
            )
        if self._unread:
            return self.reading(None, self._unread)
        if self._testing:
            return self.reading(
                None, "Surefire started its tests (' T E S T S') but the module's 'Results:' total is missing"
            )
        if not (self._modules or self._no_tests):
            return self.reading(None, "Maven ran no test plugin: there is no Surefire 'Tests run:' total")
        notes: list[str] = []
        if self._modules > 1:
            notes.append(f"{self._modules} module totals added up")
        if self._flakes:
            notes.append(f"{self._flakes} flaky test(s) failed first and passed on a rerun; counted as passed")
        if self._tests_skipped:
            notes.append("Surefire said 'Tests are skipped.' (-DskipTests): those tests did not run")
        if self._skipped_modules:
            notes.append(
                f"{self._skipped_modules} module(s) SKIPPED after a failure (Reactor Summary): their tests did not run"
            )
        return self.reading(self._total, notes=tuple(notes))


PARSER = MavenParser
