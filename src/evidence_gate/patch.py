"""Git's diff output, read: the raw entries of `git diff --raw -z` (exact names, statuses, modes),
and the patch in one pass: per file section, whether git called it binary, and its hunks with the
exact lines they add and remove, or, for a section the caller only counts (an added data file),
how many, none of them kept.

Only git's own output is read here (`git diff --patch` with the options of git.py), so the grammar
is git's: a `diff --git` line, extended header lines (modes, similarity, rename and copy names,
`index`, `Binary files … differ`, the `---` / `+++` names), then hunks. A hunk's header counts its
lines, and its body is read by that count, so a body line that looks like a header is never taken
for one. The output is read as git writes it, a line at a time, so what is held is what the caller
keeps, not the whole patch: a pull request adding a CSV of three million lines is three numbers.
Each line is decoded on its own (a newline is never inside a UTF-8 sequence): bytes that are not
UTF-8 become U+FFFD."""

from __future__ import annotations

import io
import os
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import IO

from evidence_gate.errors import GitError
from evidence_gate.model import ChangedLine, Hunk

_FILE = "diff --git "
# Git's numbers are ASCII digits; more than ten of them is not git's output (and past 4,300, int() refuses them).
_HUNK = re.compile(r"@@ -([0-9]{1,10})(?:,([0-9]{1,10}))? \+([0-9]{1,10})(?:,([0-9]{1,10}))? @@ ?(.*)")
_SCORE = re.compile(r"[0-9]{1,3}")


@dataclass(frozen=True, kw_only=True)
class RawEntry:
    """One line of `git diff --raw -z`."""

    old_mode: str
    new_mode: str
    old_blob: str
    new_blob: str
    status: str
    score: int | None
    path: str
    old_path: str | None


@dataclass(frozen=True, kw_only=True)
class Section:
    """One file's part of the patch (a type change is two: the old file deleted, the new added).
    A section not `held` has its hunks' headers but none of their lines, only how many it adds
    and removes."""

    binary: bool
    hunks: tuple[Hunk, ...]
    added: int
    removed: int
    held: bool = True


# Sections whose lines are held, by position; a section past the end is held.
Held = Sequence[bool]
_CHUNK = 1024 * 1024
# Of the sections only counted, hunks are held still while their lines fit in this many per change:
# a small fixture module or snapshot is read like any file (a suppression or a skip in it is seen),
# a CSV of millions of lines is counted.
COUNTED_LINES_HELD = 20_000


def read_diff(output: IO[bytes], held: Callable[[list[RawEntry]], Held]) -> tuple[list[RawEntry], list[Section]]:
    """`git diff --raw -z --patch` as git writes it: the raw entries, then the patch, whose sections
    `held` (given the entries) tells to hold or only count. Read a line at a time, so a counted
    section is never in memory, whatever its size."""
    stream = _Stream(output)
    entries = _entries(stream)
    return entries, _sections(_Lines(stream), held(entries))


def parse_raw(output: bytes) -> tuple[list[RawEntry], bytes]:
    """Parse `git diff --raw -z [--patch]`: `:modes blobs status NUL path NUL [path NUL]` per entry;
    with a patch, an empty field ends the entries and the patch follows it."""
    stream = _Stream(io.BytesIO(output))
    return _entries(stream), stream.rest()


def parse_patch(patch: bytes, held: Held = ()) -> list[Section]:
    return _sections(_Lines(_Stream(io.BytesIO(patch))), held)


def _entries(stream: _Stream) -> list[RawEntry]:
    entries: list[RawEntry] = []
    while stream.more_fields():
        meta = stream.field().decode("ascii", "replace").lstrip(":").split(" ")
        if len(meta) < 5 or not meta[4]:
            raise GitError("cannot parse git's raw diff output")
        old_mode, new_mode, old_blob, new_blob, status = meta[:5]
        letter = status[0]
        old_path = os.fsdecode(stream.field()) if letter in "RC" else None
        entries.append(
            RawEntry(
                old_mode=old_mode,
                new_mode=new_mode,
                old_blob=old_blob,
                new_blob=new_blob,
                status=letter,
                score=int(status[1:]) if _SCORE.fullmatch(status[1:]) else None,
                path=os.fsdecode(stream.field()),
                old_path=old_path,
            )
        )
    stream.end_fields()
    return entries


def _sections(lines: _Lines, held: Held) -> list[Section]:
    sections: list[Section] = []
    spare = COUNTED_LINES_HELD  # lines of counted sections still to hold
    while (line := lines.peek()) is not None:
        if not line.startswith(_FILE):
            raise _unparsed(lines.number + 1, "a `diff --git` line was expected")
        lines.take()
        keep = len(sections) >= len(held) or held[len(sections)]
        binary = False
        while (line := lines.peek()) is not None and not line.startswith((_FILE, "@@ ")):
            binary = binary or line.startswith("Binary files ")
            lines.take()
        hunks: list[Hunk] = []
        added = removed = 0
        all_held = True
        while (line := lines.peek()) is not None and line.startswith("@@ "):
            size = _size(line)
            hold = keep or size <= spare
            spare -= 0 if keep or not hold else size
            hunk, plus, minus = _hunk(lines, hold)
            hunks.append(hunk)
            added, removed, all_held = added + plus, removed + minus, all_held and hold
        sections.append(Section(binary=binary, hunks=tuple(hunks), added=added, removed=removed, held=all_held))
    return sections


