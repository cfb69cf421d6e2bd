"""The gate-edit inventory: every hunk of a change that touches a gate, and the tags of those that
relax one. It lists and tags; it never judges.

A gate edit is a hunk of a test, CI, gate-configuration or snapshot file (the adapter table's path
kinds), or a hunk of production code that carries a tag (a suppression or coverage-exclusion
comment added). Tags come from two places:

| tags | decided by |
|---|---|
| RH-1 test-skipped, RH-2 test-focused, RH-6 suppression-added, RH-7 coverage-exclusion, | idioms on the |
| RH-9 ci-nonblocking, RH-12 test-excluded, RH-13 timeout-or-retry | added lines (`idioms.yaml`) |
| RH-3 test-removed | a test file deleted |
| RH-11 snapshot-rewritten | a snapshot or golden file changed or deleted |

Not yet: RH-3 for a test case removed from a file that stays, RH-4 assertion-removed, RH-5
expectation-changed, RH-8 threshold-lowered, RH-10 ci-step-removed, RH-14 frozen-test-changed,
RH-15 unpaired, and the ignore-comment audit: they compare values and structure, not lines.

A line the change moves within a file (the same text, stripped, removed elsewhere in that file) is
not added for the idioms: re-indenting a skipped test does not skip it again. A gate edit in a
language no tag has idioms for is named in `languages_unlisted`, never passed over silently.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import PurePosixPath

from evidence_gate.integrity.idioms import Idioms, TagIdioms
from evidence_gate.model import Change, ChangedFile, ChangedLine, FileKind, FileStatus, Hunk

GATE_KINDS = frozenset({FileKind.TEST, FileKind.CI, FileKind.GATE_CONFIG, FileKind.SNAPSHOT})
TEST_REMOVED = "RH-3"
SNAPSHOT_REWRITTEN = "RH-11"


@dataclass(frozen=True, kw_only=True)
class TaggedHunk:
    path: str
    kind: FileKind
    header: str  # `@@ -a,b +c,d @@ section`, or what stands for a hunk without lines (`binary`)
    tags: tuple[str, ...]  # RH-n, in table order
    added: tuple[ChangedLine, ...]
    removed: tuple[ChangedLine, ...]


@dataclass(frozen=True, kw_only=True)
class Inventory:
    hunks: tuple[TaggedHunk, ...]  # every gate edit, in the diff's order
    languages_unlisted: tuple[str, ...]  # gate edits' file types no tag has idioms for (`*.ex`)

    @property
    def tagged(self) -> tuple[TaggedHunk, ...]:
        return tuple(hunk for hunk in self.hunks if hunk.tags)


def inventory(change: Change, idioms: Idioms) -> Inventory:
    hunks: list[TaggedHunk] = []
    unlisted: dict[str, None] = {}
    for changed in change.files:
        language = idioms.language(changed.path)
        found = _file_hunks(changed, language, idioms)
        gate_edit = changed.kind in GATE_KINDS
        hunks += [hunk for hunk in found if gate_edit or hunk.tags]
        idioms_apply = gate_edit and changed.kind is not FileKind.SNAPSHOT and not changed.binary
        if idioms_apply and not idioms.covers(language, changed.kind):
            unlisted[_file_type(changed.path)] = None
    return Inventory(hunks=tuple(hunks), languages_unlisted=tuple(unlisted))


def _file_hunks(changed: ChangedFile, language: str | None, idioms: Idioms) -> list[TaggedHunk]:
    moved = _Moved(changed)
    structural = _structural_tags(changed)
    if not changed.hunks:
        header = "binary" if changed.binary else str(changed.status)
        return [TaggedHunk(path=changed.path, kind=changed.kind, header=header, tags=structural, added=(), removed=())]
    tagged = []
    for hunk in changed.hunks:
        added = moved.new(hunk.added)
        tags = [
            tag.id
            for tag in idioms.tags
            if changed.kind in tag.kinds and _carries(tag, language, added, moved.gone(hunk.removed))
        ]
        tagged.append(
            TaggedHunk(
                path=changed.path,
                kind=changed.kind,
                header=_header(hunk),
                tags=_ordered(idioms, (*tags, *structural)),
                added=hunk.added,
                removed=hunk.removed,
            )
        )
    return tagged


def _carries(tag: TagIdioms, language: str | None, added: list[str], removed: list[str]) -> bool:
    return any(tag.matches(tag.added, language, line) for line in added) or any(
        tag.matches(tag.removed, language, line) for line in removed
    )


def _structural_tags(changed: ChangedFile) -> tuple[str, ...]:
    if changed.kind is FileKind.TEST and changed.status is FileStatus.DELETED:
        return (TEST_REMOVED,)
    if changed.kind is FileKind.SNAPSHOT and changed.status not in (FileStatus.ADDED, FileStatus.COPIED):
        return (SNAPSHOT_REWRITTEN,)  # a new snapshot (a copy of another too) records, it rewrites nothing
    return ()


class _Moved:
    """The lines of one file that a change moves rather than adds or removes: an added line whose
    stripped text the file also loses (and so the other way round), as often as it loses it."""

    def __init__(self, changed: ChangedFile) -> None:
        self._removed = Counter(line.text.strip() for line in changed.removed_lines)
        self._added = Counter(line.text.strip() for line in changed.added_lines)

    def new(self, lines: tuple[ChangedLine, ...]) -> list[str]:
        return _unmatched(lines, self._removed)

    def gone(self, lines: tuple[ChangedLine, ...]) -> list[str]:
        return _unmatched(lines, self._added)


def _unmatched(lines: tuple[ChangedLine, ...], other_side: Counter[str]) -> list[str]:
    budget = Counter(other_side)
    kept = []
    for line in lines:
        text = line.text.strip()
        if text and budget[text] > 0:
            budget[text] -= 1
            continue
        kept.append(line.text)
    return kept


def _ordered(idioms: Idioms, tags: tuple[str, ...]) -> tuple[str, ...]:
    order = {tag.id: index for index, tag in enumerate(idioms.tags)}
    return tuple(sorted(dict.fromkeys(tags), key=lambda tag: (order.get(tag, len(order)), int(tag[3:]))))


def _header(hunk: Hunk) -> str:
    section = f" {hunk.section}" if hunk.section else ""
    return f"@@ -{hunk.old_start},{hunk.old_lines} +{hunk.new_start},{hunk.new_lines} @@{section}"


def _file_type(path: str) -> str:
    suffix = PurePosixPath(path).suffix
    return f"*{suffix}" if suffix else PurePosixPath(path).name
