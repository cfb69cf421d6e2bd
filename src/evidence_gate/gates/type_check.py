"""Check 1, the type checker: it passes when the project's type checker exits 0, or, without a
baseline, when none of its errors is on a line the change added or changed (the rest are the base's)."""

from __future__ import annotations

from evidence_gate.effects import Effects
from evidence_gate.facts import Facts
from evidence_gate.gates.gate import Earlier, Gate
from evidence_gate.gates.tools import ToolSpec, gather_tool, unrecorded
from evidence_gate.ledger.model import GateResult, GateVerdict
from evidence_gate.ledger.payloads.tools import Located, ToolData
from evidence_gate.model import ToolStatus
from evidence_gate.settings import Settings
from evidence_gate.wording import plural

ID = "type-check"
TITLE = "Type checker"
SPEC = ToolSpec(
    check=1,
    tool="type checker",
    command="typecheck",
    config_key="type-check-command",
    log_key="type-check",
    errors_only=True,
)


def gather(facts: Facts, settings: Settings, effects: Effects, earlier: Earlier) -> ToolData:
    found = gather_tool(SPEC, settings.type_check_command, facts, settings, effects)
    figures = facts.quality_baseline.type_check if facts.quality_baseline else None
    return ToolData(row=found.row, runs=found.runs, baseline_count=figures.count if figures else None)


def judge(data: ToolData, settings: Settings) -> GateResult:
    return judge_tool(ID, TITLE, data, allow_baseline=False)


def judge_tool(gate_id: str, title: str, data: ToolData, *, allow_baseline: bool) -> GateResult:
    """Exit 0 passes; a linter (`allow_baseline`) also passes with no more warnings than the baseline.
    Without a baseline, a diagnostic on a line the change did not touch is the base's debt, counted
    and shown, never blocking: the tool passes when none of its diagnostics is new (debt.py)."""
    row = data.row
    if row.status is not ToolStatus.DETECTED:
        verdict = GateVerdict.NOT_APPLICABLE if row.status is ToolStatus.NOT_APPLICABLE else GateVerdict.MISSING
        return GateResult(id=gate_id, title=title, verdict=verdict, headline=row.reason or str(row.status), data=data)
    silent = unrecorded(data.runs)
    if silent:
        headline = f"{silent[0]} records no exit code (no `EXIT_CODE=` line): nothing can be said of it"
        return GateResult(id=gate_id, title=title, verdict=GateVerdict.UNAVAILABLE, headline=headline, data=data)
    failed = [run for run in data.runs if run.exit_code != 0]
    total, before = data.total, data.baseline_count
    counted = "" if total is None else plural(total, data.counted[:-1], data.counted)
    delta = "" if total is None or before is None else f" (baseline {before:,}, {total - before:+,})"
    if not failed:
        return GateResult(
            id=gate_id,
            title=title,
            verdict=GateVerdict.PASS,
            headline=f"exit code 0{', ' + counted if counted else ''}{delta}",
            data=data,
        )
    if allow_baseline and total is not None and before is not None and total <= before:
        headline = f"exit code {failed[0].exit_code}, {counted}{delta}: no more than the baseline"
        return GateResult(id=gate_id, title=title, verdict=GateVerdict.PASS, headline=headline, data=data)
    located = data.located
    if before is None and located is not None and located.pre_existing + located.new > 0:
        return _judge_debt(gate_id, title, data, located, failed[0].exit_code)
    why = counted + delta if counted else "its output could not be counted"
    if allow_baseline and before is None:
        why += "; no baseline to compare with"
    return GateResult(
        id=gate_id,
        title=title,
        verdict=GateVerdict.FAIL,
        headline=f"exit code {failed[0].exit_code}: {why}",
        details=tuple(run.first_error for run in failed if run.first_error),
        data=data,
    )


def _judge_debt(gate_id: str, title: str, data: ToolData, located: Located, code: int | None) -> GateResult:
    """No baseline: the diagnostics on lines the change did not touch are the base's; new ones block."""
    figures = f"{located.pre_existing:,} pre-existing, {located.new:,} new"
    if located.new == 0:
        headline = f"exit code {code}: {figures} (no baseline: those on lines the change did not touch are the base's)"
        return GateResult(id=gate_id, title=title, verdict=GateVerdict.PASS, headline=headline, data=data)
    unplaced = f" ({located.unlocated:,} with no file and line, counted as new)" if located.unlocated else ""
    first = located.new_shown[0].text if located.new_shown else "one its summary counts, which no line names"
    return GateResult(
        id=gate_id,
        title=title,
        verdict=GateVerdict.FAIL,
        headline=f"exit code {code}: {figures}{unplaced}; first new: {first}",
        details=tuple(item.text for item in located.new_shown),
        data=data,
    )


GATE: Gate[ToolData] = Gate(id=ID, title=TITLE, gather=gather, judge=judge, data=ToolData)
