"""What GitHub tells an action about its run: the environment and the event payload.

The event payload is untrusted data from the pull request (its body, titles, branch names); only
the fields named here are read, and they are type-checked.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from evidence_gate.errors import UsageError
from evidence_gate.pipeline import PullRequest

FORK_RECIPE = "docs/fork-pull-requests.md"


@dataclass(frozen=True, kw_only=True)
class GitHubContext:
    api_url: str
    repository: str  # owner/name
    event_name: str
    sha: str
    pull_request: PullRequest | None
    head_repository: str | None  # owner/name of the PR's head (a fork's, for a fork PR)
    actor: str
    run_url: str | None

    @property
    def is_fork(self) -> bool:
        return self.head_repository is not None and self.head_repository != self.repository

    @property
    def read_only_token(self) -> bool:
        """A `pull_request` run from a fork, or one Dependabot triggered, gets a read-only token."""
        return self.event_name == "pull_request" and (self.is_fork or self.actor == "dependabot[bot]")

    @property
    def untrusted_head_with_secrets(self) -> bool:
        """`pull_request_target` runs with a write token and secrets on a fork's code: never run it."""
        return self.event_name == "pull_request_target" and self.is_fork


def load_context(environ: Mapping[str, str]) -> GitHubContext | None:
    """The run's context, or None outside GitHub Actions (no GITHUB_REPOSITORY)."""
    repository = environ.get("GITHUB_REPOSITORY", "")
    if not repository:
        return None
    event = _event(environ.get("GITHUB_EVENT_PATH", ""))
    pull = event.get("pull_request") if isinstance(event.get("pull_request"), dict) else None
    server = environ.get("GITHUB_SERVER_URL", "https://github.com")
    run_id = environ.get("GITHUB_RUN_ID")
    return GitHubContext(
        api_url=environ.get("GITHUB_API_URL", "https://api.github.com").rstrip("/"),
        repository=repository,
        event_name=environ.get("GITHUB_EVENT_NAME", ""),
        sha=environ.get("GITHUB_SHA", ""),
        pull_request=_pull_request(pull) if pull else None,
        head_repository=_text(pull, "head", "repo", "full_name") if pull else None,
        actor=environ.get("GITHUB_ACTOR", ""),
        run_url=f"{server}/{repository}/actions/runs/{run_id}" if run_id else None,
    )


def _event(path: str) -> dict[str, Any]:
    if not path:
        return {}
    try:
        document = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise UsageError(f"GITHUB_EVENT_PATH {path}: cannot read the event payload ({error})") from error
    return document if isinstance(document, dict) else {}


def _text(document: Any, *keys: str) -> str | None:
    for key in keys:
        document = document.get(key) if isinstance(document, dict) else None
    return document if isinstance(document, str) else None


def _pull_request(pull: dict[str, Any]) -> PullRequest | None:
    number = pull.get("number")
    base_sha, head_sha = _text(pull, "base", "sha"), _text(pull, "head", "sha")
    if not isinstance(number, int) or not base_sha or not head_sha:
        return None
    return PullRequest(number=number, base_sha=base_sha, head_sha=head_sha, body=_text(pull, "body") or "")
