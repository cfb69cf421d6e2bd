"""The values a coverage report is read into, before and after its paths are mapped."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class Statement:
    """The statement that holds a continuation line of a multi-line statement: the line the reports
    measure it on, and where a report gives each statement's own count (istanbul), that count; None:
    it ran when that line did. Its own count tells apart two statements that start on one line (a
    declaration, and the body of the arrow function it declares)."""

    line: int
    count: int | None = None


@dataclass(kw_only=True)
class FileHits:
    """One source file as a report names it: each measured line's hit count (0: measured, not
    executed), with coverage.py's dynamic contexts the contexts that executed each line, and where
    the report gives each statement's extent (istanbul), the statement that holds each continuation
    line of a multi-line statement."""

    name: str
    hits: dict[int, int] = field(default_factory=dict)
    contexts: dict[int, frozenset[str]] | None = None
    statements: dict[int, Statement] = field(default_factory=dict)

    def add(self, line: int, count: int) -> None:
        """A line seen once more (Cobertura lists a line under its method and its class): hit if any says so."""
        if count > self.hits.get(line, 0) or line not in self.hits:
            self.hits[line] = count


@dataclass(frozen=True, kw_only=True)
class SourceRoots:
    """The directories a report says its file names are relative to (Cobertura's `<source>`)."""

    roots: tuple[str, ...]


class UnreadableReport(Exception):
    """A coverage report that cannot be read; the message says why, in one line."""


Event = FileHits | SourceRoots
Events = Iterator[Event]
# Whether the lines of a file a report names are wanted: a reader asks once per file, as it starts,
# and skips the lines of one that is not (it still yields the file, without lines), so a report of
# any size costs the memory of the files wanted.
Keep = Callable[[str], bool]


@dataclass(frozen=True, kw_only=True)
class Lines:
    """One repository file's coverage, every report merged: the measured lines, those executed,
    (where a report recorded them) the test contexts that executed each line, and the changed lines
    measured through the statement that holds them (`coverage/statements.py`), each with the line
    the reports measure that statement on."""

    measured: frozenset[int]
    covered: frozenset[int]
    contexts: Mapping[int, frozenset[str]] | None = None
    continued: Mapping[int, int] = field(default_factory=dict)

    @property
    def run_by_tests(self) -> frozenset[int]:
        """The lines a test ran: with contexts, those some test's context ran (not only the `""`
        context of code run on import, such as the `def` line of a function no test calls)."""
        if self.contexts is None:
            return self.covered
        contexts = self.contexts
        return frozenset(line for line in self.covered if contexts.get(line, frozenset()) - {""})
