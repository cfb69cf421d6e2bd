"""Are the tests the base commit ran still run? A pull request can turn a suite green by deleting it.

Against the base commit's digest (counts, test identities, names):

| rule | verdict |
|---|---|
| a test the base ran (passed or failed) is missing | fail, naming it |
| fewer tests executed than at the base | fail: deleting a test is not a way to green |
| no identities on one side (no JUnit report) | the counts alone decide |

A missing test the change deletes (its name, without parameters, `[3]`, or subtest, `/case`,
stands as a word on a line the change removed from a test file; a deleted test file's lines all
count as removed) is named as deleted by the change, and still fails: the executed count may not
fall below the baseline's. A missing test the digest has no name for fails as "N more unnamed".
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from evidence_gate.model import Counts

IN_REASON = 5  # names in the gate's one-line summary
MAX_NAMED = 50  # names listed in its details


@dataclass(frozen=True, kw_only=True)
class KeptTestsFacts:
    base_counts: Counts | None
    base_tests: dict[str, str]  # test id -> outcome at the base
    base_names: dict[str, str]  # test id -> name, for those the base's digest kept
    counts: Counts | None
    tests: dict[str, str]  # test id -> outcome in this run
    removed_test_lines: tuple[str, ...]  # lines the change removed from test files


@dataclass(frozen=True, kw_only=True)
class KeptTestsVerdict:
    ok: bool
    reason: str
    details: tuple[str, ...] = ()


def evaluate_kept_tests(facts: KeptTestsFacts) -> KeptTestsVerdict:
    base, now = facts.base_counts, facts.counts
    if base is None or now is None:
        return KeptTestsVerdict(ok=True, reason="no count on one side to compare with the base")
    compared = bool(facts.base_tests) and bool(facts.tests)
    missing = [
        identity
        for identity, outcome in facts.base_tests.items()
        if compared and outcome != "skipped" and identity not in facts.tests
    ]
    removed = _removed_words(facts.removed_test_lines)
    deleted = [identity for identity in missing if _deleted(facts.base_names.get(identity), removed)]
    lost = [identity for identity in missing if identity not in deleted]
    shortfall = base.executed - now.executed
    details = (f"{len(deleted)} tests the base ran are gone with the lines the change deletes",) if deleted else ()
    gone = sorted(name for identity in deleted if (name := facts.base_names.get(identity)) is not None)
    named_deleted = tuple(f"deleted by the change: {name}" for name in gone[:MAX_NAMED])
    if lost:
        names = sorted(name for identity in lost if (name := facts.base_names.get(identity)) is not None)
        unnamed = len(lost) - len(names)
        listed = _listed(names, unnamed, IN_REASON)
        reason = f"{len(lost)} tests the base ran are missing, and the change does not delete them: {listed}"
        missing = [f"missing: {name}" for name in names[:MAX_NAMED]]
        if cut := _listed(names[MAX_NAMED:], unnamed, 0):
            missing.append(f"missing: {cut}")
        return KeptTestsVerdict(ok=False, reason=reason, details=(*details, *missing, *named_deleted))
    if shortfall > 0:
        now_skipped = sum(
            1
            for identity, outcome in facts.tests.items()
            if outcome == "skipped" and facts.base_tests.get(identity) not in (None, "skipped")
        )
        why = (
            f"deleted by the change: {_listed(gone, len(deleted) - len(gone), IN_REASON)}"
            if deleted
            else "no test identities on both sides to tell which tests went missing"
            if not compared
            else f"{now_skipped} now skipped"
            if now_skipped
            else "none of the base's tests is missing by name"
        )
        reason = f"{shortfall} fewer tests executed than at the base ({base.executed} -> {now.executed}; {why})"
        return KeptTestsVerdict(ok=False, reason=reason, details=(*details, *named_deleted))
    return KeptTestsVerdict(
        ok=True, reason=f"{now.executed} tests executed, {base.executed} at the base", details=details
    )


def _listed(names: list[str], unnamed: int, shown: int) -> str:
    """The first `shown` names, then how many more there are, named or not."""
    parts = [", ".join(names[:shown])] if names[:shown] else []
    if len(names) > shown:
        parts.append(f"... {len(names) - shown} more")
    if unnamed:
        parts.append(f"{unnamed} more unnamed" if parts else f"{unnamed} unnamed")
    return ", ".join(parts)


_WORD = re.compile(r"\w+")


def _removed_words(lines: Iterable[str]) -> set[str]:
    return {word for line in lines for word in _WORD.findall(line)}


def _deleted(name: str | None, removed: set[str]) -> bool:
    """Whether the change removed the line that defined this test: its bare name stands as a word on
    a removed line of a test file."""
    if name is None:
        return False
    bare = re.split(r"[\[(/]", name.rsplit("::", 1)[-1], maxsplit=1)[0].strip()
    bare = bare.rsplit(".", 1)[-1].rsplit(" ", 1)[-1]
    return bool(bare) and bare in removed
