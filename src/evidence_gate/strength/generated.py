"""The files an install generated into the caller's checkout that git ignores, copied into each
worktree: a worktree is made from git, so it lacks them, and a package whose `__init__.py` imports
the `_version.py` setuptools-scm or hatch-vcs wrote at `pip install -e .` does not import there.

Only what a test's imports can need, and never more than a few megabytes:

- a regular file, never a link (the link would be the pull request's, and may lead anywhere), read
  without following one;
- beside a file the head tracks with the same suffix (`src/shop/_version.py` next to
  `src/shop/cart.py`), so a log, a report or a secret at the top is not taken for code;
- not under an environment, build or cache folder, nor a dot-folder, nor a dot-file itself;
- at most `MAX_FILES` files of at most `MAX_FILE_BYTES` each, `MAX_TOTAL_BYTES` in all, in the
  order git lists them; a file the worktree has (from git) is never overwritten.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable
from pathlib import Path, PurePosixPath

from evidence_gate.git import Git
from evidence_gate.workspace import Refused, open_regular, read_at_most

MAX_FILES = 200
MAX_FILE_BYTES = 1024 * 1024
MAX_TOTAL_BYTES = 8 * 1024 * 1024
SKIPPED_FOLDERS = frozenset({"node_modules", ".venv", "venv", "build", "dist", "target", "__pycache__", ".git"})
_WRITE_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)


def generated_files(checkout: Git, head_files: Iterable[str]) -> tuple[str, ...]:
    """The ignored files of the caller's checkout to copy, relative to its top: those beside a file
    of `head_files` (what the worktrees hold from git) with the same suffix."""
    suffixes: dict[str, set[str]] = {}
    for path in head_files:
        pure = PurePosixPath(path)
        suffixes.setdefault(pure.parent.as_posix(), set()).add(pure.suffix)
    chosen = []
    for path in checkout.ignored_files():
        pure = PurePosixPath(path)
        if pure.suffix and pure.suffix in suffixes.get(pure.parent.as_posix(), ()) and _allowed(pure):
            chosen.append(path)
    return tuple(chosen)


def copy_generated(source: Path, tree: Path, files: Iterable[str]) -> tuple[str, ...]:
    """Copy `files` (relative paths) from the checkout at `source` into the worktree at `tree`,
    within the caps; the ones copied, in order."""
    copied: list[str] = []
    total = 0
    root = tree.resolve()
    for path in files:
        if len(copied) >= MAX_FILES:
            break
        target = tree / path
        if os.path.lexists(target) or not _real_folder(target.parent, (root / path).parent):
            continue
        content, mode = _read(source / path)
        if content is None or total + len(content) > MAX_TOTAL_BYTES:
            continue
        try:
            descriptor = os.open(target, _WRITE_FLAGS, mode)
        except OSError:
            continue
        with os.fdopen(descriptor, "wb") as handle:
            handle.write(content)
        total += len(content)
        copied.append(path)
    return tuple(copied)


def _real_folder(folder: Path, expected: Path) -> bool:
    """Whether the worktree's folder is there and is itself, no link on the way: a tracked folder."""
    return folder.is_dir() and folder.resolve() == expected


def _allowed(path: PurePosixPath) -> bool:
    folders = path.parts[:-1]
    if path.name.startswith("."):
        return False
    return not any(part in SKIPPED_FOLDERS or part.startswith(".") or part.endswith(".egg-info") for part in folders)


def _read(path: Path) -> tuple[bytes | None, int]:
    """The file's bytes and permission bits, or None: a link, not a regular file, or too big."""
    try:
        with open_regular(path) as handle:
            mode = stat.S_IMODE(os.fstat(handle.fileno()).st_mode)
            content = read_at_most(handle, MAX_FILE_BYTES + 1)
    except (Refused, OSError):
        return None, 0
    return (content, mode) if len(content) <= MAX_FILE_BYTES else (None, 0)
