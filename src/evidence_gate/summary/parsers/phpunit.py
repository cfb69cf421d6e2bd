"""PHPUnit's console output (default progress printer or `--testdox`, PHPUnit 9 and earlier).

The counts come from PHPUnit's closing lines, one of:

    OK (5 tests, 5 assertions)                          (`OK (1 test, 1 assertion)`)
    No tests executed!
    OK, but incomplete, skipped, or risky tests!        then
    Tests: 3, Assertions: 0, Skipped: 2, Incomplete: 1.
    FAILURES! / ERRORS! / WARNINGS!                     then
    Tests: 9, Assertions: 4, Errors: 1, Failures: 2, Warnings: 1, Skipped: 1, Incomplete: 1, Risky: 1.

(zero-valued fields are left out). Mapping: errors and failures are failed (an invalid data
provider is an `Error` pseudo-test, counted as failed); skipped and incomplete are skipped; risky
tests passed. `Tests:` counts every entry, including PHPUnit 9's `Warning` pseudo-test for a test
class without test methods, which is not a test; a test that only raised a warning is reported under
the same `Warnings:` count. Both are left out (neither passed nor failed, with a note), so
passed = Tests - Errors - Failures - Warnings - Skipped - Incomplete. PHPUnit exits 0 on warnings
unless `failOnWarning` is set. Several runs in one log add up.

PHPUnit 10 changed the meaning of the `Tests:` line (from its source, not from a captured run:
`Warnings`, `Deprecations` and `Notices` count issues, not tests, and a test class skipped in
`setUpBeforeClass` adds all its tests to `Tests` but one to `Skipped`). A PHPUnit 10+ `Tests:` line
(known by the banner or by words only PHPUnit 10 prints) is therefore read as passed = Tests -
Errors - Failures - Incomplete only when it has no `Skipped`; with one it has no counts.

Not trusted, so the reading has no counts: a PHP fatal or parse error in PHPUnit's run (a test file
that does not parse stops PHPUnit before the banner: `PHP Fatal error:  Uncaught ParseError ...`
with PHPUnit's frames in the stack trace), and a banner without closing lines (a crash, a killed or
truncated run).
"""

from __future__ import annotations

import re
from typing import ClassVar

from evidence_gate.model import Counts
from evidence_gate.summary.base import ZERO, LineFilter, LineParser, Reading, RunTotals

_BANNER = re.compile(r"^PHPUnit (?P<major>\d+)\.\d+\S* by Sebastian Bergmann and contributors\.$")
_OK = re.compile(r"^OK \((?P<tests>\d+) tests?, \d+ assertions?\)$")
_NO_TESTS = "No tests executed!"
_HEADERS = frozenset({"OK, but incomplete, skipped, or risky tests!", "FAILURES!", "ERRORS!", "WARNINGS!"})
_HEADERS_10 = frozenset(
    {
        "OK, but some tests were skipped!",
        "OK, but there are issues!",
        "OK, but there were issues!",
        "DEPRECATIONS!",
        "NOTICES!",
    }
)
_COUNTS = re.compile(r"^Tests: \d+, Assertions: \d+(?:, [A-Za-z ]+: \d+)*\.$")
_FIELDS = frozenset({"Tests", "Assertions", "Errors", "Failures", "Warnings", "Skipped", "Incomplete", "Risky"})
_FIELDS_10 = frozenset({"Deprecations", "Notices", "PHPUnit Deprecations", "PHPUnit Notices", "PHPUnit Warnings"})
_FATAL = re.compile(r"^(?:PHP )?(?:Fatal|Parse) error: +(?P<message>.+)$")
# A stack-trace frame inside PHPUnit (`#3 /usr/share/php/PHPUnit/TextUI/...`, `vendor/phpunit/phpunit/src/...`)
# or PHPUnit's chained exception (`Next PHPUnit\TextUI\RuntimeException: ...`).
_PHPUNIT_FRAME = re.compile(r"^(?:#\d+ .*(?:PHPUnit[\\/]|/phpunit/phpunit/)|Next PHPUnit\\)")
# From the start of a word only (`\b`): from inside one, each start read the rest of the word again,
# in time quadratic in a long one; the match is the same, as it starts where its word does.
_TEST_FILE = re.compile(r"\b\w+Test\.php\b")


