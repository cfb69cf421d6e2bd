"""What a test needs from the machine (a tool on PATH, a package tree, a renderer): when it is
missing, the test is skipped with the reason on a developer's machine, and fails in CI (`CI=true`),
which installs every one of them (scripts/test.sh, scripts/install-test-tools.sh), so that a test
that never ran cannot pass there as a skip.

In a test or a fixture, `require_tool("go")` or `require(present, reason)`; as a mark on a test,
a class or a module (checked when each test is set up, before its fixtures), `needs_tools("go")`
or `needs(present, reason)`."""

from __future__ import annotations

import os
import shutil
from typing import NoReturn

import pytest

MARK = "needs"
MARK_HELP = (
    f"{MARK}(*tools, path=None, hint='', present=True, reason=''): the test needs these tools on PATH (or on"
    " `path`), or a prerequisite that is `present`; missing, it is skipped outside CI and fails in CI (tests/tools.py)"
)


def in_ci() -> bool:
    return os.environ.get("CI") == "true"


def missing(reason: str) -> NoReturn:
    """Skip the test with `reason`; in CI, fail it."""
    if in_ci():
        pytest.fail(f"{reason}: CI installs it, so a test needing it must run there", pytrace=False)
    pytest.skip(reason)


def require(present: bool, reason: str) -> None:
    """A prerequisite other than a command on PATH: `reason` says what is missing and who installs it."""
    if not present:
        missing(reason)


def require_tool(name: str, *, path: str | None = None, hint: str = "") -> str:
    """The tool's path, found on PATH (or on `path`)."""
    found = shutil.which(name, path=path)
    if found is None:
        missing(f"{name} is not installed" + (f" ({hint})" if hint else ""))
    return found


def needs_tools(*names: str, path: str | None = None, hint: str = "") -> pytest.MarkDecorator:
    """A mark: the test needs these tools, checked with `require_tool` when it is set up."""
    return pytest.mark.needs(*names, path=path, hint=hint)


def needs(present: bool, reason: str) -> pytest.MarkDecorator:
    """A mark: the test needs a prerequisite, checked with `require` when it is set up."""
    return pytest.mark.needs(present=present, reason=reason)


def check_marks(item: pytest.Item) -> None:
    """Each `needs` mark of the test, closest first (tests/conftest.py calls this as a test is set up)."""
    for mark in item.iter_markers(MARK):
        for name in mark.args:
            require_tool(name, path=mark.kwargs.get("path"), hint=mark.kwargs.get("hint", ""))
        if "present" in mark.kwargs:
            require(bool(mark.kwargs["present"]), str(mark.kwargs.get("reason", "a prerequisite is missing")))
