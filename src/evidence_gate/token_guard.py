"""The runner step's guard: it does not start while a repository token is within the tests' reach.

The runner step runs the pull request's code (its tests, its type checker's plugins). Whatever that
code can read, it can send away: its own environment, its parent's (`/proc/<pid>/environ` of the
same user is readable) and the checkout's `.git/config`, where `actions/checkout` leaves the token
as an `http.<url>.extraheader` unless `persist-credentials: false`. Scrubbing the tests' environment
is not enough, so the step refuses to start instead, naming what it found (never its value) and the
workflow change that removes it. The runner's own tokens (ACTIONS_RUNTIME_TOKEN, the OIDC request
pair) are no refusal: a step cannot remove them, so every process started goes without them
(child_env.py) and the process itself re-executes without them (clean_start.py).

Pure functions over an environment and git's configuration entries, so each case is a literal in a
test; `refuse_tokens_in_reach` is the one that reads the checkout's configuration through git.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from evidence_gate.child_env import REPOSITORY_TOKEN_VARIABLES, RUNTIME_TOKEN_VARIABLES
from evidence_gate.credentials import holds_token
from evidence_gate.errors import UsageError
from evidence_gate.git import ConfigEntry, Git
from evidence_gate.scrub import Scrubber

ENV_FIX = "remove it from this step's `env:` (only the publishing container step needs the token)"
CHECKOUT_FIX = "set `persist-credentials: false` on actions/checkout"
URL_FIX = "give the remote a URL without credentials (only the publishing container step needs the token)"
CONFIG_FIX = "remove it from git's configuration (only the publishing container step needs the token)"

# An HTTP header git sends with every request that carries a credential (`AUTHORIZATION: basic …`).
_AUTH_HEADER = re.compile(r"^\s*(?:proxy-)?authorization\s*:\s*\S", re.IGNORECASE)
# A URL whose user part holds a password or token: `https://x-access-token:…@`, `https://user:token@`.
_URL_PASSWORD = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://[^/@\s:]*:[^/@\s]+@")
_USER_PART = re.compile(r"(?<=://)[^/@\s]*@")


@dataclass(frozen=True, kw_only=True)
class Found:
    """A token within reach: where it is, said without its value, and the workflow change that removes it."""

    what: str
    fix: str


def tokens_in_environment(environ: Mapping[str, str]) -> tuple[Found, ...]:
    """The repository-token variables set here, and any other variable whose value is shaped like a
    GitHub credential; the runner's own tokens are left to the scrubbed environment."""
    found = []
    for name, value in sorted(environ.items()):
        if name in REPOSITORY_TOKEN_VARIABLES and value:
            found.append(Found(what=f"{_shown(name)} is set in the environment", fix=ENV_FIX))
        elif name not in RUNTIME_TOKEN_VARIABLES and holds_token(value):
            found.append(Found(what=f"{_shown(name)} in the environment holds a GitHub token", fix=ENV_FIX))
    return tuple(found)


def credentials_in_config(entries: Iterable[ConfigEntry]) -> tuple[Found, ...]:
    """The settings of git's configuration that hold a credential: an extra header with an
    Authorization value (actions/checkout's `persist-credentials`), a URL with a password or token
    in it (a remote, an `insteadOf`), anything else shaped like a GitHub token."""
    found = []
    for entry in entries:
        value = entry.value or ""
        where = _where(entry)
        name = _shown(entry.key)
        if entry.key.lower().endswith(".extraheader") and _AUTH_HEADER.match(value):
            fix = ENV_FIX if entry.scope == "command" else CHECKOUT_FIX
            found.append(Found(what=f"`{name}` in {where} holds an Authorization header", fix=fix))
        elif _URL_PASSWORD.search(value) or _URL_PASSWORD.search(entry.key):
            fix = ENV_FIX if entry.scope == "command" else URL_FIX
            found.append(Found(what=f"`{name}` in {where} is a URL with credentials", fix=fix))
        elif holds_token(value) or holds_token(entry.key):
            fix = ENV_FIX if entry.scope == "command" else CONFIG_FIX
            found.append(Found(what=f"`{name}` in {where} holds a GitHub token", fix=fix))
    return tuple(found)


def refusal(found: Sequence[Found]) -> str | None:
    """The one-line refusal for what was found (None: nothing was): every place, then every fix."""
    if not found:
        return None
    places = "; ".join(dict.fromkeys(item.what for item in found))
    fixes = "; ".join(dict.fromkeys(item.fix for item in found))
    return f"refusing to start the runner step, a token is within the tests' reach: {places}. Fix: {fixes}"


def refuse_tokens_in_reach(environ: Mapping[str, str], git: Git | None) -> None:
    """Raise the refusal when a token is in this environment or in the checkout's git configuration."""
    found = tokens_in_environment(environ) + (credentials_in_config(git.config_entries()) if git else ())
    message = refusal(found)
    if message is not None:
        raise UsageError(message)


def _where(entry: ConfigEntry) -> str:
    if entry.scope == "command":
        return "git's configuration from the environment (GIT_CONFIG_PARAMETERS, GIT_CONFIG_COUNT)"
    origin = entry.origin.removeprefix("file:")
    return f"{origin} ({entry.scope})" if origin else f"the {entry.scope} configuration"


def _shown(name: str) -> str:
    """A name as the refusal shows it: a key can hold the credential (`url.https://user:token@host/.insteadof`)."""
    return Scrubber().text(_USER_PART.sub("***@", name))
