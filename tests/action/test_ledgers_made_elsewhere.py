"""The action end to end with ledgers made elsewhere: the fork recipe's `publish`, the `ledger`
input, forged verdicts, the base commit's config, concurrent runs and a matrix's merge."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from evidence_gate.ledger.document import read_ledger, write_ledger
from evidence_gate.ledger.model import GateResult, GateVerdict, Ledger, Verdict
from evidence_gate.model import Counts
from tests.github_fake import FakeGitHub, faults

from ..conftest import Repo, local_environment
from .harness import (
    FAILING,
    PR,
    TESTS,
    UNTESTED_CODE,
    Run,
    event,
    make_repo,
    post_marked_comments,
    publish,
    pull_request,
    run_pytest,
    seed,
)


def test_the_fork_recipe_publishes_a_ledger_made_by_the_forks_run(
    tmp_path: Path, repo: Repo, server: FakeGitHub, action: Callable[..., Run]
) -> None:
    base, head = pull_request(repo, server)
    fork_event = event(tmp_path, base, head, head_repo="contributor/shop")
    forked = action(repo, fork_event, head, github_token="", ledger_out=str(tmp_path / "ledger.json"))
    assert server.requests == []
    result = publish(server, Path(forked.outputs["ledger"]), fork_event, tmp_path)
    assert result.returncode == 0, result.stderr
    assert len(server.comments(PR)) == 1
    assert len(server.check_runs(head)) == 1


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"head": "0" * 40}, "refusing to publish it here"),
        ({"head": None}, "names no head commit"),
        ({"check_name": "Someone else's check"}, "refusing it"),
    ],
)
def test_publish_refuses_a_ledger_not_about_this_pull_request(
    tmp_path: Path,
    repo: Repo,
    server: FakeGitHub,
    action: Callable[..., Run],
    change: dict[str, object],
    message: str,
) -> None:
    base, head = pull_request(repo, server)
    made = action(repo, event(tmp_path, base, head), head, github_token="")
    document = json.loads(Path(made.outputs["ledger"]).read_text())
    document.update(change)
    tampered = tmp_path / "tampered.json"
    tampered.write_text(json.dumps(document))
    result = publish(server, tampered, event(tmp_path, base, head), tmp_path)
    assert result.returncode == 2
    assert message in result.stderr
    assert [r for r in server.requests if r.method != "GET"] == []


CONFIG = ".github/evidence-gate.yml"


@pytest.mark.parametrize(
    ("at_base", "change"),
    [(None, "adds"), ("fail-on: stagnation\n", "changes")],
    ids=["added", "changed"],
)
def test_a_pull_request_cannot_configure_its_own_gate(
    tmp_path: Path,
    repo: Repo,
    server: FakeGitHub,
    action: Callable[..., Run],
    at_base: str | None,
    change: str,
) -> None:
    base = repo.commit(
        "base",
        {
            "pyproject.toml": "[project]\nname = 'shop'\n",
            ".gitignore": "build/\n",
            **({CONFIG: at_base} if at_base else {}),
        },
    )
    repo.git("checkout", "--quiet", "-b", "feature")
    own_gate = "fail-on: never\ngates-off: [evidence]\n"  # report only, and no evidence gate to fail
    head = repo.commit("report only", {CONFIG: own_gate, "tests/test_cart.py": FAILING})
    seed(server, base, head)
    run_pytest(repo)
    run = action(repo, event(tmp_path, base, head), head, fail_on="")
    assert run.code == 1
    (check_run,) = server.check_runs(head)
    assert check_run.conclusion == "failure"
    note = f"the pull request {change} {CONFIG}: its settings apply once merged"
    assert note in (check_run.output_text or "") + (check_run.output_summary or "")
    evidence = run.ledger.gate("evidence")
    assert evidence is not None and evidence.verdict is GateVerdict.FAIL
    assert note in evidence.details


def test_a_config_merged_into_the_base_applies(
    tmp_path: Path, repo: Repo, server: FakeGitHub, action: Callable[..., Run]
) -> None:
    base = repo.commit(
        "base", {"pyproject.toml": "[project]\nname = 'shop'\n", ".gitignore": "build/\n", CONFIG: "fail-on: never\n"}
    )
    repo.git("checkout", "--quiet", "-b", "feature")
    head = repo.commit("failing tests", {"tests/test_cart.py": FAILING})
    seed(server, base, head)
    run_pytest(repo)
    run = action(repo, event(tmp_path, base, head), head, fail_on="")
    assert run.code == 0
    (check_run,) = server.check_runs(head)
    assert check_run.conclusion == "neutral"


def forge_pass(made: Run, folder: Path) -> Path:
    """The ledger of a failing run, edited to say PASS: what a fork's run can upload."""
    document = json.loads(Path(made.outputs["ledger"]).read_text())
    assert document["verdict"] == "BLOCKED"
    document["verdict"] = "PASS"
    forged = folder / "forged.json"
    forged.write_text(json.dumps(document))
    return forged


