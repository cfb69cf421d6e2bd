"""The coverage facts of a run, read at the edge: the repository's files at head (what report names
map onto), its Go modules, the reports read and merged over the change's production files (a
changed line inside a multi-line statement judged by the statement, from the head's source), and
the test files each of those is paired with by name."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from evidence_gate.changes import PathClassifier
from evidence_gate.coverage.collect import CoverageMap, CoverageReport, collect
from evidence_gate.coverage.measure import changed_production_lines, changed_production_text
from evidence_gate.coverage.pairing import ContextTests, paired_tests, subject_patterns
from evidence_gate.coverage.paths import PathMapper
from evidence_gate.coverage.statements import with_statements
from evidence_gate.git import Git
from evidence_gate.model import Change, FileKind

MAX_GO_MODULES = 500
GO_MOD_BYTES = 64 * 1024  # of each go.mod: its module line is at the top
_MODULE = re.compile(rb"^\s*module\s+\"?([^\s\"]+)\"?", re.MULTILINE)


@dataclass(frozen=True, kw_only=True)
class ChangeCoverage:
    map: CoverageMap
    changed: Mapping[str, tuple[int, ...]]  # each production file's added lines
    paired: Mapping[str, tuple[str, ...]]  # a changed production file -> the test files named after it
    context_tests: ContextTests


def gather_coverage(
    git: Git, head: str, change: Change, reports: Sequence[CoverageReport], classifier: PathClassifier
) -> ChangeCoverage:
    files = git.files_at(head)
    mapper = PathMapper(files=frozenset(files), top=git.top.as_posix(), modules=_go_modules(git, head, files))
    changed = changed_production_lines(change)
    tests = frozenset(path for path in files if classifier.kind(path) is FileKind.TEST)
    globs = [
        pattern.pattern
        for adapter in classifier.table.adapters.values()
        for pattern in adapter.paths.test.patterns
        if isinstance(pattern.pattern, str)
    ]
    found = collect(reports, mapper, changed)
    return ChangeCoverage(
        map=with_statements(found, changed_production_text(change), lambda path, cap: git.read_at(head, path, cap)),
        changed=changed,
        paired=paired_tests(changed, tests, subject_patterns(globs)),
        context_tests=ContextTests(mapper=mapper, tests=tests),
    )


def _go_modules(git: Git, head: str, files: Sequence[str]) -> dict[str, str]:
    """Each `go.mod`'s module path -> its directory ("" at the top)."""
    modules: dict[str, str] = {}
    for path in [path for path in files if path == "go.mod" or path.endswith("/go.mod")][:MAX_GO_MODULES]:
        content = git.read_at(head, path, GO_MOD_BYTES)
        found = _MODULE.search(content or b"")
        if found:
            modules[found[1].decode("utf-8", "replace")] = path.rpartition("/")[0]
    return modules
