"""The coverage reports of a run read, their names mapped to the repository, merged: a line is
measured when any report measures it and executed when any report saw it run. Only the files the
caller wants (the change's production files) are kept, and where the caller gives their changed
lines, only the lines a `Sieve` keeps of them, so a report of any size costs the memory of the
change, not of the report."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from evidence_gate.coverage.model import FileHits, Lines, Sieve, SourceRoots, Statement, UnreadableReport
from evidence_gate.coverage.paths import PathMapper
from evidence_gate.coverage.registry import reader

MAX_UNMAPPED = 50


@dataclass(frozen=True, kw_only=True)
class CoverageReport:
    """One report to read: the file, its format, how reviewers see its name, and its directory
    relative to the checkout's top (None when it lies outside, given on the command line)."""

    path: Path
    format: str
    shown: str
    directory: str | None


def report_directory(path: Path, top: Path) -> str | None:
    """A report's directory relative to the checkout's top, `/`-separated ("" at the top); None
    outside the checkout (a report given on the command line may lie anywhere)."""
    try:
        relative = path.resolve().parent.relative_to(top.resolve()).as_posix()
    except ValueError:
        return None
    return "" if relative == "." else relative


@dataclass(frozen=True, kw_only=True)
class ReportRead:
    shown: str
    format: str
    files: int  # file entries the report holds
    mapped: int  # of them, those that name a repository file
    problem: str | None = None  # why the report could not be used


@dataclass(frozen=True, kw_only=True)
class CoverageMap:
    files: dict[str, Lines]  # repository path -> its merged coverage, for the wanted files
    reports: tuple[ReportRead, ...]
    unmapped: tuple[str, ...] = ()  # "name (report): why", the first MAX_UNMAPPED
    unmapped_total: int = 0
    contexts: bool = False  # some report recorded which test ran each line
    # Per file, from the reports that give each statement's extent: a continuation line of a
    # multi-line statement -> the statement that holds it (run when any report saw it run); a line
    # two reports place in statements measured on different lines is in neither.
    statements: dict[str, dict[int, Statement]] = field(default_factory=dict)

    @property
    def problems(self) -> tuple[str, ...]:
        return tuple(f"{read.shown}: {read.problem}" for read in self.reports if read.problem)


@dataclass
class _Merged:
    hits: dict[int, int] = field(default_factory=dict)
    contexts: dict[int, set[str]] | None = None
    all_contexts: set[str] = field(default_factory=set)
    statements: dict[int, Statement] = field(default_factory=dict)
    disputed: set[int] = field(default_factory=set)

    def add(self, file: FileHits) -> None:
        for line, count in file.hits.items():
            self.hits[line] = max(self.hits.get(line, 0), count)
        for line, statement in file.statements.items():
            known = self.statements.setdefault(line, statement)
            if known.line != statement.line:
                self.disputed.add(line)
            elif known.count is not None and statement.count is not None:
                self.statements[line] = Statement(statement.line, max(known.count, statement.count))
        if file.contexts is not None:
            merged = self.contexts if self.contexts is not None else {}
            for line, names in file.contexts.items():
                merged.setdefault(line, set()).update(names)
                self.all_contexts.update(names)
            self.all_contexts.update(file.all_contexts)
            self.contexts = merged

    def lines(self) -> Lines:
        covered = frozenset(line for line, count in self.hits.items() if count > 0)
        contexts = None if self.contexts is None else {line: frozenset(names) for line, names in self.contexts.items()}
        every = frozenset(self.all_contexts)
        return Lines(measured=frozenset(self.hits), covered=covered, contexts=contexts, all_contexts=every)


@dataclass
class _Collector:
    mapper: PathMapper
    wanted: Collection[str]
    lines: Mapping[str, Sequence[int]] | None
    merged: dict[str, _Merged] = field(default_factory=dict)
    unmapped: list[str] = field(default_factory=list)
    unmapped_total: int = 0

    def read(self, report: CoverageReport) -> ReportRead:
        """One report read into the merge; what it held, and why it could not be used."""
        files = mapped = 0
        roots: tuple[str, ...] = ()
        problem = None

        def keep(name: str) -> Sieve | None:
            path = self.mapper.map(name, report.directory, roots).path
            if path is None or path not in self.wanted:
                return None
            return Sieve(changed=None if self.lines is None else tuple(sorted(self.lines.get(path, ()))))

        try:
            for event in reader(report.format).read(report.path, keep):
                if isinstance(event, SourceRoots):
                    roots = event.roots
                    continue
                files += 1
                found = self.mapper.map(event.name, report.directory, roots)
                if found.path is None:
                    self.unmapped_total += 1
                    if len(self.unmapped) < MAX_UNMAPPED:
                        self.unmapped.append(f"{event.name[:300]} ({report.shown}): {found.reason}")
                    continue
                mapped += 1
                if found.path in self.wanted:
                    self.merged.setdefault(found.path, _Merged()).add(event)
        except UnreadableReport as error:
            problem = f"unreadable {reader(report.format).title}: {error}"
        if problem is None and files and not mapped:
            problem = (
                f"none of its {files} files is a file of this repository; run the tests from the checkout, "
                "or give the report's source root (Cobertura `<source>`) as it was on that machine"
            )
        return ReportRead(shown=report.shown, format=report.format, files=files, mapped=mapped, problem=problem)


def collect(reports: Iterable[CoverageReport], mapper: PathMapper, wanted: Collection[str]) -> CoverageMap:
    """Every report read and merged over the `wanted` repository files; where `wanted` maps each
    to its changed lines, only the lines its `Sieve` keeps."""
    lines = wanted if isinstance(wanted, Mapping) else None
    collector = _Collector(mapper=mapper, wanted=wanted, lines=lines)
    reads = tuple(collector.read(report) for report in reports)
    merged = collector.merged
    return CoverageMap(
        files={path: value.lines() for path, value in merged.items()},
        reports=reads,
        unmapped=tuple(collector.unmapped),
        unmapped_total=collector.unmapped_total,
        contexts=any(value.contexts is not None for value in merged.values()),
        statements={
            path: {line: held for line, held in value.statements.items() if line not in value.disputed}
            for path, value in merged.items()
            if value.statements
        },
    )
