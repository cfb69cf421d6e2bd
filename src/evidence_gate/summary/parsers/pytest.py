"""pytest's console output (any verbosity down to `-q`, with or without xdist, pytest 7 to 9).

The counts come from the closing line of each session, which pytest pads with `=` to the terminal
width (`-q` prints it bare):

    ==== 2 failed, 3 passed, 2 skipped, 1 xfailed, 1 xpassed, 1 error in 0.03s ====

Mapping: `failed` and `error(s)` (fixture set-up/tear-down errors, collection errors) are failed;
`passed` and `xpassed` (a non-strict xfail test that passed) are passed; `skipped` and `xfailed` are
skipped. `deselected`, `warnings`, `rerun` (pytest-rerunfailures) and pytest 9's verbose-only
`subtests passed`/`subtests skipped` are not test outcomes and are left out. `no tests ran` and
`--collect-only`'s `N tests collected` are zero counts. Several sessions in one log (tox, a script
running pytest twice) add up.

Each test is counted once, as pytest's JUnit report does, where the closing line counts some twice:
- a teardown error (`ERROR at teardown of t` in the ERRORS section) is an `error` beside the test's
  own outcome: the test is counted once, as failed. When the short test summary lists it as
  `FAILED`, it is taken from `failed`, else from `passed`; a session that also skipped tests cannot
  say which, and is unparsed. So is a session whose errors are not all named in an ERRORS section
  (`--tb=no`), since any of them may be a teardown error.
- each failing subtest (`SUBFAILED... id`, or pytest-subtests' `(n=1) SUBFAIL id`, in the short
  test summary; unittest's `subTest` and the `subtests` fixture) is a `failed` of its own: the test
  is counted once, as failed, and a test pytest counted as passed is moved to failed.

The failed tests are named by their node ids (`tests/test_x.py::TestY::test_z[p]`) as the short test
summary lists them: `FAILED` and `ERROR` lines (a collection error names its file) and failing
subtests' parents, each once.

Position: a closing line is pytest's only where pytest prints it, last in its session. A session
that began with `=== test session starts ===` ends at the next header or the end of the log; its
last closing line counts, provided nothing pytest prints inside a session (section rules, a test
file's progress) follows it, and it does not stand right under a progress line pytest left open
(`test_a.py ..`, then the line a test printed with `-s`: pytest ends that line with `[ NN%]` and a
blank line before its summary). Earlier closing-looking lines are a test's output, unless one
shows more failures than the last (a closing line drawn over another): then the session is unparsed.

Not trusted, so the reading has no counts: a session whose header has no closing line in that
position (killed, timed out, truncated log, or a test's output printed where the closing line
would be), and a session stopped by `KeyboardInterrupt` or `pytest.exit()` whose closing line
shows no failure: it counts only the tests that ran before the stop.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import ClassVar

from evidence_gate.model import Counts
from evidence_gate.summary.base import ZERO, FailedNames, LineFilter, LineParser, Reading, RunTotals

_HEADER = re.compile(r"^=+ test session starts =+$")
# `=== <body> in 0.03s ===`; past a minute pytest adds the clock time: `in 75.20s (0:01:15)`.
_PADDED = re.compile(r"^=+ (?P<body>\S.*?) in \d+(?:\.\d+)?s(?: \([^)]*\))? =+$")
_BARE = re.compile(r"^(?P<body>[a-z0-9][a-z0-9 ,]*?) in \d+\.\d\ds(?: \([^)]*\))?$")
_PART = re.compile(r"^(?P<count>\d+) (?P<word>[a-z]+(?: [a-z]+)?)$")
_COLLECTED = re.compile(r"^(?:no tests collected|\d+(?:/\d+)? tests? collected)(?: \(\d+ deselected\))?$")
_STOPPED = re.compile(r"^!+ (?P<why>KeyboardInterrupt|_pytest\.outcomes\.Exit: .*) !+$")
# What pytest prints inside a session, never after its closing line: section rules and progress.
_RULE = re.compile(r"^(?:=+ \S.* =+|_+ \S.* _+)$")
# A test file's progress line (`test_a.py ..F`), which pytest ends with `[ NN%]` and a blank line
# before anything else it prints; bare dots are left out, since other runners print them too.
_PROGRESS = re.compile(r"^\S+\.py [.sFExXu]+(?: +\[\s*\d+%\])?$|\[\s*\d+%\]$")
_OPEN_PROGRESS = re.compile(r"^\S+\.py [.sFExXu]+$")
_ERROR_HEADER = re.compile(r"^_+ ERROR (?:at (?P<when>setup|teardown) of (?P<name>.+?)|collecting .+?) _+$")
_SUMMARY_RULE = re.compile(r"^=+ short test summary info =+$")
# Short test summary lines: `FAILED path::Class::test - message`, and a failing subtest's as pytest 9
# (`SUBFAILED(n=1) path::test - message`) or pytest-subtests (`(n=1) SUBFAIL path::test - message`) writes it.
_FAILED_ID = re.compile(r"^FAILED (?P<id>\S+)")
_NAMED_ID = re.compile(r"^(?:FAILED|ERROR) (?P<id>.+?)(?: - |$)")
_SUBFAILED_ID = re.compile(r"^(?:[(\[].*? )?SUBFAIL(?:ED)?(?:[(\[].*?)? (?P<id>[^ ]+::[^ ]+)(?: - |$)")

_FAILED = frozenset({"failed", "error", "errors"})
_PASSED = frozenset({"passed", "xpassed"})
_SKIPPED = frozenset({"skipped", "xfailed"})
# Parts that are not a test's outcome. The bare (`-q`) line is trusted only when every part is
# pytest's own word, so a stray "2 files changed in 0.10s" is not taken for pytest.
_NOT_OUTCOMES = frozenset(
    {"deselected", "warning", "warnings", "rerun", "subtests passed", "subtests failed", "subtests skipped"}
)
_MAX_CLOSING_CHARS = 4096  # wider than any terminal pytest pads its lines to
MAX_NAMES = 10_000  # test names kept per session to match teardown errors and subtests with outcomes
_MAX_NAME_CHARS = 1000


@dataclass(frozen=True, kw_only=True)
class _Closing:
    counts: Counts
    errors: int
    notes: tuple[str, ...]


def _closing(body: str, strict: bool) -> _Closing | None:
    """The counts of a closing line's body, and notes on parts left out; None if it is not one."""
    if body == "no tests ran":
        return _Closing(counts=ZERO, errors=0, notes=())
    passed = failed = skipped = errors = 0
    ignored: list[str] = []
    for part in body.split(", "):
        if not strict and _COLLECTED.match(part):
            ignored.append(f"--collect-only ({part}): no test ran")
            continue
        match = _PART.match(part)
        if match is None:
            return None
        count, word = int(match["count"]), match["word"]
        if word in _FAILED:
            failed += count
            errors += count if word != "failed" else 0
        elif word in _PASSED:
            passed += count
        elif word in _SKIPPED:
            skipped += count
        elif word in _NOT_OUTCOMES:
            continue
        elif strict:
            return None
        else:
            ignored.append(f"'{part}' is not a test outcome pytest defines; not counted")
    counts = Counts(passed=passed, failed=failed, skipped=skipped)
    return _Closing(counts=counts, errors=errors, notes=tuple(ignored))


