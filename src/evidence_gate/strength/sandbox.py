"""Where a strength run's tests run: detached worktrees under the system temp dir, never inside the
repository, made once per job and removed on the way out, however it goes.

Leaving never depends on the tests behaving: every process still working inside a worktree (a
daemon a test started in a session of its own included) is killed before the worktree is removed,
and an interrupted earlier run's leftovers (this prefix, older than ten minutes) are swept at the
start. The caller's checkout is only read: its HEAD, index, refs, stash and files stay as they are.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from evidence_gate.git import Git

PREFIX = "evidence-gate-strength-"
STALE_SECONDS = 600.0


class Sandbox:
    """The worktrees of one run, in one temporary folder."""

    def __init__(self, git: Git, commit: str) -> None:
        self._git, self._commit = git, commit
        self.root = Path(tempfile.mkdtemp(prefix=PREFIX))
        self._trees: list[Path] = []

    def tree(self) -> Git:
        """A new worktree of the run's commit, opened as a checkout of its own."""
        tree = self.root / f"job-{len(self._trees) + 1}"
        self._trees.append(tree)
        return self._git.add_worktree(tree, self._commit)

    def close(self) -> None:
        kill_processes_in(self.root)
        for tree in self._trees:
            self._git.remove_worktree(tree)
        shutil.rmtree(self.root, ignore_errors=True)
        self._git.prune_worktrees()


@contextlib.contextmanager
def sandbox(git: Git, commit: str) -> Iterator[Sandbox]:
    made = Sandbox(git, commit)
    try:
        yield made
    finally:
        made.close()


@contextlib.contextmanager
def terminations_interrupt() -> Iterator[None]:
    """SIGTERM (a cancelled CI job) unwinds like Ctrl-C, so the worktrees are removed either way."""

    def interrupt(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    try:
        previous = signal.signal(signal.SIGTERM, interrupt)
    except ValueError:  # not the main thread: whoever runs us there handles signals
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def sweep_stale(git: Git, clock: Callable[[], float] = time.time) -> list[Path]:
    """Remove what interrupted runs left behind (their folders, older than ten minutes), and have
    git forget their worktrees."""
    swept = []
    for folder in Path(tempfile.gettempdir()).glob(f"{PREFIX}*"):
        with contextlib.suppress(OSError):
            if folder.is_dir() and not folder.is_symlink() and clock() - folder.stat().st_mtime > STALE_SECONDS:
                kill_processes_in(folder)
                shutil.rmtree(folder, ignore_errors=True)
                swept.append(folder)
    git.prune_worktrees()
    return swept


def kill_processes_in(root: Path) -> None:
    """Kill every process whose working directory is inside `root` (Linux's /proc; elsewhere the
    runner's process groups are all there is)."""
    proc = Path("/proc")
    if not proc.is_dir():
        return
    inside = os.path.realpath(root) + os.sep
    for entry in proc.iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        with contextlib.suppress(OSError):
            if (str((entry / "cwd").readlink()) + os.sep).startswith(inside):
                os.kill(int(entry.name), signal.SIGKILL)
