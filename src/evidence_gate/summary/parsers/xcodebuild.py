"""`xcodebuild test` and `swift test` console output: XCTest and Swift Testing.

XCTest prints a `Test Suite '<name>' passed|failed at ...` line and a `\\t Executed N tests, with K
tests skipped and F failures (U unexpected)` line for every class, every bundle and the root
(`All tests` or `Selected tests`). Only the outermost suite of each test-runner process is read,
and the processes (one per bundle) are added. `N` includes skipped tests, and `F` counts recorded
failures, not failed tests, so the failed tests are the `Test Case '...' failed` lines under that
root (a root with failures but no failed test line is one error). Mapping: failed is a failed test,
skipped is a skipped test (`XCTSkip`) or an `XCTExpectFailure` test, whose `Expected failure in
-[...]` line turns its `passed` into an expected failure (xfail); the rest of N passed.

With parallel testing there are no suite or `Executed` lines at all; the counts are the
`Test case '...' passed|failed|skipped on '<device>'` lines.

Swift Testing closes with `Test run with N tests [in S suites] passed|failed after ...`. `N`
includes skipped and known-issue tests and the line counts issues, not tests, so failed is the
`Test X failed after` lines, skipped the `Test X skipped` lines plus tests that passed with a known
issue (xfail), passed the rest of N. XCTest and Swift Testing totals of one run are added.

A build that failed before testing (`Testing cancelled because the build failed.`,
`** BUILD FAILED **`, `** TEST BUILD FAILED **`), or a `** TEST FAILED **` verdict with no test
run at all after the compiler's `error:` lines (older Xcode prints only that), ran no test: the
reading is unparsed, "the build failed before any test ran", with the first compiler error, never
a count. A failed verdict with no test result and no build error (a runner that crashed on launch)
is unparsed too. A failed verdict after tests that show no failure counts as one failed test:
errors count as failed.
"""

from __future__ import annotations

import re
from typing import ClassVar

from evidence_gate.model import Counts
from evidence_gate.summary.base import WHITESPACE, ZERO, LineFilter, LineParser, Reading, clip, name_key

_SUITE = re.compile(r"^Test Suite '(.+)' (started|passed|failed) at ")
_ROOTS = ("All tests", "Selected tests")
_EXECUTED = re.compile(
    r"^\s*Executed (\d+) tests?, with (?:(\d+) tests? skipped and )?(\d+) failures? \(\d+ unexpected\)"
)
_CASE = re.compile(r"^Test Case '(.+)' (passed|failed|skipped) \(")
_PARALLEL_CASE = re.compile(r"^Test case '(.+)' (passed|failed|skipped) on '")
_EXPECTED_FAILURE = re.compile(r"Expected failure in (-\[[^\]]+\]|[\w.]+(?:\(\))?)")
# Swift Testing: a symbol (a private-use SF Symbol on a macOS terminal), one or two spaces, `Test `;
# some Xcode 26 lines start with a zero-width space.
_SWIFT = re.compile(r"^\u200b?[^\w\s]\s{1,2}Test (.+)$")
_SWIFT_RUN = re.compile(r"^run with (\d+) tests? (?:in \d+ suites? )?(passed|failed) after ")
_SWIFT_NAME = r'("(?:[^"\\]|\\.)*"|[^\s"]+)'
_SWIFT_RESULT = re.compile(_SWIFT_NAME + r" (passed|failed) after [\d.]+ seconds?(.*)$")
_SWIFT_SKIPPED = re.compile(_SWIFT_NAME + r" skipped\b")
_BUILD_FAILED = ("Testing cancelled because the build failed.", "** BUILD FAILED **", "** TEST BUILD FAILED **")
_VERDICT_FAILED = ("** TEST FAILED **", "** TEST EXECUTE FAILED **")
# A compiler's diagnostic (`File.swift:14:24: error: ...`, with a column, unlike XCTest's assertion
# lines) or a tool's own `error: ...`: the first one is shown when the build failed.
_COMPILER_ERROR = re.compile(r"^(?:error: |\S.*:\d+:\d+: (?:fatal )?error: )")

_MAX_PENDING = 10_000  # expected failures whose test has not finished yet; a real run has a few at once

