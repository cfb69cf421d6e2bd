"""TAP (Test Anything Protocol) from any producer, and prove's console output around it.

Counts come from the test lines themselves: `ok` is passed, `not ok` failed; `ok ... # SKIP` is
skipped; `not ok ... # TODO` is an expected failure, counted as skipped (xfail); `ok ... # TODO`
is an unexpected pass, counted as passed (xpass); `not ok ... # SKIP` is failed, as TAP harnesses
say, except in cmocka's TAP (`CMOCKA_MESSAGE_OUTPUT=TAP`), which writes every test it skipped so and
closes each group with a `# ok - <group>` or `# not ok - <group>` comment: there, in a group so
closed, it is skipped, as cmocka counts it. A stream whose plan is `1..0 # SKIP` (Test::More's `plan skip_all`, prove's
`skipped: <reason>`) is one skipped test.

Subtests (indented four spaces per level, the child before its parent's line) are counted at the
leaves; a parent line counts only for what its children do not show: a failed parent without a
failed child is one failed test, a parent without children that carries a directive (a skipped
subtest) reads as that directive says, and an empty group counts nothing.

A stream that breaks its plan (more or fewer tests than planned, or no plan at all) or dies
(prove's `Dubious, test returned N`, `Failed N/M subtests`, `No subtests run`) counts as one failed
test unless it already shows a failed test: errors count as failed. One that dies before any of its
tests (a test file that does not compile) ran none of them: the reading is unparsed, "a test file
died before any of its tests ran". A bail-out (`Bail out!` in the
TAP, prove's `Bailout called.` / `FAILED--Further testing stopped:`) stops the run before its other
tests: the reading is unparsed, "the run bailed out: <reason>", never a count. Streams are told apart
by prove's `t/file.t .. ` lines, `TAP version` lines, and a plan or a test number 1 that starts
over.

With `-v` the number of TAP test lines read must equal prove's `Files=N, Tests=T`.

prove without `-v` prints no TAP. `Tests=T` counts every test line, passed, skipped and TODO alike,
and prove tells more only of the files that failed: `Failed 1/5 subtests`, `(less 2 skipped
subtests: 2 okay)`, and in its `Test Summary Report` an entry `t/x.t (Wstat: 256 (exited 1) Tests: 5
Failed: 1)` with the `Failed tests:  2, 5-7` list (checked against `Failed:`) and a `Non-zero exit
status`, `Non-zero wait status` or `Parse errors:` line for a file that died or broke its plan. Of a
file it reports `ok` it shows no skipped test, and of any file no failing TODO test. So:

- when a file failed, the counts are read: failed is the report's `Failed:` numbers plus one per
  file that broke its plan or died without a failed test (as with `-v`); skipped is the `(less N
  skipped ...)` numbers plus the `skipped:` files; passed is T minus the failed and skipped tests
  shown. The run failed whatever the rest holds; the notes say how many tests prove showed nothing
  of (those of the files it reports `ok`, or every file's under `prove -Q`), counted as passed as
  prove counts them though some may have been skipped, and that a failing TODO test (skipped with
  `-v`) is counted as passed too;
- when no file failed and T is 0 (no test file, or only `skipped:` files), the counts are read;
- when no file failed and T is more, the totals cannot tell passed from skipped (a run that skipped
  every test reads like one that passed them all): unparsed with the reason, as a runner that by
  design printed no count, so a report of the same run may stand for it;
- a file that died before printing any test line (`Tests: 0` with a broken plan) makes the reading
  unparsed, as with `-v`; so does a report that contradicts itself or prove's `Result:`.
"""

from __future__ import annotations

import re
from typing import ClassVar

from evidence_gate.model import Counts
from evidence_gate.summary.base import ZERO, LineFilter, LineParser, Reading, clip
from evidence_gate.summary.prove_report import MAX_DIGITS, ProveReport

