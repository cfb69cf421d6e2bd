"""A source file that holds its own tests (Rust's `#[cfg(test)]` modules), with its production change
taken away and its tests kept: what strength's second run needs of it. Pure: the file at both ends
and its hunks in, the file for the second run out.

The file is the head's, hunk by hunk undone where the lines are production code: a production line
the change removed comes back as the base had it (its bytes), one it added goes; a test line stays
as the head has it, added or not, and one the change removed from the tests stays removed. Lines
outside the hunks are the same at both ends. The hunks are git's for these very texts, so a hunk
that does not fit them (a context line that differs, a number past the end) is refused, not mended.

Where one run of changed lines both brings production lines back and keeps test lines (a function
removed right after a test module the change rewrote), which goes first cannot be told from the
diff: putting them in the wrong order could hang an attribute on the wrong item. That file is
`Tangled`, never guessed.
"""

from __future__ import annotations

from evidence_gate.errors import GitError
from evidence_gate.model import ChangedFile


class Tangled(Exception):
    """The file's production lines and its tests change side by side, at `line` of the head."""

    def __init__(self, path: str, line: int) -> None:
        super().__init__(f"{path}:{line}: production lines and test lines change side by side")
        self.line = line


def production_reverted(changed: ChangedFile, base: bytes, head: bytes) -> bytes:
    """The head's file with its production lines taken back to the base's and its test lines kept."""
    inline = changed.inline_tests
    if inline is None:
        return base
    old, new = _lines(base), _lines(head)
    out: list[bytes] = []
    at = 1  # the next head line not yet copied
    for hunk in changed.hunks:
        old_line = hunk.old_start if hunk.old_lines else hunk.old_start + 1
        new_line = hunk.new_start if hunk.new_lines else hunk.new_start + 1
        old_end, new_end = old_line + hunk.old_lines, new_line + hunk.new_lines
        if new_line < at or old_end - 1 > len(old) or new_end - 1 > len(new):
            raise _misfit(changed.path)
        out += new[at - 1 : new_line - 1]
        added = {line.number for line in hunk.added}
        removed = {line.number for line in hunk.removed}
        back = kept = False  # this run of changed lines brings production back, keeps tests
        start = new_line  # where the run is, in the head
        while old_line < old_end or new_line < new_end:
            if not back and not kept:
                start = new_line
            if old_line < old_end and old_line in removed:
                if old_line not in inline.removed:  # production code the change removed: back
                    out.append(old[old_line - 1])
                    back = True
                old_line += 1
            elif new_line < new_end and new_line in added:
                if new_line in inline.added:  # a test line the change added: kept
                    out.append(new[new_line - 1])
                    kept = True
                new_line += 1
            elif old_line < old_end and new_line < new_end and old[old_line - 1] == new[new_line - 1]:
                out.append(new[new_line - 1])  # context: the run of changed lines is over
                old_line, new_line, back, kept = old_line + 1, new_line + 1, False, False
            else:
                raise _misfit(changed.path)
            if back and kept:
                raise Tangled(changed.path, start)
        at = new_end
    out += new[at - 1 :]
    return b"".join(out)  # a base's last line with no newline comes back last: lines after it would tangle


def _lines(text: bytes) -> list[bytes]:
    """The lines as git counts them: ended by `\\n`, the last one with or without it."""
    lines = text.split(b"\n")
    tail = lines.pop()
    return [line + b"\n" for line in lines] + ([tail] if tail else [])


def _misfit(path: str) -> GitError:
    return GitError(f"{path}: git's hunks do not fit the file at the base and the head; refusing to guess")
