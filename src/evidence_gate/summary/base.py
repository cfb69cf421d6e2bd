"""What every summary parser shares: the counts, a parser's reading, the line-parser protocol, and the
sum of several runs in one log.

A line parser is fed the cleaned lines of a log one at a time (ANSI colours removed, carriage-return
redraws resolved, line endings stripped) and keeps only the state it needs, so a log of any size is
read in one pass and bounded memory. When it is done it says one of three things:

- `None`: this is not my format;
- a `Reading` with counts, from the closing lines it trusts;
- a `Reading` without counts and with a reason: my runner printed this, but no count I can trust
  (Gradle on success, `go test` without `-v`, a build that failed before any test ran).
"""

from __future__ import annotations

import hashlib
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar

from evidence_gate.model import Counts

ZERO = Counts(passed=0, failed=0, skipped=0)


@dataclass(frozen=True, kw_only=True)
class Reading:
    """A parser's verdict on one source: counts, or the reason there are none."""

    parser: str
    counts: Counts | None
    reason: str | None = None
    notes: tuple[str, ...] = ()
    # The runner finished and, by design, printed no count (Gradle on success, plain `go test`,
    # prove without -v): a report of the same run may stand for it. Every other reading without
    # counts (a build or suite that failed before its tests, a killed run) fails whatever a report says.
    no_count_printed: bool = False
    # The failed tests the runner named, as it prints them (see `FailedNames`); a runner that names no
    # test, or a failure outside any test (a crashed binary, a package's TestMain), leaves fewer than `failed`.
    failed_tests: tuple[str, ...] = ()


# Every character `\s` and `str.strip()` take for white space: the first character of a line that a
# parser reads after `\s*` or `lstrip()` can be any of them.
WHITESPACE = (
    "\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f \x85\xa0\u1680"
    + "".join(map(chr, range(0x2000, 0x200B)))
    + "\u2028\u2029\u202f\u205f\u3000"
)


@dataclass(frozen=True, kw_only=True)
class LineFilter:
    """The lines a parser can learn anything from; every other line, fed to it, would change nothing.

        The log reader feeds a parser only these lines (see `line_scan`), so that the bulk of a large log
        (a test's output, a passing test's line a parser does not count) never reaches Python code. A
        line is the parser's when its first character is one of `starts` ("\n" for a blank line; any
    symbol too with `starts_with_symbol`) and,
        when `pattern` is set, that regular expression (ASCII only) matches from the line's start
        (`$` is the line's end); or when it holds one of `holds` anywhere. What a parser needs beyond
        that, whatever the line (the line after a header, every line of an open block), it asks for with
        `LineParser.wants_every_line`.
    """

    starts: str
    # A regular expression's character class whose characters may start the line too: `\d` for any
    # decimal digit (`\d` takes Unicode's), `[^\w\s]` for any symbol.
    starts_class: str = ""
    pattern: str | None = None
    holds: tuple[str, ...] = ()
    # Line starts whose presence, anywhere in the log, is all the parser needs of them: it is told once,
    # by `LineParser.flag`, instead of being fed every such line (`go test -v`'s `=== RUN ` lines).
    flags: tuple[str, ...] = ()
    # Patterns of lines the parser only counts (`go test -v`'s passed tests): never fed, they are
    # counted in C between the lines it is fed, and the count handed over by `LineParser.tally`
    # before its next line, by the text of the pattern's one group (if it has one). A pattern must
    # match a line whole, from its start, and not past its end.
    tallies: tuple[str, ...] = ()


class LineParser(ABC):
    """A parser for a runner's console output. Subclasses set `name` and `trusts`, and `reads`.

    `trusts` documents, for users and reviewers, which closing lines the counts come from. `reads`
    says which lines it needs (None: every line, which makes every log it is a candidate for slow to
    read).
    """

    name: ClassVar[str]
    trusts: ClassVar[str]
    reads: ClassVar[LineFilter | None] = None

    def flag(self, start: str) -> None:
        """A line of the log starts with `start`, one of the `flags` of `reads` (a parser that names
        flags overrides this)."""
        raise NotImplementedError(f"{self.name} names no flags")

    def tally(self, pattern: str, counts: Mapping[str, int]) -> None:
        """More lines of one of the `tallies` of `reads`, how many by the text of its group ("" for
        a pattern without one) (a parser that names tallies overrides this)."""
        raise NotImplementedError(f"{self.name} names no tallies")

    @property
    def wants_every_line(self) -> bool:
        """Whether the next line must reach the parser whatever it is (its `reads` aside), now: after a
        header whose next line completes it, inside a block it reads whole."""
        return False

    @abstractmethod
    def feed(self, line: str) -> None:
        """One cleaned line, without its line ending."""

    @abstractmethod
    def finish(self) -> Reading | None:
        """The reading, or None when nothing fed looked like this parser's runner."""

    def reading(
        self,
        counts: Counts | None,
        reason: str | None = None,
        notes: tuple[str, ...] = (),
        *,
        no_count_printed: bool = False,
        failed_tests: tuple[str, ...] = (),
    ) -> Reading:
        return Reading(
            parser=self.name,
            counts=counts,
            reason=reason,
            notes=notes,
            no_count_printed=no_count_printed,
            failed_tests=failed_tests,
        )


