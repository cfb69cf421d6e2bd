"""The gates a run judges, in the order they are shown. A new gate is one module under `gates/`
(its `GATE`), one line here and one partial template, `templates/gates/<id>.md.j2`."""

from __future__ import annotations

from typing import Any

from evidence_gate.documents import clipped
from evidence_gate.errors import UsageError
from evidence_gate.gates import criteria, evidence, integrity
from evidence_gate.gates.gate import DataType, Gate

GATES: tuple[Gate[Any], ...] = (
    evidence.GATE,
    integrity.GATE,
    criteria.GATE,
)

GATE_IDS = tuple(gate.id for gate in GATES)


def gate_data(gate_id: str) -> DataType | None:
    """The payload type of a gate this version runs; None for another id (a newer version's, or a
    ledger's own `ledger` gate)."""
    return next((gate.data for gate in GATES if gate.id == gate_id), None)


def check_gate_ids(ids: tuple[str, ...], known: tuple[str, ...] = GATE_IDS) -> None:
    """`gates-off` names gates this run judges: a misspelt id would switch nothing off, silently."""
    unknown = [gate_id for gate_id in ids if gate_id not in known]
    if unknown:
        raise UsageError(f"gates-off: unknown gate {clipped(repr(unknown[0]))} (known: {', '.join(known)})")
