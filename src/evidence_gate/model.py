"""The plain values that flow between readers, gates and renderers.

Readers turn outside data (git, the repository tree, runner output) into these; everything after
them works on values only, so it can be tested with literals.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from enum import StrEnum

from evidence_gate.errors import UsageError


class FileStatus(StrEnum):
    """What git says happened to a path between base and head."""

    ADDED = "added"
    MODIFIED = "modified"
    DELETED = "deleted"
    RENAMED = "renamed"
    COPIED = "copied"
    MODE_CHANGE = "mode-change"
    TYPE_CHANGE = "type-change"


class FileKind(StrEnum):
    """What a path is for, by the adapter table's path patterns (first match in this order).

    A test file is one its runner runs as one (`test_cart.py`, `cart.test.js`, `tests/cli.rs`); the
    code the tests use without being run as tests (conftest.py, fixtures, helpers, `tests/common/mod.rs`)
    is a test helper; every other file of a test folder (inputs, recorded outputs) is test data.
    Dependency manifests and lock files (`requirements-dev.txt`, `poetry.lock`, `go.sum`) are neither
    production code nor gate configuration.
    """

    SNAPSHOT = "snapshot"
    TEST = "test"
    TEST_HELPER = "test-helper"
    CI = "ci"
    DEPENDENCY = "dependency"
    GATE_CONFIG = "gate-config"
    DOCS = "docs"
    TEST_DATA = "test-data"
    PRODUCTION = "production"


@dataclass(frozen=True, kw_only=True)
class ChangedLine:
    """One added (`+`) or removed (`-`) line; `number` is in the new file for added lines and in
    the old file for removed ones."""

    number: int
    text: str


@dataclass(frozen=True, kw_only=True)
class Hunk:
    """A diff hunk. The header's spans include context lines; `added` and `removed` do not."""

    old_start: int
    old_lines: int
    new_start: int
    new_lines: int
    section: str
    added: tuple[ChangedLine, ...]
    removed: tuple[ChangedLine, ...]


@dataclass(frozen=True, kw_only=True)
class InlineTests:
    """The changed lines of a source file that sit in the tests it holds itself (Rust's
    `#[cfg(test)] mod tests { … }`, a `#[test] fn`): added lines by their new number, removed ones
    by their old."""

    added: frozenset[int]
    removed: frozenset[int]

    def part(self, hunk: Hunk, *, tests: bool) -> Hunk | None:
        """The hunk's test lines (`tests`) or its other lines, as a hunk under the same header; None
        when it has none."""
        added = tuple(line for line in hunk.added if (line.number in self.added) is tests)
        removed = tuple(line for line in hunk.removed if (line.number in self.removed) is tests)
        if not added and not removed:
            return None
        return Hunk(
            old_start=hunk.old_start,
            old_lines=hunk.old_lines,
            new_start=hunk.new_start,
            new_lines=hunk.new_lines,
            section=hunk.section,
            added=added,
            removed=removed,
        )


@dataclass(frozen=True, kw_only=True)
class CountedLines:
    """The changed lines of a file that are counted, not held: an added data file (a fixture, a
    recorded output, a new snapshot), which no check reads line by line. Its hunks keep their
    headers without their lines; its blob (git's id of the new content) names every line."""

    added: int
    removed: int
    blob: str


