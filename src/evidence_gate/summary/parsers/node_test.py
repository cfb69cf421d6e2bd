"""Node's built-in test runner (`node --test`, `node:test`): its tap, spec and dot reporters.

The counts come from the summary the tap and spec reporters close with, tap as `# name N`, spec
(the default on a terminal) as `i name N` with the information sign U+2139 for `i`:

    # tests 8 / # suites 1 / # pass 3 / # fail 2 / # cancelled 0 / # skipped 1 / # todo 2 / # duration_ms 164.5

Mapping: `pass` is passed; `fail` and `cancelled` (a test stopped by a timeout or a failed parent)
are failed; `skipped` and `todo` are skipped (node runs a todo test but keeps its result out of
pass/fail, and a failing todo does not fail the run). `suites` (describe blocks) are not tests.
Node 20 reports a test file that declares no tests as one passing test named by the file's absolute
path; such a top-level pass without subtests is not counted (a file that fails to load stays one
failed test). Several summaries in one log add up.

A test file that is not node:test's (tape, or any other TAP producer) is one test to node, named by
its path, and node passes the file's output through: under the tap reporter as `# ` comments before
the file's `ok N - /path/file.js` (with each `#` escaped by a backslash), under spec verbatim before its
`✔ /path/file.js (Nms)`. Such a file's own TAP, read by the TAP parser, replaces node's one test
for it: tape's `ok`/`not ok` lines are the tests. A file node failed while its TAP shows no failure
(it crashed after its last test) stays one failed test beside its TAP's counts; a file's TAP that
cannot be read makes the reading unparsed.

Recognised without counts: the dot reporter's output (lines of `.` and `X` only, then an optional
`Failed tests:` list), which has no counts at all. Node's summary is told apart from other TAP
producers (mocha's tap reporter prints only `# tests`, `# pass`, `# fail`) by its full sequence.
"""

from __future__ import annotations

import re
from typing import ClassVar

from evidence_gate.model import Counts
from evidence_gate.summary.base import ZERO, LineFilter, LineParser, Reading, RunTotals
from evidence_gate.summary.parsers.tap import TapParser

# The summary lines in node's order; `suites` is absent before Node 18.15/20.
_ORDER = ("tests", "suites", "pass", "fail", "cancelled", "skipped", "todo", "duration_ms")
_INFO_SIGN = "\u2139 "  # spec's prefix for its summary lines
_SUMMARY = re.compile(rf"^(?:# |{_INFO_SIGN})(?P<key>[a-z_]+) (?P<value>\d+(?:\.\d+)?)$")
_ABSOLUTE_FILE = r"(?:/|[A-Za-z]:[\\/]).*\.[cm]?[jt]sx?"
_TAP_FILE = re.compile(rf"^(?P<verdict>ok|not ok) \d+ - {_ABSOLUTE_FILE}$")
_SPEC_FILE = re.compile(rf"^(?P<verdict>✔|✖) {_ABSOLUTE_FILE} \(\d+(?:\.\d+)?m?s\)$")
# First characters of spec's own lines (anything else under spec is a test file's output), and of
# every line this parser reads.
_SPEC_FIRST = frozenset("✔✖﹣▶\u2139 \t")
_NODE_FIRST = _SPEC_FIRST | frozenset("#on")
_DOTS = re.compile(r"^[.X]+$")
_DOT_FAILED_LIST = "Failed tests:"


