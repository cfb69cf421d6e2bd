"""In the runner step every process a test starts ends with it: a daemon that left the command's
process group (fork, setsid, fork again, chdir /) included, and nothing that is not the tests'."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from evidence_gate.reaper import reaping
from evidence_gate.runner import CommandRun, run_command

from .conftest import Repo, local_environment

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a child subreaper is Linux's")

DAEMON = """\
import os, sys, time
pid_file, then = sys.argv[1], float(sys.argv[2])
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        os.chdir("/")
        with open(pid_file + ".part", "w") as out:
            out.write(str(os.getpid()))
        os.rename(pid_file + ".part", pid_file)
        time.sleep(600)
        os._exit(0)
    os._exit(0)
os.wait()
while not os.path.exists(pid_file):
    time.sleep(0.01)
time.sleep(then)
print("still there" if os.path.exists("/proc/" + open(pid_file).read()) else "gone")
"""


def gone(pid: int, seconds: float = 5.0) -> bool:
    """Whether `pid` has left /proc (killed and waited for), polled for a while."""
    deadline = time.monotonic() + seconds
    while Path(f"/proc/{pid}").exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    return not Path(f"/proc/{pid}").exists()


def start_daemon(folder: Path, name: str, then: float = 0.0) -> CommandRun:
    """A command that starts a daemon the usual way, writes its pid to `<name>.pid`, waits `then`
    seconds and says whether its daemon is still there."""
    script = folder / "daemon.py"
    script.write_text(DAEMON)
    argv = [sys.executable, str(script), str(folder / f"{name}.pid"), str(then)]
    return run_command(argv, folder, folder / f"{name}.log", 60, environ=local_environment())


def pid_of(folder: Path, name: str) -> int:
    return int((folder / f"{name}.pid").read_text())


def test_without_reaping_the_daemon_escapes_the_group_kill(tmp_path: Path) -> None:
    """What the subreaper is for: the process-group kill alone leaves it running."""
    start_daemon(tmp_path, "escaped")
    daemon = pid_of(tmp_path, "escaped")
    try:
        assert not gone(daemon, seconds=0.5)
    finally:
        os.kill(daemon, signal.SIGKILL)


def test_a_daemon_a_command_starts_is_killed_and_waited_for_when_the_command_ends(tmp_path: Path) -> None:
    with reaping() as in_effect:
        assert in_effect
        run = start_daemon(tmp_path, "daemon")
        assert run.exit_code == 0
        assert gone(pid_of(tmp_path, "daemon"))


def test_a_command_still_running_keeps_its_daemon_until_it_ends(tmp_path: Path) -> None:
    """Strength runs commands side by side: one ending does not kill the other's daemon."""
    with reaping():
        slow = threading.Thread(target=start_daemon, args=(tmp_path, "slow", 3.0))
        slow.start()
        deadline = time.monotonic() + 10
        while not (tmp_path / "slow.pid").exists() and time.monotonic() < deadline:
            time.sleep(0.02)
        start_daemon(tmp_path, "quick")
        assert not gone(pid_of(tmp_path, "quick"), seconds=0.2)  # an orphan's command is unknown: swept at the end
        slow.join()
        assert (tmp_path / "slow.log").read_text().strip() == "still there"
        assert gone(pid_of(tmp_path, "slow")) and gone(pid_of(tmp_path, "quick"))


def test_what_this_process_runs_itself_and_what_ran_before_reaping_are_left_alone(tmp_path: Path) -> None:
    """A git call of another thread (in this process's session), what it starts (even in a session
    of its own) and a process that was there before the runner step began are not the tests'."""
    before = subprocess.Popen(["sleep", "60"], start_new_session=True)
    try:
        with reaping():
            own = subprocess.Popen(["sh", "-c", f"setsid sleep 60 & echo $! > {tmp_path / 'own.pid'}; wait"])
            try:
                while not (tmp_path / "own.pid").exists():
                    time.sleep(0.02)
                start_daemon(tmp_path, "daemon")
                assert gone(pid_of(tmp_path, "daemon"))
                assert own.poll() is None and not gone(pid_of(tmp_path, "own"), seconds=0.2)
            finally:
                os.kill(pid_of(tmp_path, "own"), signal.SIGKILL)
                own.wait()
        assert before.poll() is None
    finally:
        before.kill()
        before.wait()


def test_the_runner_step_ends_the_daemons_its_checks_start(repo: Repo, tmp_path: Path) -> None:
    """The type checker, run by `evidence-gate run --runner-step`, starts a daemon: it is gone once the step is."""
    (tmp_path / "daemon.py").write_text(DAEMON)
    pid_file = tmp_path / "checker.pid"
    config = f"type-check-command: python3 {tmp_path / 'daemon.py'} {pid_file} 0\nlint-command: 'true'\n"
    repo.commit("base", {".github/evidence-gate.yml": config, "app.py": "x = 1\n"})
    repo.commit("head", {"app.py": "x = 2\n"})
    step = ["run", "--runner-step", "--repo", str(repo.path), "--base", "HEAD~1", "--format", "json"]
    command = [sys.executable, "-m", "evidence_gate", *step]
    result = subprocess.run(command, env=local_environment(), capture_output=True, text=True, timeout=300, check=False)
    assert result.returncode in (0, 1), result.stderr
    assert gone(int(pid_file.read_text()))
