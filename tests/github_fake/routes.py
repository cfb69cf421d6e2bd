"""The endpoints the fake implements: one row per operation of GitHub's description, one small handler each."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any
from urllib.parse import unquote, urlencode

from . import check_templates as ct
from . import templates as t
from .state import ACTIONS_BOT, CheckRun, Comment, Json, PullRequest, Repo, Store, now
from .templates import ACTIONS_APP_ID, Urls

DEFAULT_PER_PAGE = 30
MAX_PER_PAGE = 100


@dataclass(frozen=True)
class Reply:
    status: int
    body: Json | None = None  # None: no body (204)
    headers: Sequence[tuple[str, str]] = ()


@dataclass
class Call:
    """One request, as a handler sees it: already routed, authenticated and validated against the description."""

    store: Store
    urls: Urls
    repo: Repo
    params: dict[str, str]
    query: dict[str, str]
    body: Any
    path: str

    def int_param(self, name: str) -> int:
        return int(self.params[name])

    def not_found(self) -> Reply:
        return Reply(404, t.error(self.urls, "Not Found", 404))


Handler = Callable[[Call], Reply]


@dataclass(frozen=True)
class Route:
    method: str
    template: str  # exactly as in the description's `paths`
    operation_id: str
    handler: Handler
    pattern: re.Pattern[str] = field(init=False, compare=False)

    def __post_init__(self) -> None:
        regex = re.sub(r"\\\{(\w+)\\\}", r"(?P<\1>[^/]+)", re.escape(self.template))
        object.__setattr__(self, "pattern", re.compile(f"^{regex}$"))

    @property
    def key(self) -> str:
        return f"{self.method} {self.template}"

    @property
    def writes(self) -> bool:
        return self.method in {"POST", "PATCH", "PUT", "DELETE"}

    def match(self, method: str, path: str) -> dict[str, str] | None:
        if method != self.method:
            return None
        found = self.pattern.match(path)
        return {k: unquote(v) for k, v in found.groupdict().items()} if found else None


def paginate(call: Call, items: Sequence[Any]) -> tuple[list[Any], list[tuple[str, str]]]:
    """GitHub's page-number pagination: `per_page` (default 30, at most 100) and `page`, and a Link header with
    next/last/first/prev as GitHub sends them (no first/prev on page 1, no next/last on the last page)."""
    per_page = min(int(call.query.get("per_page", DEFAULT_PER_PAGE)), MAX_PER_PAGE) or DEFAULT_PER_PAGE
    page = max(int(call.query.get("page", 1)), 1)
    last = max((len(items) + per_page - 1) // per_page, 1)
    chunk = list(items[(page - 1) * per_page : page * per_page])

    def link(number: int) -> str:
        query = {**call.query, "per_page": str(per_page), "page": str(number)}
        return f"<{call.urls.api(call.path)}?{urlencode(query)}>"

    rels: list[str] = []
    if page < last:
        rels += [f'{link(page + 1)}; rel="next"', f'{link(last)}; rel="last"']
    if page > 1:
        rels += [f'{link(1)}; rel="first"', f'{link(min(page - 1, last))}; rel="prev"']
    return chunk, [("Link", ", ".join(rels))] if rels else []


# --- repositories and pull requests ---------------------------------------------------------------------------


def get_repo(call: Call) -> Reply:
    return Reply(200, t.full_repository(call.urls, call.repo))


def _pull(call: Call, name: str) -> PullRequest | None:
    return call.repo.pulls.get(call.int_param(name))


def get_pull(call: Call) -> Reply:
    pr = _pull(call, "pull_number")
    return Reply(200, t.pull_request(call.urls, call.repo, pr)) if pr else call.not_found()


def update_pull(call: Call) -> Reply:
    pr = _pull(call, "pull_number")
    if pr is None:
        return call.not_found()
    body = call.body or {}
    pr.title = body.get("title", pr.title)
    pr.body = body.get("body", pr.body)
    pr.state = body.get("state", pr.state)
    pr.base_ref = body.get("base", pr.base_ref)
    pr.maintainer_can_modify = body.get("maintainer_can_modify", pr.maintainer_can_modify)
    pr.updated_at = now()
    return Reply(200, t.pull_request(call.urls, call.repo, pr))


# --- issues and issue comments (a pull request is an issue) ---------------------------------------------------


def get_issue(call: Call) -> Reply:
    pr = _pull(call, "issue_number")
    return Reply(200, t.issue(call.urls, call.repo, pr)) if pr else call.not_found()


def list_issue_comments(call: Call) -> Reply:
    number = call.int_param("issue_number")
    if number not in call.repo.pulls:
        return call.not_found()
    comments = call.repo.issue_comments(number)
    since = call.query.get("since")
    if since:
        moment = datetime.fromisoformat(since)
        comments = [c for c in comments if datetime.fromisoformat(c.updated_at) >= moment]
    chunk, headers = paginate(call, comments)
    return Reply(200, [t.issue_comment(call.urls, call.repo, c) for c in chunk], headers)


def create_issue_comment(call: Call) -> Reply:
    number = call.int_param("issue_number")
    if number not in call.repo.pulls:
        return call.not_found()
    stamp = now()
    comment = Comment(call.store.next_id("comment"), number, call.body["body"], ACTIONS_BOT, stamp, stamp)
    call.repo.comments[comment.id] = comment
    data = t.issue_comment(call.urls, call.repo, comment)
    return Reply(201, data, [("Location", data["url"])])


def _comment(call: Call) -> Comment | None:
    return call.repo.comments.get(call.int_param("comment_id"))


def update_issue_comment(call: Call) -> Reply:
    comment = _comment(call)
    if comment is None:
        return call.not_found()
    comment.body = call.body["body"]
    comment.updated_at = now()
    return Reply(200, t.issue_comment(call.urls, call.repo, comment))


def delete_issue_comment(call: Call) -> Reply:
    comment = _comment(call)
    if comment is None:
        return call.not_found()
    del call.repo.comments[comment.id]
    return Reply(204)


def get_commit(call: Call) -> Reply:
    """The commits the fake knows: each pull request's head (whose parent is its base) and base."""
    ref = call.params["ref"]
    for pr in call.repo.pulls.values():
        if ref in (pr.head_sha, pr.head_ref):
            return Reply(200, ct.commit(call.urls, call.repo, pr.head_sha, [pr.base_sha], pr.title, pr.user))
        if ref in (pr.base_sha, pr.base_ref):
            return Reply(200, ct.commit(call.urls, call.repo, pr.base_sha, [], "Initial commit", call.repo.owner))
    return Reply(422, {"message": f"No commit found for SHA: {ref}", "documentation_url": call.urls.html("docs/rest")})


