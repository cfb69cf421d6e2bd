"""A worktree another live run still uses is never swept, however old: a live sandbox holds the
lock in its folder, and the sweep of stale folders takes only what it can lock."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

from evidence_gate.git import Git
from evidence_gate.strength.sandbox import LOCK, PREFIX, STALE_SECONDS, sandbox, sweep_stale

from ..conftest import Repo, local_environment

HOLDER = """\
import fcntl, os, sys, time
lock = os.open(sys.argv[1], os.O_RDWR)
fcntl.flock(lock, fcntl.LOCK_EX)
print("held", flush=True)
time.sleep(600)
"""


def old_folder(parent: Path, name: str, *, lock: bool) -> Path:
    folder = parent / f"{PREFIX}{name}"
    (folder / "job-1").mkdir(parents=True)
    if lock:
        (folder / LOCK).touch()
    stale = time.time() - 2 * STALE_SECONDS
    os.utime(folder, (stale, stale))
    return folder


def test_a_folder_whose_lock_another_process_holds_is_kept_until_that_process_is_gone(
    repo: Repo, tmp_path: Path
) -> None:
    repo.commit("init")
    git = Git(repo.path, local_environment())
    temp = tmp_path / "temp"
    held = old_folder(temp, "held", lock=True)
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(held / LOCK)], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        assert sweep_stale(git, parent=temp) == []
        assert held.is_dir()
    finally:
        holder.kill()
        holder.wait()
    assert sweep_stale(git, parent=temp) == [held]
    assert not held.exists()


def test_a_stale_folder_without_a_lock_file_is_swept_and_a_fresh_one_is_not(repo: Repo, tmp_path: Path) -> None:
    repo.commit("init")
    git = Git(repo.path, local_environment())
    temp = tmp_path / "temp"
    stale = old_folder(temp, "older-version", lock=False)
    fresh = temp / f"{PREFIX}fresh"
    fresh.mkdir()
    assert sweep_stale(git, parent=temp) == [stale]
    assert fresh.is_dir()


def test_a_live_sandbox_older_than_ten_minutes_is_not_swept(repo: Repo, tmp_path: Path) -> None:
    head = repo.commit("init", {"a.txt": "a\n"})
    git = Git(repo.path, local_environment())
    temp = tmp_path / "temp"
    temp.mkdir()
    with sandbox(git, head, temp) as box:
        box.tree()
        assert sweep_stale(git, clock=lambda: time.time() + 2 * STALE_SECONDS, parent=temp) == []
        assert (box.root / "job-1" / "a.txt").is_file()
    assert not box.root.exists()
