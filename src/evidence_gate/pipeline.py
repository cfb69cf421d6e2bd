"""The pipeline behind `run` and the action: detect -> changes -> evidence, summary, criteria ->
ledger. Reading (git, files) happens here; deciding happens in the gates; rendering and publishing
happen after, from the ledger alone.
"""

from __future__ import annotations

import functools
import itertools
import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import BinaryIO

from evidence_gate.changes import PathClassifier, collect_changes
from evidence_gate.criteria_source import Criterion, TooManyCriteria, criteria_from_body, tagged_sources
from evidence_gate.digest import Digest
from evidence_gate.errors import UsageError
from evidence_gate.freshness import run_started, stale_reports
from evidence_gate.gates.criteria import CriteriaFacts, TaggedTests, check_story, judge_criteria
from evidence_gate.gates.evidence import EvidenceFacts, EvidenceVerdict, LogEvidence, evaluate_evidence
from evidence_gate.gates.kept_tests import KeptTestsFacts, evaluate_kept_tests
from evidence_gate.git import Git, open_repository
from evidence_gate.ledger import (
    MAX_NAMED_TESTS,
    MAX_TEST_NAME,
    OUTPUT_HEAD_LINES,
    OUTPUT_TAIL_LINES,
    Annotation,
    Evidence,
    FailedTest,
    GateResult,
    GateVerdict,
    Ledger,
    compare,
    overall_verdict,
    test_id,
)
from evidence_gate.markers import Claim, adapters_reading, markers_for, scan_log
from evidence_gate.model import Change, FileKind, PullRequest
from evidence_gate.scrub import Scrubber
from evidence_gate.settings import Settings
from evidence_gate.stacks.detect import detect
from evidence_gate.stacks.table import Adapter, AdapterTable, default_table
from evidence_gate.summary.base import failed_names
from evidence_gate.summary.parsers.junit import PARSER as JUNIT
from evidence_gate.summary.parsers.junit import CaseResult
from evidence_gate.summary.parsers.xcresult import PARSER as XCRESULT
from evidence_gate.summary.read import HEAD_BYTES, candidate_parsers, read_junit, read_source
from evidence_gate.workspace import Refused, Workspace, display, open_regular

MAX_TEST_IDENTITIES = 200_000
MAX_FAILED_TESTS = 1_000
MAX_MESSAGE = 4_000
EXCERPT_TAIL_BYTES = 64 * 1024
EXCERPT_LINE_BYTES = 2_000


@dataclass(frozen=True, kw_only=True)
class RunInputs:
    settings: Settings
    pull_request: PullRequest | None = None
    baseline: Digest | None = None
    baseline_note: str = "not looked up: only the action reads the base commit's check run"
    in_ci: bool = False
    table: AdapterTable = field(default_factory=default_table)
    workspace: Workspace | None = None  # where reports may be read from; the repository when None
    secrets: tuple[str, ...] = field(default=(), repr=False)  # masked in everything the ledger holds


@dataclass
class _Reports:
    logs: list[Path] = field(default_factory=list)
    junit: list[Path] = field(default_factory=list)
    xcresult: list[Path] = field(default_factory=list)
    unmatched: list[str] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)
    shown: dict[Path, str] = field(default_factory=dict)  # each file as reviewers read it: workspace-relative

    @property
    def all(self) -> list[Path]:
        return [*self.logs, *self.junit, *self.xcresult]


@dataclass
class _Cases:
    """Test cases from JUnit reports, kept compact: identities, failures, and tagged cases."""

    identities: dict[str, str] = field(default_factory=dict)
    names: dict[str, str] = field(default_factory=dict)
    failed: list[FailedTest] = field(default_factory=list)
    failed_total: int = 0
    tagged: TaggedTests | None = None
    truncated: bool = False

    def __call__(self, case: CaseResult) -> None:
        if len(self.identities) < MAX_TEST_IDENTITIES:
            identity = test_id(case.classname, case.name)
            if self.identities.get(identity) != "failed":
                self.identities[identity] = case.outcome
            if len(self.names) < MAX_NAMED_TESTS:
                self.names[identity] = case.display_name[:MAX_TEST_NAME]
        else:
            self.truncated = True
        if case.outcome == "failed":
            self.failed_total += 1
            if len(self.failed) < MAX_FAILED_TESTS:
                message = (case.message or "")[:MAX_MESSAGE] or None
                self.failed.append(FailedTest(name=case.display_name, message=message, path=case.file, line=case.line))
        if self.tagged is not None:
            self.tagged(case)


