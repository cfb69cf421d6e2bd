"""Where the project's tools are looked for: its virtualenvs first, then the caller's PATH, never
evidence-gate's own environment; and how each check's row reads."""

from __future__ import annotations

import os
from pathlib import Path

from evidence_gate.quality.record import ToolRow, ToolStatus
from evidence_gate.quality.toolchain import executable, find_tool, search_path


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
