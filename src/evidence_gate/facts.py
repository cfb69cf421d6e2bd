"""The facts a run's gates judge, gathered once: the repository, its detection and adapter, the
whole change with its hunks, the reports classified by the parser registry and read, their test
cases, the coverage reports merged over the change, the pull request and the baseline.

Everything is read here, through the effects passed in (git, files, the clock); after this, the
gates see plain values only. A gate that needs more (the tags in the test sources, a run of its
own) reads it in its own `gather` step, from the same effects (see `gates/gate.py`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path, PurePosixPath

from evidence_gate.changes import PathClassifier, collect_changes
from evidence_gate.claims import LogEvidence, weighed
from evidence_gate.coverage.collect import CoverageReport, report_directory
from evidence_gate.coverage.gathering import ChangeCoverage, gather_coverage
from evidence_gate.coverage.registry import coverage_format
from evidence_gate.criteria_source import TaggedTests, TagTally
from evidence_gate.effects import Effects
from evidence_gate.freshness import run_started, stale_by_report
from evidence_gate.git import WORKTREE, Git
from evidence_gate.ledger.digest import Digest, from_digest
from evidence_gate.ledger.model import MAX_NAMED_TESTS, MAX_TEST_NAME, Excerpt, FailedTest, case_identity
from evidence_gate.ledger.quality_record import Baseline, State
from evidence_gate.markers import Claim, adapters_reading, markers_for, scan_log
from evidence_gate.model import Change, Counts, Detection, PullRequest, TestSummary, ToolRow
from evidence_gate.settings import Settings
from evidence_gate.stacks.detect import detect
from evidence_gate.stacks.table import Adapter, AdapterTable
from evidence_gate.summary.base import CaseResult, failed_names
from evidence_gate.summary.excerpt import excerpt
from evidence_gate.summary.node_ids import node_prefix
from evidence_gate.summary.read import HEAD_BYTES, candidate_parsers, read_source
from evidence_gate.summary.registry import document_format, document_parser
from evidence_gate.workspace import Refused, Workspace, display, is_regular_file, open_regular

MAX_TEST_IDENTITIES = 200_000
MAX_FAILED_TESTS = 1_000
MAX_MESSAGE = 4_000
MAX_SOURCE_KEY = 4_096


@dataclass(frozen=True, kw_only=True)
class Reports:
    """The files the `reports` globs matched, each once, as logs or as documents of a format the
    parser registry recognises; and the globs that matched nothing and the files refused."""

    given: bool  # whether `reports` named anything
    logs: tuple[Path, ...] = ()
    documents: tuple[tuple[Path, str], ...] = ()  # (file, format)
    coverage: tuple[tuple[Path, str], ...] = ()  # (file, coverage format)
    unmatched: tuple[str, ...] = ()
    refused: tuple[str, ...] = ()
    shown: Mapping[Path, str] = field(default_factory=dict)  # each file as reviewers read it: workspace-relative

    @property
    def all(self) -> tuple[Path, ...]:
        return (*self.logs, *(path for path, _ in self.documents), *(path for path, _ in self.coverage))


@dataclass(frozen=True, kw_only=True)
class ReportedCases:
    """The test cases the reports name, kept compact: identities, names, failures, tagged cases."""

    identities: Mapping[str, str] = field(default_factory=dict)  # case identity -> outcome
    names: Mapping[str, str] = field(default_factory=dict)  # case identity -> name, for the first MAX_NAMED_TESTS
    failed: tuple[FailedTest, ...] = ()
    failed_total: int = 0
    tagged: Mapping[str, TagTally] = field(default_factory=dict)  # a story's tag -> its tests
    truncated: bool = False  # identities kept for the first MAX_TEST_IDENTITIES cases only
    reports: int = 0  # how many reports are of a format that names test cases
    # a test file (as a report names it, relative to the checkout) or `class <name>` -> its cases'
    # outcomes, from the reports this run produced only (a stale one's cases are not this code's)
    by_source: Mapping[str, Counts] = field(default_factory=dict)


@dataclass(frozen=True, kw_only=True)
class Facts:
    top: Path  # the checkout's top, or the repository outside git
    detection: Detection
    adapter: Adapter
    unknown_stack: bool
    head: str | None
    base: str | None
    change: Change | None  # None without a base: the change was not inspected
    reports: Reports
    logs: tuple[LogEvidence, ...]  # each log read and scanned, in `reports.logs` order
    documents: tuple[TestSummary, ...]  # each document read, in `reports.documents` order
    counts: Counts | None  # the logs and documents weighed as one run
    excerpts: tuple[Excerpt, ...]  # each log's first and last lines
    cases: ReportedCases
    stale: tuple[str, ...]  # one line per report not produced by this run
    fresh_after: str  # where the run's start came from
    pull_request: PullRequest | None
    baseline: Digest | None
    baseline_note: str
    in_ci: bool
    classifier: PathClassifier  # what each path is for (tests, CI, docs), by the adapter table
    coverage: ChangeCoverage | None = None  # None: no coverage report, a stale one, or no change to measure
    stale_coverage: tuple[str, ...] = ()  # the lines of `stale` about coverage reports: none of them is read
    quality_baseline: Baseline | None = None  # what the checks compare with (see quality/baseline.py)
    state: State | None = None  # the candidate: its commit, its diff's size, the time


@dataclass(frozen=True, kw_only=True)
class RunInputs:
    """What a run is about, beyond its settings: the pull request, the base run's digest, the table."""

    pull_request: PullRequest | None = None
    baseline: Digest | None = None
    baseline_note: str = "not looked up: only the action reads the base commit's check run"
    table: AdapterTable
    secrets: tuple[str, ...] = field(default=(), repr=False)  # masked in everything the ledger holds
    quality_baseline: Baseline | None = None
    baseline_source: str | None = None  # where `quality_baseline` came from; None: the base commit's digest
    history: tuple[Mapping[int, str], ...] = ()  # earlier runs' failed checks' signatures, the latest last
    history_note: str = "no earlier runs were read"
    test_run: ToolRow | None = None  # check 3's tool, when `quality` ran the test command itself


