"""The coverage gate: is the changed code run by the tests, and by tests that would notice if it
broke? The share of the change's executable lines run by tests that strength found `red`, lines
whose tests strength did not judge counted as coverage of any test (all of them when it judged none
of those tests), with the author's choices by label (coverage/: the readers, the mapping, the measures
and the decision).

| what the run has | the gate |
|---|---|
| no coverage report, while tests ran and the change alters production code | missing: blocks, with the fix |
| no coverage report otherwise, no base, a test-only change, nothing executable | not applicable: skipping |
| changed lines run only by Rust doc tests that ran, which the report does not measure | set aside, said so |
| a report that cannot be read or maps nothing | unavailable, with the report and why |
| fewer executable changed lines than `coverage-min-changed-lines` | not applicable: informational |
| at or above the target | pass |
| below the target, with `coverage:accept-risk` or `coverage:intentional` | pass |
| below the minimum, with `coverage:override` | pass |
| below the target | fails with `coverage-fail-on: target` |
| below the minimum | fails, unless `coverage-fail-on: never` |
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from decimal import Decimal
from typing import Any

from evidence_gate.code_lines import code_unchanged
from evidence_gate.coverage.collect import CoverageMap
from evidence_gate.coverage.decision import INTENTIONAL, LABELS, Decision, Outcome, Thresholds, choices, decide, shown
from evidence_gate.coverage.doc_tests import doc_tested
from evidence_gate.coverage.gathering import ChangeCoverage
from evidence_gate.coverage.measure import Attribution, CodePath, Measures, PathState, measure, percent
from evidence_gate.effects import Effects
from evidence_gate.facts import Facts
from evidence_gate.gates.gate import DataType, Earlier, Gate
from evidence_gate.gates.strength import ID as STRENGTH
from evidence_gate.gates.strength import StrengthData
from evidence_gate.ledger.model import Annotation, GateResult, GateVerdict
from evidence_gate.model import FileKind
from evidence_gate.settings import CoverageFailOn, Settings
from evidence_gate.wording import plural

ID = "coverage"
TITLE = "Coverage of the change"
MAX_PATHS = 200  # code paths kept in the ledger; the rest are counted
DOC_TESTS_ONLY = (
    "Coverage gate: the changed lines the report measures run only under doc tests it does not measure — skipping."
)
MAX_ANNOTATIONS = 50
DIAGRAM_PATHS = 40  # past this many paths, a text tree: a Mermaid chart that large does not read


@dataclass(frozen=True, kw_only=True)
class CoverageFacts:
    measures: Measures | None
    skip: str | None = None  # why there is no percentage
    map: CoverageMap | None = None
    labels: frozenset[str] = frozenset()
    stale: tuple[str, ...] = ()  # coverage reports not produced by this run (freshness.py): none is used
    missing: str | None = None  # why a coverage report was due and none was handed in
    aside: str | None = None  # changed lines set aside: run only by doc tests the report does not measure


@dataclass(frozen=True, kw_only=True)
class PathRow:
    path: str
    start: int
    end: int
    state: str  # strong (run by red tests), weak (only still-green ones), covered (strength unknown), uncovered
    tests: tuple[str, ...]  # a weak path's tests, with their verdicts

    @property
    def lines(self) -> str:
        """`line 3`, `lines 14-15`."""
        return f"line {self.start}" if self.start == self.end else f"lines {self.start}-{self.end}"

    def document(self) -> dict[str, object]:
        return {"path": self.path, "start": self.start, "end": self.end, "state": self.state, "tests": list(self.tests)}


STATE_WORDS = {
    str(PathState.STRONG): "covered by tests that fail without the change",
    str(PathState.WEAK): "weakly covered",
    str(PathState.COVERED): "covered (test strength not judged)",
    str(PathState.UNCOVERED): "uncovered",
}


@dataclass(frozen=True, kw_only=True)
class PathNode:
    node: str  # the diagram's node id
    row: PathRow

    @property
    def state_words(self) -> str:
        return STATE_WORDS[self.row.state]


@dataclass(frozen=True, kw_only=True)
class FileGroup:
    node: str
    path: str
    paths: tuple[PathNode, ...]


@dataclass(frozen=True, kw_only=True)
class ChoiceRow:
    """A coverage label the author put on the pull request, with what it did, and for a
    `coverage:intentional` that decided, the paths it leaves uncovered."""

    label: str
    effect: str
    paths: tuple[PathRow, ...]


@dataclass(frozen=True, kw_only=True)
class CoverageData:
    total: int  # executable changed lines
    covered: int  # of them, run by any test
    strong: int | None  # of them, run by a red test; None: value weighting unavailable
    value_weighted: bool  # whether the gate judged the value-weighted number
    number: str | None  # the percentage judged, rounded down; None: skipped
    outcome: str
    paths: tuple[PathRow, ...]  # the first MAX_PATHS
    paths_total: int
    unmapped: tuple[str, ...]
    unmapped_total: int
    unknown: int = 0  # of them, run by tests strength did not judge: counted as coverage of any test
    labels: tuple[str, ...] = ()  # the coverage labels the pull request carries (decision.LABELS, in that order)

    @property
    def coverage_pct(self) -> str | None:
        return shown(percent(self.covered, self.total)) if self.total else None

    @property
    def current(self) -> str | None:
        """The quality report's Results cell: the percentage judged."""
        return None if self.number is None else f"{self.number}%"

    @property
    def value_pct(self) -> str | None:
        if not self.total or self.strong is None:
            return None
        return shown(percent(self.strong + self.unknown, self.total))

    @property
    def weak(self) -> int:
        return sum(1 for row in self.paths if row.state == PathState.WEAK)

    @property
    def gaps(self) -> int:
        return sum(1 for row in self.paths if row.state == PathState.UNCOVERED)

    @property
    def summary_line(self) -> str:
        """The PR body's one line: `Coverage: X% value-weighted (Y% including W weakly covered paths), N gaps.`"""
        if self.number is None:
            return "Coverage: could not determine percentage."
        kind = " value-weighted" if self.value_weighted else ""
        return (
            f"Coverage: {self.number}%{kind} ({self.coverage_pct}% including {self.weak} weakly covered paths), "
            f"{self.gaps} gaps."
        )

    @property
    def files(self) -> tuple[FileGroup, ...]:
        """The paths grouped by file, in order, with a node id each for the diagram."""
        grouped: dict[str, list[PathNode]] = {}
        for index, row in enumerate(self.paths):
            grouped.setdefault(row.path, []).append(PathNode(node=f"p{index}", row=row))
        return tuple(
            FileGroup(node=f"f{index}", path=path, paths=tuple(rows))
            for index, (path, rows) in enumerate(grouped.items())
        )

    @property
    def diagram(self) -> bool:
        """Whether the paths fit a Mermaid chart; past that, `tree` shows them."""
        return 0 < len(self.paths) <= DIAGRAM_PATHS

    @property
    def tree(self) -> str:
        """The paths as a text tree: each file, then its paths with their state."""
        lines = []
        for group in self.files:
            lines.append(group.path)
            lines += [f"  {item.row.lines}: {item.state_words}" for item in group.paths]
        if self.paths_total > len(self.paths):
            lines.append(f"... and {self.paths_total - len(self.paths)} more paths")
        return "\n".join(lines)

    @property
    def choices(self) -> tuple[ChoiceRow, ...]:
        """The author's coverage labels, each with what it did to the decision (one that did nothing
        says so); a `coverage:intentional` that decided names the uncovered paths it leaves."""
        return tuple(
            ChoiceRow(
                label=choice.label,
                effect=choice.effect,
                paths=self.proposed_tests if choice.applied and choice.label == INTENTIONAL else (),
            )
            for choice in choices(Outcome(self.outcome), self.number, self.labels)
        )

    @property
    def proposed_strengthening(self) -> tuple[PathRow, ...]:
        return tuple(row for row in self.paths if row.state == PathState.WEAK)

    @property
    def proposed_tests(self) -> tuple[PathRow, ...]:
        return tuple(row for row in self.paths if row.state == PathState.UNCOVERED)

    def document(self) -> dict[str, object]:
        return {
            "total": self.total,
            "covered": self.covered,
            "strong": self.strong,
            "value_weighted": self.value_weighted,
            "number": self.number,
            "outcome": self.outcome,
            "paths": [row.document() for row in self.paths],
            "paths_total": self.paths_total,
            "unmapped": list(self.unmapped),
            "unmapped_total": self.unmapped_total,
            "unknown": self.unknown,
            "labels": list(self.labels),
        }


