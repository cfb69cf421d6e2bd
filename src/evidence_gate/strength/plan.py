"""What a strength run does with a change: which test files it judges, and how it takes the
production change away for the second run. Pure: the change in, the plan out.

Production files go back whole: a file the change modified or deleted is restored from the merge
base, a file it added is removed, a renamed one moves back. Test, CI, configuration and snapshot
files stay as the head has them: the question is whether the head's tests need the head's code.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from evidence_gate.errors import UsageError
from evidence_gate.model import Change, FileKind, FileStatus

_ADDED = (FileStatus.ADDED, FileStatus.COPIED)


@dataclass(frozen=True, kw_only=True)
class Plan:
    tests: tuple[str, ...]  # the changed test files the head has, in the diff's order
    restore: tuple[str, ...]  # production paths brought back as the merge base has them
    remove: tuple[str, ...]  # production paths the change added: gone for the second run
    merge_base: str

    @property
    def reverts(self) -> bool:
        return bool(self.restore or self.remove)

    @property
    def production(self) -> tuple[str, ...]:
        return (*self.restore, *self.remove)


def plan(change: Change) -> Plan:
    tests = [
        changed.path
        for changed in change.files
        if changed.kind is FileKind.TEST and changed.status is not FileStatus.DELETED and not changed.binary
    ]
    restore: dict[str, None] = {}
    remove: dict[str, None] = {}
    for changed in change.of_kind(FileKind.PRODUCTION):
        if changed.status in _ADDED:
            remove[changed.path] = None
        elif changed.status is FileStatus.RENAMED and changed.old_path is not None:
            remove[changed.path] = None
            restore[changed.old_path] = None
        else:
            restore[changed.path] = None
    return Plan(tests=tuple(tests), restore=tuple(restore), remove=tuple(remove), merge_base=change.merge_base)


@dataclass(frozen=True, kw_only=True)
class Shard:
    index: int  # 1-based
    count: int

    @property
    def text(self) -> str:
        return f"{self.index}/{self.count}"

    def holds(self, path: str) -> bool:
        """Stable across runs and machines: a file's shard depends on its path alone."""
        digest = hashlib.sha256(path.encode("utf-8", "surrogateescape")).digest()
        return int.from_bytes(digest[:8], "big") % self.count == self.index - 1


def parse_shard(text: str) -> Shard:
    index, slash, count = text.partition("/")
    if not slash or not index.isdigit() or not count.isdigit() or not 1 <= int(index) <= int(count):
        raise UsageError(f"--shard {text!r}: give I/N, with 1 <= I <= N (2/4 judges the second quarter)")
    return Shard(index=int(index), count=int(count))
