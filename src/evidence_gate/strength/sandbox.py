"""Where a strength run's tests run: detached worktrees under the system temp dir, never inside the
repository, made once per job and removed on the way out, however it goes.

Leaving never depends on the tests behaving: every process still working inside a worktree (a
daemon a test started in a session of its own included) is killed before the worktree is removed,
and an interrupted earlier run's leftovers (this prefix, older than ten minutes) are swept at the
start. The caller's checkout is only read: its HEAD, index, refs, stash and files stay as they are.

A worktree another live run still uses is never swept, however old (two jobs on one self-hosted
runner, a run longer than ten minutes): a live sandbox holds an exclusive `flock` on the lock file
in its folder for as long as it lives, and the kernel lets it go when the process ends however it
ends. The sweep takes that lock without waiting and sweeps a folder only when it got it, or when the
folder has no lock file (an older version's); the age rule stays, so a folder made a moment ago,
whose lock is not taken yet, is not swept either.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import shutil
import signal
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from evidence_gate.git import Git

PREFIX = "evidence-gate-strength-"
LOCK = ".lock"  # in a sandbox's folder: held by the run that made it
STALE_SECONDS = 600.0


class Sandbox:
    """The worktrees of one run, in one temporary folder (in `parent`, default the system's temp dir)."""

    def __init__(self, git: Git, commit: str, parent: Path | None = None) -> None:
        self._git, self._commit = git, commit
        self.root = Path(tempfile.mkdtemp(prefix=PREFIX, dir=parent))
        self._lock = os.open(self.root / LOCK, os.O_CREAT | os.O_EXCL | os.O_RDWR | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
        fcntl.flock(self._lock, fcntl.LOCK_EX)
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
        os.close(self._lock)


@contextlib.contextmanager
def sandbox(git: Git, commit: str, parent: Path | None = None) -> Iterator[Sandbox]:
    made = Sandbox(git, commit, parent)
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


def sweep_stale(git: Git, clock: Callable[[], float] = time.time, parent: Path | None = None) -> list[Path]:
    """Remove what interrupted runs left behind (their folders in `parent`, default the system's
    temp dir, older than ten minutes and whose lock no live run holds), and have git forget their
    worktrees."""
    swept = []
    for folder in Path(parent or tempfile.gettempdir()).glob(f"{PREFIX}*"):
        with contextlib.suppress(OSError):
            if folder.is_dir() and not folder.is_symlink() and clock() - folder.stat().st_mtime > STALE_SECONDS:
                with _abandoned(folder) as abandoned:
                    if abandoned:
                        kill_processes_in(folder)
                        shutil.rmtree(folder, ignore_errors=True)
                        swept.append(folder)
    git.prune_worktrees()
    return swept


@contextlib.contextmanager
def _abandoned(folder: Path) -> Iterator[bool]:
    """Whether no live run holds `folder`: its lock taken (and held while it is swept), or no lock
    file at all. A lock file that cannot be opened (a symlink, another user's) is not ours to judge."""
    try:
        lock = os.open(folder / LOCK, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
    except FileNotFoundError:
        yield True
        return
    except OSError:
        yield False
        return
    try:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            yield False
            return
        yield True
    finally:
        os.close(lock)


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