@dataclass(frozen=True, kw_only=True)
class ChangedFile:
    """One changed path. A source file whose changed lines lie in the tests it holds itself
    (`inline_tests`) is a test file when all of them do, and production code that changed its
    tests too when some do not: both a production change and a changed test file."""

    path: str
    old_path: str | None
    status: FileStatus
    kind: FileKind
    binary: bool
    old_mode: str | None
    new_mode: str | None
    similarity: int | None
    hunks: tuple[Hunk, ...] = ()
    inline_tests: InlineTests | None = None  # None: no changed line in tests the file holds (or unknown)
    counted: CountedLines | None = None  # None: every changed line is in `hunks`

    @property
    def added_count(self) -> int:
        return self.counted.added if self.counted else sum(len(hunk.added) for hunk in self.hunks)

    @property
    def removed_count(self) -> int:
        return self.counted.removed if self.counted else sum(len(hunk.removed) for hunk in self.hunks)

    @property
    def added_lines(self) -> tuple[ChangedLine, ...]:
        return tuple(line for hunk in self.hunks for line in hunk.added)

    @property
    def removed_lines(self) -> tuple[ChangedLine, ...]:
        return tuple(line for hunk in self.hunks for line in hunk.removed)

    @property
    def changes_tests(self) -> bool:
        """A test file, or a source file whose own tests changed."""
        return self.kind is FileKind.TEST or self.inline_tests is not None

    def test_part(self, hunk: Hunk) -> Hunk | None:
        """The part of one of its hunks that changes tests: a test file's whole hunk, a source file's
        lines in its own tests, nothing of any other file."""
        if self.kind is FileKind.TEST:
            return hunk
        return None if self.inline_tests is None else self.inline_tests.part(hunk, tests=True)

    def production_part(self, hunk: Hunk) -> Hunk | None:
        """The part of one of its hunks that changes production code: a production file's hunk but
        for the lines in its own tests; nothing of any other file."""
        if self.kind is not FileKind.PRODUCTION:
            return None
        return hunk if self.inline_tests is None else self.inline_tests.part(hunk, tests=False)

    @property
    def test_hunks(self) -> tuple[Hunk, ...]:
        return tuple(part for hunk in self.hunks if (part := self.test_part(hunk)) is not None)

    @property
    def production_hunks(self) -> tuple[Hunk, ...]:
        return tuple(part for hunk in self.hunks if (part := self.production_part(hunk)) is not None)


@dataclass(frozen=True, kw_only=True)
class Change:
    """Everything a pull request changed: `merge_base..head`, as reviewers see it on GitHub."""

    base: str
    head: str
    merge_base: str
    files: tuple[ChangedFile, ...]

    def of_kind(self, kind: FileKind) -> tuple[ChangedFile, ...]:
        return tuple(f for f in self.files if f.kind is kind)


# What the ledger's payload codec (ledger/payload.py) reads of a field it writes, beyond its type: it
# cannot be imported here, below it, so its `spec` is spelt as the mapping it takes.
_COUNT = {"payload": {"schema": {"minimum": 0}}}
_ALWAYS_WRITTEN = {"payload": {"required": True}}


@dataclass(frozen=True, kw_only=True)
class Counts:
    """Test outcomes. `executed` excludes skipped tests: a run that skipped everything ran nothing.

    Errors count as failed; an expected failure (xfail) as skipped; an unexpected pass (xpass) as
    passed. Each parser documents how its runner's words map onto these three.
    """

    passed: int = field(metadata=_COUNT)
    failed: int = field(metadata=_COUNT)
    skipped: int = field(metadata=_COUNT)

    @property
    def executed(self) -> int:
        return self.passed + self.failed

    def __add__(self, other: Counts) -> Counts:
        return Counts(
            passed=self.passed + other.passed,
            failed=self.failed + other.failed,
            skipped=self.skipped + other.skipped,
        )


class SummaryStatus(StrEnum):
    PASSED = "passed"
    FAILED = "failed"
    NO_TESTS = "no-tests"
    UNPARSED = "unparsed"


