"""The quality-gate report's part of the template context: the state snapshot, the Toolchain and
Results tables, one evidence section per numbered check (its marker word, and for a failed check
its signature), the sections of the gates without a number (strength, gate integrity), the
blocking reasons (every failed, missing and unavailable check and gate, with what to do) and the
stagnation. Values only; `report.md.j2` and `comment.md.j2` lay them out.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from decimal import Decimal

from evidence_gate.escaping import _Untrusted
from evidence_gate.ledger.catalog import CHECKS, MARKER_WORDS, Check, first_error
from evidence_gate.ledger.model import BLOCKING, NO_EVIDENCE, SILENT, GateResult, GateVerdict, Ledger
from evidence_gate.ledger.quality_record import Baseline, QualityRecord, tool_figures
from evidence_gate.render.remedies import default_remedies
from evidence_gate.wording import plural

NONE = "\N{EM DASH}"
COMPARED = frozenset({1, 2, 3, 4})  # the checks whose Results row has a baseline


@dataclass(frozen=True, kw_only=True)
class ToolView:
    check: int
    tool: str
    status: str
    command: _Untrusted | None
    reason: _Untrusted | None


@dataclass(frozen=True, kw_only=True)
class CheckView:
    number: int
    title: str
    marker: str  # PASS FAIL INFO NOT_APPLICABLE MISSING UNVERIFIABLE
    shown: str  # the Results table's verdict: the marker word, or OFF for a check switched off
    icon: str  # beside it (ROW_ICONS)
    baseline: _Untrusted  # the Results table's baseline column
    current: _Untrusted
    gate: object  # the gate's GateView (context.py); None when the gate is not in the ledger
    headline: _Untrusted
    signature: str | None  # a failed check's, for the history of later runs


@dataclass(frozen=True, kw_only=True)
class SectionView:
    """A gate without a number (strength, gate integrity): a Results row and a section of its own."""

    marker: str  # the word its Results row shows, as a check's would
    icon: str  # beside it (ROW_ICONS)
    gate: object  # its GateView


@dataclass(frozen=True, kw_only=True)
class ReasonView:
    """One line of the verdict block: a check or gate that blocks, and what to do about it."""

    what: _Untrusted  # "Check 3 (Test Suite): FAIL: 2 tests failed", "Test strength: MISSING: …"
    todo: str  # trusted: remedies.yaml's line, printed as Markdown


@dataclass(frozen=True, kw_only=True)
class QualityView:
    stage: str
    commit: _Untrusted | None
    time: _Untrusted | None
    diff: _Untrusted | None
    toolchain: list[ToolView]
    checks: list[CheckView]
    sections: list[SectionView]  # the gates without a number
    sections_dropped: int  # of them, left out to fit
    reasons: list[ReasonView]  # why it is blocked: every failed, missing and unavailable check and gate
    stagnation: _Untrusted | None
    baseline_source: _Untrusted
    history: _Untrusted


def quality_view(
    ledger: Ledger, views: Mapping[int, object], clip: Callable[[str], _Untrusted], rows: int | None
) -> QualityView:
    """The report's values, from the ledger and the views of its gates, by index, that fitting kept
    (`views`). Every numbered check keeps its row and its marker, with its real verdict, even when
    its details were dropped to fit; the gates without a number show up to `rows`. `clip` makes a
    text untrusted, cut to the output's inline size."""
    record = ledger.quality
    by_id = {gate.id: (gate, views.get(index)) for index, gate in enumerate(ledger.gates)}
    checks = [_check(check, by_id.get(check.gate), ledger, record, clip) for check in CHECKS]
    numbered = {check.gate for check in CHECKS}
    others = [(index, gate) for index, gate in enumerate(ledger.gates) if gate.id not in numbered]
    shown = [(index, gate) for index, gate in (others if rows is None else others[:rows]) if index in views]
    sections = [
        SectionView(marker=shown_word(gate.verdict), icon=ROW_ICONS[shown_word(gate.verdict)], gate=views[index])
        for index, gate in shown
    ]
    state = record.state
    return QualityView(
        stage=str(record.stage),
        commit=None if state is None else clip(state.commit),
        time=None if state is None else clip(state.time),
        diff=None if state is None else clip(state.diff),
        toolchain=[
            ToolView(
                check=row.check,
                tool=row.tool,
                status=str(row.status),
                command=None if row.command is None else clip(row.command),
                reason=None if row.reason is None else clip(row.reason),
            )
            for row in record.toolchain
        ],
        checks=checks,
        sections=sections,
        reasons=_reasons(ledger, {index for index, _ in shown}, clip),
        sections_dropped=len(others) - len(sections),
        stagnation=None if record.stagnation is None else clip(record.stagnation.message),
        baseline_source=clip(record.baseline_source),
        history=clip(record.history),
    )


