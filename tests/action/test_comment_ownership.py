"""Which comment is the action's own, end to end against the fake GitHub: the one with its marker
written by the token's own account, github-actions[bot] for the workflow's token, as the check run
this run created names it. A comment with the marker by anyone else, another bot included, is left
alone."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from evidence_gate.render import comment_marker
from tests.github_fake import FakeGitHub, faults
from tests.github_fake.state import User

from ..conftest import Repo
from .harness import CHECK, PR, REPO, Run, event, pull_request, push_another_test

IMPOSTOR = User("marker-copier[bot]", 49_699_333, "Bot")


def test_another_bots_comment_with_our_marker_is_left_alone(
    tmp_path: Path, repo: Repo, server: FakeGitHub, action: Callable[..., Run]
) -> None:
    base, head = pull_request(repo, server)
    planted = f"{comment_marker(CHECK)}\n<!-- QG:VERDICT:BLOCKED -->\nBlocked: trust me"
    theirs = server.add_comment(REPO, PR, planted, user=IMPOSTOR)
    action(repo, event(tmp_path, base, head), head)
    first, ours = server.comments(PR)
    assert (first.id, first.body, first.user) == (theirs.id, planted, IMPOSTOR)
    assert ours.user.login == "github-actions[bot]"
    assert "<!-- QG:VERDICT:PASS -->" in ours.body
    touched = [r.path for r in server.requests if r.method in {"PATCH", "DELETE"}]
    assert f"/repos/{REPO}/issues/comments/{theirs.id}" not in touched


def test_without_a_check_run_the_comment_it_creates_names_the_account(
    tmp_path: Path, repo: Repo, server: FakeGitHub, action: Callable[..., Run]
) -> None:
    base, head = pull_request(repo, server)
    action(repo, event(tmp_path, base, head), head)
    (first,) = server.comments(PR)
    more = push_another_test(repo, server, base)
    server.script("POST /repos/{owner}/{repo}/check-runs", faults.not_found())
    second = action(repo, event(tmp_path, base, more, name="second.json"), more)
    assert second.stdout.count("::warning") == 1  # the check run's 404, and nothing about the comment
    (comment,) = server.comments(PR)
    assert comment.id == first.id
    assert "3 executed" in comment.body