def read_data(document: Any) -> CoverageData:
    return CoverageData(
        total=document["total"],
        covered=document["covered"],
        strong=document["strong"],
        value_weighted=document["value_weighted"],
        number=document["number"],
        outcome=document["outcome"],
        paths=tuple(
            PathRow(path=row["path"], start=row["start"], end=row["end"], state=row["state"], tests=tuple(row["tests"]))
            for row in document["paths"]
        ),
        paths_total=document["paths_total"],
        unmapped=tuple(document["unmapped"]),
        unmapped_total=document["unmapped_total"],
        unknown=document.get("unknown", 0),  # absent from ledgers written before it was kept
        labels=tuple(document.get("labels", ())),  # likewise
    )


_COUNT = {"type": "integer", "minimum": 0}
DATA_SCHEMA: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "required": [
        *("total", "covered", "strong", "value_weighted", "number", "outcome"),
        *("paths", "paths_total", "unmapped", "unmapped_total"),
    ],
    "properties": {
        "total": _COUNT,
        "covered": _COUNT,
        "strong": {"type": ["integer", "null"], "minimum": 0},
        "value_weighted": {"type": "boolean"},
        "number": {"type": ["string", "null"], "pattern": "^[0-9]{1,3}(\\.[0-9]{1,2})?$"},
        "outcome": {"enum": [str(outcome) for outcome in Outcome]},
        "paths": {
            "type": "array",
            "maxItems": MAX_PATHS,
            "items": {
                "type": "object",
                "additionalProperties": False,
                "required": ["path", "start", "end", "state", "tests"],
                "properties": {
                    "path": {"type": "string"},
                    "start": {"type": "integer", "minimum": 1},
                    "end": {"type": "integer", "minimum": 1},
                    "state": {"enum": [str(state) for state in PathState]},
                    "tests": {"type": "array", "items": {"type": "string"}},
                },
            },
        },
        "paths_total": _COUNT,
        "unmapped": {"type": "array", "items": {"type": "string"}},
        "unmapped_total": _COUNT,
        "unknown": _COUNT,
        "labels": {"type": "array", "uniqueItems": True, "items": {"enum": list(LABELS)}},
    },
}


