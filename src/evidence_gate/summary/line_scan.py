"""Feeding a console log to its candidate line parsers in one scan of large blocks.

Offering every line of a log to every candidate parser in Python costs tens of times what reading
the file costs, and almost every line is nothing to any parser (a test's output, the line of a
passing test that no parser counts). So the log is read in blocks, and one compiled pattern made of
every parser's `LineFilter` finds the lines some parser reads: only those are cut out of the block
and reach Python code, and each reaches only the parsers whose filter it passes (and those that
asked for every line, `wants_every_line`).

The outcome is the reference one, every cleaned line offered to every parser (`feed_every_line`),
since a line a parser's filter leaves out would change nothing in it. Where the scan cannot take a
block's lines as they stand, that block is read the reference way: carriage returns other than line
endings (redraws, see `terminal.line_drawings`); and from a line of `MAX_LINE_CHARS` bytes or more
on (the reference way cuts it into pieces), the rest of the file. A file in UTF-16 or UTF-32, or a
parser without a filter, is read the reference way whole.
"""

from __future__ import annotations

import collections
import functools
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import BinaryIO, TextIO

from evidence_gate.summary.base import LineFilter, LineParser
from evidence_gate.summary.encoding import UTF8, text_reader
from evidence_gate.summary.terminal import ANSI_IN_BLOCK, line_drawings

MAX_LINE_CHARS = 1024 * 1024
# A block holds at most one line that began before it, so every other line in it is shorter than
# MAX_LINE_CHARS bytes, and than as many characters: the reference reading would not cut it either.
BLOCK_BYTES = MAX_LINE_CHARS
_BOM = b"\xef\xbb\xbf"


def raw_lines(text: TextIO) -> Iterator[str]:
    """The reference reading: each line with its ending, a line of `MAX_LINE_CHARS` characters or
    more cut into pieces of that many, so a log of any shape is read in bounded memory."""
    while piece := text.readline(MAX_LINE_CHARS):
        yield piece


def feed_every_line(text: TextIO, parsers: Sequence[LineParser]) -> None:
    """The reference: every drawing of every line, to every parser."""
    for piece in raw_lines(text):
        for drawing in line_drawings(piece):
            for parser in parsers:
                parser.feed(drawing)


@dataclass(frozen=True)
class _Target:
    """A parser a line's first character may concern, its pattern's test (None: the character
    suffices), and whether it can ever ask for every line (asked after each line fed, if so)."""

    parser: LineParser
    match: Callable[[str, int], object] | None
    follows: bool
    tally: _Tally | None


class _Tally:
    """A parser's counted lines (`LineFilter.tallies`) between the lines it is fed: counted in C, by
    one search per pattern over each stretch, and handed over before its next line."""

    def __init__(self, parser: LineParser, patterns: tuple[str, ...]) -> None:
        self.parser = parser
        self.patterns = tuple(
            (pattern, re.compile(pattern).groups > 0, _tally_pattern(pattern)) for pattern in patterns
        )
        self.since = 1  # where the stretch not yet counted starts, in the block being read

    def upto(self, text: str, stop: int) -> None:
        if stop > self.since:
            for pattern, grouped, compiled in self.patterns:
                if found := compiled(text, self.since - 1, stop):
                    self.parser.tally(pattern, collections.Counter(found) if grouped else {"": len(found)})
        self.since = stop


@functools.cache
def _tally_pattern(pattern: str) -> Callable[[str, int, int], list[str]]:
    return re.compile(f"\n(?:{pattern})", re.MULTILINE).findall


@dataclass(frozen=True)
class _Rule:
    """A parser a line's first character may concern (by its index in the scan's parsers), and its
    pattern's test (None: the character suffices)."""

    parser: int
    match: Callable[[str, int], object] | None


@dataclass(frozen=True)
class _Filters:
    """The parsers' filters compiled into one scan: made once per set of parser classes."""

    lines: Callable[[str], Iterator[re.Match[str]]]
    by_first: dict[str, tuple[_Rule, ...]]
    by_class: tuple[tuple[Callable[[str], object], _Rule], ...]  # the rules of the filters with a `starts_class`
    holds: dict[str, tuple[int, ...]]

    def rules(self, first: str) -> tuple[_Rule, ...]:
        """The rules for a line starting with `first`."""
        named = self.by_first.get(first, ())
        return named + tuple(rule for test, rule in self.by_class if rule not in named and test(first))


