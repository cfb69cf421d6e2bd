"""The PR body's section per check name, end to end against the fake GitHub: two configurations in
one repository keep two sections, and a body written by an earlier release (unkeyed markers) is
taken over rather than left beside a new section."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.github_fake import FakeGitHub

from ..conftest import Repo
from .harness import BODY, CHECK, PR, REPO, TESTS, Run, event, make_repo, pull_request, run_pytest

WEB = "Evidence Gate: web"
# The markers as bodies hold them: an earlier release's, and one pair per check name (its slug).
UNKEYED_START, UNKEYED_END = "<!-- evidence-gate:coverage:start -->", "<!-- evidence-gate:coverage:end -->"
MARKERS = {
    CHECK: ("<!-- evidence-gate:coverage:evidence-gate:start -->", "<!-- evidence-gate:coverage:evidence-gate:end -->"),
    WEB: (
        "<!-- evidence-gate:coverage:evidence-gate-web:start -->",
        "<!-- evidence-gate:coverage:evidence-gate-web:end -->",
    ),
}


def test_two_check_names_keep_two_sections(
    tmp_path: Path, repo: Repo, server: FakeGitHub, action: Callable[..., Run]
) -> None:
    base, head = pull_request(repo, server)
    action(repo, event(tmp_path, base, head), head)
    action(repo, event(tmp_path, base, head, name="web.json"), head, check_name=WEB)
    action(repo, event(tmp_path, base, head, name="again.json"), head)
    body = server.pr_body(PR) or ""
    assert body.startswith(BODY)
    for start, end in MARKERS.values():
        assert (body.count(start), body.count(end)) == (1, 1)
    assert body.count("## Test Coverage\r\n") == 1
    assert body.count("## Test Coverage: Evidence Gate: web\r\n") == 1


@pytest.mark.parametrize("check_name", [CHECK, WEB])
def test_a_body_with_the_unkeyed_section_gets_one_keyed_section(
    tmp_path: Path, repo: Repo, server: FakeGitHub, action: Callable[..., Run], check_name: str
) -> None:
    base, head = make_repo(repo, TESTS)
    old = (
        f"{BODY}\r\n## Test Coverage\r\n{UNKEYED_START}\r\n**BLOCKED.** old result\r\n{UNKEYED_END}\r\n\r\nThanks!\r\n"
    )
    server.add_pull(REPO, PR, head_sha=head, base_sha=base, body=old)
    run_pytest(repo)
    action(repo, event(tmp_path, base, head), head, check_name=check_name)
    body = server.pr_body(PR) or ""
    start, end = MARKERS[check_name]
    assert UNKEYED_START not in body
    assert UNKEYED_END not in body
    assert "old result" not in body
    assert (body.count(start), body.count(end), body.count("## Test Coverage")) == (1, 1, 1)
    assert body.startswith(f"{BODY}\r\n## Test Coverage\r\n{start}\r\n")
    assert body.endswith(f"{end}\r\n\r\nThanks!\r\n")
