"""What a run's checks measured, as a later run's baseline: the type checker's and the linter's
exit codes and counts, the tests' counts and exit code, the coverage percentage. It is kept in
the ledger (`quality.measured`), carried in the digest the action leaves in each commit's check
run, and written to a file by `evidence-gate baseline`."""

from __future__ import annotations

from collections.abc import Sequence

from evidence_gate.facts import Facts
from evidence_gate.ledger.model import GateResult
from evidence_gate.ledger.payloads.coverage import CoverageData
from evidence_gate.ledger.payloads.tools import ToolData
from evidence_gate.ledger.quality_record import Baseline, SuiteFigures, ToolFigures


def measured(facts: Facts, gates: Sequence[GateResult]) -> Baseline:
    """None for a tool this run did not detect; the test identities are the ledger's own."""
    by_id = {gate.id: gate for gate in gates}
    counts = facts.counts
    codes = [log.scan.exit_code for log in facts.logs if log.scan.exit_code is not None]
    coverage = by_id.get("coverage")
    return Baseline(
        type_check=_tool(by_id.get("type-check")),
        lint=_tool(by_id.get("lint")),
        test=None
        if counts is None
        else SuiteFigures(
            exit=next((code for code in codes if code != 0), codes[0] if codes else None),
            passed=counts.passed,
            failed=counts.failed,
            skipped=counts.skipped,
        ),
        coverage=coverage.data.number if coverage and isinstance(coverage.data, CoverageData) else None,
        timestamp=facts.state.time if facts.state else "",
    )


def _tool(gate: GateResult | None) -> ToolFigures | None:
    if gate is None or not isinstance(gate.data, ToolData) or not gate.data.runs:
        return None
    failing = next((run.exit_code for run in gate.data.runs if run.exit_code != 0), 0)
    return ToolFigures(exit=failing, count=gate.data.total)
