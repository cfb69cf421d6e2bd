"""What GitHub tells an action about its run: the environment and the event payload.

The event payload is untrusted data from the pull request (its body, titles, branch names); only
the fields named here are read, and they are type-checked.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from evidence_gate.documents import load_json, read_capped
from evidence_gate.errors import UsageError
from evidence_gate.model import PullRequest

FORK_RECIPE = "docs/fork-pull-requests.md"
MAX_EVENT_BYTES = 25 * 1024 * 1024  # GitHub caps webhook payloads at 25 MB


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
    unproven_head: str | None  # why the head is not proven to be this repository; None when it is
    server_url: str = "https://github.com"  # GITHUB_SERVER_URL: a GitHub Enterprise Server's own

    @property
    def is_fork(self) -> bool:
        return self.head_repository is not None and self.head_repository != self.repository

    @property
    def read_only_token(self) -> bool:
        """A `pull_request` run from a fork, or one Dependabot triggered, gets a read-only token."""
        return self.event_name == "pull_request" and (self.is_fork or self.actor == "dependabot[bot]")

    def refusal_to_run_head(self) -> str | None:
        """Why the pull request's code must not run here, or None. `pull_request_target` runs with a
        write token and secrets; its head's code may run only when the head is proven to be this
        repository (whoever pushed it there could already write), never on a guess."""
        if self.event_name != "pull_request_target" or self.unproven_head is None:
            return None
        return self.unproven_head


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
        server_url=server,
        unproven_head=unproven_head(repository, event)
        if environ.get("GITHUB_EVENT_PATH")
        else "there is no event payload",
    )


def unproven_head(repository: str, event: dict[str, Any]) -> str | None:
    """Why the event does not prove that the pull request's head is `repository`, or None when it
    does: the head's, the base's and the event's repository must all carry one id and one name."""
    pull = event.get("pull_request")
    if not isinstance(pull, dict):
        return "the event payload holds no pull request"
    head = _object(pull, "head", "repo")
    if head is None:
        return "the pull request's head repository is unknown (a deleted fork)"
    sides = {"head": head, "base": _object(pull, "base", "repo"), "event": _object(event, "repository")}
    ids = {side: _integer(found, "id") for side, found in sides.items()}
    names = {side: _text(found, "full_name") for side, found in sides.items()}
    for side in ("base", "event"):
        if ids[side] is None or names[side] is None:
            return f"the event payload does not name the {side} repository's id and full name"
    if ids["head"] is None or names["head"] is None:
        return "the event payload does not name the head repository's id and full name"
    if len(set(ids.values())) > 1 or len({str(name).casefold() for name in (*names.values(), repository)}) > 1:
        return f"the pull request's head is {names['head']} (id {ids['head']}), not {repository} (id {ids['base']})"
    return None


def _event(path: str) -> dict[str, Any]:
    if not path:
        return {}
    source = f"GITHUB_EVENT_PATH {path}"
    try:
        data = read_capped(Path(path), MAX_EVENT_BYTES, UsageError, "the event payload")
    except UsageError as error:
        raise UsageError(f"GITHUB_EVENT_PATH {error}") from error
    document = load_json(data, f"{source}: the event payload", UsageError)
    return document if isinstance(document, dict) else {}


def _object(document: Any, *keys: str) -> dict[str, Any] | None:
    for key in keys:
        document = document.get(key) if isinstance(document, dict) else None
    return document if isinstance(document, dict) else None


def _integer(document: Any, key: str) -> int | None:
    value = document.get(key) if isinstance(document, dict) else None
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _text(document: Any, *keys: str) -> str | None:
    for key in keys:
        document = document.get(key) if isinstance(document, dict) else None
    return document if isinstance(document, str) else None


def _pull_request(pull: dict[str, Any]) -> PullRequest | None:
    number = pull.get("number")
    base_sha, head_sha = _text(pull, "base", "sha"), _text(pull, "head", "sha")
    if not isinstance(number, int) or not base_sha or not head_sha:
        return None
    return PullRequest(
        number=number, base_sha=base_sha, head_sha=head_sha, body=_text(pull, "body") or "", labels=_labels(pull)
    )


MAX_LABELS = 100  # GitHub allows 100 labels on an issue or pull request


def _labels(pull: dict[str, Any]) -> tuple[str, ...]:
    """The label names; anything of another shape in the untrusted payload is left out."""
    labels = pull.get("labels")
    if not isinstance(labels, list):
        return ()
    names = (label.get("name") for label in labels[:MAX_LABELS] if isinstance(label, dict))
    return tuple(name[:100] for name in names if isinstance(name, str))
