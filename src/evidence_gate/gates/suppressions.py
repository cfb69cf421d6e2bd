"""Check 7, the ignore-comment audit: no suppression (`noqa`, `type: ignore`, `eslint-disable`,
`#[allow]`, `//nolint`, `@SuppressWarnings` …) or coverage exclusion (`pragma: no cover`, `istanbul
ignore` …) is added without an inline justification, one rule for every language
(integrity/audit.py). A rule code alone (`# noqa: E501`, `#[allow(clippy::x)]`) is not one; a reason
is (`# noqa: E501 -- generated table`, `#[allow(clippy::x)] // why`). The lines, each unjustified one
with its fix, come from the gate-integrity inventory (RH-6, RH-7), judged before this gate."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from evidence_gate.effects import Effects
from evidence_gate.facts import Facts
from evidence_gate.gates.gate import DataType, Earlier, Gate
from evidence_gate.gates.integrity import DATA_SCHEMA as INTEGRITY_SCHEMA
from evidence_gate.gates.integrity import ID as INTEGRITY
from evidence_gate.gates.integrity import IntegrityData, Suppression
from evidence_gate.ledger import Annotation, GateResult, GateVerdict
from evidence_gate.settings import Settings
from evidence_gate.wording import plural

ID = "suppressions"
TITLE = "Ignore-comment audit"


@dataclass(frozen=True, kw_only=True)
class AuditFacts:
    lines: tuple[Suppression, ...] | None  # None: the inventory did not run (`reason` says why)
    reason: str = ""
    idle: bool = False  # nothing to audit here: no change, or the inventory is switched off


@dataclass(frozen=True, kw_only=True)
class AuditData:
    lines: tuple[Suppression, ...]  # every suppression and exclusion the change adds

    def document(self) -> dict[str, object]:
        return {"lines": [line.document() for line in self.lines]}


DATA_SCHEMA: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "required": ["lines"],
    "properties": {"lines": INTEGRITY_SCHEMA["properties"]["suppressions"]},
}


def read_data(document: Any) -> AuditData:
    return AuditData(lines=tuple(Suppression(**line) for line in document["lines"]))


def gather(facts: Facts, settings: Settings, effects: Effects, earlier: Earlier) -> AuditFacts:
    if facts.change is None:
        return AuditFacts(lines=None, reason="no base was given, so there is no change to audit", idle=True)
    inventory = earlier.get(INTEGRITY)
    if inventory is None or inventory.verdict in (GateVerdict.OFF, GateVerdict.NOT_APPLICABLE):
        why = "it is not judged here" if inventory is None else inventory.headline
        return AuditFacts(lines=None, reason=f"the gate-integrity inventory it reads is not run: {why}", idle=True)
    if not isinstance(inventory.data, IntegrityData):
        return AuditFacts(lines=None, reason=f"the gate-integrity inventory it reads did not run: {inventory.headline}")
    return AuditFacts(lines=inventory.data.suppressions)


def judge(facts: AuditFacts, settings: Settings) -> GateResult:
    if facts.lines is None:
        verdict = GateVerdict.NOT_APPLICABLE if facts.idle else GateVerdict.UNAVAILABLE
        return GateResult(id=ID, title=TITLE, verdict=verdict, headline=facts.reason)
    if not facts.lines:
        return GateResult(
            id=ID,
            title=TITLE,
            verdict=GateVerdict.NOT_APPLICABLE,
            headline="the change adds no suppression or coverage exclusion",
        )
    bare = [line for line in facts.lines if not line.justified]
    details = tuple(f"{line.path}:{line.line}: {line.text.strip()} -> {_fix(line)}" for line in bare)
    if bare:
        return GateResult(
            id=ID,
            title=TITLE,
            verdict=GateVerdict.FAIL,
            headline=f"{plural(len(bare), 'suppression')} added without a reason on its line (a rule code is not one)",
            details=details,
            data=AuditData(lines=facts.lines),
            annotations=tuple(
                Annotation(
                    path=line.path,
                    line=line.line,
                    end_line=line.line,
                    level="failure",
                    message=f"a suppression or coverage exclusion added without a reason: {_fix(line)}",
                    title="Check 7: ignore-comment audit",
                )
                for line in bare
            ),
        )
    return GateResult(
        id=ID,
        title=TITLE,
        verdict=GateVerdict.PASS,
        headline=f"{plural(len(facts.lines), 'suppression')} added, each with its reason",
        details=tuple(f"{line.path}:{line.line}: {line.text.strip()}" for line in facts.lines),
        data=AuditData(lines=facts.lines),
    )


def _fix(line: Suppression) -> str:
    """The exact fix: the line's own directive, the reason written in its language's syntax."""
    if not line.fix:  # a ledger written before fixes were recorded
        return "add the reason on the same line, after the directive and its codes"
    return f"add the reason on the same line: `{line.fix}`"


GATE: Gate[AuditFacts] = Gate(
    id=ID, title=TITLE, gather=gather, judge=judge, data=DataType(schema=DATA_SCHEMA, read=read_data)
)
