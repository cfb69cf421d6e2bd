"""Git's patch output, read in one pass: per file section, whether git called it binary, and its
hunks with the exact lines they add and remove.

Only git's own output is read here (`git diff --patch` with the options of git.py), so the grammar
is git's: a `diff --git` line, extended header lines (modes, similarity, rename and copy names,
`index`, `Binary files … differ`, the `---` / `+++` names), then hunks. A hunk's header counts its
lines, and its body is read by that count, so a body line that looks like a header is never taken
for one. Lines are decoded once, for the whole patch: bytes that are not UTF-8 become U+FFFD.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from evidence_gate.errors import GitError
from evidence_gate.model import ChangedLine, Hunk

_FILE = "diff --git "
_HUNK = re.compile(r"@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@ ?(.*)")


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
