"""Each publishing surface switched off on its own, end to end against the fake GitHub: the check run
(`check-run: false`), the PR body's section (`pr-body: false`) and the job summary
(`job-summary: false`), as the comment is by `comment-mode: off`. Off is not written and said once
in the log, never a warning or an error."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from tests.github_fake import FakeGitHub

from ..conftest import Repo
from .harness import (
    BODY,
    PR,
    START,
    TESTS,
    Run,
    action_environ,
    event,
    pull_request,
    push_another_test,
    run_entrypoint,
    run_pytest,
    runner_files,
    seed,
)


def test_check_run_false_writes_no_check_run_and_says_so_once(
    tmp_path: Path, repo: Repo, server: FakeGitHub, action: Callable[..., Run]
) -> None:
    base, head = pull_request(repo, server)
    run = action(repo, event(tmp_path, base, head), head, check_run="false")
    assert run.code == 0, run.stdout
    assert server.check_runs(head) == []
    assert server.requests_to("POST /repos/{owner}/{repo}/check-runs") == []
    assert run.stdout.count("::notice") == 1
    assert "the check run (check-run: false)" in run.stdout
    assert "::warning" not in run.stdout
    assert run.outputs["check-run-url"] == ""
    assert len(server.comments(PR)) == 1
    assert START in (server.pr_body(PR) or "")


def test_two_runs_with_the_check_run_off_leave_one_comment(
    tmp_path: Path, repo: Repo, server: FakeGitHub, action: Callable[..., Run]
) -> None:
    base, head = pull_request(repo, server)
    action(repo, event(tmp_path, base, head), head, check_run="false")
    (first,) = server.comments(PR)
    more = push_another_test(repo, server, base)
    second = action(repo, event(tmp_path, base, more, name="second.json"), more, check_run="false")
    assert "::warning" not in second.stdout
    assert server.check_runs(head) == server.check_runs(more) == []
    (comment,) = server.comments(PR)
    assert comment.id == first.id
    assert "3 executed" in comment.body


def test_with_the_check_run_off_failures_mode_still_turns_an_earlier_failure_to_pass(
    tmp_path: Path, repo: Repo, server: FakeGitHub, action: Callable[..., Run]
) -> None:
    base, head = pull_request(repo, server, tests=TESTS.replace("1 + 1 == 2", "1 + 1 == 3"))
    failed = action(repo, event(tmp_path, base, head), head, check_run="false", comment_mode="failures")
    assert failed.outputs["verdict"] == "BLOCKED"
    (first,) = server.comments(PR)
    fixed = repo.commit("fix the test", {"tests/test_cart.py": TESTS})
    seed(server, base, fixed)
    run_pytest(repo)
    passed = action(
        repo, event(tmp_path, base, fixed, name="second.json"), fixed, check_run="false", comment_mode="failures"
    )
    assert passed.outputs["verdict"] == "PASS", passed.stdout
    assert server.check_runs(fixed) == []
    (comment,) = server.comments(PR)
    assert comment.id == first.id
    assert "<!-- QG:VERDICT:PASS -->" in comment.body


def test_with_the_check_run_off_changes_mode_leaves_the_comment_alone_while_the_verdict_holds(
    tmp_path: Path, repo: Repo, server: FakeGitHub, action: Callable[..., Run]
) -> None:
    base, head = pull_request(repo, server)
    action(repo, event(tmp_path, base, head), head, check_run="false", comment_mode="changes")
    (first,) = server.comments(PR)
    more = push_another_test(repo, server, base)
    action(repo, event(tmp_path, base, more, name="second.json"), more, check_run="false", comment_mode="changes")
    assert server.check_runs(more) == []
    assert server.requests_to("PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}") == []
    (comment,) = server.comments(PR)
    assert (comment.id, comment.body) == (first.id, first.body)


def test_pr_body_false_leaves_the_body_alone(
    tmp_path: Path, repo: Repo, server: FakeGitHub, action: Callable[..., Run]
) -> None:
    base, head = pull_request(repo, server)
    run = action(repo, event(tmp_path, base, head), head, pr_body="false")
    assert server.pr_body(PR) == BODY
    assert server.requests_to("PATCH /repos/{owner}/{repo}/pulls/{pull_number}") == []
    assert run.stdout.count("::notice") == 1
    assert "the PR body's section (pr-body: false)" in run.stdout
    assert len(server.check_runs(head)) == 1
    assert len(server.comments(PR)) == 1


def test_job_summary_false_writes_no_job_summary(
    tmp_path: Path, repo: Repo, server: FakeGitHub, action: Callable[..., Run]
) -> None:
    base, head = pull_request(repo, server)
    run = action(repo, event(tmp_path, base, head), head, job_summary="false")
    assert run.summary == ""
    assert run.stdout.count("::notice") == 1
    assert "the job summary (job-summary: false)" in run.stdout
    assert run.outputs["verdict"] == "PASS"
    assert len(server.check_runs(head)) == 1


def test_every_surface_off_is_one_notice_naming_each(
    tmp_path: Path, repo: Repo, server: FakeGitHub, action: Callable[..., Run]
) -> None:
    base, head = pull_request(repo, server)
    run = action(
        repo,
        event(tmp_path, base, head),
        head,
        comment_mode="off",
        check_run="false",
        pr_body="false",
        job_summary="false",
    )
    assert run.code == 0
    (line,) = [line for line in run.stdout.splitlines() if line.startswith("::notice")]
    for surface in ("the comment", "the check run", "the PR body's section", "the job summary"):
        assert surface in line
    assert (server.comments(PR), server.check_runs(head), server.pr_body(PR), run.summary) == ([], [], BODY, "")
    assert run.outputs["verdict"] == "PASS"


def test_a_switch_neither_true_nor_false_is_a_one_line_error(tmp_path: Path, repo: Repo, server: FakeGitHub) -> None:
    base, head = pull_request(repo, server)
    environ = action_environ(server, repo, event(tmp_path, base, head), head, runner_files(tmp_path), check_run="no")
    result = run_entrypoint(environ)
    assert result.returncode == 2
    assert result.stdout.strip() == "::error title=Evidence Gate::check-run: 'no' is neither true nor false"
    assert server.requests == []
