"""Where `reports` globs may lead: the user's own (a `run --reports` flag, the action's input) may
name files anywhere; the repository's config file, which a pull request can edit, only files inside
the repository. Inside the workspace the refusals hold whoever wrote the glob."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from .conftest import TOOLS_OFF, CliResult, Repo

PASSING_LOG = "tests/test_cart.py::test_total PASSED\n" + "=" * 30 + " 1 passed in 0.01s " + "=" * 30 + "\n"


@pytest.fixture
def project(repo: Repo, monkeypatch: pytest.MonkeyPatch) -> Repo:
    """A committed Python project, run outside Actions (the workspace is the repository)."""
    for name in ("GITHUB_WORKSPACE", "GITHUB_ACTIONS", "CI", "INPUT_REPORTS"):
        monkeypatch.delenv(name, raising=False)
    repo.commit("project", {"pyproject.toml": "[project]\nname = 'shop'\n", ".gitignore": "evidence/\n"})
    return repo


def outside_log(tmp_path: Path) -> Path:
    """A fresh log outside the repository, written after its last commit."""
    folder = tmp_path / "elsewhere"
    folder.mkdir()
    (folder / "pytest.log").write_text(PASSING_LOG)
    return folder


def evidence(result: CliResult) -> dict[str, Any]:
    ledger = json.loads(result.out)
    gate: dict[str, Any] = next(gate for gate in ledger["gates"] if gate["id"] == "evidence")
    return gate


def test_an_absolute_glob_on_the_command_line_reads_the_files_it_names(
    project: Repo, tmp_path: Path, cli: Callable[..., CliResult]
) -> None:
    folder = outside_log(tmp_path)
    result = cli("run", "--repo", project.path, "--reports", f"{folder}/*.log", "--format", "json", *TOOLS_OFF)
    assert (result.code, json.loads(result.out)["verdict"]) == (0, "PASS"), result.out + result.err
    assert json.loads(result.out)["counts"]["executed"] == 1


def test_a_glob_on_the_command_line_may_climb_out_of_the_repository(
    project: Repo, tmp_path: Path, cli: Callable[..., CliResult]
) -> None:
    outside_log(tmp_path)
    result = cli("run", "--repo", project.path, "--reports", "../elsewhere/*.log", "--format", "json", *TOOLS_OFF)
    assert json.loads(result.out)["verdict"] == "PASS", result.out + result.err


def test_the_actions_reports_input_may_be_absolute(
    project: Repo, tmp_path: Path, cli: Callable[..., CliResult], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("INPUT_REPORTS", f"{outside_log(tmp_path)}/pytest.log")
    result = cli("run", "--repo", project.path, "--format", "json", *TOOLS_OFF)
    assert json.loads(result.out)["verdict"] == "PASS", result.out + result.err


@pytest.mark.parametrize("glob", ["{folder}/*.log", "../elsewhere/*.log"])
def test_a_config_files_glob_leaving_the_repository_is_refused(
    project: Repo, tmp_path: Path, cli: Callable[..., CliResult], glob: str
) -> None:
    folder = outside_log(tmp_path)
    project.commit("config", {".github/evidence-gate.yml": f"reports:\n  - {glob.format(folder=folder)}\n"})
    result = cli("run", "--repo", project.path, "--format", "json")
    assert result.code == 2
    assert result.err.startswith("evidence-gate: error: reports: ")
    assert "a glob in the config file must stay inside the repository" in result.err


def test_an_absolute_glob_into_the_workspace_still_refuses_a_symlink_leading_out(
    project: Repo, tmp_path: Path, cli: Callable[..., CliResult]
) -> None:
    secret = outside_log(tmp_path) / "pytest.log"
    (project.path / "evidence").mkdir()
    (project.path / "evidence" / "pytest.log").symlink_to(secret)
    result = cli("run", "--repo", project.path, "--reports", f"{project.path}/evidence/*.log", "--format", "json")
    gate = evidence(result)
    assert gate["verdict"] == "fail"
    assert any("a symlink leading outside the workspace" in line for line in [gate["headline"], *gate["details"]])


def test_an_absolute_glob_into_the_workspace_still_refuses_a_fifo(project: Repo, cli: Callable[..., CliResult]) -> None:
    (project.path / "evidence").mkdir()
    os.mkfifo(project.path / "evidence" / "pytest.log")
    result = cli("run", "--repo", project.path, "--reports", f"{project.path}/evidence/*.log", "--format", "json")
    gate = evidence(result)
    assert gate["verdict"] == "fail"
    assert any("a FIFO, not a regular file" in line for line in [gate["headline"], *gate["details"]])
