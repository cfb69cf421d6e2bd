"""pytest's console output (any verbosity down to `-q`, with or without xdist, pytest 7 to 9).

The counts come from the closing line of each session, which pytest pads with `=` to the terminal
width (`-q` prints it bare):

    ==== 2 failed, 3 passed, 2 skipped, 1 xfailed, 1 xpassed, 1 error in 0.03s ====

Mapping: `failed` and `error(s)` (fixture set-up/tear-down errors, collection errors) are failed;
`passed` and `xpassed` (a non-strict xfail test that passed) are passed; `skipped` and `xfailed` are
skipped. `deselected`, `warnings`, `rerun` (pytest-rerunfailures) and pytest 9's verbose-only
`subtests passed`/`subtests skipped` are not test outcomes and are left out (a failed subtest is
already in `failed`). `no tests ran` and `--collect-only`'s `N tests collected` are zero counts.
Several sessions in one log (tox, a script running pytest twice) add up.

Not trusted, so the reading has no counts: a session whose header (`=== test session starts ===`)
has no closing line (killed, timed out, truncated log), and a session stopped by
`KeyboardInterrupt` or `pytest.exit()` whose closing line shows no failure: it counts only the
tests that ran before the stop, so a green line would be kinder than the run.
"""

from __future__ import annotations

import re
from typing import ClassVar

from evidence_gate.model import Counts
from evidence_gate.summary.base import ZERO, LineParser, Reading, RunTotals

_HEADER = re.compile(r"^=+ test session starts =+$")
# `=== <body> in 0.03s ===`; past a minute pytest adds the clock time: `in 75.20s (0:01:15)`.
_PADDED = re.compile(r"^=+ (?P<body>\S.*?) in \d+(?:\.\d+)?s(?: \([^)]*\))? =+$")
_BARE = re.compile(r"^(?P<body>[a-z0-9][a-z0-9 ,]*?) in \d+\.\d\ds(?: \([^)]*\))?$")
_PART = re.compile(r"^(?P<count>\d+) (?P<word>[a-z]+(?: [a-z]+)?)$")
_COLLECTED = re.compile(r"^(?:no tests collected|\d+(?:/\d+)? tests? collected)(?: \(\d+ deselected\))?$")
_STOPPED = re.compile(r"^!+ (?P<why>KeyboardInterrupt|_pytest\.outcomes\.Exit: .*) !+$")

_FAILED = frozenset({"failed", "error", "errors"})
_PASSED = frozenset({"passed", "xpassed"})
_SKIPPED = frozenset({"skipped", "xfailed"})
# Parts that are not a test's outcome. The bare (`-q`) line is trusted only when every part is
# pytest's own word, so a stray "2 files changed in 0.10s" is not taken for pytest.
_NOT_OUTCOMES = frozenset(
    {"deselected", "warning", "warnings", "rerun", "subtests passed", "subtests failed", "subtests skipped"}
)


def _counts(body: str, strict: bool) -> tuple[Counts, tuple[str, ...]] | None:
    """The counts of a closing line's body, and notes on parts left out; None if it is not one."""
    if body == "no tests ran":
        return ZERO, ()
    passed = failed = skipped = 0
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
    return Counts(passed=passed, failed=failed, skipped=skipped), tuple(ignored)


class PytestParser(LineParser):
    """Adds up the closing line of every pytest session in the log."""

    name: ClassVar[str] = "pytest"
    trusts: ClassVar[str] = (
        "The closing line of each session ('=== 2 failed, 3 passed, 1 error in 0.03s ===', bare with -q), "
        "added up over sessions."
    )

    def __init__(self) -> None:
        self._runs = RunTotals("pytest sessions")
        self._open = False
        self._stopped: str | None = None
        self._unread: str | None = None

    def feed(self, line: str) -> None:
        if not line:
            return
        first = line[0]
        if first == "=":
            if " in " in line:
                padded = _PADDED.match(line)
                if padded:
                    self._closing(_counts(padded["body"], strict=False))
            elif _HEADER.match(line):
                if self._open:
                    self._unread = self._unread or (
                        "a pytest session started ('test session starts') and never printed its closing line"
                    )
                self._open = True
                self._stopped = None
        elif (first.isdigit() or first == "n") and " in " in line:
            bare = _BARE.match(line)
            if bare:
                self._closing(_counts(bare["body"], strict=True))
        elif first == "!" and (stop := _STOPPED.match(line)):
            self._stopped = stop["why"]

    def _closing(self, read: tuple[Counts, tuple[str, ...]] | None) -> None:
        if read is None:
            return
        counts, notes = read
        if self._stopped and not counts.failed:
            self._unread = self._unread or (
                f"pytest was stopped ({self._stopped}) before the session ended; its closing line counts only "
                "the tests that ran before the stop"
            )
        elif self._stopped:
            self._runs.notes.append(f"pytest was stopped ({self._stopped}); the counts cover the tests run before it")
        self._runs.add(counts)
        self._runs.notes.extend(notes)
        self._open = False
        self._stopped = None

    def finish(self) -> Reading | None:
        if self._open:
            return self.reading(
                None,
                "pytest's session started ('test session starts') but its closing summary line is missing "
                "(killed, timed out or a truncated log)",
            )
        return self._runs.finish(self, self._unread)


PARSER = PytestParser
