"""Which of a tool's diagnostics are the change's and which are the base's debt, as diff-quality
counts them: a diagnostic on a line the change added or changed is new; one on a line it did not
touch, or in a file it did not touch, was there before it (pre-existing). A diagnostic with no
place (no file and line to read) is counted as new: never guessed old, which would hide it.

A diagnostic about a whole file (cargo's `no edition set` about Cargo.toml) is new when the change
could have caused it: the file is new, or the change touched it and either the diagnostic names no
cause or a line the change added to or removed from that file matches its cause (the `edition` key
added or removed). A touched file whose changed lines hold no such line keeps the base's warning.

Paths are read as the tool printed them, absolute or relative to where it ran (the stack's root),
and made repository-relative. An absolute path from another checkout (the job's, read in the
action's container) is the changed file whose path it ends with.
"""

from __future__ import annotations

import posixpath
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from evidence_gate.ledger.payloads.tools import MAX_SHOWN, Diagnostic, Located
from evidence_gate.model import Change, FileStatus
from evidence_gate.quality.locate import Found

MAX_MESSAGE = 300


@dataclass(frozen=True, kw_only=True)
class ChangedLines:
    """The lines a change added or changed, by repository-relative path, and where the tool ran."""

    lines: Mapping[str, frozenset[int]]
    top: str  # the checkout's absolute path, as a tool run here prints it
    root: str = ""  # the stack's root in the checkout, where the tool runs: "" for the top
    edits: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # the added and removed lines' text
    new_files: frozenset[str] = frozenset()  # the files the change added (or copied): the base had none


def changed_lines(change: Change | None, top: Path, root: str) -> ChangedLines | None:
    """None without a change (no base): there is no telling old from new."""
    if change is None:
        return None
    lines = {file.path: frozenset(line.number for line in file.added_lines) for file in change.files}
    edits = {file.path: tuple(line.text for line in (*file.removed_lines, *file.added_lines)) for file in change.files}
    new_files = frozenset(file.path for file in change.files if file.status in (FileStatus.ADDED, FileStatus.COPIED))
    return ChangedLines(
        lines=lines,
        top=top.as_posix().rstrip("/"),
        root="" if root in ("", ".") else root,
        edits=edits,
        new_files=new_files,
    )


def repo_path(printed: str, changed: ChangedLines) -> str:
    """A path as the tool printed it, repository-relative when it can be: one under the checkout
    loses its prefix, a relative one is the stack root's, `./` and `..` are resolved."""
    path = printed.strip()
    if path.startswith(changed.top + "/"):
        return posixpath.normpath(path[len(changed.top) + 1 :])
    if path.startswith("/"):
        return posixpath.normpath(path)
    path = posixpath.normpath(path)
    if changed.root and path != changed.root and not path.startswith(changed.root + "/"):
        path = posixpath.normpath(posixpath.join(changed.root, path))
    return path


def _touched(path: str, changed: ChangedLines) -> str | None:
    """The changed file `path` is (one from another checkout: the changed file it ends with), or None."""
    if path in changed.lines:
        return path
    return next((file for file in changed.lines if path.endswith("/" + file)), None)


def _caused(item: Found, path: str, changed: ChangedLines) -> bool:
    """Whether the change could have caused a diagnostic about the whole file `path`: a new file, or
    no cause to check, or a line it added to or removed from the file that the cause matches."""
    file = _touched(path, changed)
    if file is None:
        return False
    if item.cause is None or file in changed.new_files:
        return True
    return any(item.cause.search(text) for text in changed.edits.get(file, ()))


def _changed(path: str, line: int, changed: ChangedLines) -> bool:
    lines = changed.lines.get(path)
    if lines is not None:
        return line in lines
    # a path from another checkout, or relative to a folder other than the stack's: the changed
    # files it may be (counted new when one of them changed this line, never hidden by a guess)
    return any(line in numbers for file, numbers in changed.lines.items() if path.endswith("/" + file))


def _keep(shown: list[Diagnostic], item: Diagnostic) -> None:
    if len(shown) < MAX_SHOWN:
        shown.append(item)


def classify(found: Sequence[Found], changed: ChangedLines, counted: int | None) -> Located:
    """The diagnostics `found` told apart; the ones the tool counted (`counted`, its summary) beyond
    those found are new with no place."""
    new: list[Diagnostic] = []
    old: list[Diagnostic] = []
    new_count = old_count = unlocated = 0
    for item in found:
        message = item.message[:MAX_MESSAGE]
        if item.path is not None and item.line is None:  # about a whole file: new when the change could cause it
            path = repo_path(item.path, changed)
            shown = Diagnostic(where=path, message=message)
            if _caused(item, path, changed):
                new_count += 1
                _keep(new, shown)
            else:
                old_count += 1
                _keep(old, shown)
            continue
        if item.path is None or item.line is None:
            unlocated += 1
            new_count += 1
            if len(new) < MAX_SHOWN:
                new.append(Diagnostic(where=None, message=message))
            continue
        path = repo_path(item.path, changed)
        shown = Diagnostic(where=f"{path}:{item.line}", message=message)
        if _changed(path, item.line, changed):
            new_count += 1
            if len(new) < MAX_SHOWN:
                new.append(shown)
        else:
            old_count += 1
            if len(old) < MAX_SHOWN:
                old.append(shown)
    beyond = 0 if counted is None else max(0, counted - len(found))
    return Located(
        pre_existing=old_count,
        new=new_count + beyond,
        unlocated=unlocated + beyond,
        new_shown=tuple(new),
        pre_existing_shown=tuple(old),
    )
