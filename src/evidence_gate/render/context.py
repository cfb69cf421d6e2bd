"""The template context: every decision, as plain values. Templates hold presentation only: every
number, label and verdict word is computed here.

Machine-readable markers are written by the templates, from values computed here that untrusted
text cannot forge: `<!-- QG:VERDICT:<PASS|BLOCKED|STAGNATION> -->`, one
`<!-- QG:CHECK:<gate id>:<PASS|FAIL|NOT-APPLICABLE|UNAVAILABLE> -->` per gate shown, and in the
comment `comment_marker(check_name)`, by which the publisher finds its own comment.

Each value is shown in a bounded amount (`_Sizes`: presentation), and a detail named in `dropped`
is left out and counted, which is how `fitting` holds GitHub's limits.

The template context is `Context`, and what it holds are the typed views below (`GateView`,
`ExcerptView`, `AnnotationView`, `TestView`, `CountsView`), the quality report's (`quality_view`)
and the coverage decision's with the author's choices (`coverage_view`): their fields are the names
a template may use. A gate's typed payload reaches its partial template (`gates/<id>.md.j2`) as
`gate.data`: the gate's own dataclass as a mapping of its fields and properties, with every text
wrapped as untrusted and every list capped like the rest. Notes are "… N more" lines. Untrusted values print
only through `md`, `html` or `fence`.
"""

from __future__ import annotations

import dataclasses
import enum
import hashlib
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, TypeVar

from evidence_gate.escaping import _Untrusted
from evidence_gate.ledger.model import Annotation, Excerpt, FailedTest, GateResult, GateVerdict, Ledger, Verdict
from evidence_gate.ledger.stagnation import history_line
from evidence_gate.render.attention import AttentionView, Links, attention, glance
from evidence_gate.render.coverage_view import CoverageView, coverage_view
from evidence_gate.render.quality_view import QualityView, quality_view, rows_label
from evidence_gate.render.remedies import default_remedies
from evidence_gate.wording import plural

_GATE_ID = re.compile(r"[a-z][a-z0-9-]{0,63}")

_T = TypeVar("_T")

_VERDICT_TEXT: dict[Verdict, tuple[str, str, str]] = {
    Verdict.PASS: ("✅", "Passed", "Every gate that applies passed, with evidence."),
    Verdict.BLOCKED: ("❌", "Blocked", "A gate failed, is missing its tool or could not run, or nothing was proven."),
    Verdict.STAGNATION: (
        "🛑",
        "Stagnation",
        "The same check failed the same way on three consecutive runs: stop retrying and fix its cause.",
    ),
}
_GATE_TEXT: dict[GateVerdict, tuple[str, str]] = {
    GateVerdict.PASS: ("PASS", "✅ pass"),
    GateVerdict.FAIL: ("FAIL", "❌ fail"),
    GateVerdict.NOT_APPLICABLE: ("NOT-APPLICABLE", "\N{HEAVY MINUS SIGN} not applicable"),
    GateVerdict.UNAVAILABLE: ("UNAVAILABLE", "⚠️ unavailable"),
    GateVerdict.OFF: ("OFF", "\N{DOUBLE VERTICAL BAR} off"),
    GateVerdict.MISSING: ("MISSING", "❌ missing"),
    GateVerdict.INFO: ("INFO", "\N{INFORMATION SOURCE}\N{VARIATION SELECTOR-16} info"),
    GateVerdict.REVIEW: ("REVIEW", "⚠️ review"),
    GateVerdict.UNVERIFIABLE: ("UNVERIFIABLE", "\N{BUST IN SILHOUETTE} unverifiable"),
}


@dataclass(frozen=True, kw_only=True)
class _Sizes:
    """How much of the ledger an output shows before any limit applies (presentation, not limits):
    characters of an inline value, of a failure message and of a command's output, and rows of a
    list (failing tests, gates, a gate's details). None shows everything (the report)."""

    inline: int | None
    message: int | None
    output: int | None
    rows: int | None
    annotations: bool = False  # listed in the report; the other outputs go with check-run annotations


