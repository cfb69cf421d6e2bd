"""The runner step's ledger in the container: only what needed the toolchain is taken from it, every
other check is judged again from the event's commits, and a ledger of another run is refused."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from evidence_gate.ledger.model import GateVerdict
from tests.github_fake import FakeGitHub

from ..conftest import Repo, local_environment
from .harness import (
    FAILING,
    TOOLS_OFF,
    UNTESTED_CODE,
    Run,
    action_environ,
    event,
    pull_request,
    run_entrypoint,
    runner_files,
)

LEDGER = "evidence-gate-ledger.json"


def runner_step(repo: Repo, event_path: Path, *revisions: str) -> subprocess.CompletedProcess[str]:
    """`evidence-gate run` as run/action.yml starts it on the runner: the event's commits, no token."""
    environ = {
        **local_environment(),
        "CI": "true",
        "GITHUB_ACTIONS": "true",
        "GITHUB_REPOSITORY": "octo-org/shop",
        "GITHUB_EVENT_NAME": "pull_request",
        "GITHUB_EVENT_PATH": str(event_path),
        "GITHUB_WORKSPACE": str(repo.path),
        "INPUT_REPORTS": "build/*.xml\nbuild/*.log",
        "INPUT_GATES-OFF": TOOLS_OFF,
    }
    return subprocess.run(
        [sys.executable, "-m", "evidence_gate", "run", *revisions, "--format", "json", "--ledger-out", LEDGER],
        cwd=repo.path,
        capture_output=True,
        text=True,
        check=False,
        env=environ,
    )


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_strength_comes_from_the_runner_and_is_shown_as_measured_there(
    tmp_path: Path, repo: Repo, server: FakeGitHub, action: Callable[..., Run]
) -> None:
    base, head = pull_request(repo, server, production=UNTESTED_CODE)
    event_path = event(tmp_path, base, head)
    made = runner_step(repo, event_path, "--base", base, "--head", head)
    assert made.returncode == 1, made.stderr  # a still-green test: no test runs the code the change adds
    run = action(repo, event_path, head, ledger=LEDGER, ledger_sha256=sha256(repo.path / LEDGER))
    assert run.outputs["verdict"] == "BLOCKED"
    strength = run.ledger.gate("strength")
    assert strength is not None and strength.verdict is GateVerdict.FAIL
    assert strength.headline.endswith("(measured on the runner)")
    evidence = run.ledger.gate("evidence")
    assert evidence is not None and evidence.verdict is GateVerdict.PASS
    assert "measured on the runner" not in evidence.headline


def test_the_runner_step_takes_the_commits_from_the_event(
    tmp_path: Path, repo: Repo, server: FakeGitHub, action: Callable[..., Run]
) -> None:
    base, head = pull_request(repo, server)
    event_path = event(tmp_path, base, head)
    runner_step(repo, event_path)
    written = json.loads((repo.path / LEDGER).read_text())
    assert (written["base"], written["head"]) == (base, head)


def test_a_runner_ledger_without_a_base_is_refused(
    tmp_path: Path, repo: Repo, server: FakeGitHub, action: Callable[..., Run]
) -> None:
    base, head = pull_request(repo, server)
    document = _made(repo, tmp_path, base, head)
    document["base"] = None
    (repo.path / LEDGER).write_text(json.dumps(document))
    run = _refused(repo, server, tmp_path, base, head)
    assert "the runner's ledger has no base commit" in run.stdout


def test_a_runner_ledger_about_another_head_is_refused(
    tmp_path: Path, repo: Repo, server: FakeGitHub, action: Callable[..., Run]
) -> None:
    base, head = pull_request(repo, server)
    document = _made(repo, tmp_path, base, head)
    document["head"] = "0" * 40
    (repo.path / LEDGER).write_text(json.dumps(document))
    run = _refused(repo, server, tmp_path, base, head)
    assert "the runner's ledger is about 000000000000" in run.stdout


def test_a_runner_ledger_changed_after_the_step_is_refused(
    tmp_path: Path, repo: Repo, server: FakeGitHub, action: Callable[..., Run]
) -> None:
    base, head = pull_request(repo, server)
    _made(repo, tmp_path, base, head)
    digest = sha256(repo.path / LEDGER)
    with (repo.path / LEDGER).open("a") as ledger:
        ledger.write(" ")
    run = _refused(repo, server, tmp_path, base, head, ledger_sha256=digest)
    assert "was changed after the runner step wrote it" in run.stdout


def test_a_code_free_gate_edited_in_the_runner_ledger_is_judged_again(
    tmp_path: Path, repo: Repo, server: FakeGitHub, action: Callable[..., Run]
) -> None:
    """A forged PASS for the evidence gate (120 tests failed) and a PASS verdict: the container reads
    the reports itself, so the forgery changes nothing."""
    base, head = pull_request(repo, server, FAILING)
    document = _made(repo, tmp_path, base, head)
    for gate in document["gates"]:
        if gate["id"] == "evidence":
            gate["verdict"], gate["headline"] = "pass", "all tests passed"
    document["verdict"] = "PASS"
    (repo.path / LEDGER).write_text(json.dumps(document))
    run = action(repo, event(tmp_path, base, head), head, ledger=LEDGER)
    assert run.outputs["verdict"] == "BLOCKED"
    evidence = run.ledger.gate("evidence")
    assert evidence is not None and evidence.verdict is GateVerdict.FAIL
    (check_run,) = server.check_runs(head)
    assert check_run.conclusion == "failure"


def test_a_measured_gate_missing_from_the_runner_ledger_is_unavailable(
    tmp_path: Path, repo: Repo, server: FakeGitHub, action: Callable[..., Run]
) -> None:
    base, head = pull_request(repo, server)
    document = _made(repo, tmp_path, base, head)
    document["gates"] = [gate for gate in document["gates"] if gate["id"] != "strength"]
    (repo.path / LEDGER).write_text(json.dumps(document))
    run = action(repo, event(tmp_path, base, head), head, ledger=LEDGER)
    strength = run.ledger.gate("strength")
    assert strength is not None and strength.verdict is GateVerdict.UNAVAILABLE
    assert run.outputs["verdict"] == "BLOCKED"


def _made(repo: Repo, tmp_path: Path, base: str, head: str) -> dict[str, Any]:
    made = runner_step(repo, event(tmp_path, base, head), "--base", base, "--head", head)
    assert made.returncode in (0, 1), made.stderr
    document: dict[str, Any] = json.loads((repo.path / LEDGER).read_text())
    return document


def _refused(
    repo: Repo, server: FakeGitHub, tmp_path: Path, base: str, head: str, **inputs: str
) -> subprocess.CompletedProcess[str]:
    """The container step given a runner ledger it must refuse: a one-line error, exit 2, nothing published."""
    files = runner_files(tmp_path)
    environ = action_environ(server, repo, event(tmp_path, base, head), head, files, ledger=LEDGER, **inputs)
    result = run_entrypoint(environ)
    assert result.returncode == 2, result.stdout
    assert [request for request in server.requests if request.method != "GET"] == []
    return result
