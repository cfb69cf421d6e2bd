"""Gradle's console output (plain or rich console) for JVM `Test` tasks.

Gradle prints test counts only when a test fails, once per failing test task, after the
`<class> > <method> FAILED` blocks:

    8 tests completed, 3 failed, 2 skipped          (`1 test completed, 1 failed`)

Mapping: `completed` includes skipped tests; failed (assertion failures and exceptions alike) is
failed, skipped (`@Ignore`, failed assumptions) is skipped, passed = completed - failed - skipped.
Several failing test tasks (`--continue`, multi-project builds) add up; a test task that passed in
the same build prints nothing, so its tests are missing from the sum (a note says so). The rich
console's live `> :test > 3 tests completed` lines are progress, never read.

Without a count line there is nothing to trust and the reading has no counts: a successful test
task (even one whose tests were all skipped), a test task `UP-TO-DATE`/`FROM-CACHE`/`SKIPPED` (its
tests did not run in this build), and a build that failed before any test ran (`Execution failed
for task ':compileTestJava'`). The one exception is a build in which every `test` task says
`NO-SOURCE` (Gradle's own word that there are no test sources to run): that reads as zero tests,
like Maven's `No tests to run.`.
"""

from __future__ import annotations

import re
from typing import ClassVar

from evidence_gate.model import Counts
from evidence_gate.summary.base import ZERO, LineFilter, LineParser, Reading, RunTotals

_COUNT = re.compile(r"^(?P<completed>\d+) tests? completed, (?P<failed>\d+) failed(?:, (?P<skipped>\d+) skipped)?$")
_BUILD = re.compile(r"^BUILD (?P<result>SUCCESSFUL|FAILED)(?: in \S.*)?$")
_ACTIONABLE = re.compile(r"^\d+ actionable tasks?: ")
_TASK = re.compile(r"^(?:> Task )?:\w")
# The task line of a `test` task: `:test`, `:core:test`, `> Task :test` (Gradle 4.4's plain console
# prints `:name`, later versions and the rich console `> Task :name`), then a status or, in the plain
# console, whatever the task printed glued on (`:testWARNING: ...`).
_TEST_TASK = re.compile(r"^(?:> Task )?:(?:[\w.-]+:)*test(?P<rest>.*)$")
# A camel-case continuation is another task (`:testClasses`), not output glued onto `:test`.
_OTHER_TASK = re.compile(r"^[A-Z][a-z]")
_NOT_RUN = frozenset({"UP-TO-DATE", "FROM-CACHE", "SKIPPED"})
_COMPILE_FAILED = re.compile(r"^Execution failed for task '(?P<task>:(?:[\w.-]+:)*compile\w*)'\.$")
_REASON_SUCCESS = (
    "Gradle prints test counts only when a test fails; pass --junit build/test-results/<task>/TEST-*.xml "
    "(the reports Gradle writes) for the counts"
)


class GradleParser(LineParser):
    """Adds up the count line of each failing test task; reads `:test NO-SOURCE` as zero tests."""

    name: ClassVar[str] = "gradle"
    trusts: ClassVar[str] = (
        "The count line Gradle prints for a test task with failures ('8 tests completed, 3 failed, 2 skipped'), "
        "added up over tasks; a build whose test tasks all say NO-SOURCE as zero tests."
    )
    reads: ClassVar[LineFilter] = LineFilter(
        starts=":>BE",
        starts_class=r"\d",
        pattern=r"\d+ (?:tests? completed, |actionable tasks?: )|[:>]|BUILD |Execution failed for task ",
    )

    def __init__(self) -> None:
        self._runs = RunTotals("failing test tasks")
        self._build: str | None = None  # `BUILD SUCCESSFUL` / `BUILD FAILED`, the last one
        self._gradle = False  # an `N actionable tasks` or a task line: Ant prints `BUILD SUCCESSFUL` too
        self._ran_tasks = 0  # test task lines that are not NO-SOURCE / UP-TO-DATE / ...
        self._no_source = 0
        self._not_run: str | None = None  # the status of a test task that did not run
        self._compile_failed: str | None = None
        self._unread: str | None = None

    def feed(self, line: str) -> None:
        if not line:
            return
        first = line[0]
        if first.isdigit():
            if " completed, " in line and (count := _COUNT.match(line)):
                self._count(count)
            elif _ACTIONABLE.match(line):
                self._gradle = True
        elif first in ":>":
            self._gradle = self._gradle or _TASK.match(line) is not None
            if "test" in line and (task := _TEST_TASK.match(line)):
                self._test_task(task["rest"])
        elif first == "B":
            if build := _BUILD.match(line):
                self._build = build["result"]
        elif first == "E" and (failed := _COMPILE_FAILED.match(line)):
            self._compile_failed = failed["task"]

    def _test_task(self, rest: str) -> None:
        if rest.startswith(" "):
            status = rest.strip()
            if status == "NO-SOURCE":
                self._no_source += 1
            elif status in _NOT_RUN:
                self._not_run = self._not_run or status
            else:
                self._ran_tasks += 1
        elif not _OTHER_TASK.match(rest):
            self._ran_tasks += 1

    def _count(self, match: re.Match[str]) -> None:
        completed, failed, skipped = int(match["completed"]), int(match["failed"]), int(match["skipped"] or 0)
        passed = completed - failed - skipped
        if passed < 0:
            self._unread = self._unread or f"Gradle's '{match[0]}' counts more failed and skipped than completed tests"
            return
        self._runs.add(Counts(passed=passed, failed=failed, skipped=skipped))

    def finish(self) -> Reading | None:
        caveats: tuple[str, ...] = (
            "Gradle prints no count for a test task whose tests all passed: such tasks are not in these counts",
        )
        if self._compile_failed:
            caveats = (*caveats, f"task '{self._compile_failed}' failed to compile: its tests did not run")
        reading = self._runs.finish(self, self._unread, caveats)
        if reading is not None:
            return reading
        if not (self._gradle and self._build):
            return None
        if self._compile_failed:
            return self.reading(
                None, f"task '{self._compile_failed}' failed to compile, so tests did not run; Gradle printed no count"
            )
        if self._ran_tasks:
            if self._build == "FAILED":
                return self.reading(None, "the build failed and Gradle printed no test count line")
            return self.reading(None, _REASON_SUCCESS, no_count_printed=True)
        if self._not_run:
            return self.reading(None, f"the test task was {self._not_run}: its tests did not run in this build")
        if self._no_source:
            if self._build == "SUCCESSFUL":
                return self.reading(ZERO, notes=("the test task said NO-SOURCE: there are no test sources to run",))
            return self.reading(None, "the build failed (BUILD FAILED) and Gradle printed no test count line")
        return self.reading(None, "Gradle ran no test task in this build (no test task line, no count line)")


PARSER = GradleParser
