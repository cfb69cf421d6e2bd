"""`cargo test` (libtest) console output, plain or with libtest's JSON format.

Each test binary (unit tests, each integration test file, doc tests) closes with its own
`test result: ok|FAILED. N passed; N failed; N ignored; N measured; N filtered out` line, or in
JSON with a `{ "type": "suite", "event": "ok|failed", "passed": N, ... }` event; there is no
overall total, so every binary's numbers are added. Mapping: `failed` is failed, `ignored` is
skipped, `passed` and `measured` (benchmarks run as tests) are passed; `filtered out` tests were
not selected and are not counted. A `should_panic` test that panicked is passed, as libtest says.

Cargo stops after the first failing binary unless `--no-fail-fast`: later binaries leave no trace
and are not counted. A binary that dies before its closing line (a crash, an abort) counts the
results it printed plus one failed; a log that simply ends inside a binary is unparsed.

The failed tests are named as libtest prints them in a binary's run: `test <name> ... FAILED` (without
the ` - should panic` mode libtest adds there), `---- <name> stdout ----` (also in `-q`'s terse
format), and the JSON `test` event's `name`: `module::test`, or `src/lib.rs - div (line 20)` for a
doc test.

A target that does not compile (`error: could not compile ...`) ran no test, so it is never a
failed test: the reading is unparsed, "the build failed before any test ran" with the first
compiler error. One `cargo test` runs nothing when any crate of the workspace fails to compile;
when the log holds other cargo runs whose binaries did run (one run per crate), the reading is
still unparsed and the reason says what ran. Such a line printed by a running test binary is its
output, not a build failure.
"""

from __future__ import annotations

import json
import re
from typing import ClassVar

from evidence_gate.model import Counts
from evidence_gate.summary.base import ZERO, FailedNames, LineFilter, LineParser, Reading, clip

_RESULT = re.compile(
    r"^test result: (?:ok|FAILED)\. (\d+) passed; (\d+) failed; (\d+) ignored; (\d+) measured(?:; \d+ filtered out)?"
)
_RUNNING = re.compile(r"^running \d+ tests?$")
_TEST = re.compile(r"^test (.+?)(?: - (?:should panic|compile fail|compile))? \.\.\. (ok|FAILED|ignored)(?:, .*)?$")
_SECTION = re.compile(r"^---- (.+) std(?:out|err) ----$")
_OUTPUT_HEADINGS = ("failures:", "successes:")  # `--show-output` prints passing tests' sections too
_COMPILE_ERROR = re.compile(r"^error: could not compile `([^`]+)`(?: \(([^)]*)\))?")
_COMPILER_ERROR = re.compile(r"^error(?:\[E\d+\])?: ")
_CARGO_STEP = ("     Running ", "   Doc-tests ")
_BINARY_FAILED = ("error: test failed, to rerun pass", "error: doctest failed, to rerun pass")
_ONE_FAILED = Counts(passed=0, failed=1, skipped=0)


