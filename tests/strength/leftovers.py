"""Proof that a strength run leaves nothing behind: the caller's checkout as it was (HEAD, index,
refs, stash, working tree, untracked files), no worktree registered, no temp dir of ours, and no
process still working in one."""

from __future__ import annotations

import hashlib
import os
import tempfile
from dataclasses import dataclass, replace
from pathlib import Path

from evidence_gate.strength.sandbox import PREFIX

from ..conftest import Repo


@dataclass(frozen=True)
class Checkout:
    head: str
    refs: str
    index: str
    status: str
    stash: str
    files: str
    worktrees: str
    temp_dirs: frozenset[str]


def _files(root: Path) -> str:
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*")):
        if ".git" in path.relative_to(root).parts:
            continue
        digest.update(os.fsencode(path.relative_to(root)))
        if path.is_file() and not path.is_symlink():
            digest.update(path.read_bytes())
    return digest.hexdigest()


def _ours() -> frozenset[str]:
    return frozenset(path.name for path in Path(tempfile.gettempdir()).glob(f"{PREFIX}*"))


class _Leftovers:
    def snapshot(self, repo: Repo) -> Checkout:
        index = repo.path / ".git" / "index"
        return Checkout(
            head=repo.git("rev-parse", "HEAD"),
            refs=repo.git("for-each-ref"),
            index=hashlib.sha256(index.read_bytes()).hexdigest() if index.exists() else "",
            status=repo.git("status", "--porcelain=v1", "--untracked-files=all"),
            stash=repo.git("stash", "list"),
            files=_files(repo.path),
            worktrees=repo.git("worktree", "list", "--porcelain"),
            temp_dirs=_ours(),
        )

    def __call__(self, repo: Repo, before: Checkout) -> None:
        after = self.snapshot(repo)
        assert replace(after, temp_dirs=before.temp_dirs) == before, (
            "the caller's checkout changed, or a worktree is left"
        )
        assert after.temp_dirs <= before.temp_dirs, "a temp dir of the run was left behind"
        ours = str(Path(tempfile.gettempdir()) / PREFIX)
        for pid in (entry for entry in Path("/proc").iterdir() if entry.name.isdigit()):
            try:
                cwd = str((pid / "cwd").readlink())
            except OSError:
                continue
            assert not cwd.startswith(ours), f"process {pid.name} still runs in {cwd}"


assert_nothing_left = _Leftovers()
