"""What the tests of the fake GitHub share: a raw HTTP client, PyGithub on the fake, and builders."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import requests
from github import Auth, Github

from tests.github_fake import (
    HEAD_SHA,
    PR_NUMBER,
    REPO,
    FakeGitHub,
)
from tests.github_fake import github_server as github_server

RUNS = f"/repos/{REPO}/check-runs"
COMMENTS = f"/repos/{REPO}/issues/{PR_NUMBER}/comments"


class Api:
    """requests against the fake, authenticated with its token."""

    def __init__(self, server: FakeGitHub) -> None:
        self.server = server
        self.session = requests.Session()
        self.session.headers.update(
            {"Authorization": f"Bearer {server.token}", "Accept": "application/vnd.github+json"}
        )

    def url(self, path: str) -> str:
        return path if path.startswith("http") else self.server.url + path

    def get(self, path: str, **params: Any) -> requests.Response:
        return self.session.get(self.url(path), params=params, timeout=10)

    def post(self, path: str, body: Any) -> requests.Response:
        return self.session.post(self.url(path), json=body, timeout=10)

    def patch(self, path: str, body: Any) -> requests.Response:
        return self.session.patch(self.url(path), json=body, timeout=10)


@pytest.fixture
def api(github_server: FakeGitHub) -> Iterator[Api]:
    client = Api(github_server)
    yield client
    client.session.close()


def pygithub(server: FakeGitHub, **options: Any) -> Github:
    """PyGithub on the fake, without its client-side pacing (0.25 s between requests, 1 s between writes)."""
    return Github(
        base_url=server.url,
        auth=Auth.Token(server.token),
        seconds_between_requests=None,
        seconds_between_writes=None,
        **options,
    )


@pytest.fixture
def gh(github_server: FakeGitHub) -> Iterator[Github]:
    client = pygithub(github_server, retry=None)
    yield client
    client.close()


def make_annotations(count: int, start: int = 1) -> list[dict[str, Any]]:
    return [
        {
            "path": "src/shop/discounts.py",
            "start_line": n,
            "end_line": n,
            "annotation_level": "warning",
            "message": f"m{n}",
        }
        for n in range(start, start + count)
    ]


def create_run(api: Api, **extra: Any) -> dict[str, Any]:
    body = {"name": "evidence-gate", "head_sha": HEAD_SHA, "status": "in_progress", **extra}
    response = api.post(RUNS, body)
    assert response.status_code == 201, response.text
    data: dict[str, Any] = response.json()
    return data


def kinds(server: FakeGitHub) -> list[str]:
    return [v.kind for v in server.pop_violations()]
