"""GitHub failing under the action, end to end against the fake GitHub: a request never answered, a
connection reset, a `Retry-After` of an hour, a comment deleted between the run's reading and its
writing, a pull request GitHub does not know. Each run ends in bounded time, says once what
happened, and keeps everything it could write."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import pytest

from evidence_gate.github.client import GitHubDidNotAnswer, WaitBudget, make_client
from tests.github_fake import DEFAULT_TOKEN, FakeGitHub, faults

from ..conftest import Repo
from .harness import (
    BODY,
    PR,
    REPO,
    Run,
    event,
    make_repo,
    post_marked_comments,
    publish,
    pull_request,
    push_another_test,
    run_pytest,
    seed,
)

CHECK_RUNS = "POST /repos/{owner}/{repo}/check-runs"
COMMENTS = "POST /repos/{owner}/{repo}/issues/{issue_number}/comments"
EDIT_COMMENT = "PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}"
DELETE_COMMENT = "DELETE /repos/{owner}/{repo}/issues/comments/{comment_id}"
EDIT_PULL = "PATCH /repos/{owner}/{repo}/pulls/{pull_number}"


def timed(run: Callable[[], Run]) -> tuple[Run, float]:
    started = time.monotonic()
    result = run()
    return result, time.monotonic() - started


def test_a_request_github_never_answers_ends_within_the_wait_budget(
    tmp_path: Path, repo: Repo, server: FakeGitHub, action: Callable[..., Run]
) -> None:
    base, head = pull_request(repo, server)
    server.script(CHECK_RUNS, *[faults.no_answer() for _ in range(10)])
    run, seconds = timed(lambda: action(repo, event(tmp_path, base, head), head, api_wait_seconds="2"))
    assert seconds < 30  # six attempts of 30 s each before the budget
    assert run.stdout.count("GitHub did not answer within 2 s (the request timed out)") == 1
    assert run.stdout.count("::warning") == 1
    assert (run.code, run.outputs["verdict"]) == (0, "PASS")
    assert "<!-- QG:VERDICT:PASS -->" in run.summary
    assert server.comments(PR) == []
    assert server.pr_body(PR) == BODY


def test_an_unanswered_baseline_read_still_gives_the_result_and_publishes_nothing(
    tmp_path: Path, repo: Repo, server: FakeGitHub, action: Callable[..., Run]
) -> None:
    base, head = pull_request(repo, server)
    server.script("GET /repos/{owner}/{repo}/commits/{ref}/check-runs", *[faults.no_answer() for _ in range(10)])
    run, seconds = timed(lambda: action(repo, event(tmp_path, base, head), head, api_wait_seconds="2"))
    assert seconds < 30
    assert run.stdout.count("GitHub did not answer within 2 s") == 1
    assert run.ledger.baseline == "GitHub did not answer within 2 s (the request timed out)"
    assert run.outputs["verdict"] == "PASS"
    assert [r for r in server.requests if r.method != "GET"] == []


def test_connection_resets_are_retried_within_the_same_budget(
    tmp_path: Path, repo: Repo, server: FakeGitHub, action: Callable[..., Run]
) -> None:
    base, head = pull_request(repo, server)
    server.script(CHECK_RUNS, *[faults.connection_reset() for _ in range(10)])
    run, seconds = timed(lambda: action(repo, event(tmp_path, base, head), head, api_wait_seconds="2"))
    # Resets cost nothing but the pauses between retries: 0 s, then 1 s; the next (2 s) would overrun the budget.
    assert len(server.requests_to(CHECK_RUNS)) == 3
    assert seconds < 30
    assert run.stdout.count("GitHub did not answer within 2 s (the next retry waits 2 s)") == 1
    assert run.outputs["verdict"] == "PASS"
    assert server.comments(PR) == []


def test_a_retry_after_of_an_hour_is_not_waited_out(
    tmp_path: Path, repo: Repo, server: FakeGitHub, action: Callable[..., Run]
) -> None:
    base, head = pull_request(repo, server)
    server.script(COMMENTS, *[faults.too_many_requests(retry_after=3600) for _ in range(10)])
    run, seconds = timed(lambda: action(repo, event(tmp_path, base, head), head))
    assert seconds < 30
    assert len(server.requests_to(COMMENTS)) == 1
    assert run.stdout.count("GitHub did not answer within 60 s (it asked to wait 3600 s)") == 1
    assert len(server.check_runs(head)) == 1
    assert server.requests_to(EDIT_PULL) == []
    assert run.outputs["verdict"] == "PASS"


def test_a_comment_deleted_before_its_edit_is_created_again(
    tmp_path: Path, repo: Repo, server: FakeGitHub, action: Callable[..., Run]
) -> None:
    base, head = pull_request(repo, server)
    action(repo, event(tmp_path, base, head), head)
    (first,) = server.comments(PR)
    more = push_another_test(repo, server, base)
    server.script(EDIT_COMMENT, faults.deleted_meanwhile())
    second = action(repo, event(tmp_path, base, more, name="second.json"), more)
    assert "::warning" not in second.stdout
    (comment,) = server.comments(PR)
    assert comment.id != first.id
    assert "3 executed" in comment.body
    assert second.outputs["comment-url"].endswith(str(comment.id))
    assert len(server.requests_to(EDIT_PULL)) == 2  # the PR body's section, on both runs


def test_a_duplicate_deleted_before_its_removal_is_left_alone(
    tmp_path: Path, repo: Repo, server: FakeGitHub, action: Callable[..., Run]
) -> None:

    base, head = make_repo(repo, "def test_total():\n    assert True\n")
    seed(server, base, head)
    post_marked_comments(server, "first run", "second run")
    oldest = min(comment.id for comment in server.comments(PR))
    server.script(DELETE_COMMENT, faults.deleted_meanwhile())
    run_pytest(repo)
    run = action(repo, event(tmp_path, base, head), head)
    assert "::warning" not in run.stdout
    assert [comment.id for comment in server.comments(PR)] == [oldest]
    assert len(server.requests_to(EDIT_PULL)) == 1


def test_publish_of_a_pull_request_github_does_not_know_is_a_one_line_error(
    tmp_path: Path, repo: Repo, server: FakeGitHub, action: Callable[..., Run]
) -> None:
    base, head = pull_request(repo, server)
    made = action(repo, event(tmp_path, base, head), head, github_token="")
    unknown = event(tmp_path, base, head, name="unknown.json")
    unknown.write_text(unknown.read_text().replace(f'"number": {PR}', '"number": 99'))
    result = publish(server, Path(made.outputs["ledger"]), unknown, tmp_path)
    assert result.returncode == 2
    assert result.stderr == (
        f"evidence-gate: error: publish: GitHub has no pull request #99 of {REPO} (404): check the event file,"
        " and that the token can read the repository\n"
    )
    assert [r for r in server.requests if r.method != "GET"] == []


def test_reads_that_time_out_end_within_the_wait_budget_not_past_it(server: FakeGitHub) -> None:
    """Each attempt's timeout is what is left of the budget: with 5 s, a read GitHub never answers
    ends at 5 s (it ended at 10 s when each attempt took the whole budget for its timeout), and a
    later request is not started at all."""
    budget = WaitBudget(5)
    client = make_client(DEFAULT_TOKEN, server.url, budget)
    server.add_pull(REPO, PR, head_sha="b" * 40, base_sha="a" * 40, body=BODY)
    server.script("GET /repos/{owner}/{repo}/commits/{ref}/check-runs", *[faults.no_answer() for _ in range(10)])
    started = time.monotonic()
    with pytest.raises(GitHubDidNotAnswer, match=r"^GitHub did not answer within 5 s \(the request timed out\)$"):
        list(client.get_repo(REPO).get_commit("a" * 40).get_check_runs())
    assert 5 <= time.monotonic() - started < 7
    with pytest.raises(GitHubDidNotAnswer):
        _ = client.get_repo(REPO).get_pull(PR).title
    assert time.monotonic() - started < 7
    assert len(server.requests_to("GET /repos/{owner}/{repo}/pulls/{pull_number}")) == 0
