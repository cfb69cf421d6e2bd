"""The PyGithub client the action uses.

- `base_url` comes from `GITHUB_API_URL` (PyGithub ignores that variable by itself), so GitHub
  Enterprise Server works.
- Retries: PyGithub's default retry skips PATCH and 429. Ours retries GET, POST, PATCH, PUT and
  DELETE on 5xx, 429 and rate-limit 403s, with backoff, honouring `Retry-After` and
  `x-ratelimit-reset`. Each wait is capped, and so is the number of retries, which caps the total
  wait: a run never hangs on a rate limit for longer than RETRIES x MAX_WAIT_SECONDS.
"""

from __future__ import annotations

from typing import Any

from github import Auth, Github, GithubRetry
from urllib3.response import BaseHTTPResponse

RETRIES = 5
MAX_WAIT_SECONDS = 30.0
TIMEOUT_SECONDS = 30
RETRIED_METHODS = frozenset({"GET", "HEAD", "POST", "PATCH", "PUT", "DELETE"})


class CappedRetry(GithubRetry):
    """GithubRetry with PATCH and 429 retried, and every single wait capped."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("total", RETRIES)
        kwargs.setdefault("backoff_factor", 0.5)
        kwargs.setdefault("backoff_max", MAX_WAIT_SECONDS)
        kwargs.setdefault("status_forcelist", [429, *range(500, 600)])
        kwargs.setdefault("allowed_methods", RETRIED_METHODS)
        kwargs.setdefault("secondary_rate_wait", MAX_WAIT_SECONDS)
        kwargs.setdefault("max_rate_limit_wait", MAX_WAIT_SECONDS)
        kwargs.setdefault("raise_on_status", False)
        super().__init__(**kwargs)

    def get_retry_after(self, response: BaseHTTPResponse) -> float | None:
        seconds = super().get_retry_after(response)
        return None if seconds is None else min(seconds, MAX_WAIT_SECONDS)


def make_client(token: str, api_url: str) -> Github:
    return Github(
        base_url=api_url,
        auth=Auth.Token(token),
        retry=CappedRetry(),
        timeout=TIMEOUT_SECONDS,
        per_page=100,
        lazy=True,
    )
