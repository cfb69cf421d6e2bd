"""The README's workflow works as written: its `run:` lines run for real with bash, as GitHub runs
them, in a git repository holding a small pytest project, and the files its action step's `reports`
name are there for `evidence-gate run` to read. docs/usage.md shows the same workflow."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from markdown_it import MarkdownIt

from evidence_gate.settings import inputs_from_environment

from .conftest import Repo

ROOT = Path(__file__).resolve().parent.parent
PLACEHOLDER = "your-org/evidence-gate@<full-commit-sha>"
PINNED = re.compile(r"[\w.-]+/[\w.-]+(/[^@\s]+)?@[0-9a-f]{40}")
# How GitHub runs a `run:` step on Linux: `shell: bash` adds pipefail, no shell at all does not.
SHELLS = {"bash": ["bash", "--noprofile", "--norc", "-eo", "pipefail"], None: ["bash", "-e"]}
PROJECT = {
    "pyproject.toml": "[project]\nname = 'shop'\nversion = '0'\n\n[tool.pytest.ini_options]\ntestpaths = ['tests']\n",
    "shop.py": "def total(prices):\n    return sum(prices)\n",
    "tests/test_shop.py": (
        "from shop import total\n\n\ndef test_total():\n    assert total([1, 2]) == 3\n\n\n"
        "def test_empty():\n    assert total([]) == 0\n"
    ),
}


def yaml_block_under(document: Path, heading: str) -> str:
    """The first YAML code block after the heading named `heading`."""
    tokens = MarkdownIt().parse(document.read_text(encoding="utf-8"))
    for index, token in enumerate(tokens):
        if token.type == "heading_open" and tokens[index + 1].content == heading:
            block = next(t for t in tokens[index:] if t.type == "fence" and t.info.strip() == "yaml")
            return block.content
    raise AssertionError(f"{document.name} has no heading {heading!r}")


def readme_workflow() -> str:
    return yaml_block_under(ROOT / "README.md", "As a GitHub Action")


def job(workflow: str) -> dict[str, Any]:
    """The workflow's one job; a snippet of one job's keys (`steps:` at the top) is read as that job."""
    document: dict[str, Any] = yaml.safe_load(workflow)
    if "jobs" not in document:
        return document
    jobs: dict[str, dict[str, Any]] = document["jobs"]
    assert len(jobs) == 1
    return next(iter(jobs.values()))


def steps(workflow: str) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = job(workflow)["steps"]
    return found


def gate_step(workflow: str) -> dict[str, Any]:
    return next(step for step in steps(workflow) if step.get("uses") == PLACEHOLDER)


def test_the_readme_and_the_usage_guide_show_the_same_workflow() -> None:
    assert readme_workflow() == yaml_block_under(ROOT / "docs" / "usage.md", "A minimal workflow")


def test_every_action_in_the_workflow_is_pinned_to_a_full_commit_sha_or_is_this_one() -> None:
    uses = [step["uses"] for step in steps(readme_workflow()) if "uses" in step]
    assert PLACEHOLDER in uses
    assert [name for name in uses if name != PLACEHOLDER and not PINNED.fullmatch(name)] == []


def test_the_readme_says_what_the_placeholder_stands_for() -> None:
    tokens = MarkdownIt().parse((ROOT / "README.md").read_text(encoding="utf-8"))
    prose = [child for token in tokens if token.type == "inline" for child in token.children or []]
    assert any(child.type == "code_inline" and child.content == PLACEHOLDER for child in prose)


def clean_environment() -> dict[str, str]:
    """This machine's environment without a CI run's or a pytest session's own variables, and with
    the Python running these tests (which has pytest) first on PATH as `python`."""
    kept = {
        name: value
        for name, value in os.environ.items()
        if not name.startswith(("GITHUB_", "INPUT_", "RUNNER_", "PYTEST_")) and name != "CI"
    }
    kept["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), kept.get("PATH", "")])
    return kept


def run_steps(workflow: str, repo: Path) -> None:
    """Each `run:` step, in order, with the job's shell, in the checkout; a failing step fails the test."""
    shell = SHELLS[job(workflow).get("defaults", {}).get("run", {}).get("shell")]
    for step in steps(workflow):
        if "run" not in step:
            continue
        assert "${{" not in step["run"], "a run: line with an expression cannot be run as written"
        result = subprocess.run(
            [*shell, "-c", step["run"]], cwd=repo, env=clean_environment(), capture_output=True, text=True
        )
        assert result.returncode == 0, f"{step.get('name', step['run'])!r} failed:\n{result.stdout}{result.stderr}"


@pytest.fixture
def checkout(repo: Repo) -> Path:
    """The small pytest project, committed: what actions/checkout leaves in the workspace."""
    repo.commit("shop", PROJECT)
    return repo.path


def test_the_readme_workflows_run_lines_write_the_files_its_reports_name(checkout: Path) -> None:
    workflow = readme_workflow()
    run_steps(workflow, checkout)
    globs = inputs_from_environment({"INPUT_REPORTS": gate_step(workflow)["with"]["reports"]})["reports"]
    assert globs
    assert [glob for glob in globs if not list(checkout.glob(glob))] == []


def test_evidence_gate_reads_the_tests_from_the_files_the_readme_workflow_writes(checkout: Path) -> None:
    workflow = readme_workflow()
    run_steps(workflow, checkout)
    given = gate_step(workflow)["with"]
    globs = inputs_from_environment({"INPUT_REPORTS": given["reports"]})["reports"]
    logs = inputs_from_environment({"INPUT_LOGS": given["logs"]})["logs"]
    assert sorted(logs) == ["lint", "type-check"]
    assert [glob for glob in logs.values() if not list(checkout.glob(glob))] == []
    result = subprocess.run(
        [sys.executable, "-m", "evidence_gate", "run", "--reports", *globs, "--format", "json"],
        cwd=checkout,
        env={**clean_environment(), "INPUT_LOGS": given["logs"]},  # as the action's input
        capture_output=True,
        text=True,
    )
    ledger = json.loads(result.stdout)
    assert (result.returncode, ledger["verdict"]) == (0, "PASS"), result.stdout + result.stderr
    tools = {gate["id"]: gate["data"]["runs"][0]["source"] for gate in ledger["gates"] if gate["id"] in logs}
    assert tools == {"type-check": "evidence/mypy.log", "lint": "evidence/ruff.log"}  # read, not run
    assert ledger["counts"]["executed"] == ledger["counts"]["passed"] == 2
