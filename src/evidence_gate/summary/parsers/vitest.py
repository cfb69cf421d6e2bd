"""Vitest's default, basic, verbose and dot reporters (the summary block at the end of a run).

The counts come from the final block of each run (labels right-aligned to 11 columns, then two
spaces):

     Test Files  1 failed | 1 passed (2)
          Tests  2 failed | 5 passed | 1 expected fail | 1 skipped | 1 todo (10)

Mapping: `failed` is failed; `passed` is passed; `skipped`, `todo` and `expected fail` (a
`test.fails` that failed, as it should) are skipped. A suite with its own error (a test file that
fails to load, a failing `beforeAll`) is listed under the `Failed Suites N` banner but not in
`Tests`; each counts as one failed test, and never fewer than the failed test files that the failed
tests cannot account for, so a failed file always makes the reading failed. A test file that failed
to load (a syntax error, a missing import, a throw at its top level: its file line says `(0 test)`)
is such a suite: beside the files that ran, it is one failed test, named by its file, with a note
giving its first error line. When no test ran at all the reading is unparsed, "a test suite failed
to load before its tests ran", with the file and its first error line; so do failed files in a run
where no test ran (a failing `beforeAll` with no other file). Unhandled errors
(`Errors  N errors`, which fail the run) count as failed too. `No test files found, exiting with code
N` is zero counts.

The failed tests are named by the ` FAIL  ` banners vitest prints over each failure, as it prints
them (`calc.test.js > suite > test`), each once; a file's own banner (`broken.test.js [ broken.test.js ]`)
names no test. The files that failed to load follow, by their names.

On a terminal vitest redraws a live summary (one space after each label, intermediate counts) while
it runs; only the final block counts, and within one run (from its ` RUN  v…` banner) the last final
block wins. Separate runs add up. Not trusted: a run that started but printed no final block.
"""

from __future__ import annotations

import re
from typing import ClassVar

from evidence_gate.model import Counts
from evidence_gate.summary.base import ZERO, FailedNames, LineFilter, LineParser, Reading, RunTotals, clip

_RUN = re.compile(r"^ RUN  v\d+\.\d+")
_FILES = re.compile(r"^ *Test Files  (?:(?P<failed>\d+) failed(?: \| |(?= \()))?.*\(\d+\)$")
_TESTS = re.compile(r"^ *Tests  (?:no tests|(?P<parts>\d+ [a-z ]+(?: \| \d+ [a-z ]+)*) \((?P<total>\d+)\))$")
_PART = re.compile(r"^(?P<count>\d+) (?P<word>failed|passed|skipped|todo|expected fail)$")
_ERRORS = re.compile(r"^ *Errors  (?P<count>\d+) errors?$")
_FAILED_SUITES = re.compile(r"(?:^|⎯) ?Failed Suites (?P<count>\d+) ?(?:⎯|$)")
_NO_FILES = re.compile(r"^No test files found, exiting with code \d+$")
# The end of a file's own line (`broken.test.js (0 test)`, after a marker) when it collected no test.
_NOT_LOADED = ("(0 test)", "(0 tests)")
_FILE_LINE = re.compile(r"^ *[^\w\s] \S")  # a marker, a space, the file: not a test's own output
_FILE_BANNER = " FAIL  "  # ` FAIL  broken.test.js [ broken.test.js ]` under the Failed Suites banner
_TEST_SEPARATOR = " > "  # ` FAIL  calc.test.js > suite > test`: a failed test's banner
_BLOCK_TAIL = re.compile(r"^ *(?:Type Errors|Errors|Start at|Duration)  ")


