"""The evidence gate: did the tests really run, how many, and did they pass? And against the base
commit's run, are the tests it ran still run?

It judges the shared facts: each log's claim (`claims.py`: markers, exit codes, counts, freshness),
the reports weighed with the logs as one run, and with a baseline, the kept-tests rule
(`kept_tests.py`). A report the tool refused to read fails it, naming the refusal.
"""

from __future__ import annotations

from collections.abc import Sequence

from evidence_gate.claims import ClaimFacts, ClaimVerdict, judge_claim
from evidence_gate.facts import MAX_TEST_IDENTITIES, Facts
from evidence_gate.gates.gate import Gate, shared_facts
from evidence_gate.kept_tests import KeptTestsFacts, evaluate_kept_tests
from evidence_gate.ledger.digest import Digest
from evidence_gate.ledger.model import Annotation, Excerpt, GateResult, GateVerdict
from evidence_gate.ledger.payloads.evidence import EvidenceData, SourceRead
from evidence_gate.markers import Claim
from evidence_gate.model import Change, Counts, FileKind, TestSummary
from evidence_gate.settings import Settings
from evidence_gate.tool_lookup import unchanged_sources
from evidence_gate.wording import plural

ID = "evidence"
TITLE = "Test evidence"


def judge(facts: Facts, settings: Settings) -> GateResult:
    reports = facts.reports
    details = [
        *settings.notes,
        *_change_lines(facts.change),
        *(f"no file matched `reports` glob {pattern!r}" for pattern in reports.unmatched),
    ]
    idle = unchanged_sources(facts.change)
    if not reports.all and idle is not None:
        result = GateResult(
            id=ID,
            title=TITLE,
            verdict=GateVerdict.NOT_APPLICABLE,
            headline=idle,
            details=tuple(details),
            data=_data(facts, None),
        )
        return _with_refusals(result, reports.refused)
    if not reports.all:
        result = GateResult(
            id=ID,
            title=TITLE,
            verdict=GateVerdict.UNAVAILABLE,
            headline=(
                "no file matched `reports`" if reports.given else "no test logs or reports were given (set `reports`)"
            ),
            details=tuple(details),
            data=_data(facts, None),
        )
        return _with_refusals(result, reports.refused)
    verdict = judge_claim(
        ClaimFacts(
            claim=Claim.TEST,
            unknown_stack=facts.unknown_stack,
            logs=facts.logs,
            reports=facts.documents,
            stale=facts.stale,
            attended=False,
            in_ci=facts.in_ci,
        )
    )
    details += [
        f"{log.source}: unparsed ({log.summary.reason})"
        for log in facts.logs
        if log.summary and log.summary.counts is None
    ]
    details += verdict.details
    if verdict.counts_source:
        details.append(f"counts from {verdict.counts_source}")
    details.append(f"evidence is fresh if written after {facts.fresh_after}")
    silent = tuple(log.source for log in facts.logs if log.scan.exit_code is None)
    per_case = [summary.source for summary in facts.documents if summary.counts is not None]
    if silent:
        details.append(_no_exit_code(silent, per_case))
    cases = facts.cases
    if cases.truncated:
        details.append(f"test identities kept for the first {MAX_TEST_IDENTITIES:,} test cases only")
    if cases.failed_total > len(cases.failed):
        more = cases.failed_total - len(cases.failed)
        details.append(f"{plural(more, 'more failed test')} {'is' if more == 1 else 'are'} not listed")
    gate_verdict = (
        GateVerdict.NOT_APPLICABLE if verdict.not_applicable else GateVerdict.PASS if verdict.ok else GateVerdict.FAIL
    )
    headline = verdict.reason
    base = _base_run(facts)
    if base is not None:
        kept = evaluate_kept_tests(_kept_tests_facts(base, facts, verdict))
        details += kept.details
        if not kept.ok and gate_verdict is not GateVerdict.FAIL:
            gate_verdict, headline = GateVerdict.FAIL, kept.reason
        else:
            details.append(f"against the base: {kept.reason}")
    result = GateResult(
        id=ID,
        title=TITLE,
        verdict=gate_verdict,
        headline=headline,
        details=tuple(details),
        excerpts=_excerpts(facts, silent if per_case else ()),
        annotations=tuple(
            Annotation(
                path=test.path,
                line=test.line,
                end_line=test.line,
                level="failure",
                message=test.message or "failed",
                title=f"{test.name} failed",
            )
            for test in cases.failed
            if test.path and test.line
        ),
        data=_data(facts, verdict),
    )
    return _with_refusals(result, reports.refused)