class CargoTestParser(LineParser):
    """Adds up the closing line of every test binary."""

    name: ClassVar[str] = "cargo-test"
    trusts: ClassVar[str] = (
        "every test binary's `test result:` line (or libtest JSON `suite` ok/failed event), added up; "
        "a `could not compile` error makes the run unparsed"
    )
    reads: ClassVar[LineFilter] = LineFilter(
        starts="trf{-se ",
        pattern=r'test |running |\{ "type": |---- |failures:$|successes:$|error|     Running |   Doc-tests ',
    )

    def __init__(self) -> None:
        self._total = ZERO
        self._in_binary = False
        self._binary = ZERO  # per-test results of the binary running now, used only if it dies
        self._context = False  # saw a line only `cargo test` prints
        self._results = 0
        self._uncompiled = 0
        self._first_uncompiled = ""
        self._first_error = ""  # the compiler's first error line, with its ` --> ` location
        self._locating = False  # the line after the first error, where rustc puts ` --> file:line:col`
        self._died = 0
        self._failed_names = FailedNames()
        self._in_failures = False  # the `---- <name> stdout ----` sections under `failures:`, not `successes:`

    @property
    def wants_every_line(self) -> bool:
        return self._locating  # the line after the first compiler error may hold its location

    def feed(self, line: str) -> None:
        if self._locating:
            self._locating = False
            if line.lstrip().startswith("--> "):
                self._first_error += f" at {clip(line.lstrip()[4:])}"
        if line.startswith("test "):
            if line.startswith("test result: "):
                self._closing(line)
            elif self._in_binary:
                self._per_test(line)
        elif line.startswith('{ "type": '):  # libtest's JSON writer always puts `type` first
            self._json(line)
        elif line.startswith("running "):
            if _RUNNING.match(line):
                self._start()
        elif line.startswith("---- "):
            if self._in_binary and self._in_failures and (section := _SECTION.match(line)):
                self._failed_names.add(section.group(1))
        elif line in _OUTPUT_HEADINGS:
            self._in_failures = line == "failures:"
        elif line.startswith("error"):
            self._error(line)
        elif line.startswith(_CARGO_STEP):
            self._context = True

    def _closing(self, line: str) -> None:
        match = _RESULT.match(line)
        if not match:
            return
        passed, failed, ignored, measured = (int(group) for group in match.groups())
        self._close(Counts(passed=passed + measured, failed=failed, skipped=ignored))

    def _close(self, counts: Counts) -> None:
        self._total = self._total + counts
        self._results += 1
        self._in_binary = False
        self._binary = ZERO
        self._context = True

    def _start(self) -> None:
        if self._in_binary:
            self._binary_died()
        self._in_binary = True
        self._in_failures = False
        self._binary = ZERO
        self._context = True

    def _binary_died(self) -> None:
        self._total = self._total + self._binary + _ONE_FAILED
        self._died += 1
        self._in_binary = False
        self._binary = ZERO

    def _per_test(self, line: str) -> None:
        match = _TEST.match(line)
        if match:
            name, word = match.groups()
            self._binary = self._binary + _outcome(word)
            if word == "FAILED":
                self._failed_names.add(name)

    def _json(self, line: str) -> None:
        try:
            event = json.loads(line)
        except (json.JSONDecodeError, RecursionError):  # not libtest's: its events are flat
            return
        if not isinstance(event, dict):
            return
        kind, what = event.get("type"), event.get("event")
        if kind == "suite":
            if what == "started":
                self._start()
            elif what in ("ok", "failed"):
                numbers = [event.get(key, 0) for key in ("passed", "failed", "ignored", "measured")]
                if all(isinstance(number, int) for number in numbers):
                    passed, failed, ignored, measured = numbers
                    self._close(Counts(passed=passed + measured, failed=failed, skipped=ignored))
        elif kind == "test" and self._in_binary and what in ("ok", "failed", "ignored"):
            self._binary = self._binary + _outcome(what)
            if what == "failed":
                self._failed_names.add(str(event.get("name", "")))

    def _error(self, line: str) -> None:
        if line.startswith(_BINARY_FAILED):
            if self._in_binary:
                self._binary_died()
            return
        if self._in_binary:
            return  # a running test's own output
        match = _COMPILE_ERROR.match(line)
        if match:
            crate, target = match.groups()
            self._uncompiled += 1
            self._first_uncompiled = self._first_uncompiled or clip(f"`{crate}`" + (f" ({target})" if target else ""))
            if target and "test" in target.split():
                self._context = True
        elif not self._first_error and _COMPILER_ERROR.match(line):
            self._first_error = clip(line)
            self._locating = True

    def finish(self) -> Reading | None:
        if not self._context:
            return None
        named = self._failed_names.names
        if self._in_binary:
            return self.reading(
                None,
                "the output ends inside a test binary's run (`running N tests` without its `test result:` line): "
                "a truncated log, or a binary killed without cargo reporting it",
                failed_tests=named,
            )
        if self._uncompiled:
            return self.reading(None, self._build_failed_reason(), failed_tests=named)
        if not self._results and not self._died:
            return self.reading(None, "cargo ran no test binary to its `test result:` line")
        notes: list[str] = []
        if self._died:
            notes.append(
                f"{self._died} test binary(ies) stopped before their `test result:` line: "
                "their printed results and 1 failed each are counted"
            )
        return self.reading(self._total, notes=tuple(notes), failed_tests=named)

    def _build_failed_reason(self) -> str:
        what = f"{self._first_uncompiled} did not compile" + (f": {self._first_error}" if self._first_error else "")
        more = f" (and {self._uncompiled - 1} more target(s))" if self._uncompiled > 1 else ""
        if not self._results and not self._died:
            return f"the build failed before any test ran: {what}{more}"
        ran, total = self._results + self._died, self._total
        return (
            f"the build failed before some tests ran: {what}{more}; the {ran} test binaries that did run "
            f"counted {total.passed} passed, {total.failed} failed, {total.skipped} skipped"
        )


def _outcome(word: str) -> Counts:
    if word == "ok":
        return Counts(passed=1, failed=0, skipped=0)
    if word == "ignored":
        return Counts(passed=0, failed=0, skipped=1)
    return _ONE_FAILED


PARSER = CargoTestParser