_TEST = re.compile(r"^(not )?ok(?=\s|$)\s*(\d+)?(.*)$")
_DIRECTIVE = re.compile(r"(?<!\\)#\s*(skip|todo\b)", re.IGNORECASE)
_PLAN = re.compile(r"^1\.\.(\d+)\s*(?:#\s*(.*))?$")
_VERSION = re.compile(r"^TAP version \d+$", re.IGNORECASE)
_BAIL_OUT = "Bail out!"
_CMOCKA_GROUP_END = re.compile(r"^# (?:not )?ok - \S.*$")  # cmocka's comment closing a group's TAP
_PROVE_BAIL_OUT = ("Bailout called.  Further testing stopped:", "FAILED--Further testing stopped:")
# prove: `t/01-basic.t .... ok`, `t/01-basic.t .. skipped: why`, `t/x.t .. ` (then -v's TAP), with
# `--timer` a `[12:00:00] ` prefix.
_PROVE_FILE = re.compile(r"^(?:\[[\d:]+\] )?(\S+) \.{2,} ?(.*)$")
_PROVE_OK = re.compile(r"^ok(?:\s{2,}\d+ ms\b.*)?$")
_PROVE_VERDICT = re.compile(r"^(?:ok\b|skipped:|Dubious, |Failed \d+/\d+ subtests|No subtests run)")
_PROVE_FAILED = re.compile(r"^(?:Dubious, test returned |Failed \d+/\d+ subtests|No subtests run)")
_PROVE_FILES = re.compile(r"^Files=(\d+), Tests=(\d+),")
_PROVE_RESULT = re.compile(r"^Result: ([A-Z]+)$")

# First characters of the lines read: indentation, `ok`, `not ok`, a plan, `Bail out!`, `TAP version`,
# and prove's `Files=`, `Failed`, `Result:`, `Dubious`, `No subtests run`, `[12:00:00]`. prove's file
# lines (`name .. `) can start with anything and are caught by their dots. The lines of prove's account
# of failed files (`\t(less 2 skipped subtests: 3 okay)`, its summary report's `name (Wstat: ...`) are
# `ProveReport`'s, which sees every line first.
_MAY_START = frozenset(" on1BTFRDN[")

_PASSED = Counts(passed=1, failed=0, skipped=0)
_FAILED = Counts(passed=0, failed=1, skipped=0)
_SKIPPED = Counts(passed=0, failed=0, skipped=1)


