"""A read-only, lazily read view of the directories detection looks at.

Detection must stay fast on large trees, so a directory's entries are listed once and a file is read
only when a rule asks for its content. Problems reading a part of the tree become warnings: they make
the result incomplete, and the caller says so, but they never stop detection.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from evidence_gate.errors import UsageError
from evidence_gate.workspace import Refused, Workspace

MAX_MANIFEST_BYTES = 1024 * 1024


@dataclass
class Warnings:
    """Collects one line per problem; shared by all the views of one scan."""

    lines: list[str] = field(default_factory=list)

    def add(self, line: str) -> None:
        if line not in self.lines:
            self.lines.append(line)


class DirectoryView:
    """One directory of the scanned tree: its entry names, and its files read on demand."""

    def __init__(self, base: Path, rel: str, names: dict[str, bool], warnings: Warnings) -> None:
        self.base = base
        self.rel = rel
        self.names = names  # name -> is a directory (symlinks are not followed)
        self._warnings = warnings
        self._texts: dict[str, str | None] = {}
        self._json: dict[str, object] = {}
        self._below: dict[str, DirectoryView | None] = {}

    @property
    def depth(self) -> int:
        return 0 if self.rel == "." else self.rel.count("/") + 1

    def relpath(self, name: str) -> str:
        """The path of `name` relative to the scanned tree, for evidence and messages."""
        return name if self.rel == "." else f"{self.rel}/{name}"

    def is_dir(self, name: str) -> bool:
        if "/" not in name:
            return self.names.get(name, False)
        return (self.base / self.rel / name).is_dir()

    def exists(self, name: str) -> bool:
        if "/" not in name:
            return name in self.names
        return os.path.lexists(self.base / self.rel / name)

    def tree_root(self) -> DirectoryView | None:
        """The scanned tree's top directory, where a monorepo keeps its CI configuration; listed once."""
        if self.rel == ".":
            return self
        if "/" not in self._below:  # no sub-directory path is "/"
            self._below["/"] = list_directory(self.base, ".", self._warnings)
        return self._below["/"]

    def below(self, path: str) -> DirectoryView | None:
        """The sub-directory at the relative `path`, listed once; None when a part of it is missing,
        not a directory or a symlink (the tree is the pull request's: a link is never followed)."""
        if path not in self._below:
            parent, _, name = path.rpartition("/")
            above = self.below(parent) if parent else self
            view = None
            if above is not None and above.names.get(name, False):
                view = list_directory(self.base, above.relpath(name), self._warnings)
            self._below[path] = view
        return self._below[path]

    def read_text(self, name: str) -> str | None:
        """The file's text (first MiB, undecodable bytes replaced), or None with a warning."""
        if name not in self._texts:
            self._texts[name] = self._read(name)
        return self._texts[name]

    def read_json(self, name: str) -> object:
        """The parsed JSON document, or None with a warning when it is not valid JSON."""
        if name not in self._json:
            text = self.read_text(name)
            document: object = None
            if text is not None:
                try:
                    document = json.loads(text)
                except json.JSONDecodeError as error:
                    self._warnings.add(f"{self.relpath(name)}: not valid JSON ({error}); rules on it did not match")
                except RecursionError:  # nesting past the interpreter's limit: a hostile manifest
                    self._warnings.add(f"{self.relpath(name)}: nested too deep to read; rules on it did not match")
                except ValueError:  # an integer past the 4,300 digits Python reads from text
                    self._warnings.add(f"{self.relpath(name)}: a number too long to read; rules on it did not match")
            self._json[name] = document
        return self._json[name]

    def _read(self, name: str) -> str | None:
        path = self.base / self.rel / name
        if self.names.get(name, False):
            return None
        try:
            # The tree is the pull request's: a manifest linked to a runner file is not read.
            with Workspace.at(self.base).open(path) as handle:
                data = handle.read(MAX_MANIFEST_BYTES)
        except Refused as refusal:
            if not path.is_dir():  # a symlink to a folder is no manifest, and no problem
                self._warnings.add(f"{self.relpath(name)}: {refusal.reason}")
            return None
        if b"\x00" in data:
            self._warnings.add(f"{self.relpath(name)}: binary content; rules on it did not match")
            return None
        return data.decode("utf-8-sig", errors="replace")


def list_directory(base: Path, rel: str, warnings: Warnings) -> DirectoryView | None:
    """List one directory; None (with a warning) when it cannot be listed."""
    try:
        with os.scandir(base / rel) as entries:
            names = {entry.name: entry.is_dir(follow_symlinks=False) for entry in entries}
    except OSError as error:
        warnings.add(f"{rel}/: cannot list ({error.strerror or error}); skipped")
        return None
    return DirectoryView(base, rel, names, warnings)


def open_root(path: Path) -> Path:
    """Check that `path` is a directory we can list, with a one-line error otherwise."""
    if not path.exists():
        raise UsageError(f"{path}: no such directory")
    if not path.is_dir():
        raise UsageError(f"{path}: not a directory")
    try:
        with os.scandir(path):
            pass
    except OSError as error:
        raise UsageError(f"{path}: cannot read this directory ({error.strerror or error})") from error
    return path


def walk(base: Path, max_depth: int, prune: frozenset[str], warnings: Warnings) -> Iterator[DirectoryView]:
    """Breadth-first over directories up to `max_depth` (the root is depth 0).

    Symlinked directories are not followed (no loops, no escaping the tree); pruned names and
    dot-directories are not entered, so vendored code and build output never decide the stack.
    """
    level = ["."]
    for depth in range(max_depth + 1):
        next_level: list[str] = []
        for rel in level:
            view = list_directory(base, rel, warnings)
            if view is None:
                continue
            yield view
            if depth == max_depth:
                continue
            for name, is_dir in sorted(view.names.items()):
                if is_dir and name not in prune and not name.startswith("."):
                    next_level.append(str(PurePosixPath(rel) / name) if rel != "." else name)
        level = next_level
