"""CTest console output (`ctest`, with or without `--output-on-failure`).

ctest's closing line, `P% tests passed, F tests failed out of T`, is read for failed and total,
but its total is not the truth on its own: it leaves disabled tests out and counts tests skipped
by `SKIP_RETURN_CODE` / `SKIP_REGULAR_EXPRESSION` as passed. Both kinds are listed after it under
`The following tests did not run:` as `(Skipped)` or `(Disabled)`, so the mapping is:

- failed: F, which includes `***Failed`, `***Exception`, `***Timeout` and `***Not Run` (a missing
  executable or a failed fixture dependency; ctest counts those as failed, and so do we);
- skipped: every `(Skipped)` and `(Disabled)` entry of the did-not-run list;
- passed: T - F - the `(Skipped)` entries (a `WILL_FAIL` test that failed is passed, as ctest says).

A CMake configure or generate error before ctest (`-- Configuring incomplete, errors occurred!`)
leaves ctest with nothing or stale tests to run; it counts as one failed test (an error). Several
ctest runs in one log add up.
"""

from __future__ import annotations

import re
from typing import ClassVar

from evidence_gate.model import Counts
from evidence_gate.summary.base import ZERO, LineParser, Reading

_SUMMARY = re.compile(r"^(\d+)% tests passed, (\d+) tests? failed out of (\d+)$")
_DID_NOT_RUN = "The following tests did not run:"
_NOT_RUN_ENTRY = re.compile(r"^\t\s*\d+ - .* \((Skipped|Disabled)\)$")
_TEST_LINE = re.compile(r"^\s*\d+/\d+ Test\s+#\d+: ")
_NO_TESTS = "No tests were found!!!"
_CONFIGURE_FAILED = ("-- Configuring incomplete, errors occurred!", "CMake Generate step failed.")


class CtestParser(LineParser):
    """Reads each ctest run's closing line and corrects it with the did-not-run list."""

    name: ClassVar[str] = "ctest"
    trusts: ClassVar[str] = (
        "ctest's `P% tests passed, F tests failed out of T` line, corrected by the `(Skipped)`/`(Disabled)` "
        "entries of `The following tests did not run:`; a CMake configure error as one failed test"
    )

    def __init__(self) -> None:
        self._total = ZERO  # as ctest's closing lines say: skipped-by-code tests are in `passed`
        self._skipped_by_code = 0
        self._disabled = 0
        self._runs = 0
        self._in_run = False  # between `Test project` (or a test line) and the closing line
        self._listing = False  # inside the did-not-run list
        self._configure_failed = False

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
        elif line.startswith(_CONFIGURE_FAILED):
            self._configure_failed = True
        elif not self._in_run and " Test " in line and _TEST_LINE.match(line):
            self._in_run = True

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
        if self._configure_failed:
            return self.reading(
                counts + Counts(passed=0, failed=1, skipped=0),
                notes=("CMake's configure step failed before ctest ran; counted as 1 failed",),
            )
        return self.reading(counts)


PARSER = CtestParser
