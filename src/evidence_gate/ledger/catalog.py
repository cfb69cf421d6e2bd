"""The catalog of gates: for each gate id, what a reader of ledgers needs to know of it without
running it (publish, merge, render, a ledger read from an artifact): its title, its check number,
its payload's type, the verdicts that say nothing it may give, and how two shards' results combine.
The gates themselves, and the order they are judged in, are gates/registry.py's; a test holds the
two to the same ids, titles and payload types.

Check numbers are stable: the markers carry them (`<!-- QG:CHECK:<n>:<verdict> -->`), and an
orchestrator that greps them relies on that. Strength and gate integrity are gates too, shown beside
the checks in sections of their own, without a number.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from types import MappingProxyType

from evidence_gate.ledger.model import GateData, GateResult, GateVerdict
from evidence_gate.ledger.payloads import strength
from evidence_gate.ledger.payloads.coverage import CoverageData
from evidence_gate.ledger.payloads.criteria import CriteriaData
from evidence_gate.ledger.payloads.evidence import EvidenceData
from evidence_gate.ledger.payloads.integrity import IntegrityData
from evidence_gate.ledger.payloads.references import ReferencesData
from evidence_gate.ledger.payloads.scope import ScopeData
from evidence_gate.ledger.payloads.suppressions import AuditData
from evidence_gate.ledger.payloads.tools import ToolData
from evidence_gate.ledger.quality_record import Stage

# Two shards' payloads of one gate as one result, judged again from the payloads alone.
Combine = Callable[[GateData, GateData], GateResult]


@dataclass(frozen=True, kw_only=True)
class Check:
    number: int
    gate: str  # the gate's id
    title: str


@dataclass(frozen=True, kw_only=True)
class Entry:
    id: str
    title: str  # the gate's, as its result carries it
    payload: type[GateData] | None  # the type of its `GateResult.data`
    check: int | None = None  # its number in the quality-gate report, when it is a numbered check
    check_title: str = ""  # its title there
    # The verdicts that say nothing (ledger.SILENT) it can give besides `off`: a ledger made
    # elsewhere that shows another one for it is refused (github/publish.py, runner_results.py).
    silent: frozenset[GateVerdict] = frozenset()
    # How two shards' results merge: None keeps the worse, and the payload only where they agree.
    combine: Combine | None = None


ENTRIES = (
    Entry(id="type-check", title="Type checker", payload=ToolData, check=1, check_title="Type Checker"),
    Entry(id="lint", title="Linter", payload=ToolData, check=2, check_title="Linter"),
    Entry(id="evidence", title="Test evidence", payload=EvidenceData, check=3, check_title="Test Suite"),
    Entry(id="gate-integrity", title="Gate integrity", payload=IntegrityData),
    Entry(id=strength.ID, title=strength.TITLE, payload=strength.StrengthData, combine=strength.combine),
    Entry(id="coverage", title="Coverage of the change", payload=CoverageData, check=4, check_title="Coverage"),
    Entry(id="scope", title="Scope", payload=ScopeData, check=5, check_title="Scope"),
    Entry(
        id="criteria",
        title="Acceptance criteria",
        payload=CriteriaData,
        check=6,
        check_title="Plan Compliance",
        silent=frozenset({GateVerdict.UNVERIFIABLE}),
    ),
    Entry(
        id="suppressions", title="Ignore-comment audit", payload=AuditData, check=7, check_title="Ignore-Comment Audit"
    ),
    Entry(id="references", title="References", payload=ReferencesData, check=9, check_title="References"),
    Entry(
        id="smoke",
        title="Smoke test",
        payload=ToolData,
        check=8,
        check_title="Smoke Test",
        silent=frozenset({GateVerdict.INFO}),
    ),
)
Catalog = Mapping[str, Entry]
CATALOG: Catalog = MappingProxyType({entry.id: entry for entry in ENTRIES})


def with_entries(*extra: Entry, catalog: Catalog = CATALOG) -> Catalog:
    """The catalog with more gates (a test's own), for the functions that take one."""
    return MappingProxyType({**catalog, **{entry.id: entry for entry in extra}})


CHECKS = tuple(
    sorted(
        (Check(number=entry.check, gate=entry.id, title=entry.check_title) for entry in ENTRIES if entry.check),
        key=lambda check: check.number,
    )
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


def payload_type(gate_id: str, catalog: Catalog = CATALOG) -> type[GateData] | None:
    """The payload type of a gate this version knows; None for another id (a newer version's, or a
    ledger's own `ledger` gate)."""
    entry = catalog.get(gate_id)
    return None if entry is None else entry.payload


def gives(gate_id: str, verdict: GateVerdict, catalog: Catalog = CATALOG) -> bool:
    """Whether this version's gate of that id can give a verdict that says nothing (`info`,
    `unverifiable`); a gate of a newer version's id may."""
    entry = catalog.get(gate_id)
    return entry is None or verdict in entry.silent


def combine_shards(left: GateResult, right: GateResult, catalog: Catalog = CATALOG) -> GateResult | None:
    """Two shards' results of one gate as one, where the gate's payloads add up (see `merge`)."""
    entry = catalog.get(left.id)
    if entry is None or entry.combine is None or left.data is None or right.data is None:
        return None
    combined = entry.combine(left.data, right.data)
    return replace(
        combined,
        excerpts=left.excerpts + right.excerpts,
        annotations=combined.annotations or left.annotations + right.annotations,
    )


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