def run_pipeline(inputs: RunInputs) -> Ledger:
    settings, table = inputs.settings, inputs.table
    git = open_repository(settings.repo)
    top = git.top if git else settings.repo
    detection = detect(top, table)
    adapter = table.get(settings.stack) if settings.stack else table.get(detection.primary.adapter_id)
    pull_request = inputs.pull_request
    head_rev = settings.head or (pull_request.head_sha if pull_request else "HEAD")
    base_rev = settings.base or (pull_request.base_sha if pull_request else None)
    head = git.resolve_commit(head_rev, "head") if git else None
    base = git.resolve_commit(base_rev, "base") if git and base_rev else None
    classifier = PathClassifier(table=table, matches=detection.matches)
    change = collect_changes(git, base, head, classifier) if git and base and head else None

    story = check_story(settings.story) if settings.story else None
    cases = _Cases(tagged=TaggedTests(story) if story else None)
    reports = _find_reports(inputs.workspace or Workspace.at(top), top, settings.reports, settings.reports_may_leave)
    evidence_gate, verdict = _evidence_gate(inputs, git, adapter, reports, cases, change)
    evidence_gate = _with_refusals(evidence_gate, reports.refused)
    gates = [evidence_gate, _criteria_gate(story, pull_request, reports, cases, git, classifier)]
    ledger = Ledger(
        verdict=overall_verdict(gates),
        head=head,
        base=base,
        stack=adapter.id,
        counts=verdict.counts if verdict else None,
        tests=cases.identities,
        test_names=cases.names,
        failed_tests=tuple(cases.failed),
        gates=tuple(gates),
        check_name=settings.check_name,
        baseline=inputs.baseline_note,
    )
    if inputs.baseline is not None:
        ledger = _with_deltas(ledger, inputs.baseline)
    return Scrubber(inputs.secrets).value(ledger)


def _with_deltas(ledger: Ledger, baseline: Digest) -> Ledger:
    return replace(ledger, deltas=compare(baseline.counts, baseline.tests, ledger))


def _change_lines(change: Change | None) -> tuple[str, ...]:
    if change is None:
        return ("no base was given, so the change itself was not inspected (give --base, or run on a pull request)",)
    by_kind: dict[FileKind, int] = {}
    for changed in change.files:
        by_kind[changed.kind] = by_kind.get(changed.kind, 0) + 1
    parts = ", ".join(f"{count} {kind}" for kind, count in sorted(by_kind.items()))
    return (f"the change touches {len(change.files)} files ({parts or 'none'})",)


def _find_reports(workspace: Workspace, top: Path, patterns: Sequence[str], may_leave: bool) -> _Reports:
    """The files the globs match, sorted by what they hold. A file that leaves the workspace, lies in
    `.git` or is not a regular file is refused, with the reason, before a byte of it is read."""
    reports = _Reports()
    seen: set[Path] = set()
    for pattern in patterns:
        try:
            files = workspace.glob(pattern, top, may_leave=may_leave)
        except Refused as refusal:
            reports.refused.append(refusal.one_line())
            continue
        if not files:
            reports.unmatched.append(pattern)
        for path in files:
            try:
                resolved = workspace.check(path)
                if resolved in seen:
                    continue
                with open_regular(resolved, display(path)) as handle:
                    head = handle.read(HEAD_BYTES)
            except Refused as refusal:
                reports.refused.append(refusal.one_line())
                continue
            seen.add(resolved)
            reports.shown[resolved] = workspace.shown(path)
            if JUNIT.recognises(head):
                reports.junit.append(resolved)
            elif XCRESULT.recognises(head):
                reports.xcresult.append(resolved)
            else:
                reports.logs.append(resolved)
    return reports