def test_publish_posts_a_failure_for_a_forged_pass(
    tmp_path: Path, repo: Repo, server: FakeGitHub, action: Callable[..., Run]
) -> None:
    base, head = pull_request(repo, server, FAILING)
    made = action(repo, event(tmp_path, base, head), head, github_token="")
    result = publish(server, forge_pass(made, tmp_path), event(tmp_path, base, head), tmp_path)
    assert result.returncode == 1, result.stderr
    (check_run,) = server.check_runs(head)
    assert check_run.conclusion == "failure"
    assert "the ledger says PASS, but its gates say BLOCKED" in (check_run.output_text or "") + (
        check_run.output_summary or ""
    )


def test_the_ledger_input_posts_a_failure_for_a_forged_pass(
    tmp_path: Path, repo: Repo, server: FakeGitHub, action: Callable[..., Run]
) -> None:
    base, head = pull_request(repo, server, FAILING)
    made = action(repo, event(tmp_path, base, head), head, github_token="")
    forge_pass(made, repo.path)
    run = action(repo, event(tmp_path, base, head), head, ledger="forged.json", reports="")
    assert run.code == 1
    assert run.outputs["verdict"] == "BLOCKED"
    (check_run,) = server.check_runs(head)
    assert check_run.conclusion == "failure"


def test_a_429_on_an_annotation_patch_is_retried(
    tmp_path: Path, repo: Repo, server: FakeGitHub, action: Callable[..., Run]
) -> None:
    base, head = make_repo(repo, FAILING)
    seed(server, base, head)
    server.script("PATCH /repos/{owner}/{repo}/check-runs/{check_run_id}", faults.too_many_requests(retry_after=1))
    run_pytest(repo)
    action(repo, event(tmp_path, base, head), head)
    (check_run,) = server.check_runs(head)
    assert len(check_run.annotations) == 121  # 120 failed tests, and the assertions the change removed (RH-4)
    assert len(server.requests_to("PATCH /repos/{owner}/{repo}/check-runs/{check_run_id}")) == 3


def test_duplicates_left_by_concurrent_runs_are_removed(
    tmp_path: Path, repo: Repo, server: FakeGitHub, action: Callable[..., Run]
) -> None:

    base, head = make_repo(repo, TESTS)
    seed(server, base, head)
    post_marked_comments(server, "first run", "second run")
    oldest = min(comment.id for comment in server.comments(PR))
    run_pytest(repo)
    action(repo, event(tmp_path, base, head), head)
    (comment,) = server.comments(PR)
    assert comment.id == oldest
    assert "<!-- QG:VERDICT:PASS -->" in comment.body


def test_a_ledger_made_on_the_runner_is_published_by_the_container_step(
    tmp_path: Path, repo: Repo, server: FakeGitHub, action: Callable[..., Run]
) -> None:
    """The runner step (CI) runs the strength gate, which the container cannot: its result crosses
    in the ledger. No test runs the function the change adds to shop/cart.py, so its new test is still-green."""
    base, head = pull_request(repo, server, production=UNTESTED_CODE)
    made = subprocess.run(
        [
            sys.executable,
            "-m",
            "evidence_gate",
            "run",
            "--repo",
            str(repo.path),
            "--base",
            base,
            "--reports",
            "build/*.xml",
            "build/*.log",
            "--format",
            "json",
            "--ledger-out",
            "evidence-gate-ledger.json",
        ],
        capture_output=True,
        text=True,
        check=False,
        env={**local_environment(), "CI": "true"},
    )
    assert made.returncode == 1, made.stderr  # BLOCKED: a still-green test
    run = action(repo, event(tmp_path, base, head), head, ledger="evidence-gate-ledger.json", reports="")
    assert run.outputs["verdict"] == "BLOCKED"
    assert run.ledger.head == head
    strength = run.ledger.gate("strength")
    assert strength is not None and strength.verdict is GateVerdict.FAIL
    (check,) = server.check_runs(head)
    assert [(note.path, note.annotation_level) for note in check.annotations] == [("tests/test_cart.py", "failure")]
    (comment,) = server.comments(PR)
    assert "| tests/test\\_cart.py | ❌ still-green | passes without the change" in comment.body


def test_merge_joins_the_ledgers_of_a_matrix(tmp_path: Path) -> None:
    shards = []
    for index, (passed, failed) in enumerate([(3, 0), (2, 1)]):
        verdict = GateVerdict.FAIL if failed else GateVerdict.PASS
        ledger = Ledger(
            verdict=Verdict.BLOCKED if failed else Verdict.PASS,
            head="a" * 40,
            base=None,
            stack="python",
            counts=Counts(passed=passed, failed=failed, skipped=0),
            gates=(GateResult(id="evidence", title="Test evidence", verdict=verdict, headline=str(verdict)),),
        )
        path = tmp_path / f"ledger-{index}.json"
        write_ledger(ledger, path)
        shards.append(str(path))
    result = subprocess.run(
        [sys.executable, "-m", "evidence_gate", "merge", *shards, "-o", str(tmp_path / "merged.json")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 1
    merged = read_ledger(tmp_path / "merged.json")
    assert (merged.verdict, merged.counts) == (Verdict.BLOCKED, Counts(passed=5, failed=1, skipped=0))
