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

from evidence_gate.code_lines import code_unchanged
from evidence_gate.coverage.collect import CoverageMap
from evidence_gate.coverage.decision import Decision, Thresholds, decide
from evidence_gate.coverage.doc_tests import doc_tested
from evidence_gate.coverage.gathering import ChangeCoverage
from evidence_gate.coverage.measure import Attribution, CodePath, Measures, measure
from evidence_gate.effects import Effects
from evidence_gate.facts import Facts
from evidence_gate.gates.gate import Earlier, Gate
from evidence_gate.ledger.model import Annotation, GateResult, GateVerdict
from evidence_gate.ledger.payloads.coverage import LABELS, MAX_PATHS, CoverageData, Outcome, PathRow, PathState, shown
from evidence_gate.ledger.payloads.strength import ID as STRENGTH
from evidence_gate.ledger.payloads.strength import StrengthData
from evidence_gate.model import FileKind
from evidence_gate.settings import CoverageFailOn, Settings
from evidence_gate.wording import plural

ID = "coverage"
TITLE = "Coverage of the change"
DOC_TESTS_ONLY = (
    "Coverage gate: the changed lines the report measures run only under doc tests it does not measure — skipping."
)
MAX_ANNOTATIONS = 50


@dataclass(frozen=True, kw_only=True)
class CoverageFacts:
    measures: Measures | None
    skip: str | None = None  # why there is no percentage
    map: CoverageMap | None = None
    labels: frozenset[str] = frozenset()
    stale: tuple[str, ...] = ()  # coverage reports not produced by this run (freshness.py): none is used
    missing: str | None = None  # why a coverage report was due and none was handed in
    aside: str | None = None  # changed lines set aside: run only by doc tests the report does not measure


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
    data=CoverageData,
)
