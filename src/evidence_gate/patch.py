"""Git's diff output, read: the raw entries of `git diff --raw -z` (exact names, statuses, modes),
and the patch in one pass: per file section, whether git called it binary, and its hunks with the
exact lines they add and remove.

Only git's own output is read here (`git diff --patch` with the options of git.py), so the grammar
is git's: a `diff --git` line, extended header lines (modes, similarity, rename and copy names,
`index`, `Binary files … differ`, the `---` / `+++` names), then hunks. A hunk's header counts its
lines, and its body is read by that count, so a body line that looks like a header is never taken
for one. Lines are decoded once, for the whole patch: bytes that are not UTF-8 become U+FFFD.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass

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
    """One file's part of the patch (a type change is two: the old file deleted, the new added)."""

    binary: bool
    hunks: tuple[Hunk, ...]


def parse_patch(patch: bytes) -> list[Section]:
    lines = patch.decode("utf-8", "replace").split("\n")
    if lines[-1] == "":
        lines.pop()
    sections: list[Section] = []
    index, end = 0, len(lines)
    while index < end:
        if not lines[index].startswith(_FILE):
            raise _unparsed(index, "a `diff --git` line was expected")
        index += 1
        binary = False
        while index < end and not lines[index].startswith((_FILE, "@@ ")):
            binary = binary or lines[index].startswith("Binary files ")
            index += 1
        hunks = []
        while index < end and lines[index].startswith("@@ "):
            hunk, index = _hunk(lines, index)
            hunks.append(hunk)
        sections.append(Section(binary=binary, hunks=tuple(hunks)))
    return sections


def _hunk(lines: list[str], index: int) -> tuple[Hunk, int]:
    """The hunk whose header is at `index`, and the index after its body."""
    header = _HUNK.fullmatch(lines[index])
    if header is None:
        raise _unparsed(index, "the hunk header is malformed")
    old_start, new_start = int(header.group(1)), int(header.group(3))
    old_lines = 1 if header.group(2) is None else int(header.group(2))
    new_lines = 1 if header.group(4) is None else int(header.group(4))
    old_left, new_left = old_lines, new_lines
    added: list[ChangedLine] = []
    removed: list[ChangedLine] = []
    start, index = index, index + 1
    while old_left > 0 or new_left > 0:
        if index >= len(lines):
            raise _unparsed(start, "the hunk ends before the lines its header counts")
        line = lines[index]
        mark = line[:1]
        if mark == " ":
            old_left, new_left = old_left - 1, new_left - 1
        elif mark == "+":
            added.append(ChangedLine(number=new_start + new_lines - new_left, text=line[1:]))
            new_left -= 1
        elif mark == "-":
            removed.append(ChangedLine(number=old_start + old_lines - old_left, text=line[1:]))
            old_left -= 1
        elif mark != "\\":  # `\ No newline at end of file` belongs to the line before it
            raise _unparsed(index, "a hunk line starts with none of ' ', '+', '-'")
        index += 1
        if old_left < 0 or new_left < 0:
            raise _unparsed(start, "the hunk holds more lines than its header counts")
    while index < len(lines) and lines[index].startswith("\\"):
        index += 1
    hunk = Hunk(
        old_start=old_start,
        old_lines=old_lines,
        new_start=new_start,
        new_lines=new_lines,
        section=header.group(5),
        added=tuple(added),
        removed=tuple(removed),
    )
    return hunk, index


def _unparsed(index: int, why: str) -> GitError:
    return GitError(f"cannot parse git's patch output (line {index + 1}: {why})")


def parse_raw(output: bytes) -> tuple[list[RawEntry], bytes]:
    """Parse `git diff --raw -z [--patch]`: `:modes blobs status NUL path NUL [path NUL]` per entry;
    with a patch, an empty field ends the entries and the patch follows it."""
    fields = _Fields(output)
    entries: list[RawEntry] = []
    while fields.more():
        meta = fields.next().decode("ascii", "replace").lstrip(":").split(" ")
        if len(meta) < 5 or not meta[4]:
            raise GitError("cannot parse git's raw diff output")
        old_mode, new_mode, old_blob, new_blob, status = meta[:5]
        letter = status[0]
        old_path = os.fsdecode(fields.next()) if letter in "RC" else None
        entries.append(
            RawEntry(
                old_mode=old_mode,
                new_mode=new_mode,
                old_blob=old_blob,
                new_blob=new_blob,
                status=letter,
                score=int(status[1:]) if _SCORE.fullmatch(status[1:]) else None,
                path=os.fsdecode(fields.next()),
                old_path=old_path,
            )
        )
    return entries, fields.rest()


class _Fields:
    """NUL-terminated fields read one by one, so what follows them (the patch) is never split."""

    def __init__(self, output: bytes) -> None:
        self._output, self._position = output, 0

    def more(self) -> bool:
        return self._position < len(self._output) and self._output[self._position] != 0

    def next(self) -> bytes:
        end = self._output.find(b"\0", self._position)
        if end < 0:
            raise GitError("cannot parse git's raw diff output (a field is not terminated)")
        field, self._position = self._output[self._position : end], end + 1
        return field

    def rest(self) -> bytes:
        return self._output[self._position + 1 :]
