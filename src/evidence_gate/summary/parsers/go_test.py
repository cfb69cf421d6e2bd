"""`go test` console output, plain or `-v` (the `-json` stream is `go_test_json`'s).

go prints no count line in any mode, so the counts are the per-test result lines of `-v`:
`--- PASS` is passed, `--- FAIL` failed, `--- SKIP` skipped. Every result line counts once:
top-level tests, subtests and examples, and a parent counts in addition to its subtests (as
test2json consumers such as gotestsum and go-junit-report count). A package whose line says
`FAIL` without any failing test under it (a build or setup failure, a panic in TestMain, a
timeout) counts as one failed test: errors count as failed.

A package that go could not build, set up or vet (`FAIL\t<pkg> [build failed]`, `[setup failed]`)
ran no test at all. When no other package ran a test either, the reading is unparsed, "the build
failed before any test ran" with the first error go printed. When other packages did run (`-v`),
their tests are counted and each package that failed to build counts as one failed test, named as
go prints it (`example.com/m/b [build failed]`), with a note giving the first error: the run failed,
and the tests that ran are the run's count. Plain output shows no passed test, so there it stays
unparsed, with the build failure in the reason.

The failed tests are named as go prints them in `--- FAIL: <name>` lines (`TestDiv/by-zero` for a
subtest), in every mode, then the packages that failed to build.

Plain `go test` lists only failing tests, so passes and skips are invisible: it is read only when
no package ran a test (`[no test files]`, `[no tests to run]`), and is otherwise unparsed with the
reason, never guessed.

gotestsum's `--rerun-fails` (with `--format standard-verbose`) prints `go test -v` output for the
first run and again for each rerun of the failed tests, each closed by its own `DONE ...` line, the
last one `DONE 3 runs, 6 tests, 4 failures`: the result lines count every run, and a rerun names no
more than which tests it ran again, so such a log is unparsed, with the reason, and a JUnit report
of the same run (`--junitfile`, a test case per run) stands for it, as for a log that prints no count.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import ClassVar

from evidence_gate.model import Counts
from evidence_gate.summary.base import (
    WHITESPACE,
    ZERO,
    FailedNames,
    LineFilter,
    LineParser,
    Reading,
    clip,
    failed_names,
)

# `ok  \t<pkg>\t0.01s`, `FAIL\t<pkg>\t0.01s`, `?   \t<pkg>\t[no test files]`, `FAIL\t<pkg> [build failed]`.
_PACKAGE_PREFIXES = ("ok  \t", "FAIL\t", "?   \t")
_PACKAGE = re.compile(r"^(ok|FAIL|\?) *\t(\S+)(\t.*| \[\w+ failed\])$")
_RESULT = re.compile(r"^\s*--- (PASS|FAIL|SKIP): (\S.*) \(\d[\d.]*\s?s(?:econds)?\)$")
# `_RESULT`'s passed and skipped lines, as a pattern over a block of lines (white space but a newline).
_COUNTED = r"[^\S\n]*--- (PASS|SKIP): \S[^\n]* \(\d[\d.]*[^\S\n]?s(?:econds)?\)$"
_NO_TESTS = ("[no test files]", "[no tests to run]")
# gotestsum's closing line once it has rerun failed tests (`--rerun-fails`): `DONE 3 runs, 6 tests, 4 failures in 0.7s`.
_GOTESTSUM_RERUNS = re.compile(r"^DONE (\d+) runs, ")
# `FAIL\t<pkg> [build failed]` (or `[setup failed]`): a package that ran no test.
BUILD_FAILED = re.compile(r"^FAIL\t(\S+) \[(\w+) failed\]$")


@dataclass
class GoBuildFailures:
    """The packages go could not build, set up or vet before their tests, and the first error it printed.

    go prints each such package as `# <pkg>` (or `# <pkg> [<pkg>.test]`), its errors, then
    `FAIL\t<pkg> [build failed]`; only the first package and its first error line are kept.
    """

    count: int = 0
    first: str = ""
    names: FailedNames = field(default_factory=FailedNames)  # `<pkg> [build failed]`, as go prints them
    _header: str | None = None  # the package of the last `# <pkg>` line, until its first error line
    _error: tuple[str, str] | None = None  # (package, first error line) of the last header

    def feed(self, line: str) -> None:
        """A plain line of go's build output (stderr in every mode, `build-output` events in Go 1.24's `-json`)."""
        if line.startswith("FAIL\t"):
            if match := BUILD_FAILED.match(line):
                self.failed(match.group(1), match.group(2))
        elif line.startswith("# "):
            self._header = clip(line[2:].split(" ", 1)[0])
        elif self._header is not None and line.strip():
            self._error, self._header = (self._header, clip(line)), None

    @property
    def awaits_error(self) -> bool:
        """Whether the next non-blank line is the first error under a `# <pkg>` header."""
        return self._header is not None

    def failed(self, package: str, kind: str) -> None:
        self.count += 1
        package = clip(package)
        self.names.add(f"{package} [{kind} failed]")
        if not self.first:
            error = self._error[1] if self._error and self._error[0] == package else ""
            self.first = f"{package} [{kind} failed]" + (f": {error}" if error else "")

    def counted(self, ran: Counts) -> tuple[Counts, str]:
        """The counts of a run where other packages ran their tests (`ran`): each package that failed to
        build is one failed test; and the note that says so."""
        more = f" (and {self.count - 1} more package(s))" if self.count > 1 else ""
        note = (
            f"the build failed before the tests of {self.count} package(s) ran: {self.first}{more}; "
            "each is counted as 1 failed test beside the tests the other packages ran"
        )
        return ran + Counts(passed=0, failed=self.count, skipped=0), note

    def reason(self, ran_packages: int, ran: Counts | None) -> str:
        """Why a run with build failures has no count: nothing ran, or only some packages did."""
        more = f" (and {self.count - 1} more package(s))" if self.count > 1 else ""
        if not ran_packages:
            return f"the build failed before any test ran: {self.first}{more}"
        shown = f": {ran.passed} passed, {ran.failed} failed, {ran.skipped} skipped" if ran else ""
        return (
            f"the build failed before the tests of {self.count} package(s) ran: {self.first}{more}; "
            f"only {ran_packages} other package(s) ran their tests{shown}"
        )


class GoTestParser(LineParser):
    """Reads `go test -v` result lines per package; plain `go test` only when nothing ran."""

    name: ClassVar[str] = "go-test"
    trusts: ClassVar[str] = (
        "`go test -v` result lines (`--- PASS/FAIL/SKIP`, subtests included) closed by each package's "
        "`ok`/`FAIL` line; plain `go test` only when every package line says no test ran; a package that "
        "failed to build is one failed test beside the packages that ran (unparsed when none ran)"
    )
    reads: ClassVar[LineFilter] = LineFilter(
        starts="oF?#{D" + WHITESPACE + "-",
        pattern=r'ok  \t|FAIL\t|\?   \t|# |\s*--- (?!PASS: |SKIP: )|\{"|DONE \d+ runs, ',
        flags=("=== RUN ",),  # only whether the log has one: `go test -v`
        tallies=(_COUNTED,),  # counted, not read: the bulk of a `-v` log
    )

    def __init__(self) -> None:
        self._total = ZERO
        self._pending = [0, 0, 0]  # passed, failed and skipped results since the last package line
        self._verbose = False
        self._json = False
        self._packages = 0
        self._ran_packages = 0  # plain mode: packages whose tests ran (their counts are hidden)
        self._failing_listed = 0  # plain mode: `--- FAIL` lines
        self._failed_names = FailedNames()
        self._build_failures = GoBuildFailures()
        self._reruns = ""  # gotestsum's `DONE N runs, ...` line, once it has rerun failed tests

    @property
    def wants_every_line(self) -> bool:
        return self._build_failures.awaits_error  # the first error line under a `# <pkg>` header

    def flag(self, start: str) -> None:
        self._verbose = True  # `=== RUN ` lines: `go test -v`

    def tally(self, pattern: str, counts: Mapping[str, int]) -> None:
        self._verbose = True
        self._pending[0] += counts.get("PASS", 0)
        self._pending[2] += counts.get("SKIP", 0)

    def feed(self, line: str) -> None:
        if self._build_failures.awaits_error or line.startswith(("FAIL\t", "# ")):
            self._build_failures.feed(line)
        if line.startswith(_PACKAGE_PREFIXES):
            self._package(line)
        elif "--- " in line:
            self._result(line)
        elif line.startswith("=== RUN "):
            self._verbose = True
        elif line.startswith('{"') and '"Action":' in line:
            self._json = True
        elif line.startswith("DONE ") and (reruns := _GOTESTSUM_RERUNS.match(line)) and int(reruns.group(1)) > 1:
            self._reruns = clip(line)

    def _package(self, line: str) -> None:
        match = _PACKAGE.match(line)
        if not match:
            return
        word, _, rest = match.groups()
        self._packages += 1
        (passed, failed, skipped), self._pending = self._pending, [0, 0, 0]
        pending = Counts(passed=passed, failed=failed, skipped=skipped)
        if word == "FAIL" and not pending.failed and not rest.endswith(" failed]"):
            # The package's tests ran and it failed without a failing test line: a panic in TestMain
            # or a timeout. One error.
            pending = pending + Counts(passed=0, failed=1, skipped=0)
        self._total = self._total + pending
        if word != "?" and not rest.endswith((*_NO_TESTS, " failed]")):
            self._ran_packages += 1

    def _result(self, line: str) -> None:
        match = _RESULT.match(line)
        if not match:
            return
        word, test = match.groups()
        if word == "PASS":
            self._verbose = True
            self._pending[0] += 1
        elif word == "SKIP":
            self._verbose = True
            self._pending[2] += 1
        else:
            self._failing_listed += 1
            self._failed_names.add(test)
            self._pending[1] += 1

    def finish(self) -> Reading | None:
        if self._json or not (self._packages or self._verbose):
            return None
        named = self._failed_names.names
        if self._reruns:
            return self.reading(
                None,
                f"gotestsum reran the failed tests ({self._reruns!r}): the result lines count every run, not "
                "each test once; its JUnit report (--junitfile) lists the runs of each test",
                no_count_printed=True,  # the names too are every run's: a test that passed its rerun is among them
            )
        if any(self._pending):
            return self.reading(
                None,
                "the output ends before the `ok`/`FAIL` line of the package whose tests it shows last "
                "(a truncated log?)",
                failed_tests=named,
            )
        if self._build_failures.count and self._verbose and self._ran_packages:
            counts, note = self._build_failures.counted(self._total)
            return self.reading(
                counts, notes=(note,), failed_tests=failed_names(named, self._build_failures.names.names)
            )
        if self._build_failures.count:
            return self.reading(
                None,
                self._build_failures.reason(self._ran_packages, self._total if self._verbose else None),
                failed_tests=named,
            )
        if self._verbose or not self._ran_packages:
            return self.reading(self._total, failed_tests=named)
        return self.reading(
            None,
            f"plain `go test` (without -v or -json) prints no passed or skipped tests: {self._ran_packages} "
            f"package(s) ran tests, {self._failing_listed} failing test line(s) listed",
            no_count_printed=True,
            failed_tests=named,
        )


PARSER = GoTestParser
