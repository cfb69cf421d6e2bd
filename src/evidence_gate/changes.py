"""The diff model every check shares: which files a change touched, what kind each is, and the
exact lines it added and removed.

File names and statuses come from `git diff --raw -z` (exact bytes); hunks come from the patch of
the same run of git (patch.py). Git writes both in the same order, one patch section per raw entry,
so the two are paired by position and checked to agree.

A source file of a stack whose files hold their own tests (Rust's `#[cfg(test)]` modules: the
adapter table's `inline_tests`) is read at both ends, and each changed line is told test or
production by the test items around it (inline_tests.py): a file whose changed lines all lie in its
tests is a test file; one with both is production code with its own tests changed too. A file the
reader cannot follow, or one over the caps, stays production code, every line of it.

An added (or copied) data file (test data, a new snapshot: `COUNTED_KINDS`) is counted, not held:
its hunks keep their headers, and how many lines it adds, but none of its lines, which git's output
passes by as it is read. A pull request adding a CSV of three million lines took a gigabyte; the
checks read no data file's lines (the integrity inventory lists its hunks, with no idiom for data,
and tags a snapshot by its status), and its blob names them all.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import PurePosixPath

from evidence_gate.errors import GitError
from evidence_gate.git import WORKTREE, Git
from evidence_gate.inline_tests import MAX_CHARS, READERS
from evidence_gate.model import Change, ChangedFile, CountedLines, FileKind, FileStatus, InlineTests, StackMatch
from evidence_gate.patch import RawEntry, Section
from evidence_gate.stacks.table import Adapter, AdapterTable, InlineTestRules

INLINE_FILES = 500  # source files read for the tests they hold, per change; the rest stay production code
# An added file of these kinds is counted, not held: no check reads a fixture's or a new snapshot's lines.
COUNTED_KINDS = frozenset({FileKind.TEST_DATA, FileKind.SNAPSHOT})
_LINK = "120000"
_STATUS = {
    "A": FileStatus.ADDED,
    "D": FileStatus.DELETED,
    "M": FileStatus.MODIFIED,
    "R": FileStatus.RENAMED,
    "C": FileStatus.COPIED,
    "T": FileStatus.TYPE_CHANGE,
}


@dataclass(frozen=True, kw_only=True)
class PathClassifier:
    """Classifies a repository path with the patterns of the adapters that cover it.

    An adapter matched at `root` covers the paths below `root`, and its patterns are matched
    relative to that root; a path no match covers is classified with the `unknown` adapter's
    generic patterns. CI, dependency, docs and the shared gate-config patterns apply repository-wide.
    The order is FileKind's: a runner's test file first, then the helpers the tests use; a test
    folder's other files are test data only when nothing else claims them (its README stays docs).
    """

    table: AdapterTable
    matches: Sequence[StackMatch]

    def kind(self, path: str) -> FileKind:
        scoped = self._scoped(path)
        if any(adapter.paths.snapshot.match_file(rel) for adapter, rel in scoped):
            return FileKind.SNAPSHOT
        if any(adapter.paths.test.match_file(rel) for adapter, rel in scoped):
            return FileKind.TEST
        if any(adapter.paths.helper.match_file(rel) for adapter, rel in scoped):
            return FileKind.TEST_HELPER
        if self.table.ci.match_file(path):
            return FileKind.CI
        if self.table.dependency.match_file(path):
            return FileKind.DEPENDENCY
        if self.table.gate_config.match_file(path) or any(
            adapter.paths.gate_config.match_file(rel) for adapter, rel in scoped
        ):
            return FileKind.GATE_CONFIG
        if self.table.docs.match_file(path):
            return FileKind.DOCS
        if any(adapter.paths.data.match_file(rel) for adapter, rel in scoped):
            return FileKind.TEST_DATA
        return FileKind.PRODUCTION

    def inline_tests(self, path: str) -> InlineTestRules | None:
        """How to find the tests a source file holds itself, when its stack's files may hold some."""
        for adapter, relative in self._scoped(path):
            rules = adapter.inline_tests
            if rules is not None and rules.files.match_file(relative):
                return rules
        return None

    @classmethod
    def of_adapter(cls, table: AdapterTable, adapter: Adapter, root: str = ".") -> PathClassifier:
        """The classifier of one adapter matched at `root` (a stack given by name)."""
        match = StackMatch(
            adapter_id=adapter.id,
            stack_class=adapter.stack_class,
            language=adapter.language,
            root=root,
            depth=0 if root == "." else len(PurePosixPath(root).parts),
            order=adapter.order,
            evidence=(),
        )
        return cls(table=table, matches=(match,))

    def _scoped(self, path: str) -> list[tuple[Adapter, str]]:
        scoped = [
            (self.table.get(match.adapter_id), _relative(path, match.root))
            for match in self.matches
            if match.root == "." or path.startswith(match.root + "/")
        ]
        return scoped or [(self.table.unknown, path)]


