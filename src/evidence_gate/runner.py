"""Running a user's command (a filtered test run): the one place the tool starts a program.

The command comes from the workflow's configuration, never from the pull request, and runs as an
argument vector without a shell, so a value put into one of its arguments stays that one argument
whatever characters it holds. Tokens are removed
from its environment, so repository code run by a test command cannot use the workflow's token.
Output goes to a file, so a long run is read in bounded memory like any log.
"""

from __future__ import annotations

import contextlib
import os
import shlex
import signal
import subprocess
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from evidence_gate import reaper
from evidence_gate.child_env import scrubbed_environment
from evidence_gate.errors import UsageError
from evidence_gate.event import load_context


@dataclass(frozen=True, kw_only=True)
class CommandRun:
    command: str
    exit_code: int  # 124 when it timed out
    output: Path
    seconds: float = 0.0  # its wall time

    @property
    def timed_out(self) -> bool:
        return self.exit_code == 124


def refuse_untrusted_head(environ: Mapping[str, str]) -> None:
    """`pull_request_target` runs with a write token and the repository's secrets, on a pull request
    whose head may be a fork's code: running that code there hands both to whoever opened it. The
    head must be proven to be this repository; anything short of that is refused."""
    if environ.get("GITHUB_EVENT_NAME") != "pull_request_target":
        return
    context = load_context(environ)
    reason = "GITHUB_REPOSITORY is not set" if context is None else context.refusal_to_run_head()
    if reason is not None:
        raise UsageError(
            f"refusing to run repository code: this is a pull_request_target run, which holds a write token and"
            f" secrets, and {reason}; run tests in a pull_request workflow instead (see docs/fork-pull-requests.md)"
        )


def run_command(
    argv: Sequence[str],
    cwd: Path,
    output: Path,
    timeout: float,
    *,
    environ: Mapping[str, str],
    extra: Mapping[str, str] | None = None,
) -> CommandRun:
    """Run the program `argv[0]` with the arguments `argv[1:]` in `cwd`, no shell in between,
    stdout and stderr together into `output`. `environ` is the run's environment: it says whether
    the head may run at all, and the program gets it without its tokens, with `extra` set over it.

    The program leads a process group of its own, and the whole group is killed when it times out
    and when it exits: a test that forked a server or daemon leaves nothing running behind it. In
    the runner step (`reaper.reaping`), a daemon that left the group in a session of its own is
    killed too."""
    refuse_untrusted_head(environ)
    command = shlex.join(argv)
    started = time.monotonic()
    try:
        with output.open("wb") as sink:
            process = reaper.launch(
                lambda: subprocess.Popen(
                    list(argv),
                    cwd=cwd,
                    stdin=subprocess.DEVNULL,
                    stdout=sink,
                    stderr=subprocess.STDOUT,
                    env={**scrubbed_environment(environ), **(extra or {})},
                    start_new_session=True,
                )
            )
            try:
                exit_code = process.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                _kill_group(process.pid)
                process.wait()
                sink.write(f"\n[evidence-gate] timed out after {timeout:.0f} s\n".encode())
                return CommandRun(command=command, exit_code=124, output=output, seconds=time.monotonic() - started)
            finally:
                _kill_group(process.pid)
                process.wait()
                reaper.ended(process.pid)
    except OSError as error:
        raise UsageError(f"cannot run `{command}` ({error.strerror or error})") from error
    return CommandRun(command=command, exit_code=exit_code, output=output, seconds=time.monotonic() - started)


def _kill_group(leader: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(leader, signal.SIGKILL)