def _head(node_id: str) -> str:
    """A node id (`path::Class::test[p]`) as pytest heads its sections (`Class.test[p]`)."""
    return node_id.partition("::")[2].replace("::", ".")[:_MAX_NAME_CHARS]


@dataclass
class _Session:
    """What one session showed besides its closing line: which tests the line counts twice."""

    closing: _Closing | None = None
    after_closing: bool = False  # pytest session output came after the last closing line
    most_failed: int = 0  # the most failures any closing-looking line of the session showed
    error_headers: int = 0
    teardown: set[str] = field(default_factory=set)
    failed: set[str] = field(default_factory=set)
    subfailed: int = 0
    subfailed_parents: set[str] = field(default_factory=set)
    summary: bool = False  # the short test summary was printed
    overflow: bool = False
    open_progress: bool = False  # the line just read is a progress line pytest has not ended yet

    def keep(self, names: set[str], name: str) -> None:
        if len(names) < MAX_NAMES:
            names.add(name[:_MAX_NAME_CHARS])
        else:
            self.overflow = True

    def line(self, line: str) -> None:
        """A line of the session that is not a closing line or a header."""
        if self.closing is not None and (_RULE.match(line) or _PROGRESS.search(line)):
            self.after_closing = True
        self.open_progress = line[-1] in ".sFExXu" and _OPEN_PROGRESS.match(line) is not None
        first = line[0]
        if first == "_" and (header := _ERROR_HEADER.match(line)):
            self.error_headers += 1
            if header["when"] == "teardown":
                self.keep(self.teardown, header["name"])
        elif first == "=" and _SUMMARY_RULE.match(line):
            self.summary = True
        elif first == "F" and (failed := _FAILED_ID.match(line)):
            self.keep(self.failed, _head(failed["id"]))
        elif first in "S([" and (sub := _SUBFAILED_ID.match(line)):
            self.subfailed += 1
            self.keep(self.subfailed_parents, _head(sub["id"]))

    def counted_once(self, closing: _Closing) -> tuple[Counts | None, str | None, tuple[str, ...]]:
        """The closing line's counts with each test counted once, or the reason they cannot be."""
        counts = closing.counts
        if self.overflow and (self.teardown or self.subfailed_parents):
            return None, f"more than {MAX_NAMES} tests to match with teardown errors or subtests", ()
        notes: list[str] = []
        if closing.errors > self.error_headers:
            return (
                None,
                f"pytest counts {closing.errors} errors but names only {self.error_headers} in an ERRORS section "
                "(--tb=no?); a teardown error is counted beside its test's own outcome, so the tests cannot be "
                "counted once: read the JUnit report or keep tracebacks",
                (),
            )
        if self.teardown:
            in_failed = len(self.teardown & self.failed)
            elsewhere = len(self.teardown) - in_failed
            if counts.failed > closing.errors and not self.summary:
                return None, "teardown errors beside failed tests, and no short test summary to match them", ()
            if elsewhere and counts.skipped:
                return (
                    None,
                    f"{elsewhere} teardown errors of tests that passed or were skipped: pytest does not say which",
                    (),
                )
            if elsewhere > counts.passed:
                return None, f"{elsewhere} teardown errors of tests that did not fail, but {counts.passed} passed", ()
            counts = Counts(passed=counts.passed - elsewhere, failed=counts.failed - in_failed, skipped=counts.skipped)
            notes.append(f"{len(self.teardown)} teardown errors counted once with their tests, as failed")
        if self.subfailed:
            moved = len(self.subfailed_parents - self.failed)  # tests pytest counted as passed
            if moved > counts.passed or self.subfailed > counts.failed:
                return None, f"{self.subfailed} failing subtests do not fit the closing line's counts", ()
            counts = Counts(
                passed=counts.passed - moved, failed=counts.failed - self.subfailed + moved, skipped=counts.skipped
            )
            notes.append(f"{self.subfailed} failing subtests counted once with their tests, as failed")
        elif counts.failed and not self.summary:
            notes.append("no short test summary (-rN?): failing subtests, if any, could not be told from tests")
        return counts, None, tuple(notes)


