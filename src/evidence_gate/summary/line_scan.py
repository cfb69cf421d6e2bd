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
    """A parser a line's first character may concern, and its pattern's test (None: the character suffices)."""

    parser: LineParser
    match: Callable[[str, int], object] | None


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
    holds: dict[str, tuple[int, ...]]


@functools.cache
def _compiled(filters: tuple[LineFilter, ...]) -> _Filters:
    by_first: dict[str, list[_Rule]] = {}
    branches: list[str] = []
    holds: dict[str, list[int]] = {}
    for index, wanted in enumerate(filters):
        lead = _class_of(wanted.starts)
        match = None
        if wanted.pattern is not None:
            match = re.compile(wanted.pattern, re.MULTILINE).match
            branches.append(f"(?={lead})(?:{wanted.pattern})")
        else:
            branches.append(lead)
        for first in set(wanted.starts):
            by_first.setdefault(first, []).append(_Rule(index, match))
        for needle in wanted.holds:
            holds.setdefault(needle, []).append(index)
    firsts = _class_of("".join(by_first))
    return _Filters(
        lines=re.compile(f"\n(?={firsts})(?={'|'.join(branches)})", re.MULTILINE).finditer,
        by_first={first: tuple(rules) for first, rules in by_first.items()},
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
        self._by_first = {
            first: tuple(_Target(parsers[rule.parser], rule.match) for rule in rules)
            for first, rules in compiled.by_first.items()
        }
        self._holds = {needle: [parsers[index] for index in indexes] for needle, indexes in compiled.holds.items()}
        self._followers = [parser for parser in parsers if parser.wants_every_line]

    def feed_block(self, text: str) -> None:
        """Whole lines, each ending with a newline, without carriage returns or colours."""
        text = "\n" + text  # every line start follows a newline
        held = self._held(text) if self._holds else None
        starts: Iterator[int] | list[int] = (match.end() for match in self._lines(text))
        if held:
            starts = sorted(held.keys() | set(starts))
        position = 1
        no_targets: tuple[_Target, ...] = ()
        for start in starts:
            if self._followers and start > position:
                self._follow(text, position, start)
            end = text.index("\n", start)
            line = text[start:end]
            fed: list[LineParser] = []
            for target in self._by_first.get(text[start], no_targets):
                if target.match is None or target.match(text, start):
                    target.parser.feed(line)
                    fed.append(target.parser)
            for parser in (*(held.get(start, ()) if held else ()), *self._followers):
                if parser not in fed:
                    parser.feed(line)
                    fed.append(parser)
            self._update_followers(fed)
            position = end + 1
        if self._followers:
            self._follow(text, position, len(text))

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
                parser.feed(line)
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


def _class_of(characters: str) -> str:
    return "[" + "".join(re.escape(character) for character in sorted(set(characters))) + "]"


def feed_log(handle: BinaryIO, encoding: str, parsers: Sequence[LineParser]) -> None:
    """Every line of the file, read from its start, to the parsers that read it."""
    handle.seek(0)
    if encoding not in (UTF8, "utf-8-sig") or any(parser.reads is None for parser in parsers):
        feed_every_line(text_reader(handle, encoding), parsers)
        return
    scan = LineScan(parsers)
    offset = len(_BOM) if handle.read(len(_BOM)) == _BOM else 0
    handle.seek(offset)
    carry = b""
    while True:
        data = handle.read(BLOCK_BYTES)
        buffer = carry + data if carry else data
        first_end = buffer.find(b"\n")
        if (first_end if first_end != -1 else len(buffer)) >= MAX_LINE_CHARS:
            handle.seek(offset)  # a line the reference reading cuts into pieces: from here on, its way
            feed_every_line(text_reader(handle, UTF8), parsers)
            return
        if not data:
            if buffer:
                _feed_clean(scan, buffer + b"\n")  # the last line, without its newline
            return
        cut = buffer.rfind(b"\n") + 1
        if cut:
            _feed_clean(scan, buffer[:cut])
        offset += cut
        carry = buffer[cut:]


def _feed_clean(scan: LineScan, block: bytes) -> None:
    """One block of whole lines: decoded, line endings made plain, colours removed, redraws the reference way."""
    text = block.decode(UTF8, "replace")
    if "\r" in text:
        plain = text.replace("\r\n", "\n")
        if "\r" in plain:
            scan.feed_lines(text)
            return
        text = plain
    if "\x1b" in text:
        text = ANSI_IN_BLOCK.sub("", text)
    scan.feed_block(text)