@functools.cache
def _compiled(filters: tuple[LineFilter, ...]) -> _Filters:
    by_first: dict[str, list[_Rule]] = {}
    by_class: list[tuple[Callable[[str], object], _Rule]] = []
    bodies: dict[str, list[str]] = {}  # for each first character, the patterns of the filters it starts
    class_bodies: dict[str, list[str]] = {}  # likewise for each `starts_class`
    holds: dict[str, list[int]] = {}
    for index, wanted in enumerate(filters):
        match = re.compile(wanted.pattern, re.MULTILINE).match if wanted.pattern is not None else None
        body = f"(?:{wanted.pattern})" if wanted.pattern is not None else ""
        rule = _Rule(index, match)
        for first in set(wanted.starts):
            by_first.setdefault(first, []).append(rule)
            bodies.setdefault(first, []).append(body)
        if wanted.starts_class:
            by_class.append((re.compile(wanted.starts_class).fullmatch, rule))
            class_bodies.setdefault(wanted.starts_class, []).append(body)
        for needle in wanted.holds:
            holds.setdefault(needle, []).append(index)
    # One alternative per first character, which the engine passes over at the cost of one comparison
    # when the line starts otherwise; behind it, the patterns of that character's filters, tried from
    # the line's start (a lookahead inside a one-character lookbehind). Characters whose filters are
    # the same share one alternative (white space); each class is an alternative of its own, last.
    sharing: dict[tuple[str, ...], str] = {}
    for first, patterns in sorted(bodies.items()):
        sharing[tuple(patterns)] = sharing.get(tuple(patterns), "") + first
    leads = [(_one_of(firsts), patterns) for patterns, firsts in sharing.items()]
    leads += [(starts_class, tuple(patterns)) for starts_class, patterns in class_bodies.items()]
    branches = [f"{lead}(?<=(?={'|'.join(patterns)}).)" for lead, patterns in leads]
    return _Filters(
        lines=re.compile(f"\n(?:{'|'.join(branches)})", re.MULTILINE).finditer,
        by_first={first: tuple(rules) for first, rules in by_first.items()},
        by_class=tuple(by_class),
        holds={needle: tuple(indexes) for needle, indexes in _widest(holds).items()},
    )


def _widest(holds: dict[str, list[int]]) -> dict[str, list[int]]:
    """One search for needles that hold another: a line holding `error: ` holds `rror` too, so the
    parsers of the longer needle are given every line the shorter one finds (more lines than they
    need, which changes nothing in them) and the longer needle is not searched."""
    kept: dict[str, list[int]] = {}
    for needle in sorted(holds, key=len):
        inner = next((shorter for shorter in kept if shorter in needle), None)
        if inner is None:
            kept[needle] = list(holds[needle])
        else:
            kept[inner].extend(index for index in holds[needle] if index not in kept[inner])
    return kept


class LineScan:
    """The combined filter of a set of parsers, and the parsers waiting for every line."""

    def __init__(self, parsers: Sequence[LineParser]) -> None:
        self.parsers = parsers
        filters = []
        for parser in parsers:
            if parser.reads is None:
                raise ValueError(f"{parser.name} reads every line: it has no LineFilter")
            filters.append(parser.reads)
        compiled = _compiled(tuple(filters))
        self._lines = compiled.lines
        self._compiled = compiled
        self._targets: dict[str, tuple[_Target, ...]] = {}
        self._holds = {needle: [parsers[index] for index in indexes] for needle, indexes in compiled.holds.items()}
        self._flags: dict[str, list[LineParser]] = {}
        for parser, wanted in zip(parsers, filters, strict=True):
            for flag in wanted.flags:
                self._flags.setdefault(flag, []).append(parser)
        self._tallies = {
            parser: _Tally(parser, wanted.tallies)
            for parser, wanted in zip(parsers, filters, strict=True)
            if wanted.tallies
        }
        self._followers = [parser for parser in parsers if parser.wants_every_line]

    def feed_block(self, text: str) -> None:
        """A newline (every line start follows one), then whole lines, each ending with a newline,
        without carriage returns or colours."""
        if self._flags:
            self._flag(text)
        for tally in self._tallies.values():
            tally.since = 1
        held = self._held(text) if self._holds else None
        starts: Iterator[int] | list[int] = (match.start() + 1 for match in self._lines(text))
        if held:
            starts = sorted(held.keys() | set(starts))
        position = 1
        followers = self._followers
        for start in starts:
            if followers and start > position:
                self._follow(text, position, start)
            end = text.index("\n", start)
            line = text[start:end]
            first = text[start]
            targets = self._targets.get(first) or self._targets_for(first)
            if not (followers or held):
                for target in targets:  # the common case: the line goes to the parsers its filter names
                    if target.match is None or target.match(text, start):
                        if target.tally is None:
                            target.parser.feed(line)
                        else:
                            self._give(target.parser, text, start, line)
                        if target.follows and target.parser.wants_every_line:
                            followers.append(target.parser)
                position = end + 1
                continue
            fed: list[LineParser] = []
            for target in targets:
                if target.match is None or target.match(text, start):
                    self._give(target.parser, text, start, line)
                    fed.append(target.parser)
            for parser in (*(held.get(start, ()) if held else ()), *followers):
                if parser not in fed:
                    self._give(parser, text, start, line)
                    fed.append(parser)
            self._update_followers(fed)
            position = end + 1
        if followers:
            self._follow(text, position, len(text))
        for tally in self._tallies.values():
            tally.upto(text, len(text))

    def _give(self, parser: LineParser, text: str, start: int, line: str) -> None:
        """One line to a parser, after the lines it counts that come before it."""
        tally = self._tallies.get(parser)
        if tally is not None:
            tally.upto(text, start)
            tally.since = start + len(line) + 1
        parser.feed(line)

    def _targets_for(self, first: str) -> tuple[_Target, ...]:
        rules = self._compiled.rules(first)
        parsers = [self.parsers[rule.parser] for rule in rules]
        targets = tuple(
            _Target(parser, rule.match, _may_follow(parser), self._tallies.get(parser))
            for parser, rule in zip(parsers, rules, strict=True)
        )
        self._targets[first] = targets
        return targets

    def _flag(self, text: str) -> None:
        """Tell each parser, once, of a flag line its filter names (see `LineFilter.flags`)."""
        for flag, parsers in tuple(self._flags.items()):
            if "\n" + flag in text:
                for parser in parsers:
                    parser.flag(flag)
                del self._flags[flag]

    def feed_lines(self, text: str) -> None:
        """Whole lines the reference way (a block with redraws); then each parser's wish is asked anew."""
        for piece in text.split("\n")[:-1]:
            for drawing in line_drawings(piece):
                for parser in self.parsers:
                    parser.feed(drawing)
        self._followers = [parser for parser in self.parsers if parser.wants_every_line]

    def _held(self, text: str) -> dict[int, list[LineParser]]:
        """The starts of the lines that hold a parser's `holds` text, with those parsers."""
        found: dict[int, list[LineParser]] = {}
        for needle, parsers in self._holds.items():
            at = text.find(needle)
            while at != -1:
                found.setdefault(text.rfind("\n", 0, at) + 1, []).extend(parsers)
                at = text.find(needle, text.index("\n", at))
        return found

    def _follow(self, text: str, position: int, stop: int) -> None:
        """The lines from `position` to `stop`, none of them a filter's, to the parsers that want every line."""
        followers = self._followers
        while position < stop and followers:
            end = text.index("\n", position)
            line = text[position:end]
            for parser in tuple(followers):
                self._give(parser, text, position, line)
                if not parser.wants_every_line:
                    followers.remove(parser)
            position = end + 1

    def _update_followers(self, fed: list[LineParser]) -> None:
        followers = self._followers
        for parser in fed:
            if parser.wants_every_line:
                if parser not in followers:
                    followers.append(parser)
            elif parser in followers:
                followers.remove(parser)


