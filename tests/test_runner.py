"""Running a user's command: its whole process group goes when it ends or times out."""

from __future__ import annotations

import os
import time
from pathlib import Path

from evidence_gate.runner import run_command

from .conftest import local_environment


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    status = Path(f"/proc/{pid}/stat").read_text().split(") ")[-1].split()[0] if Path(f"/proc/{pid}").exists() else ""
    return status != "Z"  # a zombie waits only for its parent to read it: it runs nothing


def wait_gone(pid: int) -> bool:
    deadline = time.monotonic() + 5
    while alive(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    return not alive(pid)


def test_a_background_process_a_command_forks_is_killed_when_it_exits(tmp_path: Path) -> None:
    script = "sleep 300 & echo $! > daemon.pid; echo 1 passed"
    run = run_command(["sh", "-c", script], tmp_path, tmp_path / "log", 30, environ=local_environment())
    assert run.exit_code == 0 and not run.timed_out
    assert wait_gone(int((tmp_path / "daemon.pid").read_text()))


def test_a_command_that_hangs_is_killed_with_its_children_at_the_timeout(tmp_path: Path) -> None:
    script = "sleep 300 & echo $! > daemon.pid; sleep 300"
    started = time.monotonic()
    run = run_command(["sh", "-c", script], tmp_path, tmp_path / "log", 0.5, environ=local_environment())
    assert run.timed_out and run.exit_code == 124
    assert time.monotonic() - started < 10
    assert "timed out after" in (tmp_path / "log").read_text()
    assert wait_gone(int((tmp_path / "daemon.pid").read_text()))


def test_extra_variables_are_set_over_the_environment_without_its_tokens(tmp_path: Path) -> None:
    environ = {**local_environment(), "GITHUB_TOKEN": "ghs_secret", "PYTHONPATH": "/elsewhere"}
    script = 'echo "path=$PYTHONPATH token=${GITHUB_TOKEN:-none}"'
    run_command(["sh", "-c", script], tmp_path, tmp_path / "log", 30, environ=environ, extra={"PYTHONPATH": "/mine"})
    assert (tmp_path / "log").read_text().strip() == "path=/mine token=none"