def strength_verdicts(earlier: Earlier) -> tuple[Mapping[str, str] | None, Mapping[str, str], str | None]:
    """The changed tests' strength verdicts and their reasons, by file; or why there are none."""
    result = earlier.get(STRENGTH)
    if result is None:
        return None, {}, "test strength was not judged in this run"
    if isinstance(result.data, StrengthData) and result.data.tests:
        rows = result.data.tests
        return {row.path: row.verdict for row in rows}, {row.path: row.reason for row in rows}, None
    return None, {}, f"test strength judged no test ({result.headline})"


def gather(facts: Facts, settings: Settings, effects: Effects, earlier: Earlier) -> CoverageFacts:
    if not facts.reports.coverage:
        return CoverageFacts(measures=None, skip="no coverage report among the reports", missing=_due(facts))
    if facts.stale_coverage:
        return CoverageFacts(measures=None, stale=facts.stale_coverage)
    if facts.change is None or facts.coverage is None:
        return CoverageFacts(measures=None, skip="no base was given, so there is no change to measure")
    verdicts, reasons, unavailable = strength_verdicts(earlier)
    labels = frozenset(facts.pull_request.labels if facts.pull_request else ())
    kept = doc_tested(facts.coverage, facts.change, facts.reports.logs)  # Rust's, which llvm-cov does not measure
    found = replace(facts.coverage, changed=kept.changed)
    return replace(measured(found, verdicts, unavailable, labels, reasons), aside=kept.note)


def _due(facts: Facts) -> str | None:
    """Why a coverage report was due: tests ran and passed, and the change alters the code (not only
    the comments) of a production file. None when it was not (no test ran, a test-only change, no
    base), or when a test failed: the runner may stop before its coverage report, and the failing
    tests are what blocks."""
    counts = facts.counts
    if facts.change is None or counts is None or counts.executed == 0 or counts.failed:
        return None
    code = [
        changed.path
        for changed in facts.change.files
        if changed.kind is FileKind.PRODUCTION and changed.added_lines and not code_unchanged(changed)
    ]
    if not code:
        return None
    return (
        f"no coverage report among the reports, but tests exist ({counts.executed} ran) and the change"
        f" alters the code of {plural(len(code), 'production file')} ({', '.join(code[:3])}"
        f"{', …' if len(code) > 3 else ''})"
    )


def measured(
    found: ChangeCoverage,
    verdicts: Mapping[str, str] | None,
    unavailable: str | None,
    labels: frozenset[str],
    reasons: Mapping[str, str] | None = None,
) -> CoverageFacts:
    """The change's coverage measured, each line weighed by the strength `verdicts` of its tests
    (None: `unavailable` says why there are none; `reasons`: why strength gave each verdict): for
    the gate and for `evidence-gate coverage`."""
    if not found.changed:
        return CoverageFacts(
            measures=None, skip="the change adds no production line (a test-only change)", map=found.map
        )
    attribution = Attribution(
        verdicts=verdicts,
        unavailable=unavailable,
        paired=found.paired,
        test_of_context=found.context_tests,
        reasons=reasons or {},
    )
    return CoverageFacts(measures=measure(found.changed, found.map.files, attribution), map=found.map, labels=labels)


def thresholds(settings: Settings) -> Thresholds:
    return Thresholds(
        minimum=settings.coverage_minimum,
        target=settings.coverage_target,
        min_changed_lines=settings.coverage_min_changed_lines,
        value_weighting=settings.coverage_value_weighting,
    )


