"""Every example workflow has the recommended shape, including those this machine cannot run (a
Gradle wrapper downloads its distribution, Android needs its SDK, iOS needs macOS): the project's
steps, then the runner step with no token near it, then the container step fed the runner's ledger
and its digest, on pull requests (their label changes too) and on pushes to the default branch."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from .harness import ROOT

EXAMPLES = sorted((ROOT / "docs" / "examples").glob("*.yml"))
RUNNER_STEP = "your-org/evidence-gate/run@<full-commit-sha>"
CONTAINER_STEP = "your-org/evidence-gate@<full-commit-sha>"


def test_there_are_examples_for_every_stack_the_docs_name() -> None:
    assert {path.stem for path in EXAMPLES} >= {"python", "node", "go", "rust", "jvm-maven", "jvm-android", "ios"}


def steps_of(workflow: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    return [(name, step) for name, job in workflow["jobs"].items() for step in job["steps"]]


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda path: path.stem)
def test_the_example_runs_the_runner_step_then_the_container_step(path: Path) -> None:
    workflow = yaml.safe_load(path.read_text())
    assert "pull_request" in workflow[True] and workflow[True]["push"] == {"branches": ["main"]}  # `on:`
    steps = steps_of(workflow)
    uses = [str(step.get("uses", "")) for _, step in steps]
    runner, container = uses.index(RUNNER_STEP), uses.index(CONTAINER_STEP)
    assert runner < container
    runner_job, runner_step = steps[runner]
    container_job, container_step = steps[container]
    assert runner_step["with"]["reports"] == container_step["with"]["reports"]
    # the `refactor` label switches strength off in both steps alike, and a label's change runs it again
    assert runner_step["with"]["gates-off"] == container_step["with"]["gates-off"]
    assert "'refactor'" in runner_step["with"]["gates-off"]
    assert {"labeled", "unlabeled", "synchronize"} <= set(workflow[True]["pull_request"]["types"])
    ledger = runner_step["with"].get("ledger-out", "evidence-gate-ledger.json")
    assert container_step["with"]["ledger"] == ledger
    digest = container_step["with"]["ledger-sha256"]
    if runner_job == container_job:
        assert digest == f"${{{{ steps.{runner_step['id']}.outputs.ledger-sha256 }}}}"
    else:
        job_output = workflow["jobs"][runner_job]["outputs"]["ledger-sha256"]
        assert job_output == f"${{{{ steps.{runner_step['id']}.outputs.ledger-sha256 }}}}"
        assert digest == f"${{{{ needs.{runner_job}.outputs.ledger-sha256 }}}}"


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda path: path.stem)
def test_no_token_reaches_a_step_that_runs_the_pull_requests_code(path: Path) -> None:
    """Every checkout keeps no credential, no step before the container's names a token, and a job
    that runs the tests in a job of its own holds no write permission."""
    workflow = yaml.safe_load(path.read_text())
    for name, step in steps_of(workflow):
        if str(step.get("uses", "")).startswith("actions/checkout@"):
            assert step["with"]["persist-credentials"] is False, name
        if step.get("uses") == CONTAINER_STEP:
            break
        text = yaml.safe_dump({key: step.get(key) for key in ("env", "with", "run")})
        assert "token" not in text.lower() and "secrets." not in text, (name, step.get("name"))
    for job in workflow["jobs"].values():
        uses = [str(step.get("uses", "")) for step in job["steps"]]
        if CONTAINER_STEP not in uses:
            assert set(job["permissions"].values()) <= {"read"}, job
        assert "id-token" not in job.get("permissions", {}), job
