"""The side effects a run may have, as one value the entry points build and pass in: the
environment, the git checkout, the files it may read and write (the workspace), the commands it may
start, and the clock.

Everything past the entry points (`cli.main`, `action.main`) takes what it needs from here rather
than reaching for `os.environ`, opening its own `Git` or starting its own processes, so a test can
hand in a real temporary repository, a recording command runner or a fixed clock, and a gate that
must run tests (in a worktree of its own) gets its shell from the same place as every other.
"""

from __future__ import annotations

import contextlib
import functools
import tempfile
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from evidence_gate.git import Git, open_repository
from evidence_gate.runner import CommandRun, run_command
from evidence_gate.tool_lookup import VENV_DIRS, own_environment, search_path
from evidence_gate.workspace import Workspace


class CommandRunner(Protocol):
    """Runs `argv` (no shell) in `cwd`, its output into the file `output`, for at most `timeout` seconds,
    with `extra` variables set over the run's environment."""

    def __call__(
        self, argv: Sequence[str], cwd: Path, output: Path, timeout: float, *, extra: Mapping[str, str] | None = None
    ) -> CommandRun: ...


@dataclass(frozen=True, kw_only=True)
class Effects:
    repo: Path  # the directory the run is about; `git.top` when it is in a checkout
    environ: Mapping[str, str] = field(repr=False)
    git: Git | None
    workspace: Workspace
    commands: CommandRunner
    in_ci: bool  # unattended: nobody reads a warning before the result counts
    runs_tests: bool = True  # the project's toolchain is here (the runner); not in the action's container
    clock: Callable[[], float] = time.time  # seconds since the epoch
    own_environment: Path | None = None  # evidence-gate's own virtualenv's scripts: never a project's tool
    project: Path | None = None  # where the project's virtualenv is, when `top` is a worktree of another revision

    @functools.cached_property
    def tools_path(self) -> str:
        """The PATH the project's tools are found on and run with (see `tool_lookup.py`). A
        virtualenv folder git tracks is the pull request's files, not an environment the job made:
        a committed `.venv/bin/ruff` that prints "All checks passed!" is never the linter."""
        root = self.project or self.top
        git = self.git if self.project is None else open_repository(root, self.environ)
        venvs = [name for name in VENV_DIRS if git is None or not git.tracks_any(name)]
        return search_path(root, self.environ, self.own_environment, venvs)

    @property
    def top(self) -> Path:
        """The checkout's top directory, or the repo itself outside git."""
        return self.git.top if self.git else self.repo

    def worktree(self, commit: str) -> contextlib.AbstractContextManager[Path]:
        """A temporary work tree of `commit` (see `Git.worktree`), for a gate that runs code there."""
        return self.checkout().worktree(commit)

    def scratch(self, prefix: str) -> contextlib.AbstractContextManager[Path]:
        """A temporary directory of the run's own, removed with everything in it when the block ends."""
        return _scratch(prefix)

    def checkout(self) -> Git:
        """The git checkout, for what cannot be done without one: without it, the error that says why."""
        return self.git if self.git is not None else Git(self.repo, self.environ)


@contextlib.contextmanager
def _scratch(prefix: str) -> Iterator[Path]:
    with tempfile.TemporaryDirectory(prefix=prefix) as directory:
        yield Path(directory)


def effects_for(repo: Path, environ: Mapping[str, str], workspace: Workspace | None = None) -> Effects:
    """The effects of a run about `repo`: its checkout opened once, files bounded by the workspace
    the environment names (`Workspace.from_environment`) unless one is given, and commands run
    with `environ`, tokens removed."""
    return Effects(
        repo=repo,
        environ=environ,
        git=open_repository(repo, environ),
        workspace=workspace or Workspace.from_environment(repo, environ),
        commands=functools.partial(run_command, environ=environ),
        in_ci=environ.get("CI") == "true" or environ.get("GITHUB_ACTIONS") == "true",
        own_environment=own_environment(),
    )