@dataclass(frozen=True, kw_only=True)
class TestSummary:
    """What one or more runner outputs say about the tests: counts, or why there are none."""

    counts: Counts | None
    parser: str | None
    source: str
    reason: str | None = None
    notes: tuple[str, ...] = ()
    no_count_printed: bool = False  # no counts because the runner prints none on success (see summary/base.py)
    failed_tests: tuple[str, ...] = ()  # the failed tests the runner named, as it prints them (summary/base.py)

    @property
    def status(self) -> SummaryStatus:
        if self.counts is None:
            return SummaryStatus.UNPARSED
        if self.counts.failed:
            return SummaryStatus.FAILED
        if self.counts.executed == 0:
            return SummaryStatus.NO_TESTS
        return SummaryStatus.PASSED

    def document(self) -> dict[str, object]:
        counts = self.counts
        document: dict[str, object] = {
            "executed": counts.executed if counts else None,
            "passed": counts.passed if counts else None,
            "failed": counts.failed if counts else None,
            "skipped": counts.skipped if counts else None,
            "parser": self.parser,
            "source": self.source,
            "status": str(self.status),
            "failed_tests": list(self.failed_tests),
        }
        if self.reason:
            document["reason"] = self.reason
        if self.notes:
            document["notes"] = list(self.notes)
        return document


@dataclass(frozen=True, kw_only=True)
class ToolChoice:
    """The tool a check uses, as the adapter table chose it from the project's files."""

    tool: str | None  # `flake8`; None: no tool (MISSING, or NOT_APPLICABLE when it does not apply)
    command: str | None
    why: str  # which evidence chose it (`flake8: [flake8] in setup.cfg`), or why there is none
    applies: bool = True  # False: the language has no such tool for these sources (`why` says why)


@dataclass(frozen=True, kw_only=True)
class StackMatch:
    """One adapter that matched at one directory (`root`, relative to the scanned tree)."""

    adapter_id: str
    stack_class: str
    language: str
    root: str
    depth: int
    order: int
    evidence: tuple[str, ...]
    commands: dict[str, str] = field(default_factory=dict)
    tools: dict[str, ToolChoice] = field(default_factory=dict)  # the `tools` slots: typecheck, lint


@dataclass(frozen=True, kw_only=True)
class Detection:
    """Which toolchains a tree uses. `primary` is `unknown` when nothing matched."""

    primary: StackMatch
    matches: tuple[StackMatch, ...]
    warnings: tuple[str, ...]


@dataclass(frozen=True, kw_only=True)
class PullRequest:
    """What the run needs of the event's pull request."""

    number: int
    base_sha: str
    head_sha: str
    body: str
    labels: tuple[str, ...] = ()


class ToolStatus(StrEnum):
    DETECTED = "DETECTED"  # with its command
    NOT_APPLICABLE = "NOT_APPLICABLE"  # with its justification
    MISSING = "MISSING"  # a tool a project with source files needs: blocks


@dataclass(frozen=True, kw_only=True)
class ToolRow:
    """One row of the Toolchain table: the tool a check uses, how it was found, or why there is none."""

    check: int = field(metadata={"payload": {"schema": {"minimum": 1, "maximum": 9}}})
    tool: str
    status: ToolStatus
    command: str | None = field(default=None, metadata=_ALWAYS_WRITTEN)
    # where it came from (DETECTED), or why not (NOT_APPLICABLE, MISSING)
    reason: str | None = field(default=None, metadata=_ALWAYS_WRITTEN)


@dataclass(frozen=True, kw_only=True)
class Shard:
    index: int  # 1-based
    count: int

    @property
    def text(self) -> str:
        return f"{self.index}/{self.count}"

    def holds(self, path: str) -> bool:
        """Stable across runs and machines: a file's shard depends on its path alone."""
        digest = hashlib.sha256(path.encode("utf-8", "surrogateescape")).digest()
        return int.from_bytes(digest[:8], "big") % self.count == self.index - 1


def parse_shard(text: str) -> Shard:
    index, slash, count = text.partition("/")
    if not slash or not index.isdigit() or not count.isdigit() or not 1 <= int(index) <= int(count):
        raise UsageError(f"--shard {text!r}: give I/N, with 1 <= I <= N (2/4 judges the second quarter)")
    return Shard(index=int(index), count=int(count))
