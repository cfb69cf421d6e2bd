"""The fake GitHub REST API: a threaded stdlib HTTP server on 127.0.0.1 that checks every exchange against GitHub's
OpenAPI description and GitHub's documented limits, serves the routes in routes.py from in-memory state, and
records what it was sent.

Each request goes through, in order:
  route -> Authorization -> JSON -> description + limits -> scripted fault -> read-only token -> handler,
and every response (scripted ones too) is validated against the description before it is sent. Whatever the
client did wrong is recorded as a Violation and answered as GitHub would (404, 401, 400, 422 with the
validator's message); a response of the fake's own that breaks the description is a Violation too, sent as a
422 so the client fails loudly rather than parse it.
"""

from __future__ import annotations

import json
import threading
import time
import traceback
import uuid
from collections import deque
from collections.abc import Sequence
from types import TracebackType
from typing import Any

from . import templates as t
from .faults import NOT_ACCESSIBLE_MESSAGE, Fault
from .limits import limit_errors
from .routes import ROUTES, Call, Reply, Route, find_route, route_by_name
from .spec import Exchange, GitHubSpec, load_spec
from .state import OCTOCAT, CheckRun, Comment, PullRequest, Repo, Store, User, now
from .wire import Handler, HTTPServer, Incoming, LoggedRequest, Outgoing, Violation

DEFAULT_TOKEN = "ghs_evidenceGateFakeToken0123456789abcd"  # a fake server's fake token


