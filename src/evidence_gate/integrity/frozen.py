"""Frozen red tests (test-first): acceptance tests proven red, then frozen, so that no later change
edits them to reach green. The record, `.evidence-gate/red-tests.json`, is written by
`evidence-gate freeze` for the author to commit:

    {"version": 1, "frozen": [paths], "commit": "<sha>", "parked": [{"criterion": "[S-1#2]", "why": "..."}],
     "kinds": {path: "does not load yet"}}

A frozen file is red because a test of it fails, or, named in `kinds`, because it does not load yet:
it imports a name the change has still to write.

From then on a change to a frozen path between the record's commit and the head is RH-14, a gate
failure, whoever made it. So is a record whose commit is not in the head's history, and a record
edited after the fact. Every version of the record counts: the base's and each one a commit of the
pull request writes, each from its commit on, so red tests frozen on the feature branch are held
as those frozen on the base; a path any version froze that a later one drops, or a record deleted,
is a failure said as such.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import PurePosixPath
from typing import Any

from evidence_gate.documents import load_json, schema_errors, schema_message
from evidence_gate.errors import UsageError
from evidence_gate.git import Git

RECORD = PurePosixPath(".evidence-gate/red-tests.json")
MAX_RECORD_BYTES = 1024 * 1024
MAX_RECORD_VERSIONS = 200  # commits of one pull request that change the record, each read
FROZEN_CHANGED = "RH-14"
NOT_LOADING_YET = "does not load yet"  # the kind of a red test that imports a name not written yet
_SCHEMA: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "required": ["version", "frozen", "commit", "parked"],
    "properties": {
        "version": {"const": 1},
        "frozen": {
            "type": "array",
            "maxItems": 10_000,
            "items": {"type": "string", "minLength": 1, "maxLength": 4096},
        },
        "commit": {"type": "string", "pattern": "^[0-9a-f]{40}([0-9a-f]{24})?$"},
        "kinds": {
            "type": "object",
            "maxProperties": 10_000,
            "additionalProperties": {"enum": [NOT_LOADING_YET]},
        },
        "parked": {
            "type": "array",
            "maxItems": 1_000,
            "items": {
                "type": "object",
                "additionalProperties": False,
                "required": ["criterion", "why"],
                "properties": {
                    "criterion": {"type": "string", "maxLength": 200},
                    "why": {"type": "string", "maxLength": 2000},
                },
            },
        },
    },
}


@dataclass(frozen=True, kw_only=True)
class Parked:
    criterion: str  # its tag, `[S-1#2]`
    why: str  # why it could not be proven red


@dataclass(frozen=True, kw_only=True)
class FrozenRecord:
    frozen: tuple[str, ...]
    commit: str
    parked: tuple[Parked, ...] = ()
    kinds: Mapping[str, str] = field(default_factory=dict)  # path -> NOT_LOADING_YET; a failing test's is left out

    def document(self) -> dict[str, object]:
        return {
            "version": 1,
            "frozen": list(self.frozen),
            "commit": self.commit,
            "parked": [{"criterion": item.criterion, "why": item.why} for item in self.parked],
            "kinds": dict(self.kinds),
        }


@dataclass(frozen=True, kw_only=True)
class FrozenCheck:
    """What the head does to the frozen tests: none recorded, or the frozen paths it changed since
    the record's commit, and the problems with the record itself (each a failure)."""

    record: FrozenRecord | None
    changed: tuple[str, ...] = ()
    problems: tuple[str, ...] = ()

    @property
    def failures(self) -> tuple[str, ...]:
        changed = tuple(
            f"frozen red test changed: {path}. Make it pass by changing production code, and put the test back"
            " as it was."
            for path in self.changed
        )
        return (*self.problems, *changed)


def parse_record(data: bytes, source: str) -> FrozenRecord:
    if len(data) > MAX_RECORD_BYTES:
        raise UsageError(f"{source}: larger than {MAX_RECORD_BYTES:,} bytes; not a freeze record")
    document = load_json(data, source, UsageError)
    errors = schema_errors(_SCHEMA, document)
    if errors:
        where = "/".join(str(part) for part in errors[0].absolute_path) or "(top level)"
        raise UsageError(f"{source}: not a freeze record: {where}: {schema_message(errors[0])}")
    return FrozenRecord(
        frozen=tuple(document["frozen"]),
        commit=document["commit"],
        parked=tuple(Parked(criterion=item["criterion"], why=item["why"]) for item in document["parked"]),
        kinds=dict(document.get("kinds", {})),
    )


def record_json(record: FrozenRecord) -> str:
    return json.dumps(record.document(), indent=2, ensure_ascii=True) + "\n"


def check_frozen(git: Git, base: str, head: str) -> FrozenCheck:
    """The frozen tests against the head. Every record counts from its commit on: the base's, and
    each one a commit of the pull request writes (test-first work freezes on the feature branch). A
    path once frozen stays frozen: a later version of the record that drops it, or deletes the
    record, fails as a record edited after the fact."""
    commits = git.commits_changing(base, head, RECORD, MAX_RECORD_VERSIONS)
    if commits is None:
        return FrozenCheck(
            record=None,
            problems=(f"more than {MAX_RECORD_VERSIONS} commits of the pull request change {RECORD}: not judged",),
        )
    versions = [("the base", base), *((f"commit {commit[:12]}", commit) for commit in commits)]
    sizes = [git.size_at(commit, RECORD) for _, commit in versions]
    if all(size is None for size in sizes):
        return FrozenCheck(record=None)
    since: dict[str, str] = {}  # each frozen path -> the commit of the first record that froze it
    governing: FrozenRecord | None = None
    problems: list[str] = []
    for (where, commit), size in zip(versions, sizes, strict=True):
        if size is None:
            if since:
                problems.append(f"{where} deletes {RECORD}, which froze {len(since)} red tests")
            continue
        try:
            if size > MAX_RECORD_BYTES:  # refused unread: a version may be a gigabyte
                raise UsageError(f"{RECORD} at {where}: larger than {MAX_RECORD_BYTES:,} bytes; not a freeze record")
            record = parse_record(git.file_at(commit, RECORD) or b"", f"{RECORD} at {where}")
        except UsageError as error:
            problems.append(f"the freeze record cannot be read: {error.one_line()}")
            continue
        governing = governing or record
        dropped = sorted(set(since) - set(record.frozen))
        if dropped:
            problems.append(f"the pull request removes frozen tests from {RECORD}: {', '.join(dropped[:5])}")
        if not git.is_ancestor(record.commit, head):
            problems.append(f"the freeze record's commit {record.commit[:12]} is not an ancestor of the head")
            continue
        for path in record.frozen:
            since.setdefault(path, record.commit)
    changed: list[str] = []
    for commit in dict.fromkeys(since.values()):
        changed += git.paths_changed(commit, head, [path for path, first in since.items() if first == commit])
    return FrozenCheck(record=governing, changed=tuple(dict.fromkeys(changed)), problems=tuple(dict.fromkeys(problems)))