@dataclass
class RunTotals:
    """The runs of one runner found in a log, added up, with the notes gathered while reading them.

    A log may hold several runs (tox, rake running several tasks, a script calling the runner twice);
    the parsers that add them up keep one of these so that they all end alike: an unreadable run
    spoils the whole reading, no run at all is not their format, and a sum of several runs says so in
    its first note.
    """

    unit: str  # what a run is called, plural, in the note on a sum: "jest runs", "pytest sessions"
    total: Counts = field(default=ZERO, init=False)
    count: int = field(default=0, init=False)
    notes: list[str] = field(default_factory=list, init=False)

    def add(self, counts: Counts) -> None:
        """One more run, with its counts."""
        self.total = self.total + counts
        self.count += 1

    def finish(
        self,
        parser: LineParser,
        unread: str | None,
        closing_notes: tuple[str, ...] = (),
        failed_tests: tuple[str, ...] = (),
    ) -> Reading | None:
        """What `parser.finish()` returns: `unread` wins over any counts, since a run that cannot be read makes
        the sum wrong; None when no run was seen. `closing_notes` are those known only once every run is in
        (a count over all runs, a caveat that holds for the sum) and come after the notes of the runs."""
        if unread:
            return parser.reading(None, unread, failed_tests=failed_tests)
        if not self.count:
            return None
        added_up = (f"{self.count} {self.unit} added up",) if self.count > 1 else ()
        return parser.reading(self.total, notes=(*added_up, *self.notes, *closing_notes), failed_tests=failed_tests)


@dataclass(frozen=True, kw_only=True)
class CaseResult:
    """One test case of a report that names its cases, for callers that need names (per-criterion
    evidence, test identities)."""

    name: str
    classname: str
    file: str | None
    line: int | None  # None, or a line number from 1
    outcome: str  # passed | failed | skipped
    message: str | None
    from_pytest: bool = False  # pytest wrote the report: `classname` is its node id, mangled (see node_ids.py)
    shown_as: str | None = None  # the name as the runner's console spells it, where that could be proven

    @property
    def display_name(self) -> str:
        """`classname::name`, or the name alone where the report repeats it as the class name: the one
        spelling every output shows (the failing tests, annotations, criteria, lost tests). Spaces
        around each part go: jest-junit writes `" adds zero"` for the test its console calls
        `adds zero`; a pytest case, as its node id where the test file is found (`shown_as`). (The
        identity, `case_identity`, keeps the report's exact words.)"""
        if self.shown_as is not None:
            return self.shown_as
        classname, name = self.classname.strip(), self.name.strip()
        return f"{classname}::{name}" if classname and classname != name else name


class DocumentParser(ABC):
    """A parser for a structured report read from a file as a whole (JUnit, NUnit, xUnit.net or TRX XML,
    xcresult JSON)."""

    name: ClassVar[str]
    trusts: ClassVar[str]
    names_cases: ClassVar[bool]  # whether the format names each test case (and `parse` hands them to `on_case`)
    reads_wide: ClassVar[bool] = False  # whether `parse` reads UTF-16 and UTF-32 (the XML readers transcode them)

    @abstractmethod
    def recognises(self, head: bytes) -> bool:
        """Whether the first bytes of a file look like this format."""

    @abstractmethod
    def parse(self, path: Path, on_case: Callable[[CaseResult], None] | None = None) -> Reading:
        """Read the file; malformed content is a Reading without counts and with the reason. A format
        that names its test cases hands each to `on_case` as it reads."""


SHOWN_CHARS = 200


def clip(text: str, limit: int = SHOWN_CHARS) -> str:
    """`text` as kept in a reason or a note: at most `limit` characters, and says so when cut, so a
    hostile 1 MB name or error line costs no more than a short one."""
    text = text.strip()
    return text if len(text) <= limit else f"{text[:limit]}… ({len(text) - limit:,} more characters)"


def name_key(name: str) -> str:
    """A name as kept in a parser's state: clipped, with a digest of the whole name, so that two long
    names that share their first characters stay two and neither costs more than a short one."""
    if len(name) <= SHOWN_CHARS:
        return name
    return f"{clip(name)} #{hashlib.blake2b(name.encode(), digest_size=8).hexdigest()}"


MAX_FAILED_NAMES = 1_000


@dataclass
class FailedNames:
    """The failed tests a log names, in the order it names them, each once and clipped, at most
    `MAX_FAILED_NAMES`: a runner that prints a name twice (a failure section and a closing list) shows it
    once, and a log of a million failures costs no more than a thousand."""

    _names: dict[str, None] = field(default_factory=dict)

    def add(self, name: str) -> None:
        if len(self._names) < MAX_FAILED_NAMES and (kept := clip(name)):
            self._names[kept] = None

    def extend(self, names: Iterable[str]) -> None:
        for name in names:
            self.add(name)

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(self._names)


def failed_names(*groups: Iterable[str]) -> tuple[str, ...]:
    """Several sources' failed test names as one list, each once and capped (see `FailedNames`)."""
    kept = FailedNames()
    for names in groups:
        kept.extend(names)
    return kept.names