class NodeTestParser(LineParser):
    """Adds up node's `# tests` ... `# duration_ms` summaries (tap or spec); knows the dot reporter."""

    name: ClassVar[str] = "node-test"
    trusts: ClassVar[str] = (
        "The tap/spec summary lines '# tests', '# pass', '# fail', '# cancelled', '# skipped', '# todo' "
        "(U+2139 for spec), added up over summaries; passing test files without tests (Node 20) left out; "
        "a test file's own TAP (tape) counted for it."
    )
    # Its own lines, and those of a test file's TAP that spec passes through verbatim (`TapParser.reads`).
    reads: ClassVar[LineFilter] = LineFilter(
        starts="✔✖﹣▶\u2139 \t#onB1TFRDN[",
        pattern=r"[ \t]\s*(?:ok |not ok |# Subtest:|✔ |✖ |﹣ )|[✔✖﹣▶\u2139#onB1TFRDN\[]",
        holds=(" ..",),
    )

    def __init__(self) -> None:
        self._runs = RunTotals("node test summaries")
        self._values: dict[str, int] = {}
        self._next = -1  # index in _ORDER of the summary line expected next; -1 outside a summary
        self._file_passes = 0  # top-level passes named by a test file's path, with no subtests
        self._children = False  # the current top-level entry had indented (nested) results
        self._dots: bool | None = None  # None: undecided; True: only dot-reporter lines so far
        self._dot_list = False
        self._tap_output = TapParser()  # a test file's output as the tap reporter passes it: `# ` comments
        self._spec_output = TapParser()  # ... and as spec passes it: verbatim
        self._file_tap = ZERO  # the counts of the files' own TAP, for the next summary
        self._file_tap_for = ZERO  # node's own counts of those files
        self._files_with_tap = 0
        self._unread: str | None = None

    @property
    def wants_every_line(self) -> bool:
        dots_undecided = self._dots is not False and not self._dot_list  # is the log the dot reporter's?
        return dots_undecided or self._spec_output.wants_every_line

    def feed(self, line: str) -> None:
        self._dot_reporter(line)
        first = line[:1]
        if first not in _SPEC_FIRST:
            self._spec_output.feed(line)
        if first not in _NODE_FIRST:
            return
        if line.startswith(("# ", _INFO_SIGN)):
            if first == "#" and not line.startswith("# Subtest: "):
                self._tap_output.feed(line[2:].replace("\\#", "#"))
            self._summary(line)
        elif first in " \t":
            if line.lstrip().startswith(("ok ", "not ok ", "# Subtest:", "✔ ", "✖ ", "﹣ ")):
                self._children = True
        elif line.startswith(("ok ", "not ok ", "✔ ", "✖ ")):
            self._top_level(line)
        elif line.startswith(("﹣ ", "▶ ")):
            self._children = False

    def _top_level(self, line: str) -> None:
        """A top-level result: a test, or a test file node ran as one test (its path for a name)."""
        tap = _TAP_FILE.match(line)
        file = tap or _SPEC_FILE.match(line)
        if file is not None and not self._children:
            output = (self._tap_output if tap else self._spec_output).finish()
            passed = file["verdict"] in ("ok", "✔")
            if output is not None:
                self._file_output(output, passed=passed, file=line)
            elif passed:
                self._file_passes += 1
        self._children = False
        # What came before a result is that result's output; TAP passed through verbatim (spec) is
        # `ok` lines of the file's, not results of node's.
        if line.startswith(("✔ ", "✖ ")):
            self._spec_output = TapParser()
        else:
            self._tap_output = TapParser()

    def _file_output(self, output: Reading, *, passed: bool, file: str) -> None:
        """A test file's own TAP, which replaces node's one test for the file."""
        if output.counts is None:
            self._unread = self._unread or f"the TAP printed by the test file in '{file}': {output.reason}"
            return
        node_failed = not passed and not output.counts.failed  # a failure its TAP does not show
        self._file_tap = self._file_tap + output.counts + Counts(passed=0, failed=int(node_failed), skipped=0)
        self._file_tap_for = self._file_tap_for + Counts(passed=int(passed), failed=int(not passed), skipped=0)
        self._files_with_tap += 1

    def _summary(self, line: str) -> None:
        """One `# key N` line (or spec's U+2139 `key N`): the summary must come whole and in node's order."""
        if line.startswith("# Subtest: "):
            self._children = False
            return
        match = _SUMMARY.match(line)
        key = match["key"] if match else None
        if key == "tests":
            self._values, self._next = {}, 0
        elif self._next < 0:
            return
        elif key == "pass" and _ORDER[self._next] == "suites":
            self._next += 1  # no `suites` line (older node)
        if match is None or key != _ORDER[self._next] or (key != "duration_ms" and "." in match["value"]):
            self._next = -1
        elif key == "duration_ms":
            self._add()
            self._next = -1
        else:
            self._values[key] = int(match["value"])
            self._next += 1

    def _add(self) -> None:
        values = self._values
        passed, file_passes = values["pass"], min(self._file_passes, values["pass"])
        if file_passes:
            passed -= file_passes
            self._runs.notes.append(
                f"{file_passes} test file(s) without tests reported by node as passing tests; not counted"
            )
        failed = values["fail"] + values["cancelled"]
        if self._files_with_tap:
            tap, node = self._file_tap, self._file_tap_for
            passed, failed = max(passed - node.passed, 0) + tap.passed, max(failed - node.failed, 0) + tap.failed
            self._runs.notes.append(
                f"{self._files_with_tap} test file(s) printing TAP of their own (tape?): their TAP tests counted "
                "instead of node's one test per file"
            )
        counts = Counts(
            passed=passed,
            failed=failed,
            skipped=values["skipped"] + values["todo"] + (self._file_tap.skipped if self._files_with_tap else 0),
        )
        stated = values["pass"] + values["fail"] + values["cancelled"] + values["skipped"] + values["todo"]
        if stated != values["tests"]:
            self._runs.notes.append(f"node's 'tests {values['tests']}' differs from the sum of its outcomes ({stated})")
        self._runs.add(counts)
        self._file_passes = self._files_with_tap = 0
        self._file_tap, self._file_tap_for = ZERO, ZERO

    def _dot_reporter(self, line: str) -> None:
        """Whether the whole log so far is the dot reporter's: dot lines, then a failed-tests list."""
        if self._dots is False or self._dot_list or not line.strip():
            return
        if _DOTS.match(line):
            self._dots = True
        elif line == _DOT_FAILED_LIST and self._dots:
            self._dot_list = True
        else:
            self._dots = False

    def finish(self) -> Reading | None:
        reading = self._runs.finish(self, unread=self._unread)
        if reading is None and self._dots:
            return self.reading(
                None,
                "node's dot reporter prints one character per test and per suite ('.' for pass, skip and todo "
                "alike) and no counts; run with --test-reporter=tap or spec",
            )
        return reading


PARSER = NodeTestParser
