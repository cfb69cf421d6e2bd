"""The environment every process the tool starts gets: the workflow's tokens removed.

git and a user's test command run with the same list, so code that a pull request planted (a git
hook or filter it smuggled in, a test it changed) never finds a token to use or leak. A token under
a name of the workflow's choosing (`RELEASE_TOKEN: ${{ secrets.X }}`) is dropped by its shape.
"""

from __future__ import annotations

from collections.abc import Mapping

from evidence_gate.credentials import holds_token

# The repository's token, as a workflow hands it to a step or to the action.
REPOSITORY_TOKEN_VARIABLES = frozenset({"GITHUB_TOKEN", "GH_TOKEN", "INPUT_GITHUB-TOKEN", "INPUT_GITHUB_TOKEN"})
# What the runner gives an action and a step cannot take away: the cache and artifact service's
# token, and the OIDC token's request credentials (with `id-token: write`). The service URLs beside
# them (ACTIONS_RUNTIME_URL, ACTIONS_RESULTS_URL, ACTIONS_CACHE_URL) carry no credential and are
# useless without the token, so they stay.
RUNTIME_TOKEN_VARIABLES = frozenset(
    {"ACTIONS_RUNTIME_TOKEN", "ACTIONS_ID_TOKEN_REQUEST_TOKEN", "ACTIONS_ID_TOKEN_REQUEST_URL"}
)
SECRET_VARIABLES = REPOSITORY_TOKEN_VARIABLES | RUNTIME_TOKEN_VARIABLES


def scrubbed_environment(environ: Mapping[str, str]) -> dict[str, str]:
    """`environ` (the run's, passed in from the entry point) without the variables that hold a
    token: the named ones, and any whose value is shaped like a GitHub credential."""
    return {name: value for name, value in environ.items() if name not in SECRET_VARIABLES and not holds_token(value)}
