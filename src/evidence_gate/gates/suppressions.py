"""Check 7, the ignore-comment audit: no suppression (`noqa`, `type: ignore`, `eslint-disable`,
`#[allow]`, `//nolint`, `@SuppressWarnings` …) or coverage exclusion (`pragma: no cover`, `istanbul
ignore` …) is added without an inline justification, one rule for every language
(integrity/audit.py). A rule code alone (`# noqa: E501`, `#[allow(clippy::x)]`) is not one; a reason
is (`# noqa: E501 -- generated table`, `#[allow(clippy::x)] // why`). The lines, each unjustified one
with its fix, come from the gate-integrity inventory (RH-6, RH-7), judged before this gate. Every line
the change adds is judged, however many: the inventory lists the first MAX_SUPPRESSIONS (the
unjustified ones first) and counts them all, and the counts decide."""

from __future__ import annotations

from dataclasses import dataclass

from evidence_gate.effects import Effects
from evidence_gate.facts import Facts
from evidence_gate.gates.gate import Earlier, Gate
from evidence_gate.gates.integrity import ID as INTEGRITY
from evidence_gate.ledger.model import Annotation, GateResult, GateVerdict
from evidence_gate.ledger.payloads.integrity import IntegrityData, Suppression
from evidence_gate.ledger.payloads.suppressions import AuditData
from evidence_gate.settings import Settings
from evidence_gate.wording import plural

ID = "suppressions"
TITLE = "Ignore-comment audit"


@dataclass(frozen=True, kw_only=True)
class AuditFacts:
    lines: tuple[Suppression, ...] | None  # None: the inventory did not run (`reason` says why)
    reason: str = ""
    idle: bool = False  # nothing to audit here: no change, or the inventory is switched off
    total: int = 0  # every suppression the change adds, `lines` lists the first of them
    unjustified: int = 0  # of those, the ones without a reason


def gather(facts: Facts, settings: Settings, effects: Effects, earlier: Earlier) -> AuditFacts:
    if facts.change is None:
        return AuditFacts(lines=None, reason="no base was given, so there is no change to audit", idle=True)
    inventory = earlier.get(INTEGRITY)
    if inventory is None or inventory.verdict in (GateVerdict.OFF, GateVerdict.NOT_APPLICABLE):
        why = "it is not judged here" if inventory is None else inventory.headline
        return AuditFacts(lines=None, reason=f"the gate-integrity inventory it reads is not run: {why}", idle=True)
    if not isinstance(inventory.data, IntegrityData):
        return AuditFacts(lines=None, reason=f"the gate-integrity inventory it reads did not run: {inventory.headline}")
    data = inventory.data
    return AuditFacts(lines=data.suppressions, total=data.suppressions_total, unjustified=data.unjustified_total)


def judge(facts: AuditFacts, settings: Settings) -> GateResult:
    if facts.lines is None:
        verdict = GateVerdict.NOT_APPLICABLE if facts.idle else GateVerdict.UNAVAILABLE
        return GateResult(id=ID, title=TITLE, verdict=verdict, headline=facts.reason)
    bare = [line for line in facts.lines if not line.justified]
    # the counts are over every line the change adds; the list may hold only the first of them
    total, unjustified = max(facts.total, len(facts.lines)), max(facts.unjustified, len(bare))
    if not total:
        return GateResult(
            id=ID,
            title=TITLE,
            verdict=GateVerdict.NOT_APPLICABLE,
            headline="the change adds no suppression or coverage exclusion",
        )
    data = AuditData(lines=facts.lines, total=total, unjustified=unjustified)
    if unjustified:
        details = tuple(f"{line.path}:{line.line}: {line.text.strip()} -> {_fix(line)}" for line in bare)
        headline = f"{plural(unjustified, 'suppression')} added without a reason on its line (a rule code is not one)"
        return GateResult(
            id=ID,
            title=TITLE,
            verdict=GateVerdict.FAIL,
            headline=headline,
            details=details + _more(unjustified - len(bare), " without a reason"),
            data=data,
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
        headline=f"{plural(total, 'suppression')} added, each with its reason",
        details=tuple(f"{line.path}:{line.line}: {line.text.strip()}" for line in facts.lines)
        + _more(total - len(facts.lines)),
        data=data,
    )


def _more(unlisted: int, which: str = "") -> tuple[str, ...]:
    """The detail line that counts what the list leaves out, if it leaves anything out."""
    if unlisted <= 0:
        return ()
    return (f"\N{HORIZONTAL ELLIPSIS} {plural(unlisted, 'more suppression')}{which} not listed",)


def _fix(line: Suppression) -> str:
    """The exact fix: the line's own directive, the reason written in its language's syntax."""
    if not line.fix:  # a ledger written before fixes were recorded
        return "add the reason on the same line, after the directive and its codes"
    return f"add the reason on the same line: `{line.fix}`"


GATE: Gate[AuditFacts] = Gate(id=ID, title=TITLE, gather=gather, judge=judge, data=AuditData)
