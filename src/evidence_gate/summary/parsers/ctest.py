"""CTest console output (`ctest`, with or without `--output-on-failure`).

ctest's closing line, `P% tests passed, F tests failed out of T`, is read for failed and total,
but its total is not the truth on its own: it leaves disabled tests out and counts tests skipped
by `SKIP_RETURN_CODE` / `SKIP_REGULAR_EXPRESSION` as passed. Both kinds are listed after it under
`The following tests did not run:` as `(Skipped)` or `(Disabled)`, so the mapping is:

- failed: F, which includes `***Failed`, `***Exception`, `***Timeout` and `***Not Run` (a missing
  executable, a failed fixture dependency or a missing REQUIRED_FILES file; ctest counts those as
  failed, and so do we, and a note says how many tests did not run);
- skipped: every `(Skipped)` and `(Disabled)` entry of the did-not-run list;
- passed: T - F - the `(Skipped)` entries (a `WILL_FAIL` test that failed is passed, as ctest says).

A build that failed before any test ran is unparsed, "the build failed before any test ran", with
its first error line, never a count: a CMake configure or generate error before ctest (`--
Configuring incomplete, errors occurred!`), which leaves ctest nothing or stale tests to run; a
`make`/`ninja` failure before ctest (`gmake: *** [...] Error 2`), after which ctest runs what an
earlier build left, so a passing count would be a stale build's; and tests whose executable was
never built (`Unable to find executable: ...`, `***Not Run`), also beside tests that did run.
Several ctest runs in one log add up.
"""

from __future__ import annotations

import re
from typing import ClassVar

from evidence_gate.model import Counts
from evidence_gate.summary.base import WHITESPACE, ZERO, LineFilter, LineParser, Reading, clip

_SUMMARY = re.compile(r"^(\d+)% tests passed, (\d+) tests? failed out of (\d+)$")
_DID_NOT_RUN = "The following tests did not run:"
_NOT_RUN_ENTRY = re.compile(r"^\t\s*\d+ - .* \((Skipped|Disabled)\)$")
_TEST_LINE = re.compile(r"^\s*\d+/\d+ Test\s+#\d+: ")
_NO_TESTS = "No tests were found!!!"
_CONFIGURE_FAILED = ("-- Configuring incomplete, errors occurred!", "CMake Generate step failed.")
_BUILD_FAILED = re.compile(r"^(?:(?:g|mingw32-)?make(?:\[\d+\])?: \*\*\* .*Error \d+|ninja: build stopped: .*)$")
_BUILD_ERROR = re.compile(r"^CMake Error\b|: (?:fatal )?error: ")  # the first error line shown in the reason
_NOT_BUILT = "Unable to find executable: "
# A test ctest did not start (a missing executable, a failed fixture setup, a missing REQUIRED_FILES
# file); a disabled test's line ends `***Not Run (Disabled)` instead.
_NOT_RUN_LINE = re.compile(r"^\s*\d+/\d+ Test\s+#\d+: .*\*\*\*Not Run\s+[\d.]+ sec$")