def _size(header: str) -> int:
    """How many lines a hunk's header says it holds (a header that is not one: none; `_hunk` says so)."""
    found = _HUNK.fullmatch(header)
    if found is None:
        return 0
    return sum(1 if count is None else int(count) for count in (found.group(2), found.group(4)))


def _hunk(lines: _Lines, keep: bool) -> tuple[Hunk, int, int]:
    """The hunk whose header is the next line, with how many lines it adds and removes; its lines
    held only when `keep`."""
    header = _HUNK.fullmatch(lines.take() or "")
    start = lines.number
    if header is None:
        raise _unparsed(start, "the hunk header is malformed")
    old_start, new_start = int(header.group(1)), int(header.group(3))
    old_lines = 1 if header.group(2) is None else int(header.group(2))
    new_lines = 1 if header.group(4) is None else int(header.group(4))
    old_left, new_left = old_lines, new_lines
    added: list[ChangedLine] = []
    removed: list[ChangedLine] = []
    plus = minus = 0
    while old_left > 0 or new_left > 0:
        line = lines.take() if keep else lines.take_mark()
        if line is None:
            raise _unparsed(start, "the hunk ends before the lines its header counts")
        mark = line[:1]
        if mark == " ":
            old_left, new_left = old_left - 1, new_left - 1
        elif mark == "+":
            if keep:
                added.append(ChangedLine(number=new_start + new_lines - new_left, text=line[1:]))
            new_left, plus = new_left - 1, plus + 1
        elif mark == "-":
            if keep:
                removed.append(ChangedLine(number=old_start + old_lines - old_left, text=line[1:]))
            old_left, minus = old_left - 1, minus + 1
        elif mark != "\\":  # `\ No newline at end of file` belongs to the line before it
            raise _unparsed(lines.number, "a hunk line starts with none of ' ', '+', '-'")
        if old_left < 0 or new_left < 0:
            raise _unparsed(start, "the hunk holds more lines than its header counts")
    while (line := lines.peek()) is not None and line.startswith("\\"):
        lines.take()
    hunk = Hunk(
        old_start=old_start,
        old_lines=old_lines,
        new_start=new_start,
        new_lines=new_lines,
        section=header.group(5),
        added=tuple(added),
        removed=tuple(removed),
    )
    return hunk, plus, minus


def _unparsed(number: int, why: str) -> GitError:
    return GitError(f"cannot parse git's patch output (line {number}: {why})")


class _Stream:
    """Git's output, read in chunks: NUL-terminated fields (the raw entries), then lines."""

    def __init__(self, output: IO[bytes]) -> None:
        self._output = output
        self._buffer = b""
        self._position = 0

    def _fill(self) -> bool:
        """More of the output in the buffer; False at its end."""
        chunk = self._output.read(_CHUNK)
        if not chunk:
            return False
        self._buffer = self._buffer[self._position :] + chunk
        self._position = 0
        return True

    def more_fields(self) -> bool:
        if self._position >= len(self._buffer) and not self._fill():
            return False
        return self._buffer[self._position] != 0

    def field(self) -> bytes:
        while (end := self._buffer.find(b"\0", self._position)) < 0:
            if not self._fill():
                raise GitError("cannot parse git's raw diff output (a field is not terminated)")
        field, self._position = self._buffer[self._position : end], end + 1
        return field

    def end_fields(self) -> None:
        """Past the empty field that ends the entries (where `more_fields` stopped), if there is one."""
        if self._position < len(self._buffer):
            self._position += 1

    def rest(self) -> bytes:
        return self._buffer[self._position :] + self._output.read()

    def line(self, whole: bool = True) -> bytes | None:
        """The next line, without its newline (only its first byte unless `whole`, the rest passed
        over unkept); None at the end."""
        pieces: list[bytes] = []
        seen = False
        while True:
            end = self._buffer.find(b"\n", self._position)
            stop = len(self._buffer) if end < 0 else end
            if stop > self._position:
                seen = True
                if whole or not pieces:
                    pieces.append(self._buffer[self._position : stop if whole else self._position + 1])
            if end >= 0:
                self._position = end + 1
                return b"".join(pieces)
            self._position = len(self._buffer)
            if not self._fill():
                return b"".join(pieces) if seen else None


class _Lines:
    """The patch's lines, decoded (bytes that are not UTF-8 become U+FFFD), with one line of
    lookahead; `number` is the last line taken."""

    def __init__(self, stream: _Stream) -> None:
        self._stream = stream
        self._next: str | None = None
        self._peeked = False
        self.number = 0

    def peek(self) -> str | None:
        if not self._peeked:
            line = self._stream.line()
            self._next = None if line is None else line.decode("utf-8", "replace")
            self._peeked = True
        return self._next

    def take(self) -> str | None:
        line = self.peek()
        self._peeked = False
        if line is not None:
            self.number += 1
        return line

    def take_mark(self) -> str | None:
        """The next line's first character only, the rest passed over: a counted line."""
        if self._peeked:
            line = self.take()
            return None if line is None else line[:1]
        mark = self._stream.line(whole=False)
        if mark is None:
            return None
        self.number += 1
        return mark.decode("utf-8", "replace")