class PhpunitParser(LineParser):
    """Adds up the closing lines of every PHPUnit run in the log."""

    name: ClassVar[str] = "phpunit"
    trusts: ClassVar[str] = (
        "PHPUnit's closing lines ('OK (5 tests, 5 assertions)', 'No tests executed!', or a 'FAILURES!'/'ERRORS!'/"
        "'WARNINGS!'/'OK, but ...' line followed by 'Tests: N, Assertions: N, ...'), added up over runs."
    )
    reads: ClassVar[LineFilter] = LineFilter(
        starts="OFEWDNP#",
        pattern=(
            r"OK|FAILURES!$|ERRORS!$|WARNINGS!$|DEPRECATIONS!$|NOTICES!$|No tests executed!$|PHPUnit |#\d|"
            r"Next PHPUnit"
        ),
        holds=(" error: ",),
    )

    def __init__(self) -> None:
        self._runs = RunTotals("PHPUnit runs")
        self._major: int | None = None  # from the last banner
        self._open = False  # a banner without its closing lines yet
        self._header: str | None = None  # the previous line was a header awaiting its `Tests:` line
        self._warnings = 0
        self._fatal: str | None = None
        self._fatal_is_phpunit = False
        self._unread: str | None = None

    @property
    def wants_every_line(self) -> bool:
        return self._header is not None  # the counts line right after a header

    def feed(self, line: str) -> None:
        header, self._header = self._header, None
        if header is not None:
            self._counts_line(header, line)
        elif line in _HEADERS or line in _HEADERS_10:
            self._header = line
        elif line.startswith("OK ("):
            if match := _OK.match(line):
                self._open = False
                self._runs.add(Counts(passed=int(match["tests"]), failed=0, skipped=0))
        elif line == _NO_TESTS:
            self._open = False
            self._runs.add(ZERO)
        elif line.startswith("PHPUnit "):
            if banner := _BANNER.match(line):
                self._major = int(banner["major"])
                self._open = True
        elif " error: " in line and (fatal := _FATAL.match(line)):
            self._fatal = self._fatal or fatal["message"]
            self._fatal_is_phpunit = self._fatal_is_phpunit or self._open or bool(_TEST_FILE.search(line))
        elif self._fatal and not self._fatal_is_phpunit and _PHPUNIT_FRAME.match(line):
            self._fatal_is_phpunit = True

    def _counts_line(self, header: str, line: str) -> None:
        if not _COUNTS.match(line):
            return  # not PHPUnit's closing pair; after a banner, the run stays open and unread
        self._open = False
        fields = {name: int(count) for name, count in (part.split(": ") for part in line[:-1].split(", "))}
        unknown = set(fields) - _FIELDS - _FIELDS_10
        if unknown:
            self._unread = self._unread or f"PHPUnit's counts line '{line}' has parts this parser does not know"
            return
        newer = (self._major or 0) >= 10 or header in _HEADERS_10 or bool(set(fields) & _FIELDS_10)
        failed = fields.get("Errors", 0) + fields.get("Failures", 0)
        skipped = fields.get("Skipped", 0) + fields.get("Incomplete", 0)
        if newer:
            if fields.get("Skipped"):
                self._unread = self._unread or (
                    f"PHPUnit 10+'s '{line}' counts a test class skipped as a whole once in Skipped but with all its "
                    "tests in Tests, so the passed tests cannot be told; pass --junit with a --log-junit report"
                )
                return
            warnings = 0
        else:
            warnings = fields.get("Warnings", 0)
        passed = fields["Tests"] - failed - skipped - warnings
        if passed < 0:
            self._unread = self._unread or f"PHPUnit's '{line}' counts more outcomes than tests"
            return
        self._warnings += warnings
        self._runs.add(Counts(passed=passed, failed=failed, skipped=skipped))

    def finish(self) -> Reading | None:
        if self._fatal and self._fatal_is_phpunit:
            return self.reading(
                None, f"PHP stopped PHPUnit with a fatal error ({self._fatal}); no closing line covers the whole run"
            )
        if self._open:
            return self.reading(
                None, "PHPUnit's banner is not followed by its closing lines (a crash, a killed run or a truncated log)"
            )
        closing: tuple[str, ...] = ()
        if self._warnings:
            closing = (
                f"{self._warnings} warning(s) in 'Tests:' not counted: PHPUnit 9 reports a test class without test "
                "methods as a 'Warning' pseudo-test, and a test that raised a warning under the same count",
            )
        return self._runs.finish(self, self._unread, closing)


PARSER = PhpunitParser