class CtestParser(LineParser):
    """Reads each ctest run's closing line and corrects it with the did-not-run list."""

    name: ClassVar[str] = "ctest"
    trusts: ClassVar[str] = (
        "ctest's `P% tests passed, F tests failed out of T` line, corrected by the `(Skipped)`/`(Disabled)` "
        "entries of `The following tests did not run:`; a configure or build failure, or a test executable "
        "never built, makes the run unparsed"
    )
    reads: ClassVar[LineFilter] = LineFilter(
        starts="TNUC-gmn" + WHITESPACE,
        starts_class=r"\d",
        pattern=(
            r"\d+% tests passed, |The following tests did not run:$|Test project |No tests were found|"
            r"Unable to find executable: |-- Configuring incomplete|CMake Generate step failed|(?:g|mingw32-)?make|"
            r"ninja: |\s*\d+/\d+ Test"
        ),
        holds=("rror",),
    )

    def __init__(self) -> None:
        self._total = ZERO  # as ctest's closing lines say: skipped-by-code tests are in `passed`
        self._skipped_by_code = 0
        self._disabled = 0
        self._runs = 0
        self._in_run = False  # between `Test project` (or a test line) and the closing line
        self._listing = False  # inside the did-not-run list
        self._configure_failed = False
        self._build_failed = False
        self._first_error = ""
        self._not_built = 0  # tests ctest found no executable for
        self._not_run = 0  # `***Not Run` test lines, the not-built ones included
        self._first_not_built = ""

    @property
    def wants_every_line(self) -> bool:
        return self._listing  # each line of the did-not-run list, and the one that ends it

    def feed(self, line: str) -> None:
        if self._listing:
            match = _NOT_RUN_ENTRY.match(line)
            if match:
                if match.group(1) == "Skipped":
                    self._skipped_by_code += 1
                else:
                    self._disabled += 1
                return
            self._listing = False
        if "tests passed, " in line:
            match = _SUMMARY.match(line)
            if match:
                _, failed, total = (int(group) for group in match.groups())
                self._total = self._total + Counts(passed=total - failed, failed=failed, skipped=0)
                self._close()
        elif line == _DID_NOT_RUN:
            self._listing = self._runs > 0
        elif line.startswith("Test project "):
            self._in_run = True
        elif line == _NO_TESTS:
            self._close()
        elif line.startswith(_NOT_BUILT):
            self._not_built += 1
            self._first_not_built = self._first_not_built or clip(line[len(_NOT_BUILT) :])
        elif "***Not Run" in line and _NOT_RUN_LINE.match(line):
            self._not_run += 1
        elif self._in_run:
            return  # the tests' own output
        elif line.startswith(_CONFIGURE_FAILED):
            self._configure_failed = True
        elif " Test " in line and _TEST_LINE.match(line):
            self._in_run = True
        elif _BUILD_FAILED.match(line):
            self._build_failed = True
        elif not self._first_error and "rror" in line and _BUILD_ERROR.search(line):
            self._first_error = clip(line)

    def _close(self) -> None:
        self._runs += 1
        self._in_run = False

    def finish(self) -> Reading | None:
        if not (self._runs or self._in_run):
            return None
        if self._in_run:
            return self.reading(None, "the output ends before ctest's `% tests passed` closing line (a truncated log?)")
        passed = self._total.passed - self._skipped_by_code
        if passed < 0:
            return self.reading(None, "ctest's did-not-run list names more skipped tests than its closing line counts")
        counts = Counts(passed=passed, failed=self._total.failed, skipped=self._skipped_by_code + self._disabled)
        if self._configure_failed or self._build_failed or self._not_built:
            return self.reading(None, self._build_failed_reason(counts))
        if self._not_run:
            note = (
                f"{self._not_run} test(s) did not run (`***Not Run`: a failed fixture setup or a missing required "
                "file); counted as failed, as ctest counts them"
            )
            return self.reading(counts, notes=(note,))
        return self.reading(counts)

    def _build_failed_reason(self, counts: Counts) -> str:
        error = f": {self._first_error}" if self._first_error else ""
        ran = counts.executed - self._not_built
        if self._configure_failed:
            return f"the build failed before any test ran: CMake's configure step failed{error}"
        not_built = (
            f"ctest found no executable for {self._not_built} test(s) (`Unable to find executable: "
            f"{self._first_not_built}`)"
        )
        if self._build_failed and not ran:
            return f"the build failed before any test ran{error}" + (f"; {not_built}" if self._not_built else "")
        if self._build_failed and self._not_built:
            return (
                f"the build failed before some tests ran{error}; {not_built}; {ran} other test(s) ran, whose "
                "executables may be this build's or an earlier one's"
            )
        if self._build_failed:
            return (
                f"the build failed before ctest ran{error}; the {ran} test(s) ctest then ran are an earlier "
                f"build's: {counts.passed} passed, {counts.failed - self._not_built} failed"
            )
        if not ran:
            return f"the build failed before any test ran: {not_built}"
        return f"the build failed before some tests ran: {not_built}; {ran} other test(s) ran"


PARSER = CtestParser
