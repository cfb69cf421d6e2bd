"""A fake GitHub REST API for tests: local (127.0.0.1), stateful, and checked against GitHub's OpenAPI description.

    from tests.github_fake import github_server as github_server   # the fixture (or re-export it in conftest.py)

    def test_comment(github_server: FakeGitHub) -> None:
        gh = Github(base_url=github_server.url, auth=Auth.Token(github_server.token))
        ...
        assert github_server.comments(PR_NUMBER)[0].body.startswith("<!-- evidence-gate -->")

The fixture fails the test at teardown if any request or response violated the description or GitHub's limits.
"""

from . import faults
from .faults import Fault
from .fixture import (
    BASE_SHA,
    HEAD_REF,
    HEAD_SHA,
    PR_BODY,
    PR_NUMBER,
    PR_TITLE,
    REPO,
    github_server,
    start_github_server,
)
from .server import DEFAULT_TOKEN, FakeGitHub
from .spec import SpecNotInstalledError, load_spec, spec_path
from .wire import LoggedRequest, Violation

__all__ = [
    "BASE_SHA",
    "DEFAULT_TOKEN",
    "HEAD_REF",
    "HEAD_SHA",
    "PR_BODY",
    "PR_NUMBER",
    "PR_TITLE",
    "REPO",
    "FakeGitHub",
    "Fault",
    "LoggedRequest",
    "SpecNotInstalledError",
    "Violation",
    "faults",
    "github_server",
    "load_spec",
    "spec_path",
    "start_github_server",
]
