"""The PyGithub client the action uses.

- `base_url` comes from `GITHUB_API_URL` (PyGithub ignores that variable by itself), so GitHub
  Enterprise Server works.
- Retries: PyGithub's default retry skips PATCH and 429. Ours retries GET, POST, PATCH, PUT and
  DELETE on 5xx, 429 and rate-limit 403s, on connection resets and on timeouts, with backoff,
  honouring `Retry-After` and `x-ratelimit-reset`.
- Waiting: one `WaitBudget` per run (the `api-wait-seconds` setting) holds every second spent
  waiting on GitHub: the pauses between retries and the requests that timed out. A wait the
  budget cannot cover is not started (a `Retry-After: 3600` ends the run's API calls at once), and
  each attempt's timeout is at most what is left of the budget (`BudgetTimeout`, decided as the
  attempt starts), so a run waits on GitHub for at most the budget. Then `GitHubDidNotAnswer` is
  raised, once, and the caller stops calling.
"""

from __future__ import annotations

import time
from types import TracebackType
from typing import Any

from github import Auth, Github, GithubRetry
from urllib3.exceptions import ConnectTimeoutError, HTTPError, MaxRetryError, NewConnectionError, ReadTimeoutError
from urllib3.response import BaseHTTPResponse
from urllib3.util.retry import Retry
from urllib3.util.timeout import Timeout

RETRIES = 5
SECONDARY_RATE_WAIT_SECONDS = 30.0
TIMEOUT_SECONDS = 30
DEFAULT_WAIT_SECONDS = 60
RETRIED_METHODS = frozenset({"GET", "HEAD", "POST", "PATCH", "PUT", "DELETE"})


class GitHubDidNotAnswer(Exception):
    """GitHub gave no usable answer within the run's wait budget, or after every retry. Not a
    GithubException: no status to judge, and nothing more should be asked of GitHub in this run."""


class WaitBudget:
    """The seconds a run may spend waiting on GitHub, shared by all its requests."""

    def __init__(self, seconds: int) -> None:
        self.seconds = seconds
        self.spent = 0.0
        self.gave_up: str | None = None  # why the run stopped calling GitHub, once it has
        self.last_timeout = float(self.request_timeout)  # the timeout the latest attempt started with

    def give_up(self, reason: str) -> GitHubDidNotAnswer:
        self.gave_up = reason
        return GitHubDidNotAnswer(reason)

    @property
    def request_timeout(self) -> int:
        return min(TIMEOUT_SECONDS, self.seconds)

    def next_timeout(self) -> float:
        """The timeout of the attempt about to start: what is left of the budget, at most
        TIMEOUT_SECONDS. Raises when nothing is left."""
        left = self.seconds - self.spent
        if left <= 0:
            raise self.give_up(f"GitHub did not answer within {self.seconds} s (the request timed out)")
        self.last_timeout = min(float(TIMEOUT_SECONDS), left)
        return self.last_timeout

    def spend(self, seconds: float, cause: str) -> None:
        """Count a wait that happened (a timeout) or is about to (a pause); raise when it does not fit."""
        if self.spent + seconds > self.seconds:
            raise self.give_up(f"GitHub did not answer within {self.seconds} s ({cause})")
        self.spent += seconds


class BudgetTimeout(Timeout):
    """A request's connect and read timeouts, decided anew for each attempt from what is left of the
    budget: urllib3 clones the timeout it is given as every attempt (a retry too) starts."""

    def __init__(self, budget: WaitBudget) -> None:
        super().__init__(connect=budget.request_timeout, read=budget.request_timeout)
        self.budget = budget

    def clone(self) -> Timeout:
        seconds = self.budget.next_timeout()
        return Timeout(connect=seconds, read=seconds)


class CappedRetry(GithubRetry):
    """GithubRetry with PATCH, 429, resets and timeouts retried, every wait drawn from one budget."""

    def __init__(self, budget: WaitBudget, **kwargs: Any) -> None:
        self.budget = budget
        kwargs.setdefault("total", RETRIES)
        kwargs.setdefault("backoff_factor", 0.5)
        kwargs.setdefault("backoff_max", SECONDARY_RATE_WAIT_SECONDS)
        kwargs.setdefault("status_forcelist", [429, *range(500, 600)])
        kwargs.setdefault("allowed_methods", RETRIED_METHODS)
        kwargs.setdefault("secondary_rate_wait", SECONDARY_RATE_WAIT_SECONDS)
        kwargs.setdefault("max_rate_limit_wait", None)  # the budget decides, in sleep()
        kwargs.setdefault("raise_on_status", False)
        super().__init__(**kwargs)

    def new(self, **kw: Any) -> CappedRetry:
        kw["budget"] = self.budget
        retry: CappedRetry = super().new(**kw)
        return retry

    def increment(  # type: ignore[override]  # GithubRetry narrows `response` the same way
        self,
        method: str | None = None,
        url: str | None = None,
        response: Any = None,
        error: Exception | None = None,
        _pool: Any = None,
        _stacktrace: TracebackType | None = None,
    ) -> Retry:
        if error is None:
            return super().increment(method, url, response, error, _pool, _stacktrace)
        timed_out = isinstance(error, ReadTimeoutError) or (
            isinstance(error, ConnectTimeoutError) and not isinstance(error, NewConnectionError)
        )
        if timed_out:  # the attempt waited its whole timeout; one that leaves nothing to wait ends the calls
            self.budget.spend(self.budget.last_timeout, _cause(error))
            if self.budget.spent >= self.budget.seconds:
                raise self.budget.give_up(f"GitHub did not answer within {self.budget.seconds} s ({_cause(error)})")
        try:
            return super().increment(method, url, response, error, _pool, _stacktrace)
        except (MaxRetryError, HTTPError) as exhausted:
            reason = f"GitHub did not answer after {RETRIES + 1} attempts ({_cause(error)})"
            raise self.budget.give_up(reason) from exhausted

    def sleep(self, response: BaseHTTPResponse | None = None) -> None:
        asked = self.get_retry_after(response) if response is not None else None
        wait = asked if asked else self.get_backoff_time()
        if wait > 0:
            cause = f"it asked to wait {wait:g} s" if asked else f"the next retry waits {wait:g} s"
            self.budget.spend(wait, cause)
            time.sleep(wait)


def _cause(error: Exception) -> str:
    if isinstance(error, ReadTimeoutError | ConnectTimeoutError) and not isinstance(error, NewConnectionError):
        return "the request timed out"
    reason = error.args[-1] if error.args else error
    return f"the connection failed: {' '.join(str(reason).split())}"


def make_client(token: str, api_url: str, budget: WaitBudget) -> Github:
    client = Github(
        base_url=api_url,
        auth=Auth.Token(token),
        retry=CappedRetry(budget),
        timeout=budget.request_timeout,
        per_page=100,
        lazy=True,
    )
    # PyGithub takes a whole number of seconds for every request and passes its timeout on to requests
    # unchanged, which takes a urllib3 Timeout as it is: the budget's, which shrinks as it is spent.
    requester = client.requester
    if not hasattr(requester, _REQUESTER_TIMEOUT):
        raise RuntimeError("PyGithub's Requester keeps its timeout elsewhere: the wait budget cannot bound it")
    setattr(requester, _REQUESTER_TIMEOUT, BudgetTimeout(budget))
    return client


_REQUESTER_TIMEOUT = "_Requester__timeout"  # Requester's own (private) timeout, which its connections take