_COMMENT_SIZES = _Sizes(inline=300, message=1_500, output=3_000, rows=100)
_PR_SIZES = _Sizes(inline=200, message=1_000, output=2_000, rows=50)
_JOB_SUMMARY_SIZES = _Sizes(inline=1_000, message=8_000, output=20_000, rows=1_000)
_REPORT_SIZES = _Sizes(inline=None, message=None, output=None, rows=None, annotations=True)

# A detail that can be dropped to fit a limit: (kind, index of its gate or failing test, index in the gate).
# `paths`: the paths listed under the coverage gate's choices (coverage_view).
_Unit = tuple[Literal["excerpt", "detail", "data", "message", "test", "gate", "paths"], int, int]


def comment_marker(check_name: str) -> str:
    """The hidden line by which the publisher finds the action's own comment: one per check name,
    so two configurations in one repository keep two comments."""
    return f"<!-- evidence-gate:comment:{check_slug(check_name)} -->"


def check_slug(name: str) -> str:
    """A check name as the hidden markers hold it (the comment's, the PR body section's)."""
    slug = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")[:64].strip("-")
    # A name with no ASCII letter or digit still needs a marker of its own.
    return slug or hashlib.sha256(name.encode("utf-8")).hexdigest()[:12]


def _token(gate_id: str) -> str:
    """A gate id as a marker holds it: an id the schema allows (`[a-z][a-z0-9-]*`) as it is, any other
    (a ledger built without validation) as a slug, which cannot add a `-->` or a second marker."""
    if _GATE_ID.fullmatch(gate_id):
        return gate_id
    return check_slug(gate_id)


def _cap(items: Sequence[_T], rows: int | None) -> Sequence[_T]:
    return items if rows is None else items[:rows]


def _clip_inline(text: str, limit: int | None) -> _Untrusted:
    if limit is None or len(text) <= limit:
        return _Untrusted(text)
    return _Untrusted(text[: limit - 1] + "…")


def _clip_block(text: str, limit: int | None) -> _Untrusted:
    """Head and tail, like the ledger's own trimming: a failure's cause is often at the end."""
    if limit is None or len(text) <= limit:
        return _Untrusted(text)
    head, tail = limit * 3 // 4, limit // 4
    return _Untrusted(f"{text[:head]}\n… {len(text) - head - tail:,} more characters …\n{text[len(text) - tail :]}")


def _more(count: int, singular: str, plural_form: str) -> list[str]:
    return [f"… {plural(count, singular, plural_form)}"] if count > 0 else []


def _counts_label(ledger: Ledger) -> str:
    counts = ledger.counts
    if counts is None:
        return "no test counts were read"
    return (
        f"{counts.executed:,} executed ({counts.passed:,} passed, {counts.failed:,} failed), {counts.skipped:,} skipped"
    )


def _deltas_label(ledger: Ledger) -> str:
    deltas = ledger.deltas
    if deltas is None:
        return ""
    parts = []
    if deltas.executed:
        sign = "+" if deltas.executed > 0 else "\N{MINUS SIGN}"  # typographic, and no list item at a line start
        parts.append(sign + plural(abs(deltas.executed), "test", "tests"))
    for count, words in (
        (deltas.added, "new"),
        (deltas.removed, "removed"),
        (deltas.newly_failing, "newly failing"),
        (deltas.newly_skipped, "newly skipped"),
    ):
        if count:
            parts.append(f"{count:,} {words}")
    return ", ".join(parts) or "no change against the base"


@dataclass(frozen=True, kw_only=True)
class ExcerptView:
    label: _Untrusted  # the log's name and the exit code it records
    text: _Untrusted


@dataclass(frozen=True, kw_only=True)
class AnnotationView:
    level: _Untrusted
    location: _Untrusted
    title: _Untrusted | None
    message: _Untrusted


@dataclass(frozen=True, kw_only=True)
class GateView:
    id: str  # as the markers hold it
    verdict: str  # the marker word: PASS, FAIL, NOT-APPLICABLE, UNAVAILABLE, OFF
    verdict_label: str
    title: _Untrusted
    headline: _Untrusted
    details: list[_Untrusted]
    excerpts: list[ExcerptView]
    annotations: list[AnnotationView]  # the report only
    notes: list[str]
    data: dict[str, object] | None  # the gate's payload (see the module's docstring); None once dropped
    partial: str  # the gate's partial template, `gates/<id>.md.j2`
    has_detail: bool


