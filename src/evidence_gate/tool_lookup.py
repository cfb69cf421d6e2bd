"""Which tool each check uses, three tiers: the configuration's explicit command first, then the
stack adapter's command for the project, found in the repository: its own virtualenv (`.venv/`,
`venv/`) or the caller's PATH, never evidence-gate's own environment (a copy of `coverage` that
happens to sit beside this tool proves nothing about the project's). A check is DETECTED (with its
command), NOT_APPLICABLE (with its justification) or MISSING: a project with source files that has
no tool for a check is blocked, not passed.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

from evidence_gate.model import Change, FileKind, ToolChoice, ToolRow, ToolStatus

VENV_DIRS = (".venv", "venv")
SOURCE_KINDS = frozenset({FileKind.PRODUCTION, FileKind.TEST, FileKind.TEST_HELPER})
_ASSIGNMENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*=")


def own_environment() -> Path | None:
    """The scripts folder of evidence-gate's own virtualenv (the action image's, a pipx install), or
    None when it runs from an interpreter that is not a virtualenv of its own."""
    if sys.prefix == sys.base_prefix:
        return None
    return Path(sys.executable).parent


def search_path(top: Path, environ: Mapping[str, str], own: Path | None, venvs: Sequence[str] = VENV_DIRS) -> str:
    """The PATH a check's command runs with: the project's virtualenvs (of `venvs`) first, then the
    caller's PATH without evidence-gate's own environment (unless that environment is the project's)."""
    project = [str(top / name / "bin") for name in venvs if (top / name / "bin").is_dir()]
    caller = [entry for entry in environ.get("PATH", os.defpath).split(os.pathsep) if entry]
    if own is not None and not own.resolve().is_relative_to(top.resolve()):
        caller = [entry for entry in caller if Path(entry).resolve() != own.resolve()]
    return os.pathsep.join(dict.fromkeys([*project, *caller]))


def executable(command: str) -> str | None:
    """The program a shell command starts: its first word after any `NAME=value` assignments."""
    try:
        words = shlex.split(command)
    except ValueError:
        return None
    return next((word for word in words if not _ASSIGNMENT.match(word)), None)


def unchanged_sources(change: Change | None) -> str | None:
    """The justification for a check with no source to judge: every changed file is docs, CI or
    configuration. None when a source file changed, or when there is no change to read."""
    if change is None:
        return None
    if not change.files:
        return "the change changes no file"
    if any(changed.kind in SOURCE_KINDS for changed in change.files):
        return None
    kinds = sorted({str(changed.kind) for changed in change.files})
    suffixes = sorted({Path(changed.path).suffix or Path(changed.path).name for changed in change.files})
    if kinds == [str(FileKind.DOCS)]:
        return f"all {len(change.files)} changed files are documentation ({', '.join(suffixes[:5])})"
    return f"no source file changed: the {len(change.files)} changed files are {', '.join(kinds)}"


def find_tool(
    *,
    check: int,
    tool: str,
    configured: str | None,
    config_key: str,
    adapter_command: str | None,
    stack: str,
    cwd: Path,
    path: str,
    justification: str | None,
    choice: ToolChoice | None = None,
    way_out: str | None = None,
    runs_here: bool = True,
) -> ToolRow:
    """The Toolchain row of one check. `justification` (no source changed) makes it NOT_APPLICABLE;
    `choice` is the adapter table's tool for the project (stacks/tools.py), in place of
    `adapter_command`; `way_out` is what a MISSING row says to do (else: install it); without
    `runs_here` (the action's container) the tool is never looked for: it is MISSING."""
    if justification is not None:
        return ToolRow(check=check, tool=tool, status=ToolStatus.NOT_APPLICABLE, reason=justification)
    if configured:
        return ToolRow(check=check, tool=tool, status=ToolStatus.DETECTED, command=configured, reason=config_key)
    if choice is not None and not choice.applies:
        return ToolRow(check=check, tool=tool, status=ToolStatus.NOT_APPLICABLE, reason=choice.why)
    command = adapter_command if choice is None else choice.command
    if command is None:
        reason = f"the {stack} stack names no {tool}; set `{config_key}` to the project's"
        if choice is not None:
            reason = _out(choice.why, way_out)
        elif way_out is not None:
            reason = f"the {stack} stack names no {tool}: set `{config_key}` to the project's and {way_out}"
        return ToolRow(check=check, tool=tool, status=ToolStatus.MISSING, reason=reason)
    chosen = f"the {stack} stack" if choice is None else choice.why
    program = executable(command)
    if not runs_here:
        reason = f"the action's container does not run the project's tools ({chosen})"
    elif program is None or not _present(program, cwd, path):
        reason = f"`{program}` is not in the project's virtualenv or on PATH"
        reason = f"{reason} ({chosen})" if choice is not None else reason
        if way_out is None:
            reason = f"{reason}; install it or set `{config_key}`"
    else:
        return ToolRow(check=check, tool=tool, status=ToolStatus.DETECTED, command=command, reason=chosen)
    return ToolRow(check=check, tool=tool, status=ToolStatus.MISSING, command=command, reason=_out(reason, way_out))


def _out(reason: str, way_out: str | None) -> str:
    return reason if way_out is None else f"{reason}: {way_out}"


def _present(program: str, cwd: Path, path: str) -> bool:
    if "/" in program:  # ./gradlew, vendor/bin/phpunit: the project's own
        candidate = Path(program) if program.startswith("/") else cwd / program
        return candidate.is_file() and os.access(candidate, os.X_OK)
    return shutil.which(program, path=path) is not None