class PytestParser(LineParser):
    """Adds up the closing line of every pytest session in the log."""

    name: ClassVar[str] = "pytest"
    trusts: ClassVar[str] = (
        "The closing line of each session ('=== 2 failed, 3 passed, 1 error in 0.03s ===', bare with -q), "
        "last in its session, each test counted once (teardown errors, subtests), added up over sessions."
    )
    reads: ClassVar[LineFilter] = LineFilter(
        starts="=0123456789n!_FES([",
        pattern=r"=[^\n]*=$|[0-9n][a-z0-9 ,]* in \d|!|_+ ERROR |FAILED |ERROR |SUBFAIL|[(\[][^\n]* SUBFAIL",
        holds=(".py ",),  # a test file's progress line (`test_a.py ..F`), which a closing line may not follow
    )

    def __init__(self) -> None:
        self._runs = RunTotals("pytest sessions")
        self._open = False  # a session header was seen and its session has not ended
        self._session = _Session()
        self._stopped: str | None = None
        self._unread: str | None = None
        self._failed_names = FailedNames()

    @property
    def wants_every_line(self) -> bool:
        session = self._session
        # Whatever follows an unfinished progress line, and every line after a session's closing line
        # (pytest prints nothing of the session there, so any rule or progress line unseats it).
        return session.open_progress or (session.closing is not None and not session.after_closing)

    def feed(self, line: str) -> None:
        if not line:
            self._session.open_progress = False
            return
        first = line[0]
        if len(line) > _MAX_CLOSING_CHARS:
            pass  # no closing line or header is this long: pytest pads them to the terminal's width
        elif first == "=":
            if " in " in line and (padded := _PADDED.match(line)):
                self._closing_line(_closing(padded["body"], strict=False))
                return
            if _HEADER.match(line):
                self._end_session()
                self._open = True
                return
        elif (first.isdigit() or first == "n") and " in " in line and (bare := _BARE.match(line)):
            self._closing_line(_closing(bare["body"], strict=True))
            return
        elif first == "!" and (stop := _STOPPED.match(line)):
            self._stopped = stop["why"]
        self._session.line(line)
        if self._session.summary and first in "FES([":
            self._name(line)

    def _name(self, line: str) -> None:
        """A short test summary line that names a failed test."""
        if named := (_NAMED_ID.match(line) or _SUBFAILED_ID.match(line)):
            self._failed_names.add(named["id"])

    def _closing_line(self, closing: _Closing | None) -> None:
        if closing is None:
            return
        session = self._session
        session.most_failed = max(session.most_failed, closing.counts.failed)
        if self._open and session.open_progress:
            return  # a test's output on its file's progress line: pytest ends that line before its summary
        session.closing, session.after_closing = closing, False
        if not self._open:
            self._end_session()  # without a header (-q), a closing line is all there is of a session's end

    def _end_session(self) -> None:
        session, self._session = self._session, _Session()
        opened, self._open = self._open, False
        stopped, self._stopped = self._stopped, None
        closing = session.closing
        if closing is None or session.after_closing:
            if opened or closing is not None:
                self._unread = self._unread or (
                    "a pytest session started ('test session starts') and never printed its closing line last "
                    "(killed, timed out, a truncated log, or a closing-looking line printed by a test)"
                )
            return
        if session.most_failed > closing.counts.failed:
            self._unread = self._unread or (
                f"a closing-looking line of a pytest session shows {session.most_failed} failed, its last closing "
                f"line {closing.counts.failed} (a line drawn over another?)"
            )
            return
        counts, reason, notes = session.counted_once(closing)
        if counts is None:
            self._unread = self._unread or reason
            return
        if stopped and not counts.failed:
            self._unread = self._unread or (
                f"pytest was stopped ({stopped}) before the session ended; its closing line counts only "
                "the tests that ran before the stop"
            )
        elif stopped:
            self._runs.notes.append(f"pytest was stopped ({stopped}); the counts cover the tests run before it")
        self._runs.add(counts)
        self._runs.notes.extend((*closing.notes, *notes))

    def finish(self) -> Reading | None:
        self._end_session()
        return self._runs.finish(self, self._unread, failed_tests=self._failed_names.names)


PARSER = PytestParser
