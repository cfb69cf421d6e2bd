"""git runs on the real checkout only: a folder of the pull request's work tree cannot become the
repository git works in, git never sees a token, and the number of git processes does not grow
with the number of reports. git is watched through a real wrapper placed first on PATH."""

from __future__ import annotations

import os
import shlex
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from evidence_gate.freshness import stale_reports
from evidence_gate.git import open_repository

from .conftest import TOOLS_OFF, CliResult, Repo, local_environment

PASSING_LOG = "tests/test_cart.py::test_total PASSED\n" + "=" * 30 + " 1 passed in 0.01s " + "=" * 30 + "\n"
JUNIT = '<testsuite name="s" tests="1"><testcase classname="t" name="test_total"/></testsuite>\n'


@dataclass
class GitWatch:
    calls: Path  # one line per git process: its arguments
    environments: Path  # each git process's environment

    def reset(self) -> None:
        self.calls.write_text("")
        self.environments.write_text("")

    def count(self) -> int:
        return len(self.calls.read_text().splitlines())


@pytest.fixture
def watch(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> GitWatch:
    real = shutil.which("git")
    assert real is not None
    folder = tmp_path / "bin"
    folder.mkdir()
    found = GitWatch(calls=tmp_path / "git-calls.log", environments=tmp_path / "git-env.log")
    wrapper = folder / "git"
    wrapper.write_text(
        "#!/bin/sh\n"
        f'printf "%s\\n" "$*" >> {shlex.quote(str(found.calls))}\n'
        f"env >> {shlex.quote(str(found.environments))}\n"
        f'exec {shlex.quote(real)} "$@"\n'
    )
    wrapper.chmod(0o755)
    monkeypatch.setenv("PATH", f"{folder}:{os.environ['PATH']}")
    found.reset()
    return found


def plant_bare_repository(repo: Repo, folder: str, marker: Path) -> Path:
    """What a pull request can commit: a folder that is a bare repository whose config names a
    command for git to run (core.fsmonitor) and makes the folder its work tree (core.worktree)."""
    script = repo.path.parent / "planted.sh"
    script.write_text(f"#!/bin/sh\necho ran >> {shlex.quote(str(marker))}\nexit 1\n")
    script.chmod(0o755)
    target = repo.path / folder
    repo.commit(
        "a bare repository in the reports' folder",
        {
            f"{folder}/HEAD": "ref: refs/heads/main\n",
            f"{folder}/config": (
                "[core]\n\trepositoryformatversion = 0\n\tbare = false\n"
                f"\tfsmonitor = {script}\n\tworktree = {target}\n"
            ),
            f"{folder}/objects/info/keep": "",
            f"{folder}/refs/heads/keep": "",
        },
    )
    return target


def test_a_bare_repository_planted_in_a_report_folder_never_runs_its_command(
    repo: Repo, tmp_path: Path, cli: Callable[..., CliResult]
) -> None:
    repo.commit("base", {"pyproject.toml": "[project]\nname = 'shop'\n"})
    marker = tmp_path / "planted-command-ran"
    folder = plant_bare_repository(repo, "evidence", marker)
    (folder / "junit.xml").write_text(JUNIT)
    (folder / "pytest.log").write_text(PASSING_LOG)
    result = cli(
        "run", "--repo", repo.path, "--reports", "evidence/junit.xml", "evidence/pytest.log", "--format", "json"
    )
    assert "Traceback" not in result.err
    assert not marker.exists()


def test_the_evidence_verb_never_runs_a_command_planted_beside_its_reports(
    repo: Repo, tmp_path: Path, cli: Callable[..., CliResult], monkeypatch: pytest.MonkeyPatch
) -> None:
    repo.commit("base")
    marker = tmp_path / "planted-command-ran"
    folder = plant_bare_repository(repo, "evidence", marker)
    (folder / "junit.xml").write_text(JUNIT)
    (folder / "pytest.log").write_text(PASSING_LOG)
    monkeypatch.chdir(repo.path)
    result = cli("evidence", "--claim", "test", "evidence/pytest.log", "--junit", "evidence/junit.xml")
    assert "claim: ok" in result.out
    assert not marker.exists()


def test_git_never_sees_a_token(
    repo: Repo, cli: Callable[..., CliResult], watch: GitWatch, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo.commit("base", {"evidence/.gitignore": "*.log\n"})
    (repo.path / "evidence" / "pytest.log").write_text(PASSING_LOG)
    monkeypatch.setenv("GITHUB_TOKEN", "ghs_fromtheworkflow")
    monkeypatch.setenv("INPUT_GITHUB-TOKEN", "ghs_fromtheinput")
    watch.reset()
    cli("run", "--repo", repo.path, "--reports", "evidence/pytest.log")
    assert watch.count() > 0
    assert "ghs_" not in watch.environments.read_text()


def test_every_git_call_runs_on_the_checkout_with_fsmonitor_hooks_and_implicit_bare_repositories_off(
    repo: Repo, cli: Callable[..., CliResult], watch: GitWatch
) -> None:
    repo.commit("base", {"evidence/.gitignore": "*.log\n"})
    (repo.path / "evidence" / "pytest.log").write_text(PASSING_LOG)
    watch.reset()
    cli("run", "--repo", repo.path, "--reports", "evidence/pytest.log")
    calls = watch.calls.read_text().splitlines()
    assert calls
    for call in calls:
        assert "-c safe.bareRepository=explicit -c core.fsmonitor=false -c core.hooksPath=/dev/null" in call
        assert f"-C {repo.path}" in call


def run_with_reports(repo: Repo, cli: Callable[..., CliResult], watch: GitWatch, count: int) -> int:
    """The number of git processes for a run over `count` fresh logs."""
    folder = repo.path / "evidence"
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir()
    for index in range(count):
        (folder / f"shard-{index:04}.log").write_text(PASSING_LOG)
    watch.reset()
    result = cli("run", "--repo", repo.path, "--reports", "evidence/*.log", "--format", "json", *TOOLS_OFF)
    assert '"verdict": "PASS"' in result.out, result.out[-2000:]
    return watch.count()


def test_the_number_of_git_processes_does_not_grow_with_the_number_of_reports(
    repo: Repo, cli: Callable[..., CliResult], watch: GitWatch
) -> None:
    repo.commit("base", {"pyproject.toml": "[project]\nname = 'shop'\n", ".gitignore": "evidence/\n"})
    assert run_with_reports(repo, cli, watch, 2_000) == run_with_reports(repo, cli, watch, 2)


def test_a_run_in_a_folder_that_is_a_planted_bare_repository_is_refused_not_run_without_git(
    repo: Repo, tmp_path: Path, cli: Callable[..., CliResult]
) -> None:
    repo.commit("base")
    marker = tmp_path / "planted-command-ran"
    folder = plant_bare_repository(repo, "app", marker)
    (folder / "junit.xml").write_text(JUNIT)
    repo.commit("a committed passing report", {"app/junit.xml": JUNIT})
    result = cli("run", "--repo", folder, "--reports", "junit.xml")
    assert result.code == 2
    assert "a bare repository in the work tree, refused" in result.err
    assert not marker.exists()


def test_one_batch_finds_the_committed_reports_among_fresh_ones_in_any_folder(repo: Repo) -> None:
    repo.commit("reports", {"evidence/deep/junit.xml": JUNIT, "committed.xml": JUNIT})
    (repo.path / "evidence" / "deep" / "link.xml").symlink_to("../../committed.xml")
    fresh = [repo.path / "evidence" / "deep" / "fresh.xml", repo.path / "evidence" / "other.xml"]
    for path in fresh:
        path.write_text(JUNIT)
    reports = [repo.path / "evidence" / "deep" / "junit.xml", repo.path / "evidence" / "deep" / "link.xml", *fresh]
    stale = stale_reports(reports, None, open_repository(repo.path, local_environment()))
    assert stale == (
        f"{reports[0]} is committed to git, not produced by this run",
        f"{reports[1]} is committed to git, not produced by this run",
    )
