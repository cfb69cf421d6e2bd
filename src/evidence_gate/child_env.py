"""The environment every process the tool starts gets: the workflow's tokens removed.

git and a user's test command run with the same list, so code that a pull request planted (a git
hook or filter it smuggled in, a test it changed) never finds a token to use or leak.
"""

from __future__ import annotations

from collections.abc import Mapping

SECRET_VARIABLES = frozenset(
    {
        "GITHUB_TOKEN",
        "GH_TOKEN",
        "INPUT_GITHUB-TOKEN",
        "INPUT_GITHUB_TOKEN",
        "ACTIONS_RUNTIME_TOKEN",
        "ACTIONS_ID_TOKEN_REQUEST_TOKEN",
        "ACTIONS_ID_TOKEN_REQUEST_URL",
    }
)


def scrubbed_environment(environ: Mapping[str, str]) -> dict[str, str]:
    """`environ` (the run's, passed in from the entry point) without the variables that hold a token."""
    return {name: value for name, value in environ.items() if name not in SECRET_VARIABLES}