class VitestParser(LineParser):
    """Takes the last final summary block of each vitest run and adds up the runs."""

    name: ClassVar[str] = "vitest"
    trusts: ClassVar[str] = (
        "The final ' Test Files  ' / '      Tests  ' block of each run (failed suites and unhandled errors "
        "count as failed), the last one per run, added up over runs; a test file that failed to load is one "
        "failed test beside the files that ran (unparsed when no test ran)."
    )
    reads: ClassVar[LineFilter] = LineFilter(
        starts=" NT",
        starts_class=r"[^\w\s]",  # a test file's line, after its marker: `<marker> broken.test.js (0 test)`
        pattern=r" RUN  | FAIL  |No test files found| *Test Files  | *[^\w\s] [^\n]*\(0 tests?\)$",
        holds=("Failed Suites",),
    )

    def __init__(self) -> None:
        self._runs = RunTotals("vitest runs")
        self._unread: str | None = None
        self._started = False  # a RUN banner not yet followed by a final block
        self._run: Counts | None = None  # the current run's latest final block
        self._run_notes: list[str] = []
        self._failed_suites = 0
        self._failed_files: int | None = None  # set between `Test Files` and the next line
        self._in_block = False  # on the block's lines after `Tests`, where `Errors` belongs
        self._unloaded = ""  # this run's first test file that collected no test, then its first error line
        self._unloaded_files = FailedNames()  # this run's test files that collected no test
        self._unloaded_counted = False  # the run's final block counted them beside the files that ran
        self._error_pending = False  # the next non-empty line is the error of that file
        self._failed_names = FailedNames()

    @property
    def wants_every_line(self) -> bool:
        # The line after `Test Files`, the block's lines after `Tests`, and the error of a file that did not load.
        return self._failed_files is not None or self._in_block or self._error_pending

    def feed(self, line: str) -> None:
        if self._error_pending and line.strip():
            self._error_pending = False
            self._unloaded += f": {clip(line)}"
        if self._in_block:
            self._in_block = bool(_BLOCK_TAIL.match(line))
            if self._in_block:
                self._block_tail(line)
                return
            self._failed_suites = 0
        if self._failed_files is not None:
            self._tests(line)
        elif "Test Files  " in line:
            files = _FILES.match(line)
            if files:
                self._failed_files = int(files["failed"] or 0)
        elif line.startswith(" RUN  ") and _RUN.match(line):
            self._end_run()
            self._started = True
        elif "Failed Suites" in line and (banner := _FAILED_SUITES.search(line)):
            self._failed_suites = int(banner["count"])
        elif line.endswith(_NOT_LOADED) and _FILE_LINE.match(line):
            file = line.strip()[2:].rpartition(" (")[0]
            self._unloaded_files.add(file)
            if not self._unloaded:
                self._unloaded = clip(file)
        elif line.startswith(_FILE_BANNER) and _TEST_SEPARATOR in line:
            self._failed_names.add(line[len(_FILE_BANNER) :])
        elif line.startswith(_FILE_BANNER) and self._unloaded and line[len(_FILE_BANNER) :].startswith(self._unloaded):
            self._error_pending = ":" not in self._unloaded
        elif line.startswith("No test files found") and _NO_FILES.match(line):
            self._run = ZERO
            self._run_notes = []

    def _tests(self, line: str) -> None:
        """The line right after `Test Files`; only a `Tests` line there completes a block."""
        failed_files, self._failed_files = self._failed_files or 0, None
        tests = _TESTS.match(line)
        if tests is None:
            return
        passed = failed = skipped = 0
        for part in tests["parts"].split(" | ") if tests["parts"] else ():
            match = _PART.match(part)
            if match is None:
                self._unread = self._unread or f"vitest's Tests line has a part this parser does not know: {part!r}"
                return
            count, word = int(match["count"]), match["word"]
            if word == "failed":
                failed += count
            elif word == "passed":
                passed += count
            else:
                skipped += count
        # A failed file holds a failed test or a suite error: at least this many suites failed alone.
        extra = max(self._failed_suites, failed_files - failed, 0)
        unloaded = len(self._unloaded_files.names) if self._unloaded else 0
        extra = max(extra, unloaded)
        self._run = Counts(passed=passed, failed=failed + extra, skipped=skipped)
        self._run_notes = []
        self._unloaded_counted = bool(unloaded and passed + failed)
        if self._unloaded_counted:
            more = f" (and {unloaded - 1} more)" if unloaded > 1 else ""
            self._run_notes.append(
                f"{unloaded} test file(s) failed to load before their tests ran, each counted as 1 failed test: "
                f"{self._unloaded}{more}"
            )
        if extra > unloaded:
            self._run_notes.append(
                f"{extra - unloaded} suite(s) failed outside any test (a hook) and are missing from 'Tests'; "
                "each is counted as 1 failed test"
            )
        self._in_block = True
        if self._unread:
            return
        if self._unloaded and not passed + failed:
            self._unread = f"a test suite failed to load before its tests ran: {self._unloaded}"
        elif failed_files and not passed + failed:
            self._unread = f"{failed_files} test file(s) failed and no test ran: they failed before their tests ran"

    def _block_tail(self, line: str) -> None:
        errors = _ERRORS.match(line)
        if errors and self._run is not None:
            count = int(errors["count"])
            self._run = self._run + Counts(passed=0, failed=count, skipped=0)
            self._run_notes.append(f"{count} unhandled error(s) outside tests counted as failed")

    def _end_run(self) -> None:
        if self._run is not None:
            self._runs.add(self._run)
            self._runs.notes.extend(self._run_notes)
            if self._unloaded_counted:
                self._failed_names.extend(self._unloaded_files.names)
        elif self._started:
            self._unread = self._unread or "vitest started a run (' RUN  v...') but printed no final summary block"
        self._run = None
        self._run_notes = []
        self._started = False
        self._failed_suites = 0
        self._in_block = False
        self._unloaded = ""
        self._unloaded_files = FailedNames()
        self._unloaded_counted = False
        self._error_pending = False

    def finish(self) -> Reading | None:
        self._end_run()
        return self._runs.finish(self, self._unread, failed_tests=self._failed_names.names)


PARSER = VitestParser
