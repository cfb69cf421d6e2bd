"""Workflow commands: what the CLI prints in GitHub Actions cannot be read by the runner as a command,
whatever test names, file names or PR text it holds."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

from evidence_gate.console import json_safe, line_safe

from .conftest import Repo, write_tree

FORGED = "::error file=src/app.py,line=1::forged annotation"
JUNIT = f"""<?xml version="1.0" encoding="UTF-8"?>
<testsuite name="suite" tests="1" failures="1">
  <testcase classname="tests" name="{FORGED}"><failure message="##[add-mask]hidden">boom</failure></testcase>
</testsuite>
"""


def evidence_gate(
    cwd: Path, *args: str, actions: bool = True, token: str | None = None
) -> subprocess.CompletedProcess[str]:
    environ = {key: value for key, value in os.environ.items() if not key.startswith("GITHUB_")}
    if actions:
        environ["GITHUB_ACTIONS"] = "true"
    if token:
        environ["GITHUB_TOKEN"] = token
    command = [sys.executable, "-m", "evidence_gate", *args]
    return subprocess.run(command, cwd=cwd, env=environ, capture_output=True, text=True, check=False)


def test_human_output_in_actions_is_printed_with_commands_stopped(tmp_path: Path) -> None:
    write_tree(tmp_path, {"body.md": f"## Acceptance criteria\n- [ ] {FORGED}\n", "junit.xml": JUNIT})
    result = evidence_gate(tmp_path, "criteria", "--story", "S-1", "--from-pr-body", "body.md", "--junit", "junit.xml")
    lines = result.stdout.splitlines()
    opened = re.fullmatch(r"::stop-commands::([0-9a-f]{32})", lines[0])
    assert opened, lines[0]
    assert lines[-1] == f"::{opened.group(1)}::"
    assert FORGED in result.stdout


def test_each_run_stops_commands_with_a_new_token(tmp_path: Path) -> None:
    write_tree(tmp_path, {"junit.xml": JUNIT})
    first = evidence_gate(tmp_path, "summary", "junit.xml").stdout.splitlines()[0]
    second = evidence_gate(tmp_path, "summary", "junit.xml").stdout.splitlines()[0]
    assert first != second


def test_outside_actions_nothing_is_added(tmp_path: Path) -> None:
    write_tree(tmp_path, {"junit.xml": JUNIT})
    result = evidence_gate(tmp_path, "summary", "junit.xml", actions=False)
    assert "::" not in result.stdout


def test_json_output_holds_no_legacy_command_and_keeps_its_value(tmp_path: Path) -> None:
    name = "##[error]forged.log"
    write_tree(tmp_path, {name: "1 passed in 0.01s\n"})
    result = evidence_gate(tmp_path, "summary", name, "--json")
    assert "##[" not in result.stdout
    assert not any(line.lstrip().startswith("::") for line in result.stdout.splitlines())
    assert json.loads(result.stdout)["source"] == name


def test_an_error_naming_untrusted_text_is_no_command(tmp_path: Path) -> None:
    result = evidence_gate(tmp_path, "summary", "##[warning]missing.log")
    assert result.returncode == 2
    assert "##[" not in result.stderr
    assert "## [warning]missing.log" in result.stderr


def test_in_actions_the_runs_token_is_masked_before_commands_are_stopped(tmp_path: Path) -> None:
    write_tree(tmp_path, {"junit.xml": JUNIT})
    token = "ghs_consoleTestToken0123456789abcdefABCD"
    result = evidence_gate(tmp_path, "summary", "junit.xml", token=token)
    assert result.stderr.splitlines()[0] == f"::add-mask::{token}"
    assert token not in result.stdout


def test_line_safe_breaks_a_command_at_the_start_of_a_line() -> None:
    assert line_safe("  ::add-mask::x") == "  : :add-mask::x"
    assert line_safe("ok: ::notice:: in the middle") == "ok: ::notice:: in the middle"
    assert json.loads(json_safe(json.dumps("a ##[group]b"))) == "a ##[group]b"


def commands_the_runner_reads(log: str) -> list[str]:
    """The lines of a step's log GitHub's runner would take as workflow commands: `::` at a line's
    start or `##[` anywhere, except between `::stop-commands::T` and `::T::`."""
    commands, token = [], None
    for line in log.splitlines():
        stripped = line.lstrip()
        if token is not None:
            token = None if stripped == f"::{token}::" else token
            continue
        if stopped := re.fullmatch(r"::stop-commands::(.+)", stripped):
            token = stopped.group(1)
        elif stripped.startswith("::") or "##[" in line:
            commands.append(line)
    return commands


def test_runs_comment_and_a_reports_file_name_forge_no_command(repo: Repo) -> None:
    """`run` prints the comment, which names failing tests and every report read: a test named like a
    command and a report whose file name holds a line break and a command forge nothing."""
    base = repo.commit("base", {"src/app.py": "def f():\n    return 1\n"})
    repo.commit("change", {"src/app.py": "def f():\n    return 2\n", f"src/new\n{FORGED}.py": "x = 1\n"})
    write_tree(repo.path, {"build/junit.xml": JUNIT, f"build/pytest\n{FORGED}.log": "1 failed in 0.01s\n"})
    for output in ("markdown", "json"):
        result = evidence_gate(repo.path, "run", "--base", base, "--reports", "build/*", "--format", output)
        assert result.returncode == 1, result.stderr
        assert "forged annotation" in result.stdout
        assert commands_the_runner_reads(result.stdout + "\n" + result.stderr) == []