class TapParser(LineParser):
    """Reads TAP streams line by line; the state is one stream's and one flag pair per nesting depth."""

    name: ClassVar[str] = "tap"
    trusts: ClassVar[str] = (
        "TAP `ok`/`not ok` lines with their SKIP/TODO directives, checked against each stream's plan and prove's "
        "`Files=N, Tests=T`; without -v, prove's `Tests=T` with its summary report's failed files and shown "
        "skips, only when a file failed or T is 0; a bail-out makes the run unparsed"
    )
    reads: ClassVar[LineFilter] = LineFilter(
        starts="onB1TFRDN[ \t#",
        pattern=r"[ ]*(?:ok|not ok|1|---\s*$|Bail out!)|[onB1TFRDN\[]|\t\(less |# (?:not )?ok - ",
        holds=(" ..",),  # prove's `t/file.t .. ` lines
    )

    def __init__(self) -> None:
        self._total = ZERO
        self._recognised = False
        self._tap_tests = 0  # top-level test lines of all streams, prove's `Tests=`
        self._errors = 0  # streams counted as one failed test
        self._bailed: str | None = None  # the bail-out's reason
        self._died_before_tests = 0  # broken streams without a test line: they died before their tests
        self._first_died = ""
        self._prove_tests: int | None = None
        self._prove_result: str | None = None
        self._prove_files_shown = False  # prove printed a line per file (not -Q)
        self._skip_all_files = 0
        self._cmocka_skips = 0  # `not ok ... # SKIP` tests of cmocka groups, counted as skipped
        self._report = ProveReport()
        self._unread: str | None = None
        self._yaml_indent: int | None = None
        self._last_test_indent = -1
        self._new_stream()

    def _new_stream(self) -> None:
        self._file: str | None = None  # prove's name for the file this stream comes from
        self._plan: int | None = None
        self._complete = False  # a plan came after the tests: the stream is over
        self._versioned = False
        self._skip_all = False
        self._top_level = 0
        self._stream_failed = False  # a failed test (or error) is already counted in this stream
        self._stream_failures = 0  # failed tests counted in this stream
        self._failed_skips = 0  # its top-level `not ok ... # SKIP` tests, counted as failed so far
        self._broken = False  # died, bailed out or failed by its harness
        self._deepest = -1  # deepest test or plan line since the last test line
        self._failed_at: list[bool] = [False]  # per depth: the open block shows a failure
        self._counted_at: list[bool] = [False]  # per depth: the open block counted a test

    def _close_stream(self) -> None:
        if self._skip_all:
            broken_plan = False
        elif self._plan is None:
            broken_plan = bool(self._top_level or self._versioned)  # tests (or a version line) but no plan
        else:
            broken_plan = self._plan != self._top_level
        self._broken = self._broken or broken_plan
        if self._broken and not self._top_level and not self._skip_all:
            self._died_before_tests += 1
            self._first_died = self._first_died or (self._file and clip(self._file)) or "a TAP stream"
        if self._broken and not self._stream_failed:
            self._total = self._total + _FAILED
            self._errors += 1
        self._new_stream()

    @property
    def wants_every_line(self) -> bool:
        # Inside a YAML block (and the line that ends it), and inside prove's Test Summary Report.
        return self._yaml_indent is not None or self._report.reading

    def feed(self, line: str) -> None:
        if self._report.feed(line):
            return
        if line[:1] == "#" and _CMOCKA_GROUP_END.match(line):
            self._yaml_indent = None
            self._cmocka_group_end()
            return
        if line[:1] not in _MAY_START and " .." not in line:
            self._yaml_indent = None  # an unindented line ends any YAML block, and is nothing of TAP's
            return
        stripped = line.lstrip(" ")
        if not stripped.strip():
            return
        indent = len(line) - len(stripped)
        if self._yaml_indent is not None:
            if indent > self._yaml_indent or (indent == self._yaml_indent and stripped.rstrip() != "..."):
                return  # inside a YAML diagnostic block
            ended = indent == self._yaml_indent
            self._yaml_indent = None
            if ended:
                return
        first = stripped[0]
        if first in "on" and self._test_line(stripped, indent):
            return
        if first == "1" and self._plan_line(stripped, indent):
            return
        if first == "-" and stripped.rstrip() == "---" and indent == self._last_test_indent + 2:
            self._yaml_indent = indent
        elif stripped.startswith(_BAIL_OUT):
            self._broken = True
            self._bail_out(stripped[len(_BAIL_OUT) :])
        elif indent == 0:
            self._harness_line(line)

    def _test_line(self, stripped: str, indent: int) -> bool:
        match = _TEST.match(stripped)
        if not match or indent % 4:
            return False
        if self._file is not None and indent == 0 and _PROVE_OK.match(stripped):
            self._close_stream()  # prove -v's own verdict line for the file
            return True
        depth = indent // 4
        not_ok, number, rest = match.groups()
        if depth == 0 and (self._complete or (number == "1" and self._top_level)):
            self._close_stream()
        self._last_test_indent = indent
        directive = _DIRECTIVE.search(rest)
        kind = directive.group(1).lower() if directive else ""
        self._grow(depth + 1)
        if self._deepest > depth:
            self._parent(depth, failed=bool(not_ok), kind=kind)
        else:
            self._leaf(depth, _outcome(failed=bool(not_ok), kind=kind))
            if depth == 0 and not_ok and kind == "skip":
                self._failed_skips += 1
        self._deepest = depth
        if depth == 0:
            self._top_level += 1
            self._tap_tests += 1
        return True

    def _cmocka_group_end(self) -> None:
        """cmocka's `# ok - <group>` closes a group's TAP, in which cmocka wrote each test it skipped as
        `not ok N # SKIP <test>`: those are skipped, not failed."""
        skips = self._failed_skips
        if not skips or self._plan is None:
            return
        total = self._total
        self._total = Counts(passed=total.passed, failed=total.failed - skips, skipped=total.skipped + skips)
        self._stream_failures -= skips
        self._stream_failed = self._stream_failures > 0
        self._failed_skips = 0
        self._cmocka_skips += skips

    def _grow(self, depth: int) -> None:
        while len(self._failed_at) <= depth:
            self._failed_at.append(False)
            self._counted_at.append(False)

    def _leaf(self, depth: int, counts: Counts) -> None:
        self._total = self._total + counts
        self._counted_at[depth] = True
        if counts.failed:
            self._failed_at[depth] = True
            self._stream_failed = True
            self._stream_failures += 1

    def _parent(self, depth: int, *, failed: bool, kind: str) -> None:
        """A line that closes a block of subtests: it adds only what the children did not show."""
        child_failed = any(self._failed_at[depth + 1 :])
        child_counted = any(self._counted_at[depth + 1 :])
        for deeper in range(depth + 1, len(self._failed_at)):
            self._failed_at[deeper] = False
            self._counted_at[deeper] = False
        if child_failed:
            self._failed_at[depth] = True
        elif failed and kind != "todo":
            self._leaf(depth, _FAILED)  # the subtest failed on its own: a died child, a broken plan
        elif not child_counted and kind:
            self._leaf(depth, _outcome(failed=failed, kind=kind))  # a skipped or TODO subtest that ran nothing
        if child_counted:
            self._counted_at[depth] = True

    def _plan_line(self, stripped: str, indent: int) -> bool:
        match = _PLAN.match(stripped)
        if not match or indent % 4:
            return False
        depth = indent // 4
        self._deepest = max(self._deepest, depth)
        if depth:
            return True  # a subtest's plan: its parent's line says whether it held
        self._recognised = True
        if self._plan is not None or self._skip_all:
            self._close_stream()  # a second plan: the next stream of a concatenated log
        if len(match.group(1)) > MAX_DIGITS:
            self._unread = self._unread or f"a TAP plan no test run has: {clip(stripped)}"
            return True
        planned, comment = int(match.group(1)), match.group(2) or ""
        self._plan = planned
        if planned == 0 and comment.lower().startswith("skip"):
            self._mark_skip_all()
        self._complete = self._top_level > 0
        return True

    def _mark_skip_all(self) -> None:
        if not self._skip_all:
            self._skip_all = True
            self._skip_all_files += 1
            self._total = self._total + _SKIPPED

    def _harness_line(self, line: str) -> None:
        """Unindented lines that are not TAP: a version line, or prove's own lines."""
        if line.startswith("TAP "):
            if _VERSION.match(line):
                self._recognised = True
                if self._top_level or self._plan is not None or self._versioned:
                    self._close_stream()
                self._versioned = True
            return
        if self._file is not None and _PROVE_FAILED.match(line):
            self._broken = True
            return
        if line.startswith(_PROVE_BAIL_OUT):
            self._recognised = True
            self._bail_out(line.partition(":")[2])
            return
        if line.startswith(("Files=", "Result: ")):
            self._prove_summary(line)
            return
        if " .." in line:
            match = _PROVE_FILE.match(line)
            if match:
                name, verdict = match.group(1), match.group(2).strip()
                # `Loading ... done` from a test's own output is not prove's: a new file needs a verdict
                # prove writes (or none yet); later lines of the current file may carry stray stderr.
                if name == self._file or not verdict or _PROVE_VERDICT.match(verdict):
                    self._prove_file(name, verdict)

    def _bail_out(self, reason: str) -> None:
        if self._bailed is None:
            self._bailed = clip(reason) or "no reason given"

    def _prove_file(self, name: str, verdict: str) -> None:
        self._prove_files_shown = True
        if name != self._file:
            self._close_stream()
            self._file = name
        if _PROVE_OK.match(verdict):
            self._close_stream()
        elif verdict.startswith("skipped:"):
            self._mark_skip_all()
            self._close_stream()
        elif _PROVE_FAILED.match(verdict):
            self._broken = True

    def _prove_summary(self, line: str) -> None:
        files = _PROVE_FILES.match(line)
        if files:
            self._close_stream()
            self._recognised = True
            if any(len(group) > MAX_DIGITS for group in files.groups()):
                self._unread = self._unread or f"prove's output holds a count no test run has: {clip(line)}"
                return
            self._prove_tests = (self._prove_tests or 0) + int(files.group(2))
            return
        result = _PROVE_RESULT.match(line)
        if result and self._prove_tests is not None:
            self._prove_result = result.group(1)

    def finish(self) -> Reading | None:
        self._close_stream()
        self._report.close()
        if not self._recognised:
            return None
        if self._unread is not None:
            return self.reading(None, self._unread)
        if self._bailed is not None:
            return self.reading(None, f"the run bailed out: {self._bailed} (the tests after it never ran)")
        if self._prove_tests is not None and not self._tap_tests:
            return self._report.without_tap(
                self,
                self._prove_tests,
                result=self._prove_result,
                skip_all_files=self._skip_all_files,
                files_shown=self._prove_files_shown,
            )
        if self._died_before_tests:
            more = f" (and {self._died_before_tests - 1} more)" if self._died_before_tests > 1 else ""
            return self.reading(None, f"a test file died before any of its tests ran: {self._first_died}{more}")
        if self._prove_tests is not None and self._prove_tests != self._tap_tests:
            return self.reading(
                None,
                f"prove says `Tests={self._prove_tests}` but the log shows {self._tap_tests} TAP test lines "
                "(output of parallel or partly verbose runs?)",
            )
        if self._prove_result == "FAIL" and not self._total.failed:
            return self.reading(None, "prove says `Result: FAIL` but the log shows no failed test or broken file")
        notes: list[str] = []
        if self._errors:
            notes.append(f"{self._errors} TAP stream(s) broke their plan or died: counted as 1 failed each")
        if self._cmocka_skips:
            notes.append(
                f"{self._cmocka_skips} `not ok ... # SKIP` test(s) of cmocka groups (closed by `# ok - <group>` "
                "lines): cmocka writes a skipped test so; counted as skipped, as cmocka counts it"
            )
        return self.reading(self._total, notes=tuple(notes))


def _outcome(*, failed: bool, kind: str) -> Counts:
    if kind == "todo":
        return _SKIPPED if failed else _PASSED
    if failed:
        return _FAILED
    return _SKIPPED if kind == "skip" else _PASSED


PARSER = TapParser
