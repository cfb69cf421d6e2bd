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

Recognised without counts: the dot reporter's output (lines of `.` and `X` only, then an optional
`Failed tests:` list), which has no counts at all. Node's summary is told apart from other TAP
producers (mocha's tap reporter prints only `# tests`, `# pass`, `# fail`) by its full sequence.
"""

from __future__ import annotations

import re
from typing import ClassVar

from evidence_gate.model import Counts
from evidence_gate.summary.base import LineParser, Reading, RunTotals

# The summary lines in node's order; `suites` is absent before Node 18.15/20.
_ORDER = ("tests", "suites", "pass", "fail", "cancelled", "skipped", "todo", "duration_ms")
_INFO_SIGN = "\u2139 "  # spec's prefix for its summary lines
_SUMMARY = re.compile(rf"^(?:# |{_INFO_SIGN})(?P<key>[a-z_]+) (?P<value>\d+(?:\.\d+)?)$")
_ABSOLUTE_FILE = r"(?:/|[A-Za-z]:[\\/]).*\.[cm]?[jt]sx?"
_TAP_FILE_PASS = re.compile(rf"^ok \d+ - {_ABSOLUTE_FILE}$")
_SPEC_FILE_PASS = re.compile(rf"^✔ {_ABSOLUTE_FILE} \(\d+(?:\.\d+)?m?s\)$")
_DOTS = re.compile(r"^[.X]+$")
_DOT_FAILED_LIST = "Failed tests:"


class NodeTestParser(LineParser):
    """Adds up node's `# tests` ... `# duration_ms` summaries (tap or spec); knows the dot reporter."""

    name: ClassVar[str] = "node-test"
    trusts: ClassVar[str] = (
        "The tap/spec summary lines '# tests', '# pass', '# fail', '# cancelled', '# skipped', '# todo' "
        "(U+2139 for spec), added up over summaries; passing test files without tests (Node 20) left out."
    )

    def __init__(self) -> None:
        self._runs = RunTotals("node test summaries")
        self._values: dict[str, int] = {}
        self._next = -1  # index in _ORDER of the summary line expected next; -1 outside a summary
        self._file_passes = 0  # top-level passes named by a test file's path, with no subtests
        self._children = False  # the current top-level entry had indented (nested) results
        self._dots: bool | None = None  # None: undecided; True: only dot-reporter lines so far
        self._dot_list = False

    def feed(self, line: str) -> None:
        self._dot_reporter(line)
        if line.startswith(("# ", _INFO_SIGN)):
            self._summary(line)
        elif line.startswith((" ", "\t")):
            if line.lstrip().startswith(("ok ", "not ok ", "# Subtest:", "✔ ", "✖ ", "﹣ ")):
                self._children = True
        elif line.startswith(("ok ", "✔ ")):
            if not self._children and (_TAP_FILE_PASS.match(line) or _SPEC_FILE_PASS.match(line)):
                self._file_passes += 1
            self._children = False
        elif line.startswith(("not ok ", "✖ ", "﹣ ", "▶ ")):
            self._children = False

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
        counts = Counts(
            passed=passed,
            failed=values["fail"] + values["cancelled"],
            skipped=values["skipped"] + values["todo"],
        )
        stated = values["pass"] + values["fail"] + values["cancelled"] + values["skipped"] + values["todo"]
        if stated != values["tests"]:
            self._runs.notes.append(f"node's 'tests {values['tests']}' differs from the sum of its outcomes ({stated})")
        self._runs.add(counts)
        self._file_passes = 0

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
        reading = self._runs.finish(self, unread=None)
        if reading is None and self._dots:
            return self.reading(
                None,
                "node's dot reporter prints one character per test and per suite ('.' for pass, skip and todo "
                "alike) and no counts; run with --test-reporter=tap or spec",
            )
        return reading


PARSER = NodeTestParser