@dataclass(frozen=True, kw_only=True)
class TestView:
    name: _Untrusted
    location: _Untrusted | None
    message: _Untrusted | None


@dataclass(frozen=True, kw_only=True)
class CountsView:
    executed: int
    passed: int
    failed: int
    skipped: int


@dataclass(frozen=True, kw_only=True)
class Context:
    check_name: _Untrusted
    comment_marker: str
    history_marker: str  # the comment's record of this run's and the two before it's failed checks
    verdict: str  # the marker word
    verdict_label: str
    verdict_icon: str
    verdict_reason: str
    gates_label: str  # the Results rows counted by the word each shows (quality_view.rows_label)
    counts: CountsView | None
    counts_label: str
    deltas_label: str
    baseline: _Untrusted | None  # why there is no baseline, when there are no deltas
    head: _Untrusted | None
    base: _Untrusted | None
    stack: _Untrusted
    tool_version: _Untrusted
    gates: list[GateView]
    quality: QualityView  # the quality-gate report's tables and sections (quality_view.py)
    coverage: CoverageView | None  # the coverage decision and the author's choices, never dropped (coverage_view.py)
    gates_notes: list[str]
    failed_tests: list[TestView]
    failed_tests_label: str
    failed_tests_notes: list[str]
    glance: str  # the counts in one line, with the changes against the baseline (trusted: numbers only)
    attention: list[AttentionView]  # what needs the author, one line each, with links (attention.py)

    def variables(self) -> dict[str, object]:
        """The names a template sees: this view's fields."""
        return {field.name: getattr(self, field.name) for field in dataclasses.fields(self)}


def _excerpt_view(item: Excerpt, sizes: _Sizes) -> ExcerptView:
    """A log's excerpt, labelled with its name and the exit code it records."""
    recorded = "no exit code recorded" if item.exit_code is None else f"exit code {item.exit_code}"
    return ExcerptView(
        label=_clip_inline(f"{item.source}: {recorded}", sizes.inline), text=_clip_block(item.output, sizes.output)
    )


def _annotation_view(note: Annotation, sizes: _Sizes) -> AnnotationView:
    lines = f"{note.line}" if note.end_line == note.line else f"{note.line}-{note.end_line}"
    return AnnotationView(
        level=_clip_inline(note.level, sizes.inline),
        location=_clip_inline(f"{note.path}:{lines}", sizes.inline),
        title=None if note.title is None else _clip_inline(note.title, sizes.inline),
        message=_clip_block(note.message, sizes.message),
    )


def _data_view(value: object, sizes: _Sizes) -> object:
    """A gate payload as its partial template reads it: a dataclass as a mapping of its fields and
    public properties (a payload's computed labels), text untrusted and clipped (a line as inline
    text, several lines as a block), lists capped, an enum as its value (the schema allows only its
    values)."""
    if isinstance(value, enum.Enum):
        return str(value.value)
    if isinstance(value, str):  # a text of several lines is a block (an excerpt), laid out fenced
        return _clip_block(value, sizes.output) if "\n" in value else _clip_inline(value, sizes.inline)
    if isinstance(value, tuple | list):
        return [_data_view(item, sizes) for item in _cap(value, sizes.rows)]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        names = [field.name for field in dataclasses.fields(value)]
        names += [name for name, member in vars(type(value)).items() if isinstance(member, property) and name[0] != "_"]
        return {name: _data_view(getattr(value, name), sizes) for name in names}
    return value  # int, bool, None