class _CaseCollector:
    """Takes each test case as a report streams past and keeps what `ReportedCases` holds, each named
    once, as its runner's console names it where that can be proven (`node_ids.py`)."""

    def __init__(self, story: str | None, top: Path) -> None:
        self.top = top
        self.prefixes: dict[str, str | None] = {}  # a pytest classname -> its node id's prefix
        self.identities: dict[str, str] = {}
        self.names: dict[str, str] = {}
        self.failed: list[FailedTest] = []
        self.failed_total = 0
        self.truncated = False
        self.tagged = TaggedTests(story) if story else None
        self.report: Path | None = None  # the report being read
        self.sources: dict[Path, dict[str, Counts]] = {}  # report -> what by_source holds of it
        self.source_count = 0

    def _regular_file(self, relative: str) -> bool:
        """Whether the checkout holds this file itself (a symlink is not followed: only a name is asked)."""
        return is_regular_file(self.top / relative)

    def _named(self, case: CaseResult) -> CaseResult:
        """A pytest case by its node id; a module pytest could not collect (its report names the
        dotted module, with no class) by its file, as pytest's `ERROR <path>` line does."""
        dotted = case.classname or case.name
        if not case.from_pytest or not dotted:
            return case
        if dotted not in self.prefixes:
            if len(self.prefixes) >= MAX_NAMED_TESTS:
                return case
            self.prefixes[dotted] = node_prefix(dotted, self._regular_file)
        prefix = self.prefixes[dotted]
        if prefix is None:
            return case
        return replace(case, shown_as=f"{prefix}::{case.name.strip()}" if case.classname else prefix)

    def __call__(self, case: CaseResult) -> None:
        case = self._named(case)
        if len(self.identities) < MAX_TEST_IDENTITIES:
            identity = case_identity(case.classname, case.name)
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
        if self.report is not None:
            self._tally(self.sources.setdefault(self.report, {}), case)

    def _tally(self, tallies: dict[str, Counts], case: CaseResult) -> None:
        outcome = _ONE.get(case.outcome)
        if outcome is None:
            return
        for key in case_sources(case, self.top):
            if len(key) > MAX_SOURCE_KEY:  # longer than any path a checkout's test file has
                continue
            if key in tallies:
                tallies[key] += outcome
            elif self.source_count < MAX_TEST_IDENTITIES:  # past it, a file's head run is simply not left out
                tallies[key] = outcome
                self.source_count += 1

    def cases(self, reports: int, logs: Sequence[LogEvidence], stale: Mapping[Path, str]) -> ReportedCases:
        failed = tuple(self.failed)
        if not failed:  # no report names a failed test: list those the logs name
            named = failed_names(*(log.summary.failed_tests for log in logs if log.summary))
            failed = tuple(FailedTest(name=name, message=None) for name in named)
        return ReportedCases(
            identities=self.identities,
            names=self.names,
            failed=failed,
            failed_total=max(self.failed_total, len(failed)),
            tagged=self.tagged.by_tag if self.tagged else {},
            truncated=self.truncated,
            reports=reports,
            by_source=_merged(tallies for report, tallies in self.sources.items() if report not in stale),
        )


