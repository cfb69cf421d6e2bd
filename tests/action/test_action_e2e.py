"""The action end to end: its first run and reruns, a fork's read-only token, retries, annotations,
the baseline's deltas and the comment modes."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from evidence_gate.ledger.digest import encode
from evidence_gate.ledger.model import GateVerdict, Ledger, Verdict
from evidence_gate.model import Counts
from tests.github_fake import DEFAULT_TOKEN, FakeGitHub, faults

from ..conftest import Repo, git
from .harness import (
    BODY,
    CHECK,
    FAILING,
    PR,
    REPO,
    START,
    TESTS,
    Run,
    event,
    make_repo,
    pull_request,
    push_another_test,
    run_pytest,
    seed,
)


def test_the_first_run_creates_the_comment_the_check_run_and_the_pr_section(
    tmp_path: Path, repo: Repo, server: FakeGitHub, action: Callable[..., Run]
) -> None:
    base, head = pull_request(repo, server)
    run = action(repo, event(tmp_path, base, head), head)

    assert run.code == 0, run.stdout
    assert run.ledger.verdict is Verdict.PASS
    assert run.outputs["verdict"] == "PASS"
    assert (run.outputs["executed"], run.outputs["failed"]) == ("2", "0")
    assert "<!-- QG:VERDICT:PASS -->" in run.summary
    (comment,) = server.comments(PR)
    assert "<!-- QG:VERDICT:PASS -->" in comment.body
    (check_run,) = server.check_runs(head)
    assert (check_run.name, check_run.conclusion) == (CHECK, "success")
    assert "evidence-gate:digest" in (check_run.output_summary or "")
    body = server.pr_body(PR) or ""
    assert body.startswith(BODY)
    assert START in body
    assert run.outputs["comment-url"].startswith(server.url)
    report = Path(run.outputs["report"]).read_text()
    assert report.startswith("## Quality Gate Report — pre-pr\n")
    assert "<!-- QG:VERDICT:PASS -->" in report
    assert run.outputs["check-run-url"].startswith(server.url)
    assert run.outputs["gate-edits"] == ""  # a new test file relaxes no gate


def test_a_skip_added_with_a_suppression_without_reason_shows_as_gate_edits(
    tmp_path: Path, repo: Repo, server: FakeGitHub, action: Callable[..., Run]
) -> None:
    """The gate-integrity gate in the action: the tags in the step output, an annotation per tagged
    hunk, the summary line in the job summary, and a failure for the suppression given no reason."""
    relaxed = TESTS.replace("def test_total():", "@pytest.mark.skip\ndef test_total():  # noqa")
    base, head = pull_request(repo, server, relaxed)
    run = action(repo, event(tmp_path, base, head), head)
    assert run.code == 1
    assert run.outputs["gate-edits"] == "RH-1:1,RH-6:1"
    integrity, audit = run.ledger.gate("gate-integrity"), run.ledger.gate("suppressions")
    assert integrity is not None and integrity.verdict is GateVerdict.REVIEW  # tags for review, never green
    assert audit is not None and audit.verdict is GateVerdict.FAIL  # check 7 fails the bare suppression
    assert audit.details == (
        "tests/test_cart.py:4: def test_total():  # noqa -> add the reason on the same line: `# noqa  # <why>`",
    )
    (check_run,) = server.check_runs(head)
    assert [(note.title, note.annotation_level) for note in check_run.annotations] == [
        ("RH-1, RH-6", "warning"),
        ("Check 7: ignore-comment audit", "failure"),
    ]
    assert "GATE_SUMMARY: listed=1 eligible=1 inspected=1 unread=0 tagged={RH-1:1,RH-6:1}" in run.summary


def test_a_rerun_edits_the_same_comment(
    tmp_path: Path, repo: Repo, server: FakeGitHub, action: Callable[..., Run]
) -> None:
    base, head = pull_request(repo, server)
    action(repo, event(tmp_path, base, head), head)
    more = push_another_test(repo, server, base)
    second = action(repo, event(tmp_path, base, more, name="second.json"), more)
    assert second.code == 0
    assert second.outputs["executed"] == "3"
    assert len(server.comments(PR)) == 1
    assert server.requests_to("PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}")
    body = server.pr_body(PR) or ""
    assert body.count(START) == 1


def test_a_fork_run_degrades_to_the_summary_outputs_and_ledger(
    tmp_path: Path, repo: Repo, server: FakeGitHub, action: Callable[..., Run]
) -> None:
    base, head = make_repo(repo, TESTS)
    seed(server, base, head)
    server.read_only = True
    run_pytest(repo)
    run = action(repo, event(tmp_path, base, head, head_repo="contributor/shop"), head)
    assert run.code == 0
    assert run.outputs["verdict"] == "PASS"
    assert "<!-- QG:VERDICT:PASS -->" in run.summary
    assert "::notice title=Evidence Gate::" in run.stdout
    assert "docs/fork-pull-requests.md" in run.stdout
    assert [r for r in server.requests if r.method != "GET"] == []


def test_an_unexpected_read_only_token_is_reported_once(
    tmp_path: Path, repo: Repo, server: FakeGitHub, action: Callable[..., Run]
) -> None:
    base, head = make_repo(repo, TESTS)
    seed(server, base, head)
    server.read_only = True
    run_pytest(repo)
    run = action(repo, event(tmp_path, base, head), head)
    assert run.stdout.count("::warning") == 1
    assert "Resource not accessible by integration" in run.stdout
    assert run.outputs["verdict"] == "PASS"


def test_a_502_then_success_is_retried(
    tmp_path: Path, repo: Repo, server: FakeGitHub, action: Callable[..., Run]
) -> None:
    base, head = make_repo(repo, TESTS)
    seed(server, base, head)
    server.script("POST /repos/{owner}/{repo}/check-runs", faults.bad_gateway())
    run_pytest(repo)
    run = action(repo, event(tmp_path, base, head), head)
    assert run.code == 0
    assert len(server.requests_to("POST /repos/{owner}/{repo}/check-runs")) == 2
    assert len(server.check_runs(head)) == 1


def test_a_secondary_rate_limit_honours_retry_after(
    tmp_path: Path, repo: Repo, server: FakeGitHub, action: Callable[..., Run]
) -> None:
    base, head = make_repo(repo, TESTS)
    seed(server, base, head)
    server.script(
        "POST /repos/{owner}/{repo}/issues/{issue_number}/comments", faults.secondary_rate_limit(retry_after=2)
    )
    run_pytest(repo)
    action(repo, event(tmp_path, base, head), head)
    posts = server.requests_to("POST /repos/{owner}/{repo}/issues/{issue_number}/comments")
    assert len(posts) == 2
    assert len(server.comments(PR)) == 1
    assert posts[1].received_at - posts[0].received_at >= 2.0


def test_120_failing_tests_send_their_annotations_in_3_requests(
    tmp_path: Path, repo: Repo, server: FakeGitHub, action: Callable[..., Run]
) -> None:
    base, head = pull_request(repo, server, FAILING)
    run = action(repo, event(tmp_path, base, head), head)
    assert run.code == 1
    assert run.outputs["verdict"] == "BLOCKED"
    (check_run,) = server.check_runs(head)
    assert check_run.conclusion == "failure"
    titles = [note.title or "" for note in check_run.annotations]
    assert sum(1 for title in titles if title.endswith(" failed")) == 120
    assert [title for title in titles if not title.endswith(" failed")] == ["RH-4"]  # the assertions the change removed
    creates = server.requests_to("POST /repos/{owner}/{repo}/check-runs")
    updates = server.requests_to("PATCH /repos/{owner}/{repo}/check-runs/{check_run_id}")
    sizes = [len(r.json["output"]["annotations"]) for r in [*creates, *updates]]
    assert sizes == [50, 50, 21]
    assert check_run.annotations[0].path == "tests/test_cart.py"


def test_a_base_commit_with_a_digest_yields_deltas(
    tmp_path: Path, repo: Repo, server: FakeGitHub, action: Callable[..., Run]
) -> None:
    base, head = make_repo(repo, TESTS)
    seed(server, base, head)
    base_ledger = Ledger(
        verdict=Verdict.PASS,
        head=base,
        base=None,
        stack="python",
        counts=Counts(passed=1, failed=0, skipped=0),
        tests={"000000000000": "passed"},
    )
    digest = encode(base_ledger)
    assert digest is not None
    _create_base_check_run(server, base, f"## Evidence Gate\n{digest}")
    run_pytest(repo)
    run = action(repo, event(tmp_path, base, head), head)
    deltas = run.ledger.deltas
    assert deltas is not None
    assert (deltas.executed, deltas.added, deltas.removed) == (1, 2, 1)
    gate = run.ledger.gate("evidence")
    assert gate is not None
    assert gate.headline == "1 tests the base ran are missing, and the change does not delete them: 1 unnamed"
    assert run.ledger.baseline == f"base {base[:12]}"
    (comment,) = server.comments(PR)
    assert "+1 test" in comment.body


def _create_base_check_run(server: FakeGitHub, sha: str, summary: str) -> None:
    import requests

    response = requests.post(
        f"{server.url}/repos/{REPO}/check-runs",
        headers={"Authorization": f"token {DEFAULT_TOKEN}", "Accept": "application/vnd.github+json"},
        json={
            "name": CHECK,
            "head_sha": sha,
            "status": "completed",
            "conclusion": "success",
            "output": {"title": "PASS", "summary": summary},
        },
        timeout=10,
    )
    assert response.status_code == 201, response.text


def test_no_token_still_writes_the_result(
    tmp_path: Path, repo: Repo, server: FakeGitHub, action: Callable[..., Run]
) -> None:
    base, head = pull_request(repo, server)
    run = action(repo, event(tmp_path, base, head), head, **{"github-token": ""})
    assert run.outputs["verdict"] == "PASS"
    assert "no github-token" in run.stdout
    assert server.requests == []


def test_pull_request_target_from_a_fork_refuses_to_run_commands(tmp_path: Path, repo: Repo) -> None:
    base, head = make_repo(repo, TESTS)
    payload = event(tmp_path, base, head, head_repo="contributor/shop")
    environ = {
        **os.environ,
        "GITHUB_EVENT_NAME": "pull_request_target",
        "GITHUB_EVENT_PATH": str(payload),
        "GITHUB_REPOSITORY": REPO,
    }
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "evidence_gate",
            "criteria",
            "--story",
            "SHOP-1",
            "--count",
            "1",
            "--command",
            "python -m pytest -k {tag}",
            "--repo",
            str(repo.path),
        ],
        env=environ,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 2
    assert "pull_request_target" in result.stderr
    assert not (repo.path / ".pytest_cache").exists()
    git(repo.path, "status")


@pytest.mark.parametrize(("mode", "comments"), [("off", 0), ("failures", 0), ("always", 1)])
def test_comment_modes_on_a_passing_run(
    tmp_path: Path, repo: Repo, server: FakeGitHub, action: Callable[..., Run], mode: str, comments: int
) -> None:
    base, head = pull_request(repo, server)
    action(repo, event(tmp_path, base, head), head, comment_mode=mode)
    assert len(server.comments(PR)) == comments


def test_changes_mode_leaves_the_comment_alone_while_the_verdict_holds(
    tmp_path: Path, repo: Repo, server: FakeGitHub, action: Callable[..., Run]
) -> None:
    base, head = pull_request(repo, server)
    action(repo, event(tmp_path, base, head), head, comment_mode="changes")
    more = push_another_test(repo, server, base)
    action(repo, event(tmp_path, base, more, name="second.json"), more, comment_mode="changes")
    assert len(server.comments(PR)) == 1
    assert server.requests_to("PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}") == []