def _gate_view(index: int, gate: GateResult, sizes: _Sizes, dropped: frozenset[_Unit]) -> GateView:
    marker, label = _GATE_TEXT[gate.verdict]
    details = [
        _clip_inline(detail, sizes.inline)
        for number, detail in enumerate(_cap(gate.details, sizes.rows))
        if ("detail", index, number) not in dropped
    ]
    excerpts = [
        _excerpt_view(item, sizes)
        for number, item in enumerate(_cap(gate.excerpts, sizes.rows))
        if ("excerpt", index, number) not in dropped
    ]
    annotations = [_annotation_view(note, sizes) for note in gate.annotations] if sizes.annotations else []
    notes = [
        *_more(len(gate.details) - len(details), "more detail", "more details"),
        *_more(len(gate.excerpts) - len(excerpts), "more command output", "more command outputs"),
    ]
    data = _data_view(gate.data, sizes) if gate.data is not None and ("data", index, 0) not in dropped else None
    token = _token(gate.id)
    return GateView(
        id=token,
        verdict=marker,
        verdict_label=label,
        title=_clip_inline(gate.title, sizes.inline),
        headline=_clip_inline(gate.headline, sizes.inline),
        details=details,
        excerpts=excerpts,
        annotations=annotations,
        notes=notes,
        data=data if isinstance(data, dict) else None,
        partial=f"gates/{token}.md.j2",
        has_detail=bool(details or excerpts or annotations or notes or data),
    )


def _test_view(index: int, test: FailedTest, sizes: _Sizes, dropped: frozenset[_Unit]) -> TestView:
    location = None if test.path is None else test.path if test.line is None else f"{test.path}:{test.line}"
    shown = test.message is not None and ("message", index, 0) not in dropped
    return TestView(
        name=_clip_inline(test.name, sizes.inline),
        location=None if location is None else _clip_inline(location, sizes.inline),
        message=_clip_block(test.message, sizes.message) if shown and test.message is not None else None,
    )


def _context(
    ledger: Ledger, sizes: _Sizes, dropped: frozenset[_Unit] = frozenset(), links: Links | None = None
) -> Context:
    icon, label, reason = _VERDICT_TEXT[ledger.verdict]
    judged = {
        index: _gate_view(index, gate, sizes, dropped)
        for index, gate in enumerate(_cap(ledger.gates, sizes.rows))
        if ("gate", index, 0) not in dropped
    }
    gates = list(judged.values())
    tests = [
        (index, test)
        for index, test in enumerate(_cap(ledger.failed_tests, sizes.rows))
        if ("test", index, 0) not in dropped
    ]
    hidden_messages = sum(1 for index, test in tests if test.message is not None and ("message", index, 0) in dropped)
    counts = ledger.counts
    return Context(
        check_name=_clip_inline(ledger.check_name, sizes.inline),
        comment_marker=comment_marker(ledger.check_name),
        history_marker=history_line(check_slug(ledger.check_name), ledger.quality.earlier, ledger.quality.signatures),
        verdict=str(ledger.verdict),
        verdict_label=label,
        verdict_icon=icon,
        verdict_reason=reason,
        gates_label=rows_label(ledger),
        counts=None
        if counts is None
        else CountsView(executed=counts.executed, passed=counts.passed, failed=counts.failed, skipped=counts.skipped),
        counts_label=_counts_label(ledger),
        deltas_label=_deltas_label(ledger),
        baseline=_clip_inline(ledger.baseline, sizes.inline) if ledger.deltas is None else None,
        head=None if ledger.head is None else _clip_inline(ledger.head, sizes.inline),
        base=None if ledger.base is None else _clip_inline(ledger.base, sizes.inline),
        stack=_clip_inline(ledger.stack, sizes.inline),
        tool_version=_clip_inline(ledger.tool_version, sizes.inline),
        gates=gates,
        quality=quality_view(ledger, judged, lambda text: _clip_inline(text, sizes.inline), sizes.rows),
        coverage=coverage_view(
            ledger,
            lambda text: _clip_inline(text, sizes.inline),
            sizes.rows,
            lambda index: ("paths", index, 0) not in dropped,
        ),
        gates_notes=_more(len(ledger.gates) - len(gates), "more gate", "more gates"),
        failed_tests=[_test_view(index, test, sizes, dropped) for index, test in tests],
        failed_tests_label=f"Failing tests ({len(ledger.failed_tests):,})",
        failed_tests_notes=[
            *_more(len(ledger.failed_tests) - len(tests), "more failing test", "more failing tests"),
            *_more(hidden_messages, "more failure message not shown", "more failure messages not shown"),
        ],
        glance=glance(ledger),
        attention=attention(ledger, default_remedies(), links, lambda text: _clip_inline(text, sizes.inline)),
    )