_ONE = {
    "passed": Counts(passed=1, failed=0, skipped=0),
    "failed": Counts(passed=0, failed=1, skipped=0),
    "skipped": Counts(passed=0, failed=0, skipped=1),
}


def case_sources(case: CaseResult, top: Path) -> tuple[str, ...]:
    """Where a case comes from, as the reports say it: its test file (the report's `file`, or a
    pytest case's node id), relative to the checkout, and `class <name>`, its class without a nested
    class's `$Inner`."""
    keys = []
    if case.file:
        name = case.file.replace("\\", "/")
        if name.startswith("/"):
            inside = PurePosixPath(name)
            name = inside.relative_to(top.as_posix()).as_posix() if inside.is_relative_to(top.as_posix()) else ""
        while name.startswith("./"):
            name = name[2:]
        if name:
            keys.append(name)
    if case.from_pytest and case.shown_as is not None:
        keys.append(case.shown_as.split("::", 1)[0])
    if case.classname.strip():
        keys.append(f"class {case.classname.strip().split('$', 1)[0]}")
    return tuple(dict.fromkeys(keys))


def _merged(reports: Iterable[Mapping[str, Counts]]) -> dict[str, Counts]:
    merged: dict[str, Counts] = {}
    for tallies in reports:
        for key, counts in tallies.items():
            merged[key] = merged[key] + counts if key in merged else counts
    return merged


def gather(settings: Settings, inputs: RunInputs, effects: Effects) -> Facts:
    """Everything the gates judge, read once through `effects`: detection, the commits and the change,
    the reports found and read (each log also scanned and excerpted), the freshness of each."""
    table, git = inputs.table, effects.git
    detection = detect(effects.top, table)
    adapter = table.get(settings.stack) if settings.stack else table.get(detection.primary.adapter_id)
    unknown = adapter.id == table.unknown.id
    pull_request = inputs.pull_request
    head_rev = settings.head or (pull_request.head_sha if pull_request else "HEAD")
    base_rev = settings.base or (pull_request.base_sha if pull_request else None)
    # `worktree`: the change is the work tree's, uncommitted files included; the ledger names HEAD.
    head = git.resolve_commit("HEAD" if head_rev == WORKTREE else head_rev, "head") if git else None
    base = git.resolve_commit(base_rev, "base") if git and base_rev else None
    classifier = PathClassifier(table=table, matches=detection.matches)
    reports = find_reports(effects.workspace, effects.top, settings.reports, settings.reports_may_leave)
    candidates = candidate_parsers(None, None if unknown else adapter.parsers)
    logs = tuple(_log_evidence(table, adapter, log, reports.shown[log], candidates) for log in reports.logs)
    collector = _CaseCollector(settings.story, effects.top)
    documents = tuple(_read_document(path, kind, reports.shown[path], collector) for path, kind in reports.documents)
    started, started_from = run_started(git, None)
    changed_head = WORKTREE if head_rev == WORKTREE else head
    change = collect_changes(git, base, changed_head, classifier) if git and base and changed_head else None
    stale = stale_by_report(reports.all, started, git, reports.shown, now=effects.clock())
    naming = sum(1 for _, kind in reports.documents if document_parser(kind).names_cases)
    # a coverage report not produced by this run is not read at all: its numbers are not this code's
    stale_coverage = tuple(stale[path] for path, _ in reports.coverage if path in stale)
    coverage = None
    if git and head and change is not None and reports.coverage and not stale_coverage:
        given = [
            CoverageReport(
                path=path, format=kind, shown=reports.shown[path], directory=report_directory(path, effects.top)
            )
            for path, kind in reports.coverage
        ]
        coverage = gather_coverage(git, change.head, change, given, classifier)
    return Facts(
        top=effects.top,
        detection=detection,
        adapter=adapter,
        unknown_stack=unknown,
        head=head,
        base=base,
        change=change,
        reports=reports,
        logs=logs,
        documents=documents,
        counts=summary.counts if (summary := weighed(logs, documents)) else None,
        excerpts=tuple(
            Excerpt(source=reports.shown[path], exit_code=log.scan.exit_code, output=excerpt(path))
            for path, log in zip(reports.logs, logs, strict=True)
        ),
        cases=collector.cases(naming, logs, stale),
        stale=tuple(stale.values()),
        stale_coverage=stale_coverage,
        fresh_after=started_from,
        pull_request=pull_request,
        baseline=inputs.baseline,
        baseline_note=inputs.baseline_note,
        in_ci=effects.in_ci,
        classifier=classifier,
        coverage=coverage,
        quality_baseline=inputs.quality_baseline or (from_digest(inputs.baseline) if inputs.baseline else None),
        state=_state(git, base, head, settings.head, effects.clock()) if git and head else None,
    )


