"""The gates a run judges, in the order they are judged and shown. A new gate is a payload module
under `ledger/payloads/`, one entry in the catalog (`ledger/catalog.py`: what a reader of ledgers
knows of it), one module under `gates/` (its `GATE`), one line here and one partial template,
`templates/gates/<id>.md.j2` (docs/gates.md: Adding a gate)."""

from __future__ import annotations

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
from evidence_gate.gates.gate import Gate

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


def check_gate_ids(ids: tuple[str, ...], known: tuple[str, ...] = GATE_IDS) -> None:
    """`gates-off` names gates this run judges: a misspelt id would switch nothing off, silently."""
    unknown = [gate_id for gate_id in ids if gate_id not in known]
    if unknown:
        raise UsageError(f"gates-off: unknown gate {clipped(repr(unknown[0]))} (known: {', '.join(known)})")