def judge(facts: CoverageFacts, settings: Settings) -> GateResult:
    if facts.stale:  # held to the rule test reports are held to: evidence of an earlier run is none of this one's
        headline = f"a coverage report could not be used: stale evidence: {'; '.join(facts.stale)}"
        return GateResult(id=ID, title=TITLE, verdict=GateVerdict.UNAVAILABLE, headline=headline, details=facts.stale)
    if facts.missing:
        return GateResult(
            id=ID,
            title=TITLE,
            verdict=GateVerdict.MISSING,
            headline=f"MISSING: {facts.missing}",
            details=(
                f"{facts.missing}: hand in the coverage report of this test run (`reports`), or switch the gate"
                " off in the base branch's config (`gates-off: [coverage]`)",
            ),
        )
    problems = facts.map.problems if facts.map else ()
    if problems:
        headline = f"a coverage report could not be used: {problems[0]}"
        return GateResult(id=ID, title=TITLE, verdict=GateVerdict.UNAVAILABLE, headline=headline, details=problems)
    decision = decide(facts.measures, thresholds(settings), facts.labels)
    measures = facts.measures
    details = (
        *decision.notes,
        *_continued(measures),
        *((facts.skip,) if facts.skip else ()),
        *((facts.aside,) if facts.aside else ()),
    )
    if measures is None or decision.outcome is Outcome.SKIPPED:
        headline = decision.message
        if facts.aside and measures is not None and not measures.total:
            headline = DOC_TESTS_ONLY
        return GateResult(id=ID, title=TITLE, verdict=GateVerdict.NOT_APPLICABLE, headline=headline, details=details)
    return GateResult(
        id=ID,
        title=TITLE,
        verdict=_verdict(decision, settings.coverage_fail_on),
        headline=decision.message,
        details=details,
        annotations=_annotations(measures.paths),
        data=_data(measures, decision, facts.map, facts.labels),
    )


def _continued(measures: Measures | None) -> tuple[str, ...]:
    """Said when some changed lines were judged by the line the reports measure their statement on."""
    if measures is None or not measures.continued:
        return ()
    verb = "continues" if measures.continued == 1 else "continue"
    return (
        f"{measures.continued} of the {measures.total} executable changed lines {verb} a multi-line statement "
        "that the reports measure on its first line; each is judged by that line",
    )


def _verdict(decision: Decision, fail_on: CoverageFailOn) -> GateVerdict:
    if decision.outcome is Outcome.INFORMATIONAL:
        return GateVerdict.NOT_APPLICABLE
    if decision.outcome is Outcome.CRITICAL and fail_on is not CoverageFailOn.NEVER:
        return GateVerdict.FAIL
    if decision.outcome is Outcome.BELOW_TARGET and fail_on is CoverageFailOn.TARGET:
        return GateVerdict.FAIL
    return GateVerdict.PASS


# Per state: the annotation's level, title and what it says after the lines (the weak one names the tests).
_ANNOTATED = {
    PathState.UNCOVERED: ("warning", "Not run by any test", "not run by any test"),
    PathState.WEAK: ("notice", "Only weakly tested", "run only by tests not shown to fail without the change"),
}


def _annotations(paths: tuple[CodePath, ...]) -> tuple[Annotation, ...]:
    """One per uncovered or weakly covered range, gaps first; a weak one names its tests."""
    notes = [
        Annotation(
            path=item.path,
            line=item.start,
            end_line=item.end,
            level=level,
            title=title,
            message=f"Changed {item.lines}: {says}" + (f": {', '.join(item.tests)}" if item.tests else "."),
        )
        for state, (level, title, says) in _ANNOTATED.items()
        for item in paths
        if item.state is state
    ]
    return tuple(notes[:MAX_ANNOTATIONS])


def _data(measures: Measures, decision: Decision, found: CoverageMap | None, labels: frozenset[str]) -> CoverageData:
    rows = tuple(
        PathRow(path=item.path, start=item.start, end=item.end, state=str(item.state), tests=item.tests)
        for item in measures.paths[:MAX_PATHS]
    )
    number = decision.number if isinstance(decision.number, Decimal) else None
    return CoverageData(
        total=measures.total,
        covered=measures.covered,
        strong=measures.strong if measures.value_pct is not None else None,
        unknown=measures.unknown if measures.value_pct is not None else 0,
        value_weighted=decision.value_weighted,
        number=shown(number) if number is not None else None,
        outcome=str(decision.outcome),
        paths=rows,
        paths_total=len(measures.paths),
        unmapped=found.unmapped if found else (),
        unmapped_total=found.unmapped_total if found else 0,
        labels=tuple(label for label in LABELS if label in labels),
    )


GATE: Gate[CoverageFacts] = Gate(
    id=ID,
    title=TITLE,
    gather=gather,
    judge=judge,
    data=DataType(schema=DATA_SCHEMA, read=read_data),
)