def collect_changes(git: Git, base: str, head: str, classifier: PathClassifier) -> Change:
    """The change from the merge base of `base` and `head` to `head` (or to the working tree)."""
    base_sha = git.resolve_commit(base, "base")
    if head == WORKTREE:
        head_sha = git.resolve_commit("HEAD", "head")
        merge_base = git.merge_base(base_sha, head_sha)
        new = git.worktree_tree()
    else:
        head_sha = git.resolve_commit(head, "head")
        merge_base = git.merge_base(base_sha, head_sha)
        new = head_sha
    raw, sections = git.diff(merge_base, new, lambda entries: _held(entries, classifier))
    files = _pair(raw, sections, classifier)
    files = _with_inline_tests(git, files, merge_base, new, classifier)
    return Change(base=base_sha, head=WORKTREE if head == WORKTREE else head_sha, merge_base=merge_base, files=files)


def _held(raw: list[RawEntry], classifier: PathClassifier) -> list[bool]:
    """Whose lines the patch keeps, by section: all but an added (or copied) data file's, which are counted."""
    held: list[bool] = []
    for entry in raw:
        counted = entry.status in "AC" and classifier.kind(entry.path) in COUNTED_KINDS
        held += [True, True] if entry.status == "T" else [not counted]
    return held


def _pair(raw: list[RawEntry], patched: list[Section], classifier: PathClassifier) -> tuple[ChangedFile, ...]:
    # A type change (file <-> symlink) is one raw entry but two patch sections: a deletion, then an
    # addition. Every other entry is one section.
    expected = sum(2 if entry.status == "T" else 1 for entry in raw)
    if len(patched) != expected:
        raise GitError(f"git listed {len(raw)} changed files but its patch has {len(patched)}; refusing to guess")
    sections = iter(patched)
    files = []
    for entry in raw:
        parts = [next(sections)] + ([next(sections)] if entry.status == "T" else [])
        status = _STATUS.get(entry.status, FileStatus.MODIFIED)
        if status is FileStatus.MODIFIED and entry.old_mode != entry.new_mode and entry.old_blob == entry.new_blob:
            status = FileStatus.MODE_CHANGE
        files.append(
            ChangedFile(
                path=entry.path,
                old_path=entry.old_path,
                status=status,
                kind=classifier.kind(entry.path),
                binary=any(part.binary for part in parts),
                old_mode=None if entry.old_mode == "000000" else entry.old_mode,
                new_mode=None if entry.new_mode == "000000" else entry.new_mode,
                similarity=entry.score if status in (FileStatus.RENAMED, FileStatus.COPIED) else None,
                hunks=tuple(hunk for part in parts for hunk in part.hunks),
                counted=None
                if all(part.held for part in parts)
                else CountedLines(
                    added=sum(part.added for part in parts),
                    removed=sum(part.removed for part in parts),
                    blob=entry.new_blob,
                ),
            )
        )
    return tuple(files)


def _with_inline_tests(
    git: Git, files: tuple[ChangedFile, ...], old: str, new: str, classifier: PathClassifier
) -> tuple[ChangedFile, ...]:
    """`files` with the changed lines of each source file that holds its own tests told apart (the
    first INLINE_FILES such files)."""
    told: list[ChangedFile] = []
    read = 0
    for changed in files:
        rules = classifier.inline_tests(changed.path)
        readable = (
            rules is not None
            and changed.kind is FileKind.PRODUCTION
            and changed.hunks
            and not changed.binary
            and changed.status is not FileStatus.DELETED
            and _LINK not in (changed.old_mode, changed.new_mode)
        )
        if rules is None or not readable or read >= INLINE_FILES:
            told.append(changed)
            continue
        read += 1
        told.append(_told(git, changed, old, new, rules))
    return tuple(told)


def _told(git: Git, changed: ChangedFile, old: str, new: str, rules: InlineTestRules) -> ChangedFile:
    """One source file with its changed lines in its own tests named, and a test file when all are."""
    after = _test_lines(git, new, changed.path, rules)
    before = (
        frozenset()
        if changed.status is FileStatus.ADDED
        else _test_lines(git, old, changed.old_path or changed.path, rules)
    )
    if after is None or before is None:
        return changed
    added = frozenset(line.number for line in changed.added_lines if line.number in after)
    removed = frozenset(line.number for line in changed.removed_lines if line.number in before)
    if not added and not removed:
        return changed
    only_tests = len(added) == len(changed.added_lines) and len(removed) == len(changed.removed_lines)
    return replace(
        changed,
        kind=FileKind.TEST if only_tests else changed.kind,
        inline_tests=InlineTests(added=added, removed=removed),
    )


def _test_lines(git: Git, commit: str, path: str, rules: InlineTestRules) -> frozenset[int] | None:
    """The lines of the file at `path` in `commit` that its test items span; None when it is not
    there, too long, or cannot be read."""
    content = git.read_at(commit, path, MAX_CHARS + 1)
    if content is None or len(content) > MAX_CHARS:
        return None
    return READERS[rules.reader](content.decode("utf-8", "replace"), rules.attributes)


def _relative(path: str, root: str) -> str:
    return path if root == "." else str(PurePosixPath(path).relative_to(root))
