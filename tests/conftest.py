"""Shared helpers: real directory trees and real git repositories in temp dirs, and the CLI run
in-process with its exit code and both output streams."""

from __future__ import annotations

import io
import os
import shutil
import subprocess
import tempfile
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from tests.tools import MARK_HELP, check_marks

if TYPE_CHECKING:  # the CLI and the pipeline are imported where they run: collecting imports neither
    from evidence_gate.effects import Effects
    from evidence_gate.ledger.digest import Digest
    from evidence_gate.ledger.model import Ledger
    from evidence_gate.model import PullRequest
    from evidence_gate.settings import Settings


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", MARK_HELP)
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if worker:
        # Each worker of a parallel run (pytest-xdist) keeps its temp files, and those of the processes
        # its tests start, in a folder of its own: a test proving that a run left no temp dir and no
        # process behind then sees its own worker's runs, never another's.
        private = Path(tempfile.mkdtemp(prefix=f"evidence-gate-tests-{worker}-"))
        private.chmod(0o711)  # as /tmp is to a test that runs a step as an unprivileged user: enterable
        os.environ["TMPDIR"] = str(private)
        tempfile.tempdir = str(private)
        config.add_cleanup(lambda: shutil.rmtree(private, ignore_errors=True))


@pytest.fixture(scope="session")
def go_build_cache() -> Path:
    """The machine's own Go build cache (`go env GOCACHE`), as a developer's builds share it and the
    rest of the suite's Go runs use it (Go's cache is safe for processes side by side): each test still
    runs its own `go build` or `go test`; the standard library is not compiled again for each."""
    found = subprocess.run(["go", "env", "GOCACHE"], capture_output=True, text=True, check=True, timeout=60)
    return Path(found.stdout.strip())


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    """A test whose `needs` mark names a missing tool is skipped, or fails in CI, before its fixtures run."""
    check_marks(item)


def write_tree(root: Path, files: Mapping[str, str | bytes]) -> Path:
    """Create `files` (relative path -> content; a path ending in "/" is an empty directory)."""
    for rel, content in files.items():
        path = root / rel
        if rel.endswith("/"):
            path.mkdir(parents=True, exist_ok=True)
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
    return root


def git(repo: Path, *args: str | bytes, input_bytes: bytes | None = None) -> str:
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "Test Author",
        "GIT_AUTHOR_EMAIL": "author@example.com",
        "GIT_COMMITTER_NAME": "Test Author",
        "GIT_COMMITTER_EMAIL": "author@example.com",
        "GIT_CONFIG_NOSYSTEM": "1",
        "HOME": str(repo),
    }
    result = subprocess.run(["git", *args], cwd=repo, env=env, input=input_bytes, capture_output=True, check=True)
    return result.stdout.decode("utf-8", "replace").strip()


@dataclass
class Repo:
    """A real git repository in a temp dir."""

    path: Path

    def write(self, files: Mapping[str, str | bytes]) -> None:
        write_tree(self.path, files)

    def commit(self, message: str, files: Mapping[str, str | bytes] | None = None) -> str:
        if files:
            self.write(files)
        git(self.path, "add", "--all")
        git(self.path, "commit", "--quiet", "--allow-empty", "-m", message)
        return git(self.path, "rev-parse", "HEAD")

    def git(self, *args: str) -> str:
        return git(self.path, *args)


@pytest.fixture
def repo(tmp_path: Path) -> Repo:
    path = tmp_path / "repo"
    path.mkdir()
    git(path, "init", "--quiet", "--initial-branch=main")
    return Repo(path)


@dataclass
class CliResult:
    code: int
    out: str
    err: str


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str]) -> Callable[..., CliResult]:
    """Run `evidence-gate ARGS` in-process."""

    from evidence_gate.cli import main

    def run(*args: str | os.PathLike[str]) -> CliResult:
        out = io.StringIO()
        try:
            code = main([os.fspath(arg) for arg in args], out=out)
        except SystemExit as exit_:  # argparse's own usage errors
            code = int(exit_.code or 0)
        captured = capsys.readouterr()
        return CliResult(code=code, out=out.getvalue() + captured.out, err=captured.err)

    return run


TOOL_CHECKS = ("type-check", "lint")
TOOLS_OFF = ("--gates-off", *TOOL_CHECKS)  # `run`'s flags for a test not about the project's own tools


def local_environment() -> dict[str, str]:
    """This process's environment as a developer's machine has it: no Actions or CI variables."""
    return {
        name: value
        for name, value in os.environ.items()
        if not name.startswith(("GITHUB_", "INPUT_", "RUNNER_")) and name != "CI"
    }


def judge_repo(
    settings: Settings,
    *,
    pull_request: PullRequest | None = None,
    baseline: Digest | None = None,
    in_ci: bool = False,
    effects: Effects | None = None,
    tools: bool = False,
) -> Ledger:
    """The pipeline on a real repository, with real effects (its checkout, its files, real
    commands, the clock), as `run` has them; `in_ci` as in an unattended run. The project's own
    type checker and linter (checks 1 and 2) run only with `tools`: elsewhere they are switched
    off, as they are not what those tests are about."""
    from evidence_gate.effects import effects_for
    from evidence_gate.facts import RunInputs
    from evidence_gate.pipeline import run_pipeline
    from evidence_gate.stacks.table import default_table

    if not tools:
        settings = replace(settings, gates_off=tuple(dict.fromkeys((*settings.gates_off, *TOOL_CHECKS))))
    effects = effects or effects_for(settings.repo, local_environment())
    inputs = RunInputs(pull_request=pull_request, baseline=baseline, table=default_table())
    return run_pipeline(settings, inputs, replace(effects, in_ci=in_ci))