def _no_exit_code(silent: Sequence[str], per_case: Sequence[str]) -> str:
    """One line for the logs that record no exit code, all of them: moot beside a per-case report of
    the run (JUnit XML and the like say how each test ended), else how to record it."""
    names = " and ".join(silent) if len(silent) <= 2 else f"{silent[0]} and {len(silent) - 1} more logs"
    records, prints = ("records", "it prints") if len(silent) == 1 else ("record", "they print")
    if per_case:
        return (
            f"{names} {records} no exit code (no `EXIT_CODE=` line): moot, the per-case report {per_case[0]}"
            " says how each test ended"
        )
    return (
        f"{names} {records} no exit code (no `EXIT_CODE=` line): the counts {prints} decide; to record it,"
        ' append `; echo "EXIT_CODE=$?"` after the test command (docs/usage.md)'
    )


def _excerpts(facts: Facts, moot: Sequence[str]) -> tuple[Excerpt, ...]:
    """The logs' excerpts, but for those whose missing exit code is moot (`moot`): a per-case report
    of the run says what they would, and the sources table lists their counts."""
    return tuple(item for item in facts.excerpts if item.source not in moot)


def _data(facts: Facts, verdict: ClaimVerdict | None) -> EvidenceData:
    def read(summary: TestSummary | None, source: str, exit_code: int | None) -> SourceRead:
        return SourceRead(
            source=source,
            parser=summary.parser if summary else None,
            status=str(summary.status) if summary else "unparsed",
            counts=summary.counts if summary else None,
            reason=(summary.reason if summary else "not read") if not summary or summary.counts is None else None,
            exit_code=exit_code,
        )

    sources = [read(log.summary, log.source, log.scan.exit_code) for log in facts.logs]
    sources += [read(summary, summary.source, None) for summary in facts.documents]
    return EvidenceData(
        counts=verdict.counts if verdict else None,
        counts_source=verdict.counts_source if verdict else None,
        sources=tuple(sources),
        stale=facts.stale,
        refused=facts.reports.refused,
        unmatched=facts.reports.unmatched,
        fresh_after=facts.fresh_after,
        first_error=_first_failure(facts),
    )


def _first_failure(facts: Facts) -> str | None:
    failed = facts.cases.failed
    if not failed:
        return None
    message = (failed[0].message or "").strip().splitlines()
    return f"{failed[0].name}: {message[0]}" if message else failed[0].name


def _change_lines(change: Change | None) -> tuple[str, ...]:
    if change is None:
        return ("no base was given, so the change itself was not inspected (give --base, or run on a pull request)",)
    by_kind: dict[FileKind, int] = {}
    for changed in change.files:
        by_kind[changed.kind] = by_kind.get(changed.kind, 0) + 1
    parts = ", ".join(f"{count} {kind}" for kind, count in sorted(by_kind.items()))
    return (f"the change touches {plural(len(change.files), 'file')} ({parts or 'none'})",)


def _with_refusals(gate: GateResult, refused: tuple[str, ...]) -> GateResult:
    """A report the tool refused to read is evidence that could not be read: the claim fails on it,
    naming each refusal, whatever the other sources say."""
    if not refused:
        return gate
    headline = f"refused to read {plural(len(refused), 'evidence file')}: {refused[0]}"
    return GateResult(
        id=gate.id,
        title=gate.title,
        verdict=GateVerdict.FAIL,
        headline=headline if gate.verdict is GateVerdict.UNAVAILABLE else f"{headline}; {gate.headline}",
        details=(*refused, *gate.details),
        excerpts=gate.excerpts,
        annotations=gate.annotations,
        data=gate.data,
    )


def _base_run(facts: Facts) -> Digest | None:
    """The run to hold this one to: the base commit's digest, else a baseline with test figures
    (a file, or the checks run at the base)."""
    if facts.baseline is not None:
        return facts.baseline
    given = facts.quality_baseline
    if given is None or given.test is None:
        return None
    counts = Counts(passed=given.test.passed, failed=given.test.failed, skipped=given.test.skipped)
    return Digest(counts=counts, tests=given.outcomes, names=given.names)


def _kept_tests_facts(baseline: Digest, facts: Facts, verdict: ClaimVerdict) -> KeptTestsFacts:
    """The base run against this one, with the lines the change removed from test files (a deleted
    test file's included) and from the tests a source file holds itself."""
    change = facts.change
    removed = (
        []
        if change is None
        else [line.text for changed in change.files for hunk in changed.test_hunks for line in hunk.removed]
    )
    return KeptTestsFacts(
        base_counts=baseline.counts,
        base_tests=baseline.tests,
        base_names=baseline.names,
        counts=verdict.counts,
        tests=dict(facts.cases.identities),
        removed_test_lines=tuple(removed),
    )


GATE: Gate[Facts] = Gate(
    id=ID,
    title=TITLE,
    gather=shared_facts,
    judge=judge,
    data=EvidenceData,
)
