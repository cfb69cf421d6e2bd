"""The numbered checks of the quality-gate report. Numbers are stable: the markers carry them
(`<!-- QG:CHECK:<n>:<verdict> -->`), and an orchestrator that greps them relies on that. Each check
is a gate of the registry; strength and gate integrity are gates too, shown beside the checks in
sections of their own, without a number.
"""

from __future__ import annotations

from dataclasses import dataclass

from evidence_gate.ledger.model import GateResult, GateVerdict
from evidence_gate.ledger.quality_record import Stage


@dataclass(frozen=True, kw_only=True)
class Check:
    number: int
    gate: str  # the registry's gate id
    title: str


CHECKS = (
    Check(number=1, gate="type-check", title="Type Checker"),
    Check(number=2, gate="lint", title="Linter"),
    Check(number=3, gate="evidence", title="Test Suite"),
    Check(number=4, gate="coverage", title="Coverage"),
    Check(number=5, gate="scope", title="Scope"),
    Check(number=6, gate="criteria", title="Plan Compliance"),
    Check(number=7, gate="suppressions", title="Ignore-Comment Audit"),
    Check(number=8, gate="smoke", title="Smoke Test"),
    Check(number=9, gate="references", title="References"),
)
BY_GATE = {check.gate: check for check in CHECKS}
# A refactor keeps behaviour: scope, plan and ignore checks do not apply, nor does strength (no
# changed test need fail without a change that changes nothing).
REFACTOR_GATES = frozenset({"type-check", "lint", "evidence", "coverage", "gate-integrity"})

# The word a check's marker carries, for each gate verdict.
MARKER_WORDS = {
    GateVerdict.PASS: "PASS",
    GateVerdict.FAIL: "FAIL",
    GateVerdict.NOT_APPLICABLE: "NOT_APPLICABLE",
    GateVerdict.OFF: "NOT_APPLICABLE",  # with its reason: switched off by the configuration
    GateVerdict.UNAVAILABLE: "MISSING",  # its evidence could not be read: missing, and blocking
    GateVerdict.MISSING: "MISSING",
    GateVerdict.INFO: "INFO",
    GateVerdict.REVIEW: "REVIEW",  # passed, with a relaxing edit for a reviewer to read
    GateVerdict.UNVERIFIABLE: "UNVERIFIABLE",
}


def stage_skip(gate_id: str, stage: Stage) -> str | None:
    """Why a gate does not run at this stage, or None when it does."""
    if stage is Stage.POST_REFACTOR and gate_id not in REFACTOR_GATES:
        return "not checked at the post-refactor stage: a refactor keeps behaviour (checks 1-4 apply)"
    return None


def first_error(gate: GateResult) -> str:
    """What a failed check's signature is made of: its payload's first error line when it has one
    (a tool's first diagnostic, the first failed test), else its headline."""
    line = getattr(gate.data, "first_error", None)
    return line if isinstance(line, str) and line else gate.headline