# --- check runs -----------------------------------------------------------------------------------------------


def create_check_run(call: Call) -> Reply:
    repo, sha = call.repo, call.body["head_sha"]
    suite = repo.check_suites.setdefault(sha, 30_000_000_001 + len(repo.check_suites))
    run = CheckRun(id=call.store.next_id("check_run"), name=call.body["name"], head_sha=sha, check_suite_id=suite)
    run.apply(call.body)
    repo.check_runs[run.id] = run
    return Reply(201, ct.check_run(call.urls, repo, run))


def _run(call: Call) -> CheckRun | None:
    return call.repo.check_runs.get(call.int_param("check_run_id"))


def get_check_run(call: Call) -> Reply:
    run = _run(call)
    return Reply(200, ct.check_run(call.urls, call.repo, run)) if run else call.not_found()


def update_check_run(call: Call) -> Reply:
    run = _run(call)
    if run is None:
        return call.not_found()
    run.apply(call.body)
    return Reply(200, ct.check_run(call.urls, call.repo, run))


def list_check_runs_for_ref(call: Call) -> Reply:
    runs = call.repo.runs_for(call.params["ref"])
    if "check_name" in call.query:
        runs = [r for r in runs if r.name == call.query["check_name"]]
    if "status" in call.query:
        runs = [r for r in runs if r.status == call.query["status"]]
    if "app_id" in call.query and int(call.query["app_id"]) != ACTIONS_APP_ID:
        runs = []
    if call.query.get("filter", "latest") == "latest":
        # the most recent run of each name (a re-run replaces the run before it)
        runs = sorted({r.name: r for r in runs}.values(), key=lambda r: r.id)
    chunk, headers = paginate(call, runs)
    body = {"total_count": len(runs), "check_runs": [ct.check_run(call.urls, call.repo, r) for r in chunk]}
    return Reply(200, body, headers)


def list_annotations(call: Call) -> Reply:
    run = _run(call)
    if run is None:
        return call.not_found()
    chunk, headers = paginate(call, run.annotations)
    return Reply(200, [ct.check_annotation(call.urls, call.repo, run, a) for a in chunk], headers)


ROUTES: tuple[Route, ...] = (
    Route("GET", "/repos/{owner}/{repo}", "repos/get", get_repo),
    Route("GET", "/repos/{owner}/{repo}/pulls/{pull_number}", "pulls/get", get_pull),
    Route("PATCH", "/repos/{owner}/{repo}/pulls/{pull_number}", "pulls/update", update_pull),
    Route("GET", "/repos/{owner}/{repo}/issues/{issue_number}", "issues/get", get_issue),
    Route("GET", "/repos/{owner}/{repo}/issues/{issue_number}/comments", "issues/list-comments", list_issue_comments),
    Route(
        "POST", "/repos/{owner}/{repo}/issues/{issue_number}/comments", "issues/create-comment", create_issue_comment
    ),
    Route("PATCH", "/repos/{owner}/{repo}/issues/comments/{comment_id}", "issues/update-comment", update_issue_comment),
    Route(
        "DELETE", "/repos/{owner}/{repo}/issues/comments/{comment_id}", "issues/delete-comment", delete_issue_comment
    ),
    Route("POST", "/repos/{owner}/{repo}/check-runs", "checks/create", create_check_run),
    Route("GET", "/repos/{owner}/{repo}/check-runs/{check_run_id}", "checks/get", get_check_run),
    Route("PATCH", "/repos/{owner}/{repo}/check-runs/{check_run_id}", "checks/update", update_check_run),
    Route("GET", "/repos/{owner}/{repo}/commits/{ref}", "repos/get-commit", get_commit),
    Route("GET", "/repos/{owner}/{repo}/commits/{ref}/check-runs", "checks/list-for-ref", list_check_runs_for_ref),
    Route(
        "GET",
        "/repos/{owner}/{repo}/check-runs/{check_run_id}/annotations",
        "checks/list-annotations",
        list_annotations,
    ),
)


def find_route(method: str, path: str) -> tuple[Route, dict[str, str]] | None:
    """The most specific route for a path: literal segments beat parameters (issues/comments/1 is a comment, not
    issue "comments"), as in GitHub's router."""
    matches = [(route, params) for route in ROUTES if (params := route.match(method, path)) is not None]
    if not matches:
        return None
    return min(matches, key=lambda m: len(m[1]))


def route_by_name(name: str) -> Route:
    """A route named by operation id ("checks/create") or by "METHOD /template"."""
    for route in ROUTES:
        if name in (route.operation_id, route.key):
            return route
    known = ", ".join(r.operation_id for r in ROUTES)
    raise KeyError(f"no route {name!r}; routes: {known}")
