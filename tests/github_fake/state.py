"""The fake's in-memory GitHub: repositories, pull requests, issue comments, check runs and their annotations."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

Json = Any


def now() -> str:
    """A GitHub timestamp: ISO 8601 in UTC, seconds precision, with a Z."""
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


@dataclass(frozen=True)
class User:
    login: str
    id: int
    type: str = "User"  # "User", "Organization" or "Bot"

    @property
    def node_id(self) -> str:
        prefix = {"Organization": "O_kgDO", "Bot": "BOT_kgDO"}.get(self.type, "U_kgDO")
        return f"{prefix}{self.id:08d}"


# The identities a workflow's GITHUB_TOKEN acts as: comments are by the bot, check runs by the Actions app.
ACTIONS_BOT = User("github-actions[bot]", 41898282, "Bot")
OCTOCAT = User("octocat", 583231)


@dataclass
class Annotation:
    path: str
    start_line: int
    end_line: int
    annotation_level: str
    message: str
    start_column: int | None = None
    end_column: int | None = None
    title: str | None = None
    raw_details: str | None = None

    @classmethod
    def from_request(cls, data: dict[str, Any]) -> Annotation:
        return cls(
            path=data["path"],
            start_line=data["start_line"],
            end_line=data["end_line"],
            annotation_level=data["annotation_level"],
            message=data["message"],
            start_column=data.get("start_column"),
            end_column=data.get("end_column"),
            title=data.get("title"),
            raw_details=data.get("raw_details"),
        )


@dataclass
class CheckRun:
    id: int
    name: str
    head_sha: str
    check_suite_id: int
    status: str = "queued"
    conclusion: str | None = None
    started_at: str | None = None
    completed_at: str | None = None
    details_url: str | None = None
    external_id: str | None = None
    output_title: str | None = None
    output_summary: str | None = None
    output_text: str | None = None
    annotations: list[Annotation] = field(default_factory=list)

    def apply(self, data: dict[str, Any]) -> None:
        """Apply a create or update request the way GitHub does: scalar fields replace, output fields replace
        when given, annotations are appended, a conclusion (or completed_at) completes the run."""
        for key in ("name", "details_url", "external_id", "started_at", "completed_at", "status", "conclusion"):
            if key in data:
                setattr(self, key, data[key])
        if self.conclusion is not None or self.completed_at is not None:
            self.status = "completed"
        if self.status == "completed" and self.completed_at is None:
            self.completed_at = now()
        if self.status != "queued" and self.started_at is None:
            self.started_at = now()
        output = data.get("output")
        if isinstance(output, dict):
            self.output_title = output.get("title", self.output_title)
            self.output_summary = output.get("summary", self.output_summary)
            self.output_text = output.get("text", self.output_text)
            self.annotations.extend(Annotation.from_request(a) for a in output.get("annotations", []))


@dataclass
class Comment:
    id: int
    issue_number: int
    body: str
    user: User
    created_at: str
    updated_at: str


@dataclass
class PullRequest:
    number: int
    id: int
    title: str
    body: str | None
    head_sha: str
    base_sha: str
    head_ref: str
    base_ref: str
    user: User
    created_at: str
    updated_at: str
    state: str = "open"
    draft: bool = False
    maintainer_can_modify: bool = False
    labels: tuple[str, ...] = ()  # names; a label added after the event shows here, not in the event


@dataclass
class Repo:
    owner: User
    name: str
    id: int
    default_branch: str = "main"
    private: bool = False
    created_at: str = "2024-01-15T09:30:00Z"
    pulls: dict[int, PullRequest] = field(default_factory=dict)
    comments: dict[int, Comment] = field(default_factory=dict)
    check_runs: dict[int, CheckRun] = field(default_factory=dict)
    check_suites: dict[str, int] = field(default_factory=dict)  # head sha -> check suite id

    @property
    def full_name(self) -> str:
        return f"{self.owner.login}/{self.name}"

    def issue_comments(self, number: int) -> list[Comment]:
        return sorted((c for c in self.comments.values() if c.issue_number == number), key=lambda c: c.id)

    def runs_for(self, ref: str) -> list[CheckRun]:
        """Check runs on a commit, named by SHA or by a pull request's branch name."""
        shas = {ref} | {p.head_sha for p in self.pulls.values() if p.head_ref == ref}
        return sorted((r for r in self.check_runs.values() if r.head_sha in shas), key=lambda r: r.id)


@dataclass
class Store:
    """Everything the fake knows. Ids come from one counter per kind, as on GitHub."""

    repos: dict[str, Repo] = field(default_factory=dict)
    _ids: dict[str, Iterator[int]] = field(default_factory=dict)

    def next_id(self, kind: str) -> int:
        start = {"repo": 700_000_001, "pull": 1_800_000_001, "comment": 2_100_000_001, "check_run": 26_000_000_001}
        counter = self._ids.setdefault(kind, itertools.count(start.get(kind, 1)))
        return next(counter)

    def repo(self, owner: str, name: str) -> Repo | None:
        return self.repos.get(f"{owner}/{name}".lower())

    def add_repo(self, owner: str, name: str, *, owner_type: str = "Organization") -> Repo:
        repo = Repo(owner=User(owner, 9_919_000 + len(self.repos), owner_type), name=name, id=self.next_id("repo"))
        self.repos[repo.full_name.lower()] = repo
        return repo
