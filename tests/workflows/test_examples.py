"""Each example workflow in docs/examples, run step by step on a fixture project of its stack with
this machine's real toolchain (harness.py): the project's own steps, the runner step's composite
steps, then the container's entry point against the fake GitHub.

- a healthy bug fix with a regression test passes, with test strength run on the runner and shown
  as measured there;
- the same project whose base froze a red test, and whose pull request rewrites that test to pass,
  is blocked (RH-14), judged by the container itself;
- a skip added is flagged (RH-1);
- in every one, a test that reads every `/proc/*/environ` it can, `.git/config` and its environment
  finds no token, and the daemon a test left running in the runner step is gone when the step ends.
"""

from __future__ import annotations

import fcntl
import json
import os
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from evidence_gate.integrity.frozen import RECORD
from evidence_gate.ledger.document import read_ledger
from evidence_gate.ledger.model import GateVerdict, Verdict
from evidence_gate.strength.sandbox import PREFIX
from tests.github_fake import FakeGitHub
from tests.tools import require_tool

from ..conftest import Repo
from .harness import PR, REPO, ROOT, WorkflowRun, pull_request_event, push_event
from .projects import NODE_PACKAGE, PROJECTS, PY_CART_BUGGY, Project, frozen_record, node

BODY = "Fixes the cart's total.\r\n"
EXAMPLES = ROOT / "docs" / "examples"


