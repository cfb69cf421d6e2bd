"""The changes the tool makes to a work tree of its own (a strength run's worktree): paths restored
from a commit, files written or removed, the whole tree reset, and whether it still differs from a
commit. Kept apart from git.py's reading of a checkout: these are the only calls that change files.
"""

from __future__ import annotations

from collections.abc import Iterable

from evidence_gate.git_process import GitProcess, pathspec_batches


class WorktreeEdits(GitProcess):
    """What `Git` can change in its work tree; meant for a worktree the tool made, never the user's checkout."""

    def restore_paths(self, commit: str, paths: Iterable[str]) -> None:
        """Make these paths of this work tree (and its index) what `commit` has."""
        for batch in pathspec_batches(list(paths)):
            if batch:
                self._run(["checkout", "--no-overlay", commit, "--", *batch])

    def write_file(self, relative: str, content: bytes, mode: str) -> None:
        """Make the file at `relative` in this work tree (and its index) hold `content`. Git writes it,
        as it writes a checkout: never through a symbolic link the work tree holds."""
        blob = self._run(["hash-object", "-w", "--stdin"], stdin=content).stdout.decode().strip()
        self._run(["update-index", "--add", "--cacheinfo", f"{mode},{blob},{relative}"])
        self._run(["checkout-index", "--force", "--", relative])

    def remove_paths(self, paths: Iterable[str]) -> None:
        for batch in pathspec_batches(list(paths)):
            if batch:
                self._run(["rm", "-q", "-r", "-f", "--ignore-unmatch", "--", *batch])

    def reset_to(self, commit: str) -> None:
        """Tracked files as `commit` has them; untracked ones (installed dependencies) stay."""
        self._run(["reset", "-q", "--hard", commit])

    def tree_differs(self, commit: str, paths: Iterable[str]) -> bool:
        """Whether this work tree's files at `paths` differ from `commit`'s (a path gone counts)."""
        return any(
            self._run(["diff", "--quiet", commit, "--", *batch], check=False).returncode == 1
            for batch in pathspec_batches(list(paths))
            if batch
        )
