"""Minitest's console output: the plain reporter (also through `rake test` and `--verbose`) and
minitest-reporters' reporters.

The counts come from each run's closing line, never singularised by Minitest itself:

    8 runs, 6 assertions, 2 failures, 1 errors, 2 skips      (plain reporter)
    8 tests, 6 assertions, 2 failures, 1 errors, 2 skips     (minitest-reporters)

Mapping: failures and errors (an exception in a test) are failed; skips are skipped; `runs`
includes skips, failures and errors, so passed = runs - failures - errors - skips. Several runs in
one log (rake running several test tasks) add up. Test::Unit's line, which goes on with
`pendings, omissions, notifications`, is not Minitest's and is not read.

Not trusted, so the reading has no counts:
- a test file that Ruby cannot load (a SyntaxError, a NameError at load time): Ruby aborts before
  Minitest's at_exit runner starts, so there is only the exception line
  (`-e:1:in 'load': test/b_test.rb:6: syntax error, ... (SyntaxError)`) and no closing line at all,
  and any closing line in the same log would leave that file's tests out;
- a run that started (`# Running:`) and never printed its closing line (killed, truncated log);
- a run interrupted with Ctrl-C (`Interrupted. Exiting...`) whose closing line shows no failure,
  since it counts only the tests that ran before the interrupt.
"""

from __future__ import annotations

import re
from typing import ClassVar

from evidence_gate.model import Counts
from evidence_gate.summary.base import LineFilter, LineParser, Reading, RunTotals

_CLOSING = re.compile(
    r"^(?P<runs>\d+) (?:runs?|tests?), \d+ assertions?, (?P<failures>\d+) failures?, "
    r"(?P<errors>\d+) errors?, (?P<skips>\d+) skips?$"
)
# The plain reporter's `# Running:` and minitest-reporters' `# Running tests with run options ...:`.
_STARTED = "# Running tests with run options "
# Ruby's report of an uncaught exception: `<where>:<line>:in 'method': <message> (<Class>)`
# (Ruby 3.4 quotes the method with ' instead of `). The first `:<line>:in '…': ` is taken for good
# (an atomic group): a later one matches only where it does, and trying each read the rest of the line
# again, in time quadratic in a line of many.
_UNCAUGHT = re.compile(r"^\S(?>.*?:\d+:in [`'][^']*': )(?P<message>.*) \((?P<error>[A-Z]\w*(?:::[A-Z]\w*)*)\)$")
# A Minitest (or Test::Unit) file by the usual names: `foo_test.rb`, `test_foo.rb`.
_TEST_FILE = re.compile(r"(?:_test|(?:^|/)test_\w+)\.rb:\d+")
_INTERRUPTED = "Interrupted. Exiting..."


class MinitestParser(LineParser):
    """Adds up the closing line of every Minitest run in the log."""

    name: ClassVar[str] = "minitest"
    trusts: ClassVar[str] = (
        "Each run's closing line ('8 runs, 6 assertions, 2 failures, 1 errors, 2 skips'; minitest-reporters "
        "print 'tests' for 'runs'), added up over runs."
    )
    reads: ClassVar[LineFilter] = LineFilter(
        starts="#",
        starts_class=r"\d",
        pattern=r"\d+ (?:runs?|tests?), |#",
        holds=(_INTERRUPTED, ":in "),
    )

    def __init__(self) -> None:
        self._runs = RunTotals("Minitest runs")
        self._open = False
        self._interrupted = False
        self._load_error: str | None = None
        self._unread: str | None = None

    def feed(self, line: str) -> None:
        if not line:
            return
        first = line[0]
        if first.isdigit():
            if " assertion" in line and (match := _CLOSING.match(line)):
                self._closing(match)
        elif first == "#":
            if line == "# Running:" or line.startswith(_STARTED):
                self._open = True
        elif line.endswith(_INTERRUPTED):
            self._interrupted = True
        elif self._load_error is None and line.endswith(")") and ":in " in line:
            uncaught = _UNCAUGHT.match(line)
            if uncaught and _TEST_FILE.search(line):
                self._load_error = f"{uncaught['error']}: {uncaught['message']}"

    def _closing(self, match: re.Match[str]) -> None:
        runs, failures, errors, skips = (int(match[key]) for key in ("runs", "failures", "errors", "skips"))
        self._open = False
        passed = runs - failures - errors - skips
        if passed < 0:
            self._unread = self._unread or f"Minitest's closing line '{match[0]}' counts more outcomes than runs"
            return
        counts = Counts(passed=passed, failed=failures + errors, skipped=skips)
        if self._interrupted:
            if not counts.failed:
                self._unread = self._unread or (
                    "Minitest was interrupted ('Interrupted. Exiting...'); its closing line counts only the tests "
                    "run before the interrupt"
                )
            else:
                self._runs.notes.append("Minitest was interrupted; the counts cover the tests run before it")
            self._interrupted = False
        self._runs.add(counts)

    def finish(self) -> Reading | None:
        if self._load_error:
            return self.reading(
                None,
                f"a test file failed to load ({self._load_error}); Ruby aborted before Minitest ran its tests, "
                "so there is no closing line to trust",
            )
        if self._open:
            return self.reading(
                None,
                "a Minitest run started ('# Running:') but its closing line is missing (killed or a truncated log)",
            )
        return self._runs.finish(self, self._unread)


PARSER = MinitestParser
