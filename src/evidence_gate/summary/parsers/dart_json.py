"""The event stream of Dart's test runner with `--reporter json` (`dart test --reporter json`,
`flutter test --machine`, which writes the same protocol): one JSON object per line, opening with
`{"protocolVersion": ..., "type": "start"}` and closing with `{"type": "done", "success": ...}`.

Counting is per test, from each `testDone` event (`testStart` gives the test's name and suite):

- `"skipped": true` is skipped (`skip:` on a test or group); `result` `success` is passed;
  `failure` (a failed expectation) and `error` (anything else thrown) are failed;
- a `"hidden": true` test is the runner's own, not the user's: the `loading <file>` test of each
  suite and the `(setUpAll)`/`(tearDownAll)` pseudo-tests. It is not counted while it succeeds; when
  it fails (a file that does not compile, a `setUpAll` that throws, after which the file's tests do
  not run) it counts as one failed test, or the failure would vanish;
- any other `result` makes the stream unparsed.

A test started but never done by the `done` event counts as failed. `done` with `"success": false`
and no failed test counts one failed test; `"success": null` (the runner closed before every test
ran) is unparsed. A stream without its `done` event was cut short (a killed run, a truncated file):
unparsed with that reason, since the tests it never reached cannot be counted. Several runs in one
file (each from `start` to `done`) are added up.

Lines that are not a JSON object (output of the VM or of `flutter` itself, which may also wrap its
own events in `[...]`) are skipped and noted. The stream is read line by line, so memory holds the
tests running at once (at most `_MAX_RUNNING`) and the suites' paths (at most `_MAX_SUITES` kept).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar

from evidence_gate.model import Counts
from evidence_gate.summary.base import CaseResult, DocumentParser, Reading, clip
from evidence_gate.summary.json_stream import Malformed, unread
from evidence_gate.workspace import Refused, open_resolved

# The first line is the `start` event: an object holding `"protocolVersion"` and `"type": "start"`.
_PROTOCOL = re.compile(rb'"protocolVersion"\s*:')
_START_TYPE = re.compile(rb'"type"\s*:\s*"start"')
_UTF8_BOM = b"\xef\xbb\xbf"
_MAX_LINE_BYTES = 16 * 1024 * 1024
_MAX_RUNNING = 100_000
_MAX_SUITES = 100_000
_MAX_NOTES = 20
_RESULTS = {"success": "passed", "failure": "failed", "error": "failed"}


def _no_constant(name: str) -> object:
    raise ValueError(f"{name} is not JSON")


@dataclass
class _Test:
    name: str
    suite: str | None
    line: int | None
    message: str | None = None


@dataclass
class _Scan:
    on_case: Callable[[CaseResult], None] | None
    total: Counts = field(default_factory=lambda: Counts(passed=0, failed=0, skipped=0))
    runs: int = 0
    in_run: bool = False
    passed: int = 0
    failed: int = 0
    skipped: int = 0
    running: dict[int, _Test] = field(default_factory=dict)
    suites: dict[int, str] = field(default_factory=dict)
    other_lines: int = 0
    first_other: str | None = None
    notes: list[str] = field(default_factory=list)

    def line(self, raw: bytes, number: int) -> None:
        stripped = raw.removeprefix(_UTF8_BOM).strip() if number == 1 else raw.strip()
        event: object = None
        if stripped.startswith(b"{"):
            try:
                event = json.loads(stripped, parse_constant=_no_constant)
            except (ValueError, RecursionError):
                event = None
        if not isinstance(event, dict):
            if stripped:
                self.other_lines += 1
                if self.first_other is None:
                    self.first_other = f"line {number}: {clip(stripped[:400].decode('utf-8', 'replace'), 80)}"
            return
        kind = event.get("type")
        if kind == "start":
            if self.in_run:
                raise Malformed(f"line {number}: a run starts before the previous one's `done` event")
            self.in_run, self.passed, self.failed, self.skipped = True, 0, 0, 0
            self.running.clear()
            self.suites.clear()
        elif kind in ("suite", "testStart", "error", "testDone", "done"):
            if not self.in_run:
                raise Malformed(f"line {number}: a `{kind}` event outside a run (no `start` before it)")
            if kind == "suite":
                self._suite(event)
            elif kind == "testStart":
                self._test_start(event, number)
            elif kind == "error":
                self._error(event)
            elif kind == "testDone":
                self._test_done(event, number)
            else:
                self._done(event, number)

    def _suite(self, event: dict[str, object]) -> None:
        suite = event.get("suite")
        if isinstance(suite, dict):
            ident, path = _id(suite.get("id")), suite.get("path")
            if ident is not None and isinstance(path, str) and len(self.suites) < _MAX_SUITES:
                self.suites[ident] = clip(path)

    def _test_start(self, event: dict[str, object], number: int) -> None:
        test = event.get("test")
        ident = _id(test.get("id")) if isinstance(test, dict) else None
        if not isinstance(test, dict) or ident is None:
            raise Malformed(f"line {number}: a `testStart` event without a test id")
        if len(self.running) >= _MAX_RUNNING:
            raise Malformed(f"line {number}: more than {_MAX_RUNNING:,} tests running at once")
        name, suite = test.get("name"), _id(test.get("suiteID"))
        line = _id(test.get("root_line", test.get("line")))
        self.running[ident] = _Test(
            name=clip(name) if isinstance(name, str) else f"(test {ident})",
            suite=self.suites.get(suite) if suite is not None else None,
            line=line if line is not None and line > 0 else None,
        )

    def _error(self, event: dict[str, object]) -> None:
        ident, message = _id(event.get("testID")), event.get("error")
        test = self.running.get(ident) if ident is not None else None
        if test is not None and test.message is None and isinstance(message, str):
            test.message = clip(message)

    def _test_done(self, event: dict[str, object], number: int) -> None:
        ident, result = _id(event.get("testID")), event.get("result")
        if ident is None:
            raise Malformed(f"line {number}: a `testDone` event without a test id")
        outcome = _RESULTS.get(result) if isinstance(result, str) else None
        if outcome is None:
            raise Malformed(
                f"line {number}: a test's `result` is {clip(repr(result), 40)}, not success, failure or error"
            )
        test = self.running.pop(ident, None) or _Test(name=f"(test {ident})", suite=None, line=None)
        if event.get("hidden") is True:
            if outcome == "passed":
                return
            self._note(f"the runner's own test {test.name!r} failed: counted as 1 failed test")
        elif event.get("skipped") is True and outcome == "passed":
            outcome = "skipped"
        self.passed += outcome == "passed"
        self.failed += outcome == "failed"
        self.skipped += outcome == "skipped"
        if self.on_case is not None:
            self.on_case(
                CaseResult(
                    name=test.name,
                    classname=test.suite or "",
                    file=test.suite,
                    line=test.line,
                    outcome=outcome,
                    message=test.message if outcome == "failed" else None,
                )
            )

    def _done(self, event: dict[str, object], number: int) -> None:
        success = event.get("success")
        if success is None:
            raise Malformed(f'line {number}: `done` with `"success": null`: the runner closed before every test ran')
        if self.running:
            self._note(f"{len(self.running)} tests started but never done; each counted as failed")
            self.failed += len(self.running)
            self.running.clear()
        if success is False and not self.failed:
            self._note('`done` says `"success": false` without a failed test; counted as 1 failed test')
            self.failed += 1
        self.total = self.total + Counts(passed=self.passed, failed=self.failed, skipped=self.skipped)
        self.runs += 1
        self.in_run = False

    def _note(self, note: str) -> None:
        if len(self.notes) < _MAX_NOTES:
            self.notes.append(note)

    def reading(self) -> Reading:
        if self.in_run:
            raise Malformed("no `done` event: the stream was cut short (a killed run or a truncated file)")
        if not self.runs:
            raise Malformed("no `start` event: not a Dart test runner's JSON stream")
        notes = [f"{self.runs} runs added up"] if self.runs > 1 else []
        if self.other_lines:
            notes.append(f"{self.other_lines} lines that are not JSON events skipped (first: {self.first_other})")
        return Reading(parser=PARSER.name, counts=self.total, notes=(*notes, *self.notes))


def _id(value: object) -> int | None:
    """An id or line number as the protocol writes it (an integer), else None."""
    return value if isinstance(value, int) and not isinstance(value, bool) else None


class DartJsonParser(DocumentParser):
    """Reads the JSON event stream of `dart test` / `flutter test --machine`, test by test."""

    name: ClassVar[str] = "dart-json"
    names_cases: ClassVar[bool] = True
    trusts: ClassVar[str] = (
        "each `testDone` event (`result`, `skipped`; a failed `hidden` test counts), closed by the `done` "
        "event, whose `success` only cross-checks"
    )

    def recognises(self, head: bytes) -> bool:
        first = head.removeprefix(_UTF8_BOM).lstrip().partition(b"\n")[0]
        return first.startswith(b"{") and bool(_PROTOCOL.search(first)) and bool(_START_TYPE.search(first))

    def parse(self, path: Path, on_case: Callable[[CaseResult], None] | None = None) -> Reading:
        scan = _Scan(on_case=on_case)
        try:
            with open_resolved(path) as handle:
                number = 0
                while raw := handle.readline(_MAX_LINE_BYTES + 1):
                    number += 1
                    if len(raw) > _MAX_LINE_BYTES:
                        raise Malformed(f"line {number} is longer than {_MAX_LINE_BYTES // 2**20} MiB")
                    scan.line(raw, number)
            return scan.reading()
        except (Malformed, Refused) as error:
            return unread(self.name, error)
        except OSError as error:
            return Reading(parser=self.name, counts=None, reason=f"cannot read ({error.strerror or error})")


PARSER = DartJsonParser()