@pytest.fixture(scope="session")
def runner_cli(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The runner step's own install step, run once for the session: each workflow run links its
    RUNNER_TEMP's virtualenv to this one, so the step's `-x` check finds it installed."""
    temp = tmp_path_factory.mktemp("runner-cli")
    # pip builds the package in the checkout's own tree (build/, the egg-info): parallel workers take
    # turns, or one's build tears down another's.
    lock = tmp_path_factory.getbasetemp().parent / "runner-cli.lock"
    with lock.open("w") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        _install_runner_cli(temp)
    return temp / "evidence-gate-venv"


def _install_runner_cli(temp: Path) -> None:
    script = "\n".join(
        [
            'venv="$RUNNER_TEMP/evidence-gate-venv"',
            '"$PYTHON" -m venv "$venv"',
            '"$venv/bin/pip" install --quiet --disable-pip-version-check "$ACTION_PATH/.."',
        ]
    )
    subprocess.run(
        ["bash", "-eo", "pipefail", "-c", script],
        env={**os.environ, "RUNNER_TEMP": str(temp), "PYTHON": sys.executable, "ACTION_PATH": str(ROOT / "run")},
        check=True,
        capture_output=True,
        timeout=600,
    )


@pytest.fixture(scope="session")
def npm_lockfile(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The Node project's package-lock.json, which its workflow's `npm ci` needs, resolved once."""
    folder = tmp_path_factory.mktemp("npm-lock")
    (folder / "package.json").write_text(json.dumps(NODE_PACKAGE))
    subprocess.run(
        ["npm", "install", "--package-lock-only", "--no-audit", "--no-fund", "--prefer-offline"],
        cwd=folder,
        check=True,
        capture_output=True,
        timeout=600,
    )
    return (folder / "package-lock.json").read_text()


STACKS = [*sorted(PROJECTS), "node"]


def project_for(stack: str, request: pytest.FixtureRequest) -> Project:
    tools = ("node", "npm", "python3") if stack == "node" else PROJECTS[stack]().tools
    for tool in tools:
        require_tool(tool, hint="scripts/test.sh installs it as root")
    return node(request.getfixturevalue("npm_lockfile")) if stack == "node" else PROJECTS[stack]()


def run_workflow(
    project: Project,
    repo: Repo,
    server: FakeGitHub,
    tmp_path: Path,
    runner_cli: Path,
    base: str,
    head: str,
    labels: tuple[str, ...] = (),
) -> WorkflowRun:
    server.add_pull(REPO, PR, head_sha=head, base_sha=base, body=BODY)
    home = tmp_path / "runner"
    run = WorkflowRun(
        workflow=EXAMPLES / f"{project.workflow}.yml",
        workspace=repo.path,
        home=home,
        server=server,
        event=pull_request_event(base, head, BODY, labels),
        extra_env={
            "EVIDENCE_GATE_PROBE_LOG": str(tmp_path / "probe.log"),
            "EVIDENCE_GATE_PROBE_ROOT": str(os.getpid()),
        },
        cli_environment=runner_cli,
    )
    try:
        run.run_job()
    finally:
        _end_daemons(tmp_path / "probe.log")
    return run


@pytest.mark.parametrize("stack", STACKS)
def test_a_healthy_bug_fix_passes_with_strength_run_on_the_runner(
    stack: str, repo: Repo, server: FakeGitHub, tmp_path: Path, runner_cli: Path, request: pytest.FixtureRequest
) -> None:
    project = project_for(stack, request)
    base = repo.commit("base", project.base)
    repo.git("checkout", "--quiet", "-b", "fix")
    head = repo.commit("fix the total", project.fix)
    run = run_workflow(project, repo, server, tmp_path, runner_cli, base, head)
    container = run.steps[-1]
    ledger = read_ledger(repo.path / "evidence-gate-ledger.json")
    strength = ledger.gate("strength")
    assert strength is not None and strength.verdict is GateVerdict.PASS, container.output
    coverage = ledger.gate("coverage")  # the example hands in the run's coverage report, which covers the fix
    assert coverage is not None and coverage.verdict is GateVerdict.PASS, coverage
    (check_run,) = server.check_runs(head)
    published = _published(server, head)
    assert "measured on the runner" in published
    assert check_run.conclusion == "success", published
    assert container.code == 0, container.output
    _no_token_found(tmp_path / "probe.log")


@pytest.mark.parametrize("stack", STACKS)
def test_a_frozen_red_test_rewritten_to_pass_is_blocked(
    stack: str, repo: Repo, server: FakeGitHub, tmp_path: Path, runner_cli: Path, request: pytest.FixtureRequest
) -> None:
    project = project_for(stack, request)
    repo.commit("base", project.base)
    red = repo.commit("the red test", {project.frozen_test: project.frozen_test_text})
    base = repo.commit("freeze it", {str(RECORD): frozen_record(project.frozen_test, red)})
    repo.git("checkout", "--quiet", "-b", "fix")
    head = repo.commit("refunds", {**project.feature, project.frozen_test: project.cheat})
    run = run_workflow(project, repo, server, tmp_path, runner_cli, base, head)
    container = run.steps[-1]
    assert container.code == 1, container.output
    assert container.outputs["verdict"] == str(Verdict.BLOCKED)
    assert "RH-14" in container.outputs["gate-edits"]
    (check_run,) = server.check_runs(head)
    assert check_run.conclusion == "failure"


@pytest.mark.parametrize("stack", STACKS)
def test_a_skip_added_is_flagged(
    stack: str, repo: Repo, server: FakeGitHub, tmp_path: Path, runner_cli: Path, request: pytest.FixtureRequest
) -> None:
    project = project_for(stack, request)
    base = repo.commit("base", project.base)
    repo.git("checkout", "--quiet", "-b", "fix")
    head = repo.commit("fix the total, skip a test", {**project.fix, **project.skipped})
    run = run_workflow(project, repo, server, tmp_path, runner_cli, base, head)
    container = run.steps[-1]
    assert "RH-1:" in container.outputs["gate-edits"], container.output
    assert "RH-1" in _published(server, head)


@pytest.mark.parametrize("labels", [(), ("refactor",)], ids=["unlabelled", "labelled-refactor"])
def test_a_refactor_its_maintainers_label_is_spared_test_strength_and_nothing_else(
    labels: tuple[str, ...],
    repo: Repo,
    server: FakeGitHub,
    tmp_path: Path,
    runner_cli: Path,
    request: pytest.FixtureRequest,
) -> None:
    """The cart's sum written another way, and a test restated: still-green by nature. Unlabelled,
    strength fails it; labelled `refactor`, both steps switch strength off, the runner runs none of
    the tests again, and every other check still runs."""
    project = project_for("python", request)
    base = repo.commit("base", project.base)
    repo.git("checkout", "--quiet", "-b", "tidy")
    tidied = {
        "shop/cart.py": PY_CART_BUGGY.replace("sum(prices[1:])", "sum(price for price in prices[1:])"),
        "tests/test_empty.py": project.base["tests/test_empty.py"].replace(
            "assert total([0]) == 0", 'assert total([0]) == 0, "a single free item"'
        ),
    }
    head = repo.commit("tidy the cart", tidied)
    run = run_workflow(project, repo, server, tmp_path, runner_cli, base, head, labels)
    container = run.steps[-1]
    ledger = read_ledger(repo.path / "evidence-gate-ledger.json")
    strength = ledger.gate("strength")
    assert strength is not None, container.output
    if not labels:
        assert strength.verdict is GateVerdict.FAIL, strength.headline
        assert container.outputs["verdict"] == str(Verdict.BLOCKED)
        return
    assert strength.verdict is GateVerdict.OFF, strength.headline
    assert "gates-off" in strength.headline
    assert container.outputs["verdict"] == str(Verdict.PASS), container.output
    assert {gate.id for gate in ledger.gates if gate.verdict is GateVerdict.OFF} == {"strength"}
    ran = (tmp_path / "probe.log").read_text().splitlines()
    assert [line for line in ran if line.startswith("RAN") and PREFIX in line] == [], "strength ran its tests"


def _probe_environment(tmp_path: Path) -> dict[str, str]:
    """Where the probe writes what it found, and the process whose descendants are this run's."""
    return {"EVIDENCE_GATE_PROBE_LOG": str(tmp_path / "probe.log"), "EVIDENCE_GATE_PROBE_ROOT": str(os.getpid())}


def _published(server: FakeGitHub, head: str) -> str:
    (check_run,) = server.check_runs(head)
    comments = [comment.body for comment in server.comments(PR)]
    return "\n".join([check_run.output_summary or "", check_run.output_text or "", *comments])


def _no_token_found(log: Path) -> None:
    """The probe ran in the project's own test step and in the runner step's strength runs, and
    found no token in any of them."""
    lines = log.read_text().splitlines()
    assert [line for line in lines if line.startswith("FOUND")] == []
    ran = [line for line in lines if line.startswith("RAN")]
    assert any(PREFIX in line for line in ran), "the probe never ran in a strength worktree"
    assert any(PREFIX not in line for line in ran), "the probe never ran in the project's own test step"


def _end_daemons(log: Path) -> None:
    """The daemons the probe left: those started in a strength worktree must be gone already (the
    runner step ends them); those of the project's own test step are the harness's to end."""
    if not log.exists():
        return
    alive_from_strength = []
    for line in log.read_text().splitlines():
        if not line.startswith("DAEMON "):
            continue
        _, pid, started_in = line.split(" ", 2)
        if not _running(pid):
            continue
        if PREFIX in started_in and started_in.startswith(tempfile.gettempdir()):
            alive_from_strength.append(pid)
        os.kill(int(pid), signal.SIGKILL)
    assert alive_from_strength == [], "daemons started by the runner step's tests outlived it"


def _running(pid: str) -> bool:
    """Whether the process runs: a zombie (ended, not yet reaped) does not."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def test_a_push_to_the_default_branch_leaves_the_baseline_the_next_pull_request_compares_with(
    repo: Repo, server: FakeGitHub, tmp_path: Path, runner_cli: Path, request: pytest.FixtureRequest
) -> None:
    project = project_for("python", request)
    base = repo.commit("base", project.base)
    pushed = WorkflowRun(
        workflow=EXAMPLES / "python.yml",
        workspace=repo.path,
        home=tmp_path / "push",
        server=server,
        event=push_event("0" * 40, base),
        extra_env=_probe_environment(tmp_path),
        cli_environment=runner_cli,
    )
    try:
        pushed.run_job()
    finally:
        _end_daemons(tmp_path / "probe.log")
    assert pushed.steps[-1].code == 0, pushed.steps[-1].output
    (base_run,) = server.check_runs(base)
    assert base_run.conclusion == "success"
    repo.git("checkout", "--quiet", "-b", "fix")
    head = repo.commit("fix the total", project.fix)
    run = run_workflow(project, repo, server, tmp_path / "pull", runner_cli, base, head)
    published = read_ledger(Path(run.steps[-1].outputs["ledger"]))  # the container's, not the runner's
    assert published.baseline == f"base {base[:12]}"
    assert published.verdict is Verdict.PASS