def _evidence_gate(
    inputs: RunInputs, git: Git | None, adapter: Adapter, reports: _Reports, cases: _Cases, change: Change | None
) -> tuple[GateResult, EvidenceVerdict | None]:
    title = "Test evidence"
    details = [
        *inputs.settings.notes,
        *_change_lines(change),
        *(f"no file matched `reports` glob {pattern!r}" for pattern in reports.unmatched),
    ]
    if not reports.all:
        given = bool(inputs.settings.reports)
        return (
            GateResult(
                id="evidence",
                title=title,
                verdict=GateVerdict.UNAVAILABLE,
                summary="no file matched `reports`" if given else "no test logs or reports were given (set `reports`)",
                details=tuple(details),
            ),
            None,
        )
    table = inputs.table
    unknown = adapter.id == table.unknown.id
    candidates = candidate_parsers(None, None if unknown else adapter.parsers)
    logs = [_log_evidence(table, adapter, log, reports.shown[log], candidates) for log in reports.logs]
    report_summaries = [read_junit(path, cases, reports.shown[path]) for path in reports.junit]
    report_summaries += [read_source(path, ["xcresult"], reports.shown[path]) for path in reports.xcresult]
    if not cases.failed:  # no JUnit report names a failed test: list those the logs name
        named = failed_names(*(log.summary.failed_tests for log in logs if log.summary))
        cases.failed.extend(FailedTest(name=name, message=None) for name in named)
    started, started_from = run_started(git, None)
    verdict = evaluate_evidence(
        EvidenceFacts(
            claim=Claim.TEST,
            unknown_stack=unknown,
            logs=tuple(logs),
            reports=tuple(report_summaries),
            stale=stale_reports(reports.all, started, git, reports.shown),
            attended=False,
            in_ci=inputs.in_ci,
        )
    )
    details += [
        f"{log.source}: unparsed ({log.summary.reason})" for log in logs if log.summary and log.summary.counts is None
    ]
    details += verdict.details
    if verdict.counts_source:
        details.append(f"counts from {verdict.counts_source}")
    details.append(f"evidence is fresh if written after {started_from}")
    if cases.truncated:
        details.append(f"test identities kept for the first {MAX_TEST_IDENTITIES} test cases only")
    if cases.failed_total > len(cases.failed):
        details.append(f"{cases.failed_total - len(cases.failed)} more failed tests are not listed")
    gate_verdict = (
        GateVerdict.NOT_APPLICABLE if verdict.not_applicable else GateVerdict.PASS if verdict.ok else GateVerdict.FAIL
    )
    summary = verdict.reason
    if inputs.baseline is not None:
        kept = evaluate_kept_tests(_kept_tests_facts(inputs.baseline, verdict, cases, change))
        details += kept.details
        if not kept.ok and gate_verdict is not GateVerdict.FAIL:
            gate_verdict, summary = GateVerdict.FAIL, kept.reason
        else:
            details.append(f"against the base: {kept.reason}")
    return (
        GateResult(
            id="evidence",
            title=title,
            verdict=gate_verdict,
            summary=summary,
            details=tuple(details),
            evidence=tuple(
                Evidence(command=reports.shown[path], exit_code=log.scan.exit_code, output=excerpt(path))
                for path, log in zip(reports.logs, logs, strict=True)
            ),
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
        ),
        verdict,
    )


def _with_refusals(gate: GateResult, refused: Sequence[str]) -> GateResult:
    """A report the tool refused to read is evidence that could not be read: the claim fails on it,
    naming each refusal, whatever the other sources say."""
    if not refused:
        return gate
    summary = f"refused to read {len(refused)} evidence file{'s' if len(refused) > 1 else ''}: {refused[0]}"
    return replace(
        gate,
        verdict=GateVerdict.FAIL,
        summary=summary if gate.verdict is GateVerdict.UNAVAILABLE else f"{summary}; {gate.summary}",
        details=(*refused, *gate.details),
    )


