"""The pipeline behind `run` and the action: gather the facts once, judge them with every
registered gate, write the ledger. Reading happens in `facts.gather` (and a gate's own `gather`),
deciding in the gates; rendering and publishing happen after, from the ledger alone.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from types import MappingProxyType
from typing import Any

from evidence_gate.effects import Effects
from evidence_gate.facts import RunInputs, gather
from evidence_gate.gates.gate import Gate
from evidence_gate.gates.registry import GATES, check_gate_ids
from evidence_gate.ledger.model import GateResult, Ledger, compare, overall_verdict
from evidence_gate.record_assembly import quality_record
from evidence_gate.scrub import Scrubber
from evidence_gate.settings import Settings


def run_pipeline(settings: Settings, inputs: RunInputs, effects: Effects, gates: Sequence[Gate[Any]] = GATES) -> Ledger:
    """The ledger of one run: the facts gathered once, then each gate of `gates` (the registry's)
    judging them in turn."""
    check_gate_ids(settings.gates_off, tuple(gate.id for gate in gates))
    facts = gather(settings, inputs, effects)
    judged: dict[str, GateResult] = {}
    for gate in gates:
        judged[gate.id] = gate.result(facts, settings, effects, MappingProxyType(dict(judged)))
    results = tuple(judged.values())
    ledger = Ledger(
        verdict=overall_verdict(results),
        head=facts.head,
        base=facts.base,
        stack=facts.adapter.id,
        counts=facts.counts,
        tests=dict(facts.cases.identities),
        test_names=dict(facts.cases.names),
        failed_tests=facts.cases.failed,
        gates=results,
        check_name=settings.check_name,
        baseline=facts.baseline_note,
    )
    record = quality_record(facts, results, settings, inputs)
    ledger = replace(ledger, quality=record, verdict=overall_verdict(results, record.stagnation is not None))
    if facts.baseline is not None:
        ledger = replace(ledger, deltas=compare(facts.baseline.counts, facts.baseline.tests, ledger))
    return Scrubber(inputs.secrets).value(ledger)
