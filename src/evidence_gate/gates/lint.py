"""Check 2, the linter: it passes when the linter exits 0, or prints no more warnings than the
baseline did (the delta shown): a legacy project is not blocked by warnings it already had. Without
a baseline (a first pull request), a warning on a line the change did not touch is the base's debt:
it passes with no new warning on the lines the change added or changed."""

from __future__ import annotations

from evidence_gate.effects import Effects
from evidence_gate.facts import Facts
from evidence_gate.gates.gate import Earlier, Gate
from evidence_gate.gates.tools import ToolSpec, gather_tool
from evidence_gate.gates.type_check import judge_tool
from evidence_gate.ledger.model import GateResult
from evidence_gate.ledger.payloads.tools import ToolData
from evidence_gate.settings import Settings

ID = "lint"
TITLE = "Linter"
SPEC = ToolSpec(check=2, tool="linter", command="lint", config_key="lint-command", log_key="lint")


def gather(facts: Facts, settings: Settings, effects: Effects, earlier: Earlier) -> ToolData:
    found = gather_tool(SPEC, settings.lint_command, facts, settings, effects)
    figures = facts.quality_baseline.lint if facts.quality_baseline else None
    return ToolData(
        row=found.row, runs=found.runs, baseline_count=figures.count if figures else None, counted="warnings"
    )


def judge(data: ToolData, settings: Settings) -> GateResult:
    return judge_tool(ID, TITLE, data, allow_baseline=True)


GATE: Gate[ToolData] = Gate(id=ID, title=TITLE, gather=gather, judge=judge, data=ToolData)
