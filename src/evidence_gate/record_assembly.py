"""The quality record of one run, from its facts and its judged gates: the Toolchain table (each
tool check's row, the test and coverage evidence found), the baseline, every failed check's
signature and, over the earlier runs' signatures, the stagnation."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from evidence_gate.facts import Facts, RunInputs
from evidence_gate.ledger.model import BLOCKING, GateResult
from evidence_gate.ledger.payloads.tools import ToolData
from evidence_gate.ledger.quality_record import QualityRecord
from evidence_gate.ledger.stagnation import RUNS, signatures, stagnation
from evidence_gate.measured import measured
from evidence_gate.model import ToolRow, ToolStatus
from evidence_gate.settings import Settings
from evidence_gate.tool_lookup import unchanged_sources
from evidence_gate.wording import plural


def quality_record(facts: Facts, gates: Sequence[GateResult], settings: Settings, inputs: RunInputs) -> QualityRecord:
    current = signatures(gates)
    return QualityRecord(
        stage=settings.stage,
        state=facts.state,
        toolchain=toolchain(facts, gates, inputs.test_run),
        baseline=facts.quality_baseline,
        baseline_source=_source(facts, inputs),
        signatures={number: mark for number, (mark, _) in current.items()},
        history=inputs.history_note,
        earlier=tuple(dict(run) for run in inputs.history[-(RUNS - 1) :]),
        stagnation=stagnation(current, inputs.history),
        measured=measured(facts, gates),
    )


def _source(facts: Facts, inputs: RunInputs) -> str:
    if inputs.baseline_source is not None:
        return inputs.baseline_source
    if facts.baseline is not None:
        return f"the base commit's run ({facts.baseline_note})"
    return f"no baseline: {facts.baseline_note}"


def toolchain(facts: Facts, gates: Sequence[GateResult], test_run: ToolRow | None) -> tuple[ToolRow, ...]:
    """The rows in check order: 1, 2 and 8 from their gates, 3 and 4 from the evidence found."""
    rows = {gate.data.row.check: gate.data.row for gate in gates if isinstance(gate.data, ToolData)}
    idle = unchanged_sources(facts.change)
    reports = facts.reports
    parsers = sorted(
        {
            summary.parser
            for summary in (*(log.summary for log in facts.logs), *facts.documents)
            if summary and summary.parser
        }
    )
    if test_run is not None and not (idle and test_run.status is ToolStatus.MISSING):
        rows[3] = test_run
    else:
        read = len(reports.logs) + len(reports.documents)
        found = f"{plural(read, 'report')} read"
        rows[3] = _evidence_row(3, "test runner", parsers, found, idle, "no runner output among the reports was read")
    formats = sorted({kind for _, kind in reports.coverage})
    found = f"{plural(len(reports.coverage), 'coverage report')} read"
    rows[4] = _evidence_row(4, "coverage", formats, found, idle, "no coverage report among the reports")
    coverage = next((gate for gate in gates if gate.id == "coverage"), None)
    if rows[4].status is ToolStatus.MISSING and coverage is not None and coverage.verdict not in BLOCKING:
        # the check said what no report means for it (skipped, not applicable): the row says the same
        rows[4] = replace(rows[4], status=ToolStatus.NOT_APPLICABLE, reason=f"no coverage report: {coverage.headline}")
    return tuple(rows[number] for number in sorted(rows))


def _evidence_row(check: int, tool: str, formats: list[str], found: str, idle: str | None, missing: str) -> ToolRow:
    """A check read from the reports: DETECTED by the formats read, else not applicable (nothing to
    judge), else MISSING."""
    if formats:
        return ToolRow(check=check, tool=tool, status=ToolStatus.DETECTED, command=", ".join(formats), reason=found)
    if idle:
        return ToolRow(check=check, tool=tool, status=ToolStatus.NOT_APPLICABLE, reason=idle)
    return ToolRow(check=check, tool=tool, status=ToolStatus.MISSING, reason=missing)
