"""A tool a test needs and the machine lacks: skipped with the reason on a developer's machine,
failed in CI (tests/tools.py), whether the test asks for it in its body or with a mark."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.render.gfm import NODE_MODULES_ENV, _node_modules
from tests.tools import check_marks, needs, needs_tools, require, require_tool

ABSENT = "evidence-gate-no-such-tool"


@pytest.fixture
def developer(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CI", raising=False)


@pytest.fixture
def ci(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CI", "true")


@pytest.mark.usefixtures("developer")
def test_outside_ci_a_missing_tool_skips_with_its_name_and_hint() -> None:
    with pytest.raises(pytest.skip.Exception, match=f"{ABSENT} is not installed \\(scripts/test.sh\\)"):
        require_tool(ABSENT, hint="scripts/test.sh")


@pytest.mark.usefixtures("ci")
def test_in_ci_a_missing_tool_fails() -> None:
    with pytest.raises(pytest.fail.Exception, match=f"{ABSENT} is not installed: CI installs it"):
        require_tool(ABSENT)


@pytest.mark.parametrize("value", ["false", "1", ""])
def test_only_ci_true_is_ci(monkeypatch: pytest.MonkeyPatch, value: str) -> None:
    monkeypatch.setenv("CI", value)
    with pytest.raises(pytest.skip.Exception):
        require(False, "a prerequisite is missing")


def test_a_tool_that_is_there_is_its_path() -> None:
    found = require_tool("sh", path="/usr/bin:/bin")
    assert Path(found).name == "sh"
    require(True, "never said")


@pytest.mark.usefixtures("developer")
def test_outside_ci_a_missing_cmark_gfm_skips(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv(NODE_MODULES_ENV, str(tmp_path))
    with pytest.raises(pytest.skip.Exception, match="GitHub's Markdown renderer \\(cmark-gfm\\) is not in"):
        _node_modules()


@pytest.mark.usefixtures("ci")
def test_in_ci_a_missing_cmark_gfm_fails(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv(NODE_MODULES_ENV, str(tmp_path))
    with pytest.raises(pytest.fail.Exception, match="cmark-gfm"):
        _node_modules()


def test_the_marks_carry_what_they_need() -> None:
    tools = needs_tools("go", "cargo", path="/usr/bin", hint="scripts/test.sh").mark
    assert (tools.name, tools.args, tools.kwargs) == (
        "needs",
        ("go", "cargo"),
        {"path": "/usr/bin", "hint": "scripts/test.sh"},
    )
    prerequisite = needs(False, "no Surefire").mark
    assert (prerequisite.name, prerequisite.args, prerequisite.kwargs) == (
        "needs",
        (),
        {"present": False, "reason": "no Surefire"},
    )


@pytest.mark.usefixtures("developer")
@pytest.mark.parametrize(
    ("mark", "reason"),
    [
        (needs_tools(ABSENT, hint="scripts/test.sh"), f"{ABSENT} is not installed (scripts/test.sh)"),
        (needs(False, "no Surefire"), "no Surefire"),
    ],
    ids=["tool", "prerequisite"],
)
def test_outside_ci_a_test_marked_with_what_is_missing_is_skipped(
    request: pytest.FixtureRequest, mark: pytest.MarkDecorator, reason: str
) -> None:
    request.node.add_marker(mark)
    with pytest.raises(pytest.skip.Exception) as skipped:
        check_marks(request.node)
    assert str(skipped.value) == reason


@pytest.mark.usefixtures("ci")
def test_in_ci_a_test_marked_with_a_missing_tool_fails(request: pytest.FixtureRequest) -> None:
    request.node.add_marker(needs_tools(ABSENT))
    with pytest.raises(pytest.fail.Exception, match=f"{ABSENT} is not installed"):
        check_marks(request.node)


def test_a_test_marked_with_what_is_there_runs(request: pytest.FixtureRequest) -> None:
    request.node.add_marker(needs_tools("sh", path="/usr/bin:/bin"))
    request.node.add_marker(needs(True, "never said"))
    check_marks(request.node)
