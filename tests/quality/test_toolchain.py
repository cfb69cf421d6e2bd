"""Where the project's tools are looked for: its virtualenvs first, then the caller's PATH, never
evidence-gate's own environment; and how each check's row reads."""

from __future__ import annotations

import os
from pathlib import Path

from evidence_gate.model import ToolChoice, ToolRow, ToolStatus
from evidence_gate.tool_lookup import executable, find_tool, search_path


def test_the_projects_virtualenvs_come_first_and_evidence_gates_own_environment_is_left_out(tmp_path: Path) -> None:
    top, own, other = tmp_path / "project", tmp_path / "tool-env" / "bin", tmp_path / "usr" / "bin"
    for folder in (top / ".venv" / "bin", top / "venv" / "bin", own, other):
        folder.mkdir(parents=True)
    path = search_path(top, {"PATH": os.pathsep.join([str(own), str(other)])}, own)
    assert path.split(os.pathsep) == [str(top / ".venv" / "bin"), str(top / "venv" / "bin"), str(other)]


def test_evidence_gate_installed_in_the_projects_own_virtualenv_is_the_projects(tmp_path: Path) -> None:
    top = tmp_path / "project"
    own = top / ".venv" / "bin"
    own.mkdir(parents=True)
    assert search_path(top, {"PATH": str(own)}, own).split(os.pathsep) == [str(own)]


def test_the_program_of_a_command_is_its_first_word_after_assignments() -> None:
    assert executable("mypy .") == "mypy"
    assert executable("CI=1 FORCE=0 ./gradlew lintDebug --console=plain") == "./gradlew"
    assert executable('npx --no-install tsc --noEmit 2>&1; echo "EXIT_CODE=$?"') == "npx"
    assert executable("'unbalanced") is None


def row(
    cwd: Path, configured: str | None, command: str | None, justification: str | None = None, stack: str = "python"
) -> ToolRow:
    return find_tool(
        check=1,
        tool="type checker",
        configured=configured,
        config_key="type-check-command",
        adapter_command=command,
        stack=stack,
        cwd=cwd,
        path=str(cwd),
        justification=justification,
    )


def test_a_tool_not_on_the_path_is_missing_with_the_fix_and_a_configured_one_is_taken_as_given(tmp_path: Path) -> None:
    missing = row(tmp_path, None, "mypy .")
    assert (missing.status, missing.command) == (ToolStatus.MISSING, "mypy .")
    assert (
        missing.reason == "`mypy` is not in the project's virtualenv or on PATH; install it or set `type-check-command`"
    )
    given = row(tmp_path, "pyright", "mypy .")
    assert (given.status, given.command, given.reason) == (ToolStatus.DETECTED, "pyright", "type-check-command")
    idle = row(tmp_path, "pyright", None, justification="all 2 changed files are documentation (.md)")
    assert (idle.status, idle.reason) == (ToolStatus.NOT_APPLICABLE, "all 2 changed files are documentation (.md)")
    unknown = row(tmp_path, None, None, stack="unknown")
    assert unknown.reason == "the unknown stack names no type checker; set `type-check-command` to the project's"


WAY_OUT = "give its evidence (…), or switch the check off (…)"


def chosen_row(cwd: Path, choice: ToolChoice, *, runs_here: bool = True) -> ToolRow:
    return find_tool(
        check=1,
        tool="type checker",
        configured=None,
        config_key="type-check-command",
        adapter_command=None,
        stack="python",
        cwd=cwd,
        path=str(cwd / "bin"),
        justification=None,
        choice=choice,
        way_out=WAY_OUT,
        runs_here=runs_here,
    )


def test_the_tool_the_table_chose_is_found_run_or_missing_with_the_way_out(tmp_path: Path) -> None:
    mypy = ToolChoice(tool="mypy", command="mypy .", why="mypy: [tool.mypy] in pyproject.toml")
    missing = chosen_row(tmp_path, mypy)
    assert (missing.status, missing.command) == (ToolStatus.MISSING, "mypy .")
    assert missing.reason == (
        "`mypy` is not in the project's virtualenv or on PATH (mypy: [tool.mypy] in pyproject.toml): " + WAY_OUT
    )
    (tmp_path / "bin").mkdir()
    (tmp_path / "bin" / "mypy").write_text("#!/bin/sh\n")
    (tmp_path / "bin" / "mypy").chmod(0o755)
    found = chosen_row(tmp_path, mypy)
    assert (found.status, found.reason) == (ToolStatus.DETECTED, "mypy: [tool.mypy] in pyproject.toml")
    contained = chosen_row(tmp_path, mypy, runs_here=False)
    assert (contained.status, contained.reason) == (
        ToolStatus.MISSING,
        "the action's container does not run the project's tools (mypy: [tool.mypy] in pyproject.toml): " + WAY_OUT,
    )
    none = chosen_row(tmp_path, ToolChoice(tool=None, command=None, why="none configured"))
    assert (none.status, none.command, none.reason) == (ToolStatus.MISSING, None, "none configured: " + WAY_OUT)
    jvm = find_tool(
        check=1,
        tool="type checker",
        configured=None,
        config_key="type-check-command",
        adapter_command=None,
        stack="jvm",
        cwd=tmp_path,
        path="",
        justification=None,
        way_out=WAY_OUT,
    )
    assert jvm.reason == "the jvm stack names no type checker: set `type-check-command` to the project's and " + WAY_OUT
    plain = chosen_row(tmp_path, ToolChoice(tool=None, command=None, why="plain JavaScript", applies=False))
    assert (plain.status, plain.reason) == (ToolStatus.NOT_APPLICABLE, "plain JavaScript")
