"""The values a coverage report is read into, before and after its paths are mapped."""

from __future__ import annotations

from bisect import bisect_left, bisect_right
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
class Sieve:
    """Which lines of one file a report's reading keeps: the changed lines, and of the lines
    between two changed lines (a gap) only the last one measured. That one says whether anything
    measured lies between two changed lines (where one code path ends) and is the line a changed
    continuation line's statement is measured on (`coverage/statements.py`), so a report of any
    length costs the memory of the change. `changed` is sorted; None keeps every line."""

    changed: tuple[int, ...] | None
    _last: dict[int, int] = field(default_factory=dict, init=False, repr=False)  # gap -> its last line kept

    def admit(self, line: int, hits: dict[int, int], contexts: dict[int, frozenset[str]] | None = None) -> bool:
        """Whether `line` is kept; a gap's line kept before it, now not the last, leaves `hits`
        (and `contexts`): every sighting of a line kept comes after the first, so its count is whole."""
        changed = self.changed
        if changed is None:
            return True
        gap = bisect_left(changed, line)
        if gap < len(changed) and changed[gap] == line:
            return True
        last = self._last.get(gap)
        if last is not None and last >= line:
            return last == line
        if last is not None:
            hits.pop(last, None)
            if contexts is not None:
                contexts.pop(last, None)
        self._last[gap] = line
        return True

    def within(self, first: int, last: int) -> Iterator[int]:
        """The lines from `first` to `last` a block over all of them can leave kept: each changed
        line among them and each gap's last line among them, however many lines the block spans."""
        changed = self.changed
        if changed is None:
            yield from range(first, last + 1)
            return
        start, end = bisect_left(changed, first), bisect_right(changed, last)
        for index in range(start, end):
            if changed[index] - 1 >= first and (index == start or changed[index] - 1 > changed[index - 1]):
                yield changed[index] - 1  # the last line of the gap before it
            yield changed[index]
        if end == start or changed[end - 1] < last:
            yield last

    def changed_within(self, first: int, last: int) -> Iterator[int]:
        """The changed lines from `first` to `last` (every one of them when all lines are kept)."""
        if self.changed is None:
            yield from range(first, last + 1)
            return
        yield from self.changed[bisect_left(self.changed, first) : bisect_right(self.changed, last)]


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
    sieve: Sieve | None = None  # which lines are kept; None: every line
    all_contexts: set[str] = field(default_factory=set)  # every context that ran a line, kept or not

    def add(self, line: int, count: int) -> None:
        """A line seen once more (Cobertura lists a line under its method and its class): hit if any says so."""
        if self.sieve is not None and not self.sieve.admit(line, self.hits, self.contexts):
            return
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
# Whether the lines of a file a report names are wanted (None: not), and which (the sieve): a reader
# asks once per file, as it starts, and skips the lines of one that is not (it still yields the
# file, without lines), so a report of any size costs the memory of the files wanted.
Keep = Callable[[str], Sieve | None]


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
    all_contexts: frozenset[str] = frozenset()  # with contexts: those that ran any line, kept or not

    @property
    def run_by_tests(self) -> frozenset[int]:
        """The lines a test ran: with contexts, those some test's context ran (not only the `""`
        context of code run on import, such as the `def` line of a function no test calls)."""
        if self.contexts is None:
            return self.covered
        contexts = self.contexts
        return frozenset(line for line in self.covered if contexts.get(line, frozenset()) - {""})