def _one_of(characters: str) -> str:
    """A pattern for one of `characters`: a literal when there is one (which the engine's alternation
    passes over fastest), else a class."""
    if len(characters) == 1:
        return re.escape(characters)
    return "[" + "".join(re.escape(character) for character in characters) + "]"


def _may_follow(parser: LineParser) -> bool:
    """Whether the parser's class can ever ask for every line (it overrides `wants_every_line`)."""
    return type(parser).wants_every_line is not LineParser.wants_every_line


def feed_log(handle: BinaryIO, encoding: str, parsers: Sequence[LineParser]) -> None:
    """Every line of the file, read from its start, to the parsers that read it."""
    handle.seek(0)
    if encoding not in (UTF8, "utf-8-sig") or any(parser.reads is None for parser in parsers):
        feed_every_line(text_reader(handle, encoding), parsers)
        return
    scan = LineScan(parsers)
    offset = len(_BOM) if handle.read(len(_BOM)) == _BOM else 0
    handle.seek(offset)
    # One buffer for the whole read, never a fresh one a block (a fresh megabyte a block cost a page
    # fault every 4 KiB): a newline, then what is held of the file. Each block is decoded from it with
    # the newline before its first line, which the scan wants (every line start follows a newline).
    buffer = bytearray(1 + MAX_LINE_CHARS + BLOCK_BYTES)
    buffer[0] = ord("\n")
    view = memoryview(buffer)
    held = 0  # bytes after the newline: the start of a line the last block did not end
    while True:
        room = view[1 + held : 1 + held + BLOCK_BYTES]
        got = handle.readinto(room)  # type: ignore[attr-defined]  # a file's or a BytesIO: typeshed's BinaryIO omits it
        room.release()
        end = 1 + held + (got or 0)
        first_end = buffer.find(b"\n", 1, end)
        if (first_end if first_end != -1 else end) - 1 >= MAX_LINE_CHARS:
            view.release()
            handle.seek(offset)  # a line the reference reading cuts into pieces: from here on, its way
            feed_every_line(text_reader(handle, UTF8), parsers)
            return
        if not got:
            if held:
                _feed_clean(scan, bytes(view[:end]) + b"\n")  # the last line, without its newline
            return
        cut = buffer.rfind(b"\n", 1, end) + 1
        if cut:
            _feed_clean(scan, view[:cut])
            offset += cut - 1
            held = end - cut
            buffer[1 : 1 + held] = bytes(view[cut:end])  # a copy: the two may overlap
        else:
            held = end - 1


def _feed_clean(scan: LineScan, block: bytes | memoryview) -> None:
    """A newline, then one block of whole lines: decoded, line endings made plain, colours removed,
    redraws the reference way."""
    text = str(block, UTF8, "replace")
    if "\r" in text:
        plain = text.replace("\r\n", "\n")
        if "\r" in plain:
            scan.feed_lines(text[1:])
            return
        text = plain
    if "\x1b" in text:
        text = ANSI_IN_BLOCK.sub("", text)
    scan.feed_block(text)