def _read_document(path: Path, kind: str, shown: str, collector: _CaseCollector) -> TestSummary:
    collector.report = path
    try:
        return read_source(path, [kind], shown, collector)
    finally:
        collector.report = None


def _state(git: Git, base: str | None, head: str, head_rev: str | None, now: float) -> State:
    """The report's state snapshot: `git log --oneline -1`, `git diff --stat`'s total, the time."""
    commit = git.oneline(head)
    diff = git.diff_stat(base, WORKTREE if head_rev == WORKTREE else head) if base else "no base: no diff"
    if head_rev == WORKTREE:
        commit += " (with the work tree's changes)"
    return State(commit=commit, diff=diff, time=datetime.fromtimestamp(now, UTC).strftime("%Y-%m-%dT%H:%M:%SZ"))


def find_reports(workspace: Workspace, top: Path, patterns: Sequence[str], may_leave: bool) -> Reports:
    """The files the globs match, sorted by what they hold. A file that leaves the workspace, lies in
    `.git` or is not a regular file is refused, with the reason, before a byte of it is read."""
    logs: list[Path] = []
    documents: list[tuple[Path, str]] = []
    coverage: list[tuple[Path, str]] = []
    unmatched: list[str] = []
    refused: list[str] = []
    shown: dict[Path, str] = {}
    for pattern in patterns:
        try:
            files = workspace.glob(pattern, top, may_leave=may_leave)
        except Refused as refusal:
            refused.append(refusal.one_line())
            continue
        if not files:
            unmatched.append(pattern)
        for path in files:
            try:
                resolved = workspace.check(path)
                if resolved in shown:
                    continue
                with open_regular(resolved, display(path)) as handle:
                    head = handle.read(HEAD_BYTES)
            except Refused as refusal:
                refused.append(refusal.one_line())
                continue
            shown[resolved] = workspace.shown(path)
            measured = coverage_format(head)
            kind = None if measured else document_format(head)
            if measured:
                coverage.append((resolved, measured))
            elif kind is None:
                logs.append(resolved)
            else:
                documents.append((resolved, kind))
    return Reports(
        given=bool(patterns),
        logs=tuple(logs),
        documents=tuple(documents),
        coverage=tuple(coverage),
        unmatched=tuple(unmatched),
        refused=tuple(refused),
        shown=shown,
    )


def _log_evidence(
    table: AdapterTable, adapter: Adapter, log: Path, shown: str, candidates: Sequence[str]
) -> LogEvidence:
    """A log read and scanned: on the unknown stack, with the markers of the stacks whose parser read it."""
    summary = read_source(log, candidates, shown)
    unknown = adapter.id == table.unknown.id
    stacks = adapters_reading(table, summary.parser) if unknown else (adapter,)
    return LogEvidence(source=shown, scan=scan_log(log, markers_for(table, Claim.TEST, stacks)), summary=summary)
