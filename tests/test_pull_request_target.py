"""Under `pull_request_target` (a write token and secrets) a repository command runs only when the
event proves that the pull request's head is this repository; every other case is refused with its
reason, and the command never runs."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from .conftest import CliResult, Repo

REPOSITORY = "octo-org/shop"
REPOSITORY_ID = 1296269


def side(full_name: str, repository_id: int) -> dict[str, Any]:
    return {"sha": "a" * 40, "ref": "feature", "repo": {"id": repository_id, "full_name": full_name}}


def payload(head: dict[str, Any] | None = None, **changes: Any) -> dict[str, Any]:
    pull = {
        "number": 7,
        "body": "",
        "head": head or side(REPOSITORY, REPOSITORY_ID),
        "base": side(REPOSITORY, REPOSITORY_ID),
    }
    return {"pull_request": pull, "repository": {"id": REPOSITORY_ID, "full_name": REPOSITORY}, **changes}


def criteria_command(
    cli: Callable[..., CliResult], repo: Repo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, event: Any
) -> tuple[CliResult, Path]:
    monkeypatch.setenv("GITHUB_EVENT_NAME", "pull_request_target")
    monkeypatch.setenv("GITHUB_REPOSITORY", REPOSITORY)
    monkeypatch.delenv("GITHUB_EVENT_PATH", raising=False)
    if event is not None:
        path = tmp_path / "event.json"
        path.write_text(json.dumps(event))
        monkeypatch.setenv("GITHUB_EVENT_PATH", str(path))
    marker = tmp_path / "the-command-ran"
    result = cli(
        "criteria",
        "--story",
        "SHOP-1",
        "--count",
        "1",
        "--command",
        f"env TAG={{tag}} touch {marker}",
        "--repo",
        repo.path,
    )
    return result, marker


@pytest.mark.parametrize(
    ("event", "reason"),
    [
        (None, "there is no event payload"),
        ({"repository": {"id": REPOSITORY_ID, "full_name": REPOSITORY}}, "holds no pull request"),
        (
            payload(head={"sha": "a" * 40, "ref": "feature", "repo": None}),
            "head repository is unknown (a deleted fork)",
        ),
        (payload(head=side(REPOSITORY, 999)), f"head is {REPOSITORY} (id 999), not {REPOSITORY}"),
        (payload(head=side("contributor/shop", REPOSITORY_ID)), "head is contributor/shop"),
        (payload(repository={"full_name": REPOSITORY}), "does not name the event repository's id and full name"),
        (payload(head={"sha": "a" * 40, "repo": {"full_name": REPOSITORY}}), "head repository's id and full name"),
    ],
    ids=["no-event-file", "no-pull-request", "deleted-fork", "other-id", "other-name", "no-ids", "head-without-id"],
)
def test_a_head_not_proven_to_be_this_repository_never_runs_the_command(
    repo: Repo,
    tmp_path: Path,
    cli: Callable[..., CliResult],
    monkeypatch: pytest.MonkeyPatch,
    event: Any,
    reason: str,
) -> None:
    result, marker = criteria_command(cli, repo, tmp_path, monkeypatch, event)
    assert result.code == 2
    assert "refusing to run repository code" in result.err
    assert reason in result.err
    assert not marker.exists()


def test_without_github_repository_the_command_is_refused(
    repo: Repo, tmp_path: Path, cli: Callable[..., CliResult], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("GITHUB_REPOSITORY", raising=False)
    monkeypatch.setenv("GITHUB_EVENT_NAME", "pull_request_target")
    marker = tmp_path / "the-command-ran"
    result = cli(
        "criteria",
        "--story",
        "S-1",
        "--count",
        "1",
        "--command",
        f"env TAG={{tag}} touch {marker}",
        "--repo",
        repo.path,
    )
    assert "GITHUB_REPOSITORY is not set" in result.err
    assert not marker.exists()


def test_a_head_proven_to_be_this_repository_runs_the_command(
    repo: Repo, tmp_path: Path, cli: Callable[..., CliResult], monkeypatch: pytest.MonkeyPatch
) -> None:
    result, marker = criteria_command(cli, repo, tmp_path, monkeypatch, payload())
    assert "refusing" not in result.err
    assert marker.exists()
