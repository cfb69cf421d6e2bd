"""Check 8, the smoke test: the configuration's `smoke` commands, run after the other checks (or
their log read, `logs: smoke`), reported as INFO and never blocking. Commands a pull request's body
lists under `Smoke:` are shown, never run: the body is the author's text, and a shell line from it
would run whatever they wrote."""

from __future__ import annotations

from evidence_gate.body_lists import label_line, listed_under
from evidence_gate.effects import Effects
from evidence_gate.facts import Facts
from evidence_gate.gates.gate import Earlier, Gate
from evidence_gate.gates.tools import ToolSpec, read_logs, run_tool
from evidence_gate.ledger.model import GateResult, GateVerdict
from evidence_gate.ledger.payloads.tools import ToolData
from evidence_gate.model import ToolRow, ToolStatus
from evidence_gate.settings import Settings
from evidence_gate.wording import plural

ID = "smoke"
TITLE = "Smoke test"
SPEC = ToolSpec(check=8, tool="smoke test", command="smoke", config_key="smoke", log_key="smoke")
_LABEL = label_line("Smoke(?: tests?)?")


def body_commands(body: str) -> tuple[str, ...]:
    """The commands a body lists under a `Smoke:` line, one list item each."""
    return listed_under(body, _LABEL, 20, inline=False)


def gather(facts: Facts, settings: Settings, effects: Effects, earlier: Earlier) -> ToolData:
    listed = body_commands(facts.pull_request.body) if facts.pull_request else ()
    note = (
        f"not run: {plural(len(listed), 'command')} from the pull request's body ({', '.join(listed)}); only the"
        " configuration's `smoke` commands run"
        if listed
        else None
    )
    if not settings.smoke and "smoke" not in settings.logs:
        reason = note or "no smoke commands: none in the configuration's `smoke`"
        return ToolData(
            row=ToolRow(check=8, tool=SPEC.tool, status=ToolStatus.NOT_APPLICABLE, reason=reason),
            runs=(),
            counted="commands",
        )
    row = ToolRow(
        check=8,
        tool=SPEC.tool,
        status=ToolStatus.DETECTED,
        command="; ".join(settings.smoke) or None,
        reason=note or "smoke",
    )
    if "smoke" in settings.logs:
        return read_logs(SPEC, row, settings.logs["smoke"], effects)
    if not effects.runs_tests:
        reason = (
            "not run: the action's container does not run the project's commands; give the log of a step"
            " that ran them through `logs: smoke`"
        )
        return ToolData(
            row=ToolRow(check=8, tool=SPEC.tool, status=ToolStatus.DETECTED, command=row.command, reason=reason),
            runs=(),
            counted="commands",
        )
    path = effects.tools_path
    runs = tuple(run_tool(command, effects.top, path, settings, effects) for command in settings.smoke)
    return ToolData(row=row, runs=runs, counted="commands")


def judge(data: ToolData, settings: Settings) -> GateResult:
    if data.row.status is ToolStatus.NOT_APPLICABLE:
        return GateResult(
            id=ID, title=TITLE, verdict=GateVerdict.NOT_APPLICABLE, headline=data.row.reason or "", data=data
        )
    if not data.runs:
        return GateResult(
            id=ID, title=TITLE, verdict=GateVerdict.INFO, headline=data.row.reason or "not run", data=data
        )
    ok = sum(1 for run in data.runs if run.exit_code == 0)
    headline = f"{ok} of {plural(len(data.runs), 'smoke command')} exited 0 (informational, never blocking)"
    return GateResult(
        id=ID,
        title=TITLE,
        verdict=GateVerdict.INFO,
        headline=headline,
        details=tuple(f"`{run.command}`: exit code {run.exit_code}" for run in data.runs if run.exit_code != 0),
        data=data,
    )


GATE: Gate[ToolData] = Gate(
    id=ID,
    title=TITLE,
    gather=gather,
    judge=judge,
    data=ToolData,
)
