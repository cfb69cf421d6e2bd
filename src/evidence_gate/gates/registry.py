"""The gates a run judges, in the order they are shown. A new gate is one module under `gates/`
(its `GATE`), one line here and one partial template, `templates/gates/<id>.md.j2`."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from evidence_gate.documents import clipped
from evidence_gate.errors import UsageError
from evidence_gate.gates import (
    coverage,
    criteria,
    evidence,
    integrity,
    lint,
    references,
    scope,
    smoke,
    strength,
    suppressions,
    type_check,
)
from evidence_gate.gates.gate import DataType, Gate
from evidence_gate.ledger.model import GateResult, GateVerdict

# Judged in this order: coverage weighs by strength's verdicts, the ignore-comment audit reads the
# gate-integrity inventory, and the smoke test runs after every other check.
GATES: tuple[Gate[Any], ...] = (
    type_check.GATE,
    lint.GATE,
    evidence.GATE,
    integrity.GATE,
    strength.GATE,
    coverage.GATE,
    scope.GATE,
    criteria.GATE,
    suppressions.GATE,
    references.GATE,
    smoke.GATE,
)

GATE_IDS = tuple(gate.id for gate in GATES)


def gate_data(gate_id: str) -> DataType | None:
    """The payload type of a gate this version runs; None for another id (a newer version's, or a
    ledger's own `ledger` gate)."""
    return next((gate.data for gate in GATES if gate.id == gate_id), None)


def gives(gate_id: str, verdict: GateVerdict) -> bool:
    """Whether this version's gate of that id can give a verdict that says nothing (`info`,
    `unverifiable`); a gate of a newer version's id may."""
    gate = next((gate for gate in GATES if gate.id == gate_id), None)
    return gate is None or verdict in gate.silent


def combine_shards(left: GateResult, right: GateResult) -> GateResult | None:
    """Two shards' results of one gate as one, where the gate's payloads add up (see `merge`)."""
    data = gate_data(left.id)
    if data is None or data.combine is None or left.data is None or right.data is None:
        return None
    combined = data.combine(left.data, right.data)
    return replace(
        combined,
        excerpts=left.excerpts + right.excerpts,
        annotations=combined.annotations or left.annotations + right.annotations,
    )


def check_gate_ids(ids: tuple[str, ...], known: tuple[str, ...] = GATE_IDS) -> None:
    """`gates-off` names gates this run judges: a misspelt id would switch nothing off, silently."""
    unknown = [gate_id for gate_id in ids if gate_id not in known]
    if unknown:
        raise UsageError(f"gates-off: unknown gate {clipped(repr(unknown[0]))} (known: {', '.join(known)})")