def _check(
    check: Check,
    found: tuple[GateResult, object | None] | None,
    ledger: Ledger,
    record: QualityRecord,
    clip: Callable[[str], _Untrusted],
) -> CheckView:
    if found is None:
        return CheckView(
            number=check.number,
            title=check.title,
            marker="NOT_APPLICABLE",
            shown="NOT_APPLICABLE",
            icon=ROW_ICONS["NOT_APPLICABLE"],
            baseline=clip(NONE),
            current=clip(NONE),
            gate=None,
            headline=clip("not judged: the ledger was made by a version without this check"),
            signature=None,
        )
    gate, view = found
    return CheckView(
        number=check.number,
        title=check.title,
        marker=MARKER_WORDS[gate.verdict],
        shown=shown_word(gate.verdict),
        icon=ROW_ICONS[shown_word(gate.verdict)],
        baseline=clip(_baseline_cell(check.number, record.baseline)),
        current=clip(_with_delta(check.number, _current_cell(check.number, gate, ledger), gate, record.baseline)),
        gate=view,
        headline=clip(gate.headline),
        signature=record.signatures.get(check.number),
    )


def _baseline_cell(number: int, baseline: Baseline | None) -> str:
    if number not in COMPARED:
        return NONE
    if baseline is None:
        return "no baseline"
    if number == 1:
        return (
            tool_figures(baseline.type_check.exit, baseline.type_check.count, "errors")
            if baseline.type_check
            else "not detected"
        )
    if number == 2:
        return tool_figures(baseline.lint.exit, baseline.lint.count, "warnings") if baseline.lint else "not detected"
    if number == 3:
        test = baseline.test
        return f"{test.executed:,} executed, {test.failed:,} failed" if test else "not detected"
    return f"{baseline.coverage}%" if baseline.coverage else "not measured"


def _with_delta(number: int, current: str, gate: GateResult, baseline: Baseline | None) -> str:
    """Check 4's percentage with its change from the baseline's, in points: `85% (-5 from 90%)`."""
    now = getattr(gate.data, "number", None) if number == 4 else None
    if not isinstance(now, str) or baseline is None or not baseline.coverage:
        return current
    delta = Decimal(now) - Decimal(baseline.coverage)
    sign = "+" if delta > 0 else "-" if delta < 0 else "±"
    return f"{current} ({sign}{abs(delta).normalize():f} from {baseline.coverage}%)"


def _current_cell(number: int, gate: GateResult, ledger: Ledger) -> str:
    """What the check measured: its payload's `current` (a tool's count and exit code, the coverage
    percent), or for check 3 the counts; for a check switched off, who switched it off."""
    if gate.verdict is GateVerdict.OFF:
        return gate.headline
    current = getattr(gate.data, "current", None)
    if isinstance(current, str):
        return current
    if number == 3 and ledger.counts is not None:
        return f"{ledger.counts.executed:,} executed, {ledger.counts.failed:,} failed"
    return NONE


