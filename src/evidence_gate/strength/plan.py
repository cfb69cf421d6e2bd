"""What a strength run does with a change: which test files it judges, and how it takes the
production change away for the second run. Pure: the change in, the plan out.

Production files go back whole: a file the change modified or deleted is restored from the merge
base, a file it added is removed, a renamed one moves back. Test, CI, configuration and snapshot
files stay as the head has them: the question is whether the head's tests need the head's code.

A source file that holds its own tests (Rust's `#[cfg(test)]` modules) and whose tests changed is a
changed test file. When its production code changed too, only that goes back: its production lines
as the base has them, its test lines as the head has them (partial.py). A file added, renamed or
copied goes back whole, its tests with it: without the change there are none to run, and the run
says so (unjudged, never red or still-green).

A change that touches production code and test helpers or test data (a fixture module, conftest.py,
a data file) but no test file is judged through the tests that use them: the head's test files that
name a changed helper (its file name, or a module's name: `builders` for tests/helpers/builders.py,
`common` for tests/common/mod.rs), else those of its folder (the nearest folder above it that holds
any; conftest.py applies to its folder by design). At most THROUGH_CAP of them are run, nearest first.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import PurePosixPath

from evidence_gate.code_lines import code_unchanged, same_code
from evidence_gate.model import Change, ChangedFile, FileKind, FileStatus

_ADDED = (FileStatus.ADDED, FileStatus.COPIED)
_IN_PLACE = (FileStatus.MODIFIED, FileStatus.MODE_CHANGE)  # a file whose production lines can go back alone
SUPPORT_KINDS = (FileKind.TEST_HELPER, FileKind.TEST_DATA)
THROUGH_CAP = 25  # test files judged for changed helpers: each runs two or three times
_FOLDER_MODULES = frozenset(
    {"mod.rs", "main.rs", "lib.rs", "__init__.py", "index.js", "index.ts", "index.mjs", "index.cjs"}
)
_BY_FOLDER = frozenset({"conftest.py", "__init__.py", "test_helper.exs", "spec_helper.rb", "rails_helper.rb"})


@dataclass(frozen=True, kw_only=True)
class Plan:
    tests: tuple[str, ...]  # the changed test files the head has, in the diff's order
    restore: tuple[str, ...]  # production paths brought back as the merge base has them
    remove: tuple[str, ...]  # production paths the change added: gone for the second run
    merge_base: str
    through: Mapping[str, str] = field(default_factory=dict)  # a test judged for a changed helper -> why
    note: str | None = None  # why changed helpers brought no test to judge
    comments_only: tuple[str, ...] = ()  # production files whose change is comments and blank lines only
    partial: tuple[str, ...] = ()  # files holding their own tests: production lines back, test lines the head's

    @property
    def reverts(self) -> bool:
        return bool(self.restore or self.remove or self.partial)

    @property
    def production(self) -> tuple[str, ...]:
        return (*self.restore, *self.remove, *self.partial)


def plan(change: Change, head_tests: Mapping[str, str] | None = None) -> Plan:
    """`head_tests`: the head's test files and their text, to judge a change whose only test-side
    files are helpers or data through the tests that use them (None: not looked up)."""
    tests = [
        changed.path
        for changed in change.files
        if changed.changes_tests and changed.status is not FileStatus.DELETED and not changed.binary
    ]
    restore: dict[str, None] = {}
    remove: dict[str, None] = {}
    partial: dict[str, None] = {}
    comments_only: list[str] = []
    for changed in change.of_kind(FileKind.PRODUCTION):
        if _production_unchanged(changed):  # nothing to take away: reverting it cannot make a test fail
            comments_only.append(changed.path)
        elif changed.inline_tests is not None and changed.status in _IN_PLACE:
            partial[changed.path] = None
        elif changed.status in _ADDED:
            remove[changed.path] = None
        elif changed.status is FileStatus.RENAMED and changed.old_path is not None:
            remove[changed.path] = None
            restore[changed.old_path] = None
        else:
            restore[changed.path] = None
    helpers = {changed.path: changed.kind for changed in change.files if changed.kind in SUPPORT_KINDS}
    through: dict[str, str] = {}
    note = None
    if not tests and helpers and (restore or remove or partial) and head_tests is not None:
        through, note = judged_through(helpers, head_tests)
        tests = list(through)
    return Plan(
        tests=tuple(tests),
        restore=tuple(restore),
        remove=tuple(remove),
        merge_base=change.merge_base,
        through=through,
        note=note,
        comments_only=tuple(comments_only),
        partial=tuple(partial),
    )


def _production_unchanged(changed: ChangedFile) -> bool:
    """Whether the file's production code is as it was: comments and blank lines changed only (in a
    file that holds its own tests, the lines outside them)."""
    if changed.inline_tests is None:
        return code_unchanged(changed)
    return all(same_code(changed.path, part.removed, part.added) for part in changed.production_hunks)


def needs_head_tests(change: Change) -> bool:
    """Whether `plan` judges this change through its helpers: production code and helpers or data
    changed, and no test file."""
    kinds = {changed.kind for changed in change.files}
    tests = any(changed.changes_tests for changed in change.files)
    return FileKind.PRODUCTION in kinds and not tests and bool(kinds.intersection(SUPPORT_KINDS))


def judged_through(helpers: Mapping[str, FileKind], head_tests: Mapping[str, str]) -> tuple[dict[str, str], str | None]:
    """The test files judged for changed helpers, each with why (nearest the helper first, at most
    THROUGH_CAP), or none and why none."""
    found: dict[str, tuple[int, str]] = {}  # test -> (distance from the helper's folder, why)
    for helper, kind in helpers.items():
        for test, why in _users(helper, kind is FileKind.TEST_HELPER, head_tests).items():
            distance = _distance(helper, test)
            if test not in found or distance < found[test][0]:
                found[test] = (distance, why)
    if not found:
        paths = list(helpers)
        named = ", ".join(paths[:3]) + (f" and {len(paths) - 3} more" if len(paths) > 3 else "")
        return {}, (
            f"the change touches production code and test helpers or data ({named}) but no test file, and no"
            " test file names them or sits in their folders: nothing to judge"
        )
    chosen = sorted(found, key=lambda test: (found[test][0], test))[:THROUGH_CAP]
    cut = f" ({THROUGH_CAP} of the {len(found)} test files that use them judged)" if len(found) > THROUGH_CAP else ""
    return {test: found[test][1] + cut for test in chosen}, None


def _users(helper: str, code: bool, head_tests: Mapping[str, str]) -> dict[str, str]:
    """The head's test files that name `helper` (a data file by its file name, code by its module
    name too), else those of its nearest folder that holds any."""
    path = PurePosixPath(helper)
    if path.name not in _BY_FOLDER:
        pattern = _reference(path, code)
        named = {
            test: f"judged for {helper}, which it names" for test, text in head_tests.items() if pattern.search(text)
        }
        if named:
            return named
    for folder in path.parents:
        if folder == PurePosixPath("."):
            break
        prefix = folder.as_posix() + "/"
        what = "a test helper" if code else "test data"
        beside = {
            test: f"judged for {helper}, {what} of its folder {prefix}"
            for test in head_tests
            if test.startswith(prefix)
        }
        if beside:
            return beside
    return {}


def _reference(path: PurePosixPath, code: bool) -> re.Pattern[str]:
    """The helper's file name, or a module's name (a folder's module file is named by its folder)."""
    module = path.parent.name if path.name in _FOLDER_MODULES and path.parent.name else path.stem
    names = sorted({path.name, module if code else ""} - {""}, key=len, reverse=True)
    return re.compile(r"(?<![\w-])(?:" + "|".join(re.escape(name) for name in names) + r")(?![\w-])")


def _distance(helper: str, test: str) -> int:
    """How many folders apart two files are, through their common folder."""
    one, other = PurePosixPath(helper).parent.parts, PurePosixPath(test).parent.parts
    common = 0
    for left, right in zip(one, other, strict=False):
        if left != right:
            break
        common += 1
    return len(one) + len(other) - 2 * common
