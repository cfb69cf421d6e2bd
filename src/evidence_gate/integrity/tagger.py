"""The gate-edit inventory: every hunk of a change that touches a gate, and the tags of those that
relax one. It lists and tags; it never judges.

A gate edit is a hunk of a test, test helper, test data, CI, gate-configuration or snapshot file (the
adapter table's path kinds), or a hunk of production code that carries a tag (a suppression or coverage-exclusion
comment added; with no test changed at all, `RH-15?`, which coverage settles: `resolve_unpaired`).
Tags come from three places:

| tags | decided by |
|---|---|
| RH-1, RH-2, RH-6, RH-7, RH-9, RH-11 (an update switch), RH-12, RH-13 | idioms on added lines (`idioms.yaml`) |
| RH-3, RH-4, RH-5, RH-8, RH-10, RH-12 (a scope narrowed) | removed lines weighed against added ones (`compare.py`) |
| RH-8, RH-7 (coverage left out) | lint, type-check and coverage configs read whole, before and after (`configs.py`) |
| RH-3 (a test file deleted), RH-11 (a snapshot changed), RH-15? | the files the change touches |

A test helper (conftest.py, a fixture module) is test code to the idioms and comparisons; deleting one
removes no test, so it is not RH-3, and neither is deleting test data. A change to either pairs a
production change as a test's does (no `RH-15?`). So does a change to the tests a source file holds
itself (Rust's `#[cfg(test)]` modules): each hunk of such a file is read as two, its lines in the
file's tests as a test's hunk, its other lines as production code.

RH-14 (a frozen test changed) is decided against the freeze record (`frozen.py`). A line the change
moves within a file (the same text, stripped, removed elsewhere in that file) is neither added nor
removed: re-indenting a skipped test does not skip it again. A gate edit in a language no tag has
idioms for is named in `languages_unlisted`, never passed over silently.

The ignore-comment audit: a suppression (RH-6) or coverage exclusion (RH-7) added without a
justification on its line (`# noqa: E501 -- generated table`, `// eslint-disable-line no-console --
CLI output`, `# type: ignore[arg-type]  # the test's literal facts`) is listed in `unjustified`,
with the fix in `fixes`; one rule for every language (audit.py).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import PurePosixPath

from evidence_gate.code_lines import same_code
from evidence_gate.integrity import compare, configs
from evidence_gate.integrity.audit import audit_line
from evidence_gate.integrity.idioms import Idioms, TagIdioms
from evidence_gate.model import Change, ChangedFile, ChangedLine, FileKind, FileStatus, Hunk

TEST_SIDE = frozenset({FileKind.TEST, FileKind.TEST_HELPER, FileKind.TEST_DATA})
GATE_KINDS = frozenset({*TEST_SIDE, FileKind.CI, FileKind.GATE_CONFIG, FileKind.SNAPSHOT})
CONFIG_KINDS = frozenset({FileKind.CI, FileKind.GATE_CONFIG})
THRESHOLD_KINDS = frozenset({*CONFIG_KINDS, FileKind.TEST, FileKind.TEST_HELPER})
UNPAIRED = "RH-15?"
AUDITED = frozenset({"RH-6", "RH-7"})


@dataclass(frozen=True, kw_only=True)
class TaggedHunk:
    path: str
    kind: FileKind
    header: str  # `@@ -a,b +c,d @@ section`, or what stands for a hunk without lines (`binary`)
    tags: tuple[str, ...]  # RH-n, in number order
    added: tuple[ChangedLine, ...]
    removed: tuple[ChangedLine, ...]
    unjustified: tuple[int, ...] = ()  # new line numbers of suppressions added without a reason
    audited: tuple[int, ...] = ()  # new line numbers of every suppression and coverage exclusion added
    fixes: tuple[tuple[int, str], ...] = ()  # an unjustified line's number, and its directive with a reason's place


@dataclass(frozen=True, kw_only=True)
class Inventory:
    hunks: tuple[TaggedHunk, ...]  # every gate edit, in the diff's order
    languages_unlisted: tuple[str, ...]  # gate edits' file types no tag has idioms for (`*.ex`)

    @property
    def tagged(self) -> tuple[TaggedHunk, ...]:
        return tuple(hunk for hunk in self.hunks if hunk.tags)


def inventory(change: Change, idioms: Idioms, read: configs.Read | None = None) -> Inventory:
    """`read` (a file's text at a revision) lets the lint, type-check and coverage configuration
    files the change touches be read whole, for what loosens them (configs.py)."""
    moves = {changed.path: _Moved(changed) for changed in change.files}
    relaxed = _relaxed_thresholds(change, idioms, moves, read)
    for where, narrowed in _narrowed(change, idioms, moves).items():
        relaxed.setdefault(where, set()).update(narrowed)
    if read is not None:
        for where, loosened in configs.relaxed(change, idioms.configs, read).items():
            relaxed.setdefault(where, set()).update(loosened)
    tests_changed = any(changed.kind in TEST_SIDE or changed.changes_tests for changed in change.files)
    hunks: list[TaggedHunk] = []
    unlisted: dict[str, None] = {}
    for changed in change.files:
        language = idioms.language(changed.path)
        found = _file_hunks(changed, language, idioms, relaxed, moves[changed.path])
        if not tests_changed:
            # a hunk that only rewords comments changes no behaviour a test could pin down
            found = [
                _with(hunk, UNPAIRED)
                if hunk.kind is FileKind.PRODUCTION and not same_code(hunk.path, hunk.removed, hunk.added)
                else hunk
                for hunk in found
            ]
        hunks += [hunk for hunk in found if hunk.kind in GATE_KINDS or hunk.tags]
        edit_kind = FileKind.TEST if changed.changes_tests else changed.kind  # what its gate edits are
        idioms_apply = (
            edit_kind in GATE_KINDS and edit_kind not in (FileKind.SNAPSHOT, FileKind.TEST_DATA) and not changed.binary
        )
        if idioms_apply and not idioms.covers(language, idiom_kind(edit_kind)):
            unlisted[_file_type(changed.path)] = None
    return Inventory(hunks=tuple(hunks), languages_unlisted=tuple(unlisted))


def resolve_unpaired(found: Inventory, executed: Mapping[str, tuple[frozenset[int], frozenset[int]]]) -> Inventory:
    """`RH-15?` settled by coverage (`executed`: a measured file's measured lines and those a test
    ran): a production hunk whose added executable lines no test ran becomes `RH-15`; one a test
    ran, or with nothing executable, loses the tag. A file no report measured keeps `RH-15?`."""
    hunks = []
    for hunk in found.hunks:
        if UNPAIRED not in hunk.tags or hunk.path not in executed:
            hunks.append(hunk)
            continue
        measured, covered = executed[hunk.path]
        lines = [line.number for line in hunk.added if line.number in measured]
        tags = tuple(tag for tag in hunk.tags if tag != UNPAIRED)
        if lines and not any(line in covered for line in lines):
            tags = _ordered((*tags, UNPAIRED.rstrip("?")))
        if tags or hunk.kind in GATE_KINDS:
            hunks.append(replace(hunk, tags=tags))
    return Inventory(hunks=tuple(hunks), languages_unlisted=found.languages_unlisted)


def mark(found: Inventory, paths: set[str], tag: str) -> Inventory:
    """`found` with `tag` on every hunk of these paths (the frozen tests a change touches: RH-14)."""
    hunks = tuple(_with(hunk, tag) if hunk.path in paths else hunk for hunk in found.hunks)
    return Inventory(hunks=hunks, languages_unlisted=found.languages_unlisted)


def _file_hunks(
    changed: ChangedFile,
    language: str | None,
    idioms: Idioms,
    relaxed: dict[tuple[str, int], set[str]],
    moved: _Moved,
) -> list[TaggedHunk]:
    structural = _structural_tags(changed)
    if not changed.hunks or changed.status is FileStatus.DELETED:  # a deleted file: what it was says it all
        header = "binary" if changed.binary else str(changed.status)
        hunks = changed.hunks or (None,)
        return [
            TaggedHunk(
                path=changed.path,
                kind=changed.kind,
                header=header if hunk is None else _header(hunk),
                tags=structural,
                added=() if hunk is None else hunk.added,
                removed=() if hunk is None else hunk.removed,
            )
            for hunk in hunks
        ]
    tests = changed.hunks if changed.inline_tests is None else changed.test_hunks  # a source file's: its tests'
    added_in_file = moved.new(tuple(line for hunk in tests for line in hunk.added))
    removed_in_file = moved.gone(tuple(line for hunk in tests for line in hunk.removed))
    fewer_tests = compare.definitions(added_in_file, language, idioms) < compare.definitions(
        removed_in_file, language, idioms
    )
    tagged = []
    for index, whole in enumerate(changed.hunks):
        for hunk_kind, hunk in _parts(changed, whole):
            tagged.append(
                _tagged(changed, index, hunk_kind, hunk, language, idioms, relaxed, moved, fewer_tests=fewer_tests)
            )
    return tagged


def _parts(changed: ChangedFile, hunk: Hunk) -> list[tuple[FileKind, Hunk]]:
    """A hunk as its kinds of line: a source file's lines in its own tests apart from its code."""
    if changed.inline_tests is None:
        return [(changed.kind, hunk)]
    test, production = changed.test_part(hunk), changed.production_part(hunk)
    return [(kind, part) for kind, part in ((FileKind.TEST, test), (changed.kind, production)) if part is not None]


def _tagged(
    changed: ChangedFile,
    index: int,
    hunk_kind: FileKind,
    hunk: Hunk,
    language: str | None,
    idioms: Idioms,
    relaxed: dict[tuple[str, int], set[str]],
    moved: _Moved,
    *,
    fewer_tests: bool,
) -> TaggedHunk:
    """One hunk (or its part of `hunk_kind`: a source file's lines in its own tests, or the rest), tagged."""
    kind = idiom_kind(hunk_kind)
    added, removed = moved.new(hunk.added), moved.gone(hunk.removed)
    added_screen, removed_screen = idioms.screen(kind, language)
    idiom_lines = (added_screen is not None and any(added_screen.search(line) for line in added)) or (
        removed_screen is not None and any(removed_screen.search(line) for line in removed)
    )
    tags = [
        tag.id
        for tag in (idioms.tags if idiom_lines else ())
        if kind in tag.kinds and _carries(tag, language, added, removed)
    ]
    if kind is FileKind.TEST:
        if fewer_tests and compare.definitions(removed, language, idioms):
            tags.append("RH-3")
        if compare.assertions_lost(removed, added, language, idioms):
            tags.append("RH-4")
        if compare.expectation_changed(removed, added, language, idioms):
            tags.append("RH-5")
    if changed.inline_tests is None or hunk_kind is FileKind.TEST:  # a source file's thresholds: its tests'
        tags += relaxed.get((changed.path, index), set())
    if changed.kind in CONFIG_KINDS and (
        compare.switched_off(added, idioms) or compare.severity_lowered(removed, added, idioms)
    ):
        tags.append("RH-8")
    if changed.kind is FileKind.CI:
        added_in_file = moved.new(changed.added_lines)
        if compare.checks_removed(removed, added_in_file, idioms) or compare.needs_dropped(removed, added_in_file):
            tags.append("RH-10")
    audited, fixes = _audited(hunk, set(added), language, idioms, tags)
    return TaggedHunk(
        path=changed.path,
        kind=hunk_kind,
        header=_header(hunk),
        tags=_ordered((*tags, *_structural_tags(changed))),
        added=hunk.added,
        removed=hunk.removed,
        unjustified=tuple(number for number, _ in fixes),
        audited=audited,
        fixes=fixes,
    )


def _unpaired(hunk: TaggedHunk) -> TaggedHunk:
    """A production hunk of a change without tests is `RH-15?`, unless its code stayed as it was."""
    return hunk if same_code(hunk.path, hunk.removed, hunk.added) else _with(hunk, UNPAIRED)


def idiom_kind(kind: FileKind) -> FileKind:
    """The kind whose idioms a file's lines are read with: a test helper's are a test's; data has none."""
    return FileKind.TEST if kind is FileKind.TEST_HELPER else kind


def _relaxed_thresholds(
    change: Change, idioms: Idioms, moves: dict[str, _Moved], read: configs.Read | None
) -> dict[tuple[str, int], set[str]]:
    """The tags (RH-8, RH-13) of every hunk, by (path, hunk index), that sets a threshold the change
    relaxes, comparing all configuration, CI and test files together (a threshold moved between
    files keeps its value). A copied file's lines the diff does not show (its source's) are set by
    it too: read whole, when `read` can."""
    removed: list[tuple[str, int, compare.Setting]] = []
    added: list[tuple[str, int, compare.Setting]] = []
    screen = idioms.threshold_screen
    for changed in change.files:
        if changed.kind not in THRESHOLD_KINDS and changed.inline_tests is None:
            continue
        moved = moves[changed.path]
        text = read(change.head, changed.path) if read and changed.status is FileStatus.COPIED else None
        if text is not None:
            shown = {line.number for line in changed.added_lines}
            kept = [line for number, line in enumerate(text.splitlines(), start=1) if number not in shown]
            added += [(changed.path, -1, s) for s in compare.settings(kept, idioms.thresholds, screen)]
        for index, whole in enumerate(changed.hunks):
            hunk = changed.test_part(whole) if changed.inline_tests is not None else whole  # a source file's tests
            if hunk is None:
                continue
            removed += [
                (changed.path, index, s) for s in compare.settings(moved.gone(hunk.removed), idioms.thresholds, screen)
            ]
            added += [
                (changed.path, index, s) for s in compare.settings(moved.new(hunk.added), idioms.thresholds, screen)
            ]
    keys = compare.relaxed_keys([s for _, _, s in removed], [s for _, _, s in added])
    relaxed: dict[tuple[str, int], set[str]] = {}
    for path, index, setting in (*removed, *added):
        if setting.key in keys:
            relaxed.setdefault((path, index), set()).add(setting.tag)
    return relaxed


def _narrowed(change: Change, idioms: Idioms, moves: dict[str, _Moved]) -> dict[tuple[str, int], set[str]]:
    """RH-12 for every hunk, by (path, hunk index), that removes a test command's whole scope
    (`go test ./...`) that no CI or configuration line the change adds, in any file, runs again."""
    if not idioms.narrowed:
        return {}
    removed: list[tuple[str, int, set[tuple[str, str]]]] = []
    kept: set[tuple[str, str]] = set()
    for changed in change.files:
        if changed.kind not in CONFIG_KINDS:
            continue
        moved = moves[changed.path]
        for index, hunk in enumerate(changed.hunks):
            removed.append((changed.path, index, compare.scopes(moved.gone(hunk.removed), idioms.narrowed)))
            kept |= compare.scopes(moved.new(hunk.added), idioms.narrowed)
    return {(path, index): {"RH-12"} for path, index, lost in removed if lost - kept}


def _carries(tag: TagIdioms, language: str | None, added: list[str], removed: list[str]) -> bool:
    return any(tag.matches(tag.added, language, line) for line in added) or any(
        tag.matches(tag.removed, language, line) for line in removed
    )


def _audited(
    hunk: Hunk, added: set[str], language: str | None, idioms: Idioms, tags: list[str]
) -> tuple[tuple[int, ...], tuple[tuple[int, str], ...]]:
    """The lines that add a suppression or exclusion (of the audited tags the hunk carries), and
    those of them with no reason on their line, each with its fix."""
    audited = [tag for tag in idioms.tags if tag.id in AUDITED and tag.id in tags]
    found: list[int] = []
    fixes: list[tuple[int, str]] = []
    for line in hunk.added if audited else ():
        if line.text not in added:
            continue
        for tag in audited:
            judged = audit_line(line.text, tag.applicable(tag.added, language), language, idioms.audit)
            if judged is not None:
                found.append(line.number)
                if not judged.justified:
                    fixes.append((line.number, judged.fix))
                break
    return tuple(found), tuple(fixes)


def _structural_tags(changed: ChangedFile) -> tuple[str, ...]:
    if changed.kind is FileKind.TEST and changed.status is FileStatus.DELETED:
        return ("RH-3",)
    if changed.kind is FileKind.SNAPSHOT and changed.status not in (FileStatus.ADDED, FileStatus.COPIED):
        return ("RH-11",)  # a new snapshot (a copy of another too) records, it rewrites nothing
    return ()


class _Moved:
    """The lines of one file that a change moves rather than adds or removes: an added line whose
    stripped text the file also loses (and so the other way round), as often as it loses it."""

    def __init__(self, changed: ChangedFile) -> None:
        removed = [line.text.strip() for line in changed.removed_lines]
        added = [line.text.strip() for line in changed.added_lines]
        both = set(removed).intersection(added)
        self._removed = Counter(text for text in removed if text in both) if both else Counter()
        self._added = Counter(text for text in added if text in both) if both else Counter()

    def new(self, lines: tuple[ChangedLine, ...]) -> list[str]:
        return _unmatched(lines, self._removed)

    def gone(self, lines: tuple[ChangedLine, ...]) -> list[str]:
        return _unmatched(lines, self._added)


def _unmatched(lines: tuple[ChangedLine, ...], other_side: Counter[str]) -> list[str]:
    if not other_side:  # nothing moves in this file: every line is new (or gone)
        return [line.text for line in lines]
    budget = Counter(other_side)
    kept = []
    for line in lines:
        text = line.text.strip()
        if text and budget[text] > 0:
            budget[text] -= 1
            continue
        kept.append(line.text)
    return kept


def _with(hunk: TaggedHunk, tag: str) -> TaggedHunk:
    return TaggedHunk(
        path=hunk.path,
        kind=hunk.kind,
        header=hunk.header,
        tags=_ordered((*hunk.tags, tag)),
        added=hunk.added,
        removed=hunk.removed,
        unjustified=hunk.unjustified,
        audited=hunk.audited,
        fixes=hunk.fixes,
    )


def _ordered(tags: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(sorted(dict.fromkeys(tags), key=lambda tag: int(tag[3:].rstrip("?"))))


def _header(hunk: Hunk) -> str:
    section = f" {hunk.section}" if hunk.section else ""
    return f"@@ -{hunk.old_start},{hunk.old_lines} +{hunk.new_start},{hunk.new_lines} @@{section}"


def _file_type(path: str) -> str:
    suffix = PurePosixPath(path).suffix
    return f"*{suffix}" if suffix else PurePosixPath(path).name
