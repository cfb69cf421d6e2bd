"""The pytest fixture: a FakeGitHub seeded with octo-org/shop and its pull request #7, which fails the test at
teardown when any request or response broke GitHub's OpenAPI description or documented limits.

A test that provokes violations on purpose takes them with `github_server.pop_violations()` and asserts on them.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from .server import FakeGitHub
from .spec import SpecNotInstalledError, load_spec

REPO = "octo-org/shop"
PR_NUMBER = 7
HEAD_SHA = "6dcb09b5b57875f334f61aebed695e2e4193db5e"
BASE_SHA = "9c2f1e8d4b7a6c5e3f2d1c0b9a8e7d6c5b4a3f2e"
HEAD_REF = "feature/discounts"
PR_TITLE = "Add volume discounts to checkout"
PR_BODY = "Adds tiered volume discounts.\n\n- [x] tests for the discount table\n"


def start_github_server() -> FakeGitHub:
    """A started, seeded fake; pytest.fail (one line, no traceback) if the description is not installed."""
    try:
        spec = load_spec()
    except SpecNotInstalledError as exc:
        pytest.fail(str(exc), pytrace=False)
    server = FakeGitHub(spec)
    server.add_repo(REPO)
    server.add_pull(
        REPO, PR_NUMBER, head_sha=HEAD_SHA, base_sha=BASE_SHA, body=PR_BODY, title=PR_TITLE, head_ref=HEAD_REF
    )
    return server.start()


def check_no_violations(server: FakeGitHub) -> None:
    """pytest.fail listing every violation still recorded."""
    violations = server.pop_violations()
    if violations:
        listing = "\n".join(str(v) for v in violations)
        head = f"the fake GitHub recorded {len(violations)} violation(s) of GitHub's REST description or limits"
        pytest.fail(f"{head}:\n{listing}", pytrace=False)


@pytest.fixture
def github_server() -> Iterator[FakeGitHub]:
    server = start_github_server()
    try:
        yield server
    finally:
        server.stop()
    check_no_violations(server)
