"""Scripted responses: what GitHub answers when things go wrong, for a test to queue on a route.

    server.script("POST /repos/{owner}/{repo}/check-runs", faults.bad_gateway(), faults.secondary_rate_limit())
    server.script("checks/update", faults.rate_limit_exhausted(reset_in=30))

The next requests to that route get these responses, in order, one each; later ones are served normally.
A scripted request is still validated first: a request that breaks the description gets its 422 and does not
use up the scripted response. Besides answers, a fault can be no answer at all (a connection reset, a request
left hanging) or a change another client made a moment before (the comment deleted meanwhile).
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

SECONDARY_RATE_LIMIT_MESSAGE = (
    "You have exceeded a secondary rate limit. Please wait a few minutes before you try again. If you reach out to"
    " GitHub Support for help, please include the request ID 0400:3F4E:1A2B3C:4D5E6F:66A0B1C2."
)
NOT_ACCESSIBLE_MESSAGE = "Resource not accessible by integration"
RATE_LIMIT_DOC = "rest/using-the-rest-api/rate-limits-for-the-rest-api"


@dataclass(frozen=True)
class Fault:
    """One scripted response.

    status/message/headers: sent as GitHub's error body `{"message", "documentation_url", "status"}`.
    raw_body: sent as is instead (e.g. the HTML page a 502 from GitHub's edge often is), with `content_type`.
    after_effect: the request is carried out first (the comment is posted, the check run updated) and only the
    response is replaced: what a client sees when GitHub did the work but the answer got lost on the way.
    drop: no answer: "reset" closes the connection with a TCP reset; "hang" keeps it open, silent, for
    `hang_seconds` or until the client gives up, then closes it.
    removes_target: the comment the path names is deleted first, as by a person or a concurrent run, and the
    request is then served normally (GitHub's own 404 for a missing comment).
    """

    status: int
    message: str = ""
    headers: Mapping[str, str] = field(default_factory=dict)
    doc: str = "rest"
    raw_body: bytes | None = None
    content_type: str = "text/html; charset=utf-8"
    after_effect: bool = False
    drop: Literal["reset", "hang"] | None = None
    hang_seconds: float = 3600.0
    removes_target: bool = False


def bad_gateway(*, html: bool = False, after_effect: bool = False) -> Fault:
    if html:
        page = b"<html><body><h1>502 Bad Gateway</h1>Server Error</body></html>\n"
        return Fault(502, raw_body=page, after_effect=after_effect)
    return Fault(502, "Server Error", after_effect=after_effect)


def server_error(*, after_effect: bool = False) -> Fault:
    return Fault(500, "Server Error", after_effect=after_effect)


def too_many_requests(retry_after: int = 1) -> Fault:
    return Fault(
        429,
        SECONDARY_RATE_LIMIT_MESSAGE,
        {"Retry-After": str(retry_after)},
        f"{RATE_LIMIT_DOC}#about-secondary-rate-limits",
    )


def secondary_rate_limit(retry_after: int = 1) -> Fault:
    return Fault(
        403,
        SECONDARY_RATE_LIMIT_MESSAGE,
        {"Retry-After": str(retry_after)},
        f"{RATE_LIMIT_DOC}#about-secondary-rate-limits",
    )


def rate_limit_exhausted(reset_in: int = 60, limit: int = 5000) -> Fault:
    """The primary limit used up: 403, x-ratelimit-remaining 0, x-ratelimit-reset `reset_in` seconds ahead."""
    headers = {
        "x-ratelimit-limit": str(limit),
        "x-ratelimit-remaining": "0",
        "x-ratelimit-used": str(limit),
        "x-ratelimit-reset": str(int(time.time()) + reset_in),
        "x-ratelimit-resource": "core",
    }
    message = (
        "API rate limit exceeded for installation ID 51234567. If you reach out to GitHub Support for help, please"
        " include the request ID 0400:3F4E:1A2B3C:4D5E6F:66A0B1C3 and timestamp 2025-06-01 12:00:00 UTC."
    )
    return Fault(403, message, headers, f"{RATE_LIMIT_DOC}#primary-rate-limit")


def not_accessible() -> Fault:
    """What a token without the permission (a fork pull request's GITHUB_TOKEN) gets on a write."""
    return Fault(403, NOT_ACCESSIBLE_MESSAGE, doc="rest/checks/runs#create-a-check-run")


def not_found() -> Fault:
    return Fault(404, "Not Found")


def connection_reset() -> Fault:
    """The connection reset before any answer: a load balancer dropping it, a proxy restarting."""
    return Fault(0, drop="reset")


def no_answer(hang_seconds: float = 3600.0) -> Fault:
    """A request GitHub never answers: the client's read timeout is what ends it."""
    return Fault(0, drop="hang", hang_seconds=hang_seconds)


def deleted_meanwhile() -> Fault:
    """The comment this request edits or deletes was deleted a moment before (by a person, a concurrent run)."""
    return Fault(0, removes_target=True)
