"""How git is started: one hardened command line and environment for every run, waited for or
streamed. Kept apart from git.py, which says what is asked of git, so that no call can start git
another way.

A pull request controls the work tree, and a folder of it can hold a bare repository whose config
names a command (`core.fsmonitor`, `core.worktree`, hooks). So every call runs with `-C <top>`, the
top of the real checkout; implicitly discovered bare repositories are refused, fsmonitor and hooks
are off, and no token is in git's environment.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import tempfile
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import IO

from evidence_gate.child_env import scrubbed_environment
from evidence_gate.errors import GitError

# Command-line configuration wins over every config file, the repository's included.
_HARDENING = ("-c", "safe.bareRepository=explicit", "-c", "core.fsmonitor=false", "-c", "core.hooksPath=/dev/null")
_CONFIG = ("-c", "core.quotePath=false", "-c", "diff.suppressBlankEmpty=false", "-c", "core.safecrlf=false")
# Pathspecs per `ls-files` call: far below the kernel's limit on one command line.
_PATHSPEC_BYTES = 100_000


class GitProcess:
    """git run in the checkout whose top is `top`, with a fixed, predictable configuration and an
    environment without tokens."""

    def __init__(self, top: Path, environ: Mapping[str, str]) -> None:
        self.top = top
        self._environ = scrubbed_environment(environ)

    def _command(self, args: list[str], env: dict[str, str] | None = None) -> tuple[list[str], dict[str, str]]:
        """The command line and environment of one run of git, hardened."""
        full_env = {
            **self._environ,
            "LC_ALL": "C",
            "GIT_TERMINAL_PROMPT": "0",
            "GIT_OPTIONAL_LOCKS": "0",
            "GIT_LITERAL_PATHSPECS": "1",  # a path is a path: no ':(glob)' magic from untrusted names
        }
        full_env.pop("GIT_DIR", None)
        full_env.pop("GIT_WORK_TREE", None)
        full_env.pop("GIT_INDEX_FILE", None)
        full_env.update(env or {})
        return ["git", *_HARDENING, *_CONFIG, "-C", os.fsdecode(self.top), *args], full_env

    def _run(
        self, args: list[str], *, check: bool = True, env: dict[str, str] | None = None, stdin: bytes | None = None
    ) -> subprocess.CompletedProcess[bytes]:
        command, full_env = self._command(args, env)
        try:
            result = subprocess.run(
                command,
                cwd=self.top,
                capture_output=True,
                env=full_env,
                check=False,
                input=stdin,
            )
        except OSError as error:
            raise GitError(f"cannot run git ({error})") from error
        if check and result.returncode != 0:
            raise GitError(f"git {args[0]} failed: {first_line(result.stderr)}")
        return result

    @contextlib.contextmanager
    def _stream(self, args: list[str]) -> Iterator[IO[bytes]]:
        """git's output as it writes it, for a reader that keeps less than all of it; git is stopped
        if the reader gives up, and a failure is a GitError once the output is read."""
        command, full_env = self._command(args)
        with tempfile.TemporaryFile() as errors:
            try:
                process = subprocess.Popen(command, cwd=self.top, env=full_env, stdout=subprocess.PIPE, stderr=errors)
            except OSError as error:
                raise GitError(f"cannot run git ({error})") from error
            assert process.stdout is not None  # noqa: S101 -- stdout=PIPE gives one; mypy cannot tell
            with process:
                try:
                    yield process.stdout
                except BaseException:
                    process.kill()
                    raise
                process.stdout.read()  # what the reader left: git must finish writing to exit
            if process.returncode != 0:
                errors.seek(0)
                raise GitError(f"git {args[0]} failed: {first_line(errors.read())}")


def pathspec_batches(pathspecs: list[str]) -> list[list[str]]:
    """`pathspecs` in groups of at most `_PATHSPEC_BYTES`, one git command line each (always one group, maybe empty)."""
    batches: list[list[str]] = [[]]
    size = 0
    for pathspec in pathspecs:
        if batches[-1] and size + len(pathspec) > _PATHSPEC_BYTES:
            batches.append([])
            size = 0
        batches[-1].append(pathspec)
        size += len(pathspec) + 1
    return batches


def first_line(stderr: bytes) -> str:
    lines = [line.strip() for line in stderr.decode("utf-8", "replace").splitlines() if line.strip()]
    return lines[0] if lines else "no message"