class FakeGitHub:
    """A fake api.github.com on 127.0.0.1. Use as a context manager, or start()/stop()."""

    def __init__(self, spec: GitHubSpec | None = None, *, token: str = DEFAULT_TOKEN) -> None:
        self.spec = spec or load_spec()
        for route in ROUTES:  # a route the description lacks is a typo in the table, not a runtime surprise
            op = self.spec.operation(route.method, route.template)
            if op.get("operationId") != route.operation_id:
                raise ValueError(
                    f"{route.key} is {op.get('operationId')!r} in the description, not {route.operation_id!r}"
                )
        self.token = token
        self.read_only = False
        self.store = Store()
        self._lock = threading.RLock()
        self._requests: list[LoggedRequest] = []
        self._violations: list[Violation] = []
        self._faults: dict[str, deque[Fault]] = {}
        self._httpd = HTTPServer(("127.0.0.1", 0), Handler)
        self._httpd.handle = self.handle
        self.url = f"http://127.0.0.1:{self._httpd.server_address[1]}"
        self.urls = t.Urls(self.url)
        self._thread: threading.Thread | None = None

    # --- lifecycle -----------------------------------------------------------------------------------------------

    def start(self) -> FakeGitHub:
        if self._thread is None:
            self._thread = threading.Thread(
                target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05}, name="fake-github", daemon=True
            )
            self._thread.start()
        return self

    def stop(self) -> None:
        if self._thread is not None:
            self._httpd.shutdown()
            self._thread.join(timeout=10)
            self._thread = None
        self._httpd.server_close()

    def __enter__(self) -> FakeGitHub:
        return self.start()

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()

    # --- seeding -------------------------------------------------------------------------------------------------

    def add_repo(self, full_name: str, *, owner_type: str = "Organization", default_branch: str = "main") -> Repo:
        owner, name = full_name.split("/")
        with self._lock:
            repo = self.store.add_repo(owner, name, owner_type=owner_type)
            repo.default_branch = default_branch
            return repo

    def add_pull(
        self,
        full_name: str,
        number: int,
        *,
        head_sha: str,
        base_sha: str,
        body: str | None = "",
        title: str = "Add a change",
        head_ref: str = "feature",
        base_ref: str | None = None,
        user: User = OCTOCAT,
        labels: tuple[str, ...] = (),
    ) -> PullRequest:
        with self._lock:
            repo = self._repo(full_name)
            stamp = now()
            pr = PullRequest(
                labels=labels,
                number=number,
                id=self.store.next_id("pull"),
                title=title,
                body=body,
                head_sha=head_sha,
                base_sha=base_sha,
                head_ref=head_ref,
                base_ref=base_ref or repo.default_branch,
                user=user,
                created_at=stamp,
                updated_at=stamp,
            )
            repo.pulls[number] = pr
            return pr

    def add_comment(self, full_name: str, number: int, body: str, *, user: User) -> Comment:
        """A comment someone else wrote (another bot, a person): what the workflow's token posts is always by
        github-actions[bot], so another author can only be seeded."""
        with self._lock:
            repo = self._repo(full_name)
            stamp = now()
            comment = Comment(self.store.next_id("comment"), number, body, user, stamp, stamp)
            repo.comments[comment.id] = comment
            return comment

    # --- faults --------------------------------------------------------------------------------------------------

    def script(self, route: str, *responses: Fault) -> None:
        """Queue responses for the next requests to `route` (operation id or "METHOD /template")."""
        key = route_by_name(route).operation_id
        with self._lock:
            self._faults.setdefault(key, deque()).extend(responses)

    def pending_faults(self, route: str) -> int:
        with self._lock:
            return len(self._faults.get(route_by_name(route).operation_id, ()))

    # --- what happened -------------------------------------------------------------------------------------------

    @property
    def requests(self) -> list[LoggedRequest]:
        with self._lock:
            return list(self._requests)

    def requests_to(self, route: str) -> list[LoggedRequest]:
        key = route_by_name(route).operation_id
        return [r for r in self.requests if r.route == key]

    @property
    def violations(self) -> list[Violation]:
        with self._lock:
            return list(self._violations)

    def pop_violations(self) -> list[Violation]:
        """The violations so far, forgotten: for a test that provokes them on purpose."""
        with self._lock:
            found, self._violations = self._violations, []
            return found

    def _repo(self, full_name: str | None) -> Repo:
        if full_name is None:
            if not self.store.repos:
                raise KeyError("no repository seeded")
            return next(iter(self.store.repos.values()))
        owner, name = full_name.split("/")
        repo = self.store.repo(owner, name)
        if repo is None:
            raise KeyError(f"no repository {full_name}")
        return repo

    def pull(self, number: int, repo: str | None = None) -> PullRequest:
        with self._lock:
            return self._repo(repo).pulls[number]

    def pr_body(self, number: int, repo: str | None = None) -> str | None:
        return self.pull(number, repo).body

    def comments(self, number: int, repo: str | None = None) -> list[Comment]:
        """The comments on issue or pull request `number`, oldest first."""
        with self._lock:
            return self._repo(repo).issue_comments(number)

    def check_runs(self, sha: str, repo: str | None = None) -> list[CheckRun]:
        """Every check run on commit `sha` (all of them, not only the latest of each name), with all annotations."""
        with self._lock:
            return self._repo(repo).runs_for(sha)

    # --- handling ------------------------------------------------------------------------------------------------

    def handle(self, incoming: Incoming) -> Outgoing:
        received_at = time.monotonic()
        with self._lock:
            found = find_route(incoming.method, incoming.path)
            route, params = found if found else (None, {})
            try:
                out = self._process(incoming, route, params)
            except Exception:  # a bug in the fake: fail the test, answer 500 rather than hang the client
                trace = traceback.format_exc()
                self._violation("crash", incoming, [trace])
                out = Outgoing(500, [("Content-Type", "text/plain; charset=utf-8")], trace.encode())
            self._requests.append(
                LoggedRequest(
                    method=incoming.method,
                    path=incoming.path,
                    query=incoming.query,
                    headers=incoming.header_map,
                    json=_parse_json(incoming.body),
                    raw_body=incoming.body,
                    route=route.operation_id if route else None,
                    status=out.status,
                    received_at=received_at,
                )
            )
            return out

    def _violation(self, kind: str, incoming: Incoming, messages: Sequence[str]) -> None:
        self._violations.append(Violation(kind, incoming.method, incoming.path, tuple(messages)))

    def _process(self, incoming: Incoming, route: Route | None, params: dict[str, str]) -> Outgoing:
        u = self.urls
        if route is None:
            implemented = ", ".join(r.key for r in ROUTES)
            self._violation("route", incoming, [f"the fake has no route for this (it implements: {implemented})"])
            return self._render(Reply(404, t.error(u, "Not Found", 404)))
        exchange = Exchange(
            method=incoming.method,
            path=incoming.path,
            template=route.template,
            path_params=params,
            query=incoming.query,
            headers=incoming.headers,
            body=incoming.body or None,
            content_type=incoming.header_map.get("content-type", ""),
        )
        reply = self._answer(incoming, route, params, exchange)
        if isinstance(reply, Fault):
            return Outgoing(0, drop=reply)
        out = self._render(reply)
        errors = self.spec.response_errors(exchange, out.status, out.headers, out.body or None)
        if errors:
            self._violation("response", incoming, errors)
            text = "The fake GitHub's response violates the OpenAPI description:\n" + "\n".join(errors)
            return self._render(_unprocessable(u, text, errors, "fake-github-response"))
        return out

    def _answer(self, incoming: Incoming, route: Route, params: dict[str, str], exchange: Exchange) -> Reply | Fault:
        u = self.urls
        auth = incoming.header_map.get("authorization", "")
        scheme, _, credential = auth.partition(" ")
        if not auth:
            self._violation("auth", incoming, ["no Authorization header"])
            return Reply(401, t.error(u, "Requires authentication", 401))
        if scheme.lower() not in {"token", "bearer"} or credential != self.token:
            self._violation("auth", incoming, [f"the Authorization header ({scheme} ...) does not carry the token"])
            return Reply(401, t.error(u, "Bad credentials", 401))
        body = _parse_json(incoming.body)
        if incoming.body and body is None:
            self._violation("json", incoming, ["body is not JSON"])
            return Reply(400, t.error(u, "Problems parsing JSON", 400))
        spec_errors = self.spec.request_errors(exchange)
        if spec_errors:
            self._violation("request", incoming, spec_errors)
            text = "Invalid request (OpenAPI description):\n" + "\n".join(spec_errors)
            return _unprocessable(u, text, spec_errors, "openapi")
        github_errors = limit_errors(route.operation_id, body)
        if github_errors:
            self._violation("limit", incoming, github_errors)
            text = "Invalid request (GitHub's documented limits):\n" + "\n".join(github_errors)
            return _unprocessable(u, text, github_errors, "github-limits")

        queue = self._faults.get(route.operation_id)
        fault = queue.popleft() if queue else None
        if fault is not None and fault.drop is not None:
            return fault
        if fault is not None and fault.removes_target:
            self._remove_target(params)
            fault = None
        if fault is not None and not fault.after_effect:
            return self._fault_reply(fault)
        if self.read_only and route.writes:
            return Reply(403, t.error(u, NOT_ACCESSIBLE_MESSAGE, 403, _doc(route)))
        repo = self.store.repo(params["owner"], params["repo"])
        if repo is None:
            return Reply(404, t.error(u, "Not Found", 404))
        query = dict(incoming.query)
        reply = route.handler(Call(self.store, u, repo, params, query, body, incoming.path))
        return self._fault_reply(fault) if fault is not None else reply

    def _remove_target(self, params: dict[str, str]) -> None:
        repo = self.store.repo(params["owner"], params["repo"])
        if repo is None or "comment_id" not in params:
            raise KeyError("removes_target: only a comment of a seeded repository can be removed meanwhile")
        repo.comments.pop(int(params["comment_id"]), None)

    def _fault_reply(self, fault: Fault) -> Reply:
        if fault.raw_body is not None:
            return Reply(fault.status, fault.raw_body, [("Content-Type", fault.content_type), *fault.headers.items()])
        return Reply(
            fault.status, t.error(self.urls, fault.message, fault.status, fault.doc), list(fault.headers.items())
        )

    def _render(self, reply: Reply) -> Outgoing:
        reset = str(int(time.time()) + 3600)
        headers: dict[str, tuple[str, str]] = {}
        defaults = [
            ("Content-Type", "application/json; charset=utf-8"),
            ("X-GitHub-Media-Type", "github.v3; format=json"),
            ("X-GitHub-Api-Version-Selected", "2022-11-28"),
            ("X-RateLimit-Limit", "5000"),
            ("X-RateLimit-Remaining", "4999"),
            ("X-RateLimit-Used", "1"),
            ("X-RateLimit-Reset", reset),
            ("X-RateLimit-Resource", "core"),
            ("X-GitHub-Request-Id", uuid.uuid4().hex[:20].upper()),
        ]
        for name, value in [*defaults, *reply.headers]:
            headers[name.lower()] = (name, value)
        if isinstance(reply.body, bytes):
            body = reply.body
        elif reply.body is None:
            body = b""
            headers.pop("content-type")
        else:
            body = json.dumps(reply.body, ensure_ascii=False).encode("utf-8")
        return Outgoing(reply.status, list(headers.values()), body)


def _doc(route: Route) -> str:
    return f"rest/{route.operation_id.split('/')[0]}"


def _unprocessable(u: t.Urls, text: str, errors: Sequence[str], resource: str) -> Reply:
    """GitHub's `validation-error` body, carrying the validator's messages."""
    body = {
        "message": text,
        "documentation_url": u.html("docs/rest"),
        "errors": [{"resource": resource, "code": "invalid", "message": e} for e in errors],
    }
    return Reply(422, body)


def _parse_json(raw: bytes) -> Any:
    if not raw:
        return None
    try:
        return json.loads(raw)
    except ValueError:
        return None
