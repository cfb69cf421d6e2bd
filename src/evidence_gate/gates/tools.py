"""What the checks that run a project's own tool share (1 type checker, 2 linter, 8 smoke test):
finding the tool (tool_lookup.py), running it under the capture protocol on the host, or
reading the log a job's step wrote (`logs`) where the tools are not here (the action's container),
and the payload the report shows: the command, its output, its exit code, what it counted.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from evidence_gate.effects import Effects
from evidence_gate.facts import Facts
from evidence_gate.ledger.payloads.tools import ToolData, ToolRun
from evidence_gate.model import ToolRow, ToolStatus
from evidence_gate.quality.capture import Captured, read_captured, run_captured
from evidence_gate.quality.debt import ChangedLines, changed_lines, classify
from evidence_gate.quality.diagnostics import count
from evidence_gate.quality.locate import locate
from evidence_gate.quality.recognise import recognise
from evidence_gate.settings import Settings
from evidence_gate.tool_lookup import find_tool, unchanged_sources
from evidence_gate.workspace import Refused


@dataclass(frozen=True, kw_only=True)
class ToolSpec:
    check: int
    tool: str  # as the Toolchain table names it: `type checker`
    command: str  # the adapter's command name: `typecheck`
    config_key: str  # `type-check-command`
    log_key: str  # the `logs` entry: `type-check`
    errors_only: bool = False  # counts errors alone, never a warning (the type checker: diagnostics.py)


def way_out(spec: ToolSpec) -> str:
    """What a check whose tool gave no evidence says to do, in one line: the two ways out."""
    return (
        f"give its evidence (run it in the runner step, `uses: your-org/evidence-gate/run@<sha>`, or hand in its"
        f" log with `logs: {spec.log_key}: <file>`), or switch the check off in the base branch's config"
        f" (`gates-off: [{spec.log_key}]` in .github/evidence-gate.yml)"
    )


def gather_tool(spec: ToolSpec, configured: str | None, facts: Facts, settings: Settings, effects: Effects) -> ToolData:
    """The check's tool found, then run here or read from the log a step wrote."""
    match = facts.detection.primary
    ours = match.adapter_id == facts.adapter.id
    adapter_command = match.commands.get(spec.command) if ours else None
    choice = match.tools.get(spec.command) if ours else None
    root = effects.top / match.root
    path = effects.tools_path
    log = settings.logs.get(spec.log_key)
    justification = unchanged_sources(facts.change)
    changed = changed_lines(facts.change, effects.top, match.root)  # to tell the base's diagnostics from new ones
    if log and justification is None:  # a step ran the tool: its command is the configured or the chosen one
        found = ToolRow(
            check=spec.check, tool=spec.tool, status=ToolStatus.DETECTED, command=configured or adapter_command
        )
        return read_logs(spec, found, log, effects, changed)
    row = find_tool(
        check=spec.check,
        tool=spec.tool,
        configured=configured,
        config_key=spec.config_key,
        adapter_command=adapter_command,
        stack=facts.adapter.id,
        cwd=root,
        path=path,
        justification=justification,
        choice=choice,
        way_out=way_out(spec),
        runs_here=effects.runs_tests,
    )
    if row.status is not ToolStatus.DETECTED:
        return ToolData(row=row, runs=())
    if not effects.runs_tests:
        missing = f"the action's container does not run the project's tools: {way_out(spec)}"
        return ToolData(row=_missing(row, missing), runs=())
    command = row.command or ""  # a DETECTED row names its command
    return ToolData(
        row=row, runs=(run_tool(command, root, path, settings, effects, changed, errors_only=spec.errors_only),)
    )


def run_tool(
    command: str,
    cwd: Path,
    path: str,
    settings: Settings,
    effects: Effects,
    changed: ChangedLines | None = None,
    *,
    errors_only: bool = False,
) -> ToolRun:
    with effects.scratch("evidence-gate-check-") as scratch:
        captured = run_captured(
            effects,
            command,
            cwd,
            scratch / "output.log",
            settings.command_timeout_seconds,
            {"PATH": path},
            errors_only=errors_only,
        )
        return _run(captured, changed, errors_only=errors_only)


def read_logs(
    spec: ToolSpec, row: ToolRow, glob: str, effects: Effects, changed: ChangedLines | None = None
) -> ToolData:
    """The logs a job's steps wrote for this check, each read under the capture protocol; `row`
    names the command they ran, when it is known. With the change's lines (`changed`), each
    diagnostic is located and told old or new."""
    try:
        files = effects.workspace.glob(glob, effects.top)
        checked = [(effects.workspace.check(file), effects.workspace.shown(file)) for file in files]
    except Refused as refusal:
        return ToolData(row=_missing(row, f"`logs: {spec.log_key}`: {refusal.one_line()}"), runs=())
    if not checked:
        return ToolData(row=_missing(row, f"`logs: {spec.log_key}`: {glob} matched no file"), runs=())
    captured = [read_captured(file, shown, shown, errors_only=spec.errors_only) for file, shown in checked]
    named = [_written_by(item, row.command) for item in captured]
    written = next((tool for tool, _ in named if tool is not None), None)
    shown_command = next((command for tool, command in named if tool is not None), row.command or "unknown tool")
    reason = f"the log {glob} (`logs`)" + (f", written by {written}" if written else "")
    return ToolData(
        row=replace(row, command=shown_command, reason=reason),
        runs=tuple(
            _run(replace(item, command=command or item.command), changed, errors_only=spec.errors_only)
            for item, (_, command) in zip(captured, named, strict=True)
        ),
    )


def _written_by(captured: Captured, command: str | None) -> tuple[str | None, str | None]:
    """The tool that wrote a log, read from the log (quality/recognise.py), and the command to name
    it by: the configured or chosen one when it ran that tool, else the tool's name; unrecognised,
    the configured or chosen command."""
    tool = recognise(captured.lines)
    if tool is None:
        return None, command
    return tool.name, command if command is not None and tool.ran(command) else tool.name


def _run(captured: Captured, changed: ChangedLines | None, *, errors_only: bool = False) -> ToolRun:
    """One run's record, counted and located in the check's unit: a type checker's errors
    (`errors_only`), a linter's warnings."""
    counted = count(captured.lines, captured.exit_code, errors_only=errors_only)
    return ToolRun(
        command=captured.command,
        source=captured.source,
        exit_code=captured.exit_code,
        output=captured.output,
        count=counted,
        first_error=captured.first_error,
        located=None
        if changed is None
        else classify(locate(captured.lines, errors_only=errors_only), changed, counted),
    )


def _missing(row: ToolRow, reason: str) -> ToolRow:
    return ToolRow(check=row.check, tool=row.tool, status=ToolStatus.MISSING, command=row.command, reason=reason)


def unrecorded(runs: Sequence[ToolRun]) -> list[str]:
    """The runs whose output records no exit code: nothing can be said of them."""
    return [run.source if run.source != "ran" else run.command for run in runs if run.exit_code is None]