_PASSED = Counts(passed=1, failed=0, skipped=0)
_FAILED = Counts(passed=0, failed=1, skipped=0)
_SKIPPED = Counts(passed=0, failed=0, skipped=1)


def _test_key(name: str) -> str:
    """`-[Module.Class method]`, `Class.method()` and `Class.method` as one key: `Class.method`."""
    if name.startswith("-[") and name.endswith("]"):
        owner, _, method = name[2:-1].partition(" ")
        return name_key(f"{owner.rsplit('.', 1)[-1]}.{method}")
    return name_key(name.removesuffix("()"))


class XcodebuildParser(LineParser):
    """Adds the root `Executed` line of each XCTest process, parallel per-test lines, and Swift Testing runs."""

    name: ClassVar[str] = "xcodebuild"
    trusts: ClassVar[str] = (
        "the outermost XCTest suite's `Executed N tests, with K tests skipped` line per test process, with "
        "`Test Case ... failed` lines for failed tests; parallel `Test case ... on` lines; Swift Testing's "
        "`Test run with N tests` line with its per-test failed/skipped/known-issue lines"
    )
    reads: ClassVar[LineFilter] = LineFilter(
        starts="TRE*" + WHITESPACE,
        starts_class=r"[^\w\s]",  # Swift Testing's lines start with a symbol
        pattern=(
            r"Test |Restarting after unexpected exit|\s*Executed |\s*\*\* |"
            r"\s*Testing cancelled because the build failed\.|\u200b?[^\w\s]\s{1,2}Test "
        ),
        holds=("Expected failure in ", "error: "),
    )

    def __init__(self) -> None:
        self._total = ZERO
        self._inconsistent: str | None = None
        self._depth = 0
        self._await_root = False  # the next `Executed` line is a root's
        self._roots = 0
        self._case = ZERO  # `Test Case` results since the last root closed
        self._xfail_passed = 0
        self._expected_failures: set[str] = set()  # tests with an `Expected failure in` line, not yet done
        self._parallel = ZERO
        self._parallel_swift = ZERO  # parallel lines of Swift Testing tests (`Suite/test()`)
        self._swift = ZERO  # Swift Testing results since the last run line
        self._swift_known = 0
        self._swift_runs = 0
        self._build_failed = False
        self._verdict_failed = ""  # the failed verdict line
        self._verdict = False
        self._first_error = ""

    def feed(self, line: str) -> None:
        if line.startswith("Test "):
            self._xctest_line(line)
        elif "Executed " in line:
            self._executed(line)
        elif "Test " in line and (swift := _SWIFT.match(line)):
            self._swift_line(swift.group(1))
        elif line.startswith("Restarting after unexpected exit"):
            # The crashed process never closed its suites; the relaunch prints a new tree whose root's
            # `Executed` line includes the totals of the earlier launches.
            self._depth = 0
            self._await_root = False
        elif "Expected failure in " in line:
            match = _EXPECTED_FAILURE.search(line)
            if match and len(self._expected_failures) < _MAX_PENDING:
                self._expected_failures.add(_test_key(match.group(1)))
            elif match:
                self._inconsistent = f"more than {_MAX_PENDING:,} `Expected failure in` lines for unfinished tests"
        elif "FAILED" in line or "SUCCEEDED" in line or "build failed" in line:
            self._verdict_line(line.strip())
        elif not self._first_error and "error: " in line and _COMPILER_ERROR.match(line):
            self._first_error = clip(line)

    def _xctest_line(self, line: str) -> None:
        if line.startswith("Test Suite '"):
            match = _SUITE.match(line)
            if match:
                self._suite(match.group(1), match.group(2))
        elif line.startswith("Test Case '"):
            match = _CASE.match(line)
            if match:
                self._case = self._case + self._result(match.group(1), match.group(2))
        elif line.startswith("Test case '"):
            match = _PARALLEL_CASE.match(line)
            if match:
                counts = self._result(match.group(1), match.group(2))
                if "/" in match.group(1):
                    self._parallel_swift = self._parallel_swift + counts
                else:
                    self._parallel = self._parallel + counts

    def _result(self, name: str, word: str) -> Counts:
        key = _test_key(name)
        expected_failure = key in self._expected_failures
        self._expected_failures.discard(key)
        if word == "failed":
            return _FAILED
        if word == "skipped":
            return _SKIPPED
        if expected_failure:
            self._xfail_passed += 1
        return _PASSED

    def _suite(self, name: str, event: str) -> None:
        if event == "started":
            self._depth += 1
            return
        if self._depth:
            self._depth -= 1
            self._await_root = self._depth == 0
        else:
            self._await_root = name in _ROOTS

    def _executed(self, line: str) -> None:
        match = _EXECUTED.match(line)
        if not match:
            return
        if not self._await_root:
            return
        self._await_root = False
        executed, skipped, failures = int(match.group(1)), int(match.group(2) or 0), int(match.group(3))
        failed = self._case.failed or (1 if failures else 0)
        xfail = self._xfail_passed
        passed = executed - skipped - failed - xfail
        if passed < 0:
            self._inconsistent = f"an XCTest root says `Executed {executed} tests` but its test lines show more"
        self._total = self._total + Counts(passed=max(passed, 0), failed=failed, skipped=skipped + xfail)
        self._roots += 1
        self._case = ZERO
        self._xfail_passed = 0

    def _swift_line(self, rest: str) -> None:
        """`rest` is what follows the symbol and `Test `."""
        run = _SWIFT_RUN.match(rest)
        if run:
            self._swift_run(int(run.group(1)), run.group(2) == "failed")
            return
        result = _SWIFT_RESULT.match(rest)
        if result:
            if result.group(2) == "failed":
                self._swift = self._swift + _FAILED
            elif "known issue" in result.group(3):
                self._swift_known += 1
            else:
                self._swift = self._swift + _PASSED
        elif _SWIFT_SKIPPED.match(rest):
            self._swift = self._swift + _SKIPPED

    def _swift_run(self, tests: int, failed_run: bool) -> None:
        failed = self._swift.failed or (1 if failed_run else 0)
        skipped = self._swift.skipped + self._swift_known
        passed = tests - failed - skipped
        if passed < 0:
            self._inconsistent = f"Swift Testing says `Test run with {tests} tests` but its test lines show more"
        self._total = self._total + Counts(passed=max(passed, 0), failed=failed, skipped=skipped)
        self._swift_runs += 1
        self._swift = ZERO
        self._swift_known = 0

    def _verdict_line(self, line: str) -> None:
        if line in _BUILD_FAILED:
            self._build_failed = True
            self._verdict = True
        elif line in _VERDICT_FAILED:
            self._verdict_failed = line
            self._verdict = True
        elif line.startswith("** TEST") and line.endswith("SUCCEEDED **"):
            self._verdict = True

    def finish(self) -> Reading | None:
        read_anything = self._roots or self._swift_runs or self._parallel != ZERO or self._parallel_swift != ZERO
        if not (read_anything or self._verdict or self._case != ZERO or self._swift != ZERO):
            return None
        if self._inconsistent:
            return self.reading(None, self._inconsistent)
        if self._depth or self._case != ZERO:
            return self.reading(
                None, "an XCTest suite never closed with its `Executed` line (a crash, a truncated log?)"
            )
        if self._swift != ZERO or self._swift_known:
            return self.reading(None, "Swift Testing results without their closing `Test run with N tests` line")
        total = self._total + self._parallel
        if not self._swift_runs:
            total = total + self._parallel_swift  # otherwise they are already in the Swift Testing run
        if self._verdict_failed and not (read_anything or self._build_failed or self._first_error):
            return self.reading(None, f"xcodebuild says `{self._verdict_failed}` but printed no test result")
        if self._build_failed or (self._verdict_failed and not read_anything):
            error = f": {self._first_error}" if self._first_error else ""
            if not read_anything:
                return self.reading(None, f"the build failed before any test ran{error}")
            return self.reading(
                None,
                f"the build failed before some tests ran{error}; the tests that did run counted "
                f"{total.passed} passed, {total.failed} failed, {total.skipped} skipped",
            )
        if self._verdict_failed and not total.failed:
            return self.reading(
                total + _FAILED, notes=("`** TEST FAILED **` without a failed test; counted as 1 failed",)
            )
        if not read_anything:
            return self.reading(None, "xcodebuild printed a verdict but no test counts")
        return self.reading(total)


PARSER = XcodebuildParser