# The icon beside each word a Results row shows: the verdict at a glance, the word for the record.
ROW_ICONS = {
    "PASS": "✅",
    "FAIL": "❌",
    "MISSING": "❌",
    "REVIEW": "⚠️",
    "NOT_APPLICABLE": "\N{HEAVY MINUS SIGN}",
    "OFF": "\N{DOUBLE VERTICAL BAR}",
    "INFO": "\N{INFORMATION SOURCE}\N{VARIATION SELECTOR-16}",
    "UNVERIFIABLE": "\N{BUST IN SILHOUETTE}",
}


def shown_word(verdict: GateVerdict) -> str:
    """The word a Results row shows: the marker word, or OFF for a gate switched off."""
    return "OFF" if verdict is GateVerdict.OFF else MARKER_WORDS[verdict]


# The words of the Results rows as the header counts them, in that order: what blocks first.
_ROW_COUNT_ORDER = (
    ("FAIL", "failed"),
    ("MISSING", "missing"),
    ("REVIEW", "to review"),
    ("PASS", "passed"),
    ("NOT_APPLICABLE", "not applicable"),
    ("OFF", "off"),
    ("INFO", "info"),
    ("UNVERIFIABLE", "unverifiable"),
)


def rows_label(ledger: Ledger) -> str:
    """The header's count of the Results rows by the word each shows ("11 gates: 1 missing, 4 passed,
    6 not applicable"): one row per numbered check (a check the ledger does not hold is not
    applicable) and one per other gate, those left out to fit included."""
    if not ledger.gates:
        return "no gate ran"
    by_id = {gate.id: gate for gate in ledger.gates}
    numbered = {check.gate for check in CHECKS}
    words = [
        shown_word(gate.verdict) if (gate := by_id.get(check.gate)) is not None else "NOT_APPLICABLE"
        for check in CHECKS
    ]
    words += [shown_word(gate.verdict) for gate in ledger.gates if gate.id not in numbered]
    parts = [f"{count} {label}" for word, label in _ROW_COUNT_ORDER if (count := words.count(word))]
    return f"{plural(len(words), 'gate', 'gates')}: {', '.join(parts)}"


def _reasons(ledger: Ledger, kept: Collection[int], clip: Callable[[str], _Untrusted]) -> list[ReasonView]:
    """Every check and gate that blocks (failed, missing, unavailable), the numbered checks first, by
    number, then the other gates (strength, gate integrity) in the ledger's order, each with what
    to do; `no evidence` when nothing spoke. Of the other gates, those whose rows were kept to fit
    (`kept`, by index): the rest are counted under the Results table."""
    remedies = default_remedies()
    by_id = {gate.id: gate for gate in ledger.gates}
    numbered = {check.gate for check in CHECKS}
    reasons = [
        ReasonView(
            what=clip(f"Check {check.number} ({check.title}): {_said(gate)}"),
            todo=remedies.for_gate(gate.id, gate.verdict),
        )
        for check in CHECKS
        if (gate := by_id.get(check.gate)) is not None and gate.verdict in BLOCKING
    ]
    reasons += [
        ReasonView(
            what=clip(f"{gate.title}: {_said(gate)}"),
            todo=remedies.for_gate(gate.id, gate.verdict),
        )
        for index, gate in enumerate(ledger.gates)
        if gate.id not in numbered and gate.verdict in BLOCKING and index in kept
    ]
    if not reasons and not {gate.verdict for gate in ledger.gates} - SILENT:
        reasons.append(
            ReasonView(
                what=clip(NO_EVIDENCE),
                todo="hand in the test run's reports (`reports`) and the tools' logs (`logs`), or run the runner step",
            )
        )
    return reasons


def _said(gate: GateResult) -> str:
    """A blocking gate's word and first error, the sentence's own full stop dropped (the line adds one)."""
    return f"{MARKER_WORDS[gate.verdict]}: {first_error(gate).rstrip('.')}"