def _kept_tests_facts(
    baseline: Digest, verdict: EvidenceVerdict, cases: _Cases, change: Change | None
) -> KeptTestsFacts:
    """The base run against this one, with the lines the change removed from test files (a deleted
    test file's included)."""
    removed = (
        []
        if change is None
        else [line.text for changed in change.of_kind(FileKind.TEST) for line in changed.removed_lines]
    )
    return KeptTestsFacts(
        base_counts=baseline.counts,
        base_tests=baseline.tests,
        base_names=baseline.names,
        counts=verdict.counts,
        tests=cases.identities,
        removed_test_lines=tuple(removed),
    )


def _log_evidence(
    table: AdapterTable, adapter: Adapter, log: Path, shown: str, candidates: Sequence[str]
) -> LogEvidence:
    """A log read and scanned: on the unknown stack, with the markers of the stacks whose parser read it."""
    summary = read_source(log, candidates, shown)
    unknown = adapter.id == table.unknown.id
    stacks = adapters_reading(table, summary.parser) if unknown else (adapter,)
    return LogEvidence(source=shown, scan=scan_log(log, markers_for(table, Claim.TEST, stacks)), summary=summary)


def excerpt(path: Path) -> str:
    """A log's first 50 and last 10 lines, read in bounded memory: a line longer than 2,000 bytes
    is cut, saying how much was left out, so a 200 MB single-line log costs no more than a short one."""
    keep = OUTPUT_HEAD_LINES + OUTPUT_TAIL_LINES
    with open_regular(path) as handle:
        head = list(itertools.islice(_bounded_lines(handle), keep + 1))
        if len(head) <= keep:
            return "\n".join(head)
        rest = sum(chunk.count(b"\n") for chunk in iter(functools.partial(handle.read, 1 << 20), b""))
        handle.seek(max(0, os.fstat(handle.fileno()).st_size - EXCERPT_TAIL_BYTES))
        tail = [_cut(line) for line in handle.read().splitlines()[-OUTPUT_TAIL_LINES:]]
    left_out = len(head) + rest - keep
    return "\n".join([*head[:OUTPUT_HEAD_LINES], f"... {left_out} lines truncated ...", *tail])


def _bounded_lines(handle: BinaryIO) -> Iterator[str]:
    while piece := handle.readline(EXCERPT_LINE_BYTES):
        if piece.endswith(b"\n") or len(piece) < EXCERPT_LINE_BYTES:
            yield _text(piece)
            continue
        left_out = 0
        while more := handle.readline(1 << 20):
            left_out += len(more.rstrip(b"\r\n"))
            if more.endswith(b"\n"):
                break
        yield f"{_text(piece)} … {left_out:,} more bytes" if left_out else _text(piece)


def _cut(line: bytes) -> str:
    if len(line) <= EXCERPT_LINE_BYTES:
        return _text(line)
    return f"{_text(line[:EXCERPT_LINE_BYTES])} … {len(line) - EXCERPT_LINE_BYTES:,} more bytes"


def _text(line: bytes) -> str:
    return line.decode("utf-8", "replace").rstrip("\r\n")


def _criteria_gate(
    story: str | None,
    pull_request: PullRequest | None,
    reports: _Reports,
    cases: _Cases,
    git: Git | None,
    classifier: PathClassifier,
) -> GateResult:
    """The criteria gate's facts gathered (the body parsed, the tags looked up in the test files), then judged."""
    body = pull_request.body if pull_request else ""
    problem, too_many = None, False
    try:
        criteria: tuple[Criterion, ...] = criteria_from_body(body, "the pull request body") if body else ()
    except TooManyCriteria as error:
        criteria, problem, too_many = (), error.one_line(), True
    except UsageError as error:
        criteria, problem = (), error.one_line()
    ready = bool(criteria and story and reports.junit)
    return judge_criteria(
        CriteriaFacts(
            checklist=criteria,
            checklist_problem=problem,
            too_many=too_many,
            story=story,
            junit_reports=len(reports.junit),
            tagged=cases.tagged.by_tag if cases.tagged else {},
            sources=tagged_sources(story, criteria, git, classifier) if ready and story else {},
        )
    )
