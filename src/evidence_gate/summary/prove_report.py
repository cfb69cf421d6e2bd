"""prove's account of its failed files when run without -v, which prints no TAP: the `(less N skipped
subtests: M okay)` lines and the entries of its `Test Summary Report`, and the reading they allow with
its `Files=N, Tests=T` line. Kept apart from the TAP reader, which hands it every line first; the rules
are parsers/tap.py's docstring's.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from evidence_gate.model import Counts
from evidence_gate.summary.base import LineParser, Reading, clip

# prove's `Test Summary Report`: an entry per file with a problem, then its lists and statuses.
_REPORT_HEADING = "Test Summary Report"
_REPORT_WSTAT = " (Wstat: "  # after the file's name and its padding
_REPORT_ENTRY = re.compile(r"\(Wstat: .*? Tests: (\d+) Failed: (\d+)\)$")
_REPORT_LIST = re.compile(r"^  (Failed tests?|TODO passed): +(.*)$")
_REPORT_BROKEN = ("  Non-zero exit status: ", "  Non-zero wait status: ", "  Parse errors: ")
_REPORT_MORE = " " * 16  # the next line of a wrapped list, or a further parse error
_LESS_SKIPPED = re.compile(r"^\t\(less (\d+) skipped subtests?: \d+ okay\)$")
_RANGE = re.compile(r"^(\d{1,15})(?:-(\d{1,15}))?$")  # a test number or a range; longer is no test's
MAX_DIGITS = 15  # a count longer than this is no test run's


@dataclass
class _ReportEntry:
    """One file's entry in prove's `Test Summary Report`."""

    name: str
    tests: int  # `Tests: N`: the TAP test lines the file printed
    failed: int  # `Failed: N`: its `not ok` tests, TODO tests left out
    listed: int = 0  # the test numbers of its `Failed tests:` list
    broken: bool = False  # a non-zero exit or wait status, or a parse error (a broken plan)
    listing: bool = False  # the last line was its `Failed tests:` list, which a 16-space line continues


class ProveReport:
    """What prove prints about failed files without -v: each `(less N skipped subtests: M okay)` line and the
    entries of its `Test Summary Report`, added up over the files (and over several prove runs)."""

    def __init__(self) -> None:
        self.failed = 0  # `not ok` tests of all entries
        self.errors = 0  # broken files without a `not ok` test: one failed test each
        self.failing_tests = 0  # the tests of failed or broken files, whose skips prove shows
        self.shown_skipped = 0
        self.died = 0  # broken files that printed no test line
        self.first_died = ""
        self.unread: str | None = None
        self._reading = False  # between `Test Summary Report` and `Files=`
        self._entry: _ReportEntry | None = None

    @property
    def reading(self) -> bool:
        """Between the report's heading and prove's `Files=` line, where every line may be the report's."""
        return self._reading

    def feed(self, line: str) -> bool:
        """Whether the line was the report's (or a `(less ...)` line), so the TAP reader can pass it by."""
        if line.startswith("\t(less "):
            less = _LESS_SKIPPED.match(line)
            if less:
                self.shown_skipped += self._number(less.group(1), line)
            return True
        if line == _REPORT_HEADING:
            self.close()
            self._reading = True
            return True
        if not self._reading:
            return False
        if line.startswith("Files="):
            self.close()
            self._reading = False
            return False
        at = line.find(_REPORT_WSTAT)
        entry = _REPORT_ENTRY.match(line, at + 1) if at > 0 else None
        if entry:
            self.close()
            tests, failed = entry.groups()
            self._entry = _ReportEntry(
                name=clip(line[:at]), tests=self._number(tests, line), failed=self._number(failed, line)
            )
            return True
        # Any other line passes on to the TAP reader: the report holds no line of a test's.
        return line.startswith("  ") and self._entry_line(line)

    def _entry_line(self, line: str) -> bool:
        """Whether an indented line is one of the open entry's: a list, a status, or a list's next line."""
        entry = self._entry
        if entry is None:
            return False
        if line.startswith(_REPORT_MORE) and line.strip():
            if entry.listing:
                entry.listed += self._listed(line, entry)
            return True  # a wrapped list's next line, or a further parse error
        listed = _REPORT_LIST.match(line)
        entry.listing = listed is not None and listed.group(1).startswith("Failed")
        if entry.listing and listed is not None:
            entry.listed += self._listed(listed.group(2), entry)
            return True
        if line.startswith(_REPORT_BROKEN):
            entry.broken = True
            return True
        return listed is not None

    def _listed(self, numbers: str, entry: _ReportEntry) -> int:
        """How many test numbers a `Failed tests:` list (or its next line) names: `2, 5-7` names four."""
        count = 0
        for item in numbers.strip().split(", "):
            match = _RANGE.match(item)
            first, last = (int(match.group(1)), int(match.group(2) or match.group(1))) if match else (0, -1)
            if last < first:  # not a number or a range, or a range that runs backwards
                self.unread = self.unread or f"prove's failed test list for {entry.name} is not a list of tests"
                return 0
            count += last - first + 1
            if entry.listed + count > entry.failed:
                break  # more than the entry's count already: the mismatch is certain, the rest need not be read
        return count

    def _number(self, digits: str, line: str) -> int:
        if len(digits) > MAX_DIGITS:
            self.unread = self.unread or f"prove's output holds a count no test run has: {clip(line)}"
            return 0
        return int(digits)

    def close(self) -> None:
        """Ends the entry read last: a file with failed tests or a broken plan adds its counts."""
        entry, self._entry = self._entry, None
        if entry is None or not (entry.failed or entry.broken or entry.listed):
            return  # no entry, or one for TODO tests that passed: a file prove reports `ok`
        if entry.listed != entry.failed:
            listed = "more" if entry.listed > entry.failed else str(entry.listed)
            self.unread = self.unread or (
                f"prove's summary report says {entry.name} failed {entry.failed} test(s) but lists {listed}"
            )
        if not entry.failed and not entry.tests:
            self.died += 1
            self.first_died = self.first_died or entry.name
        self.failed += entry.failed
        self.errors += 0 if entry.failed else 1
        self.failing_tests += entry.tests

    def without_tap(
        self, parser: LineParser, total: int, *, result: str | None, skip_all_files: int, files_shown: bool
    ) -> Reading:
        """`parser`'s reading of prove without -v: its `Tests=T` (`total`) and this account of the failed files,
        which suffice for counts only when a file failed (see parsers/tap.py's docstring). `result` is prove's
        `Result:`, `skip_all_files` the files it reports `skipped:`, `files_shown` whether it printed a line
        per file (not -Q)."""
        if self.unread is not None:
            return parser.reading(None, self.unread)
        if self.died:
            more = f" (and {self.died - 1} more)" if self.died > 1 else ""
            return parser.reading(None, f"a test file died before any of its tests ran: {self.first_died}{more}")
        failed = self.failed + self.errors
        skipped = self.shown_skipped + skip_all_files
        if not failed:
            if result == "FAIL":
                return parser.reading(None, "prove says `Result: FAIL` but its summary report names no failed file")
            if not total:
                return parser.reading(Counts(passed=0, failed=0, skipped=skipped))
            return parser.reading(
                None,
                f"prove without -v prints no TAP: its `Tests={total}` counts passed, skipped and TODO tests "
                "together, and it shows skipped tests only for files that failed (run `prove -v` for counts)",
                no_count_printed=True,
            )
        if result == "PASS":
            return parser.reading(None, "prove says `Result: PASS` but its summary report names failed files")
        passed = total - self.failed - self.shown_skipped
        if passed < 0 or self.failing_tests > total:
            return parser.reading(
                None, f"prove's account of its failed files counts more tests than its `Tests={total}`"
            )
        unseen = total - self.failing_tests if files_shown else total
        notes = [
            f"prove without -v: `Tests={total}`, with {self.failed} failed test(s) from its summary report and "
            f"{self.shown_skipped} skipped test(s) it shows"
        ]
        if self.errors:
            notes.append(f"{self.errors} TAP stream(s) broke their plan or died: counted as 1 failed each")
        if unseen:
            where = "files it reports `ok`" if files_shown else "files (prove -Q shows no file's)"
            notes.append(
                f"prove without -v shows no skipped test of the {where}: their {unseen} test(s) are counted as "
                "passed, as prove counts them, though some may have been skipped (run `prove -v` to tell)"
            )
        notes.append(
            "a failing TODO test (an expected failure, skipped with -v) is not shown without -v: any is counted "
            "as passed, as prove counts it"
        )
        return parser.reading(Counts(passed=passed, failed=failed, skipped=skipped), notes=tuple(notes))
