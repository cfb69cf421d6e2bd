"""Per-criterion evidence: is each acceptance criterion proven by a named, passing test?

A criterion is tagged in test names as `[<story-id>#<n>]`. It is `green` when tests carry its tag
and every one of them passed; `red` when one of them failed or was skipped, or when the tag is in
the test sources but no test in the reports carries it (the suite could not even load); `missing`
when nothing carries it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

from evidence_gate.criteria_source import Criterion
from evidence_gate.errors import UsageError
from evidence_gate.model import TestSummary
from evidence_gate.summary.parsers.junit import CaseResult

_STORY = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$")


class CriterionStatus(StrEnum):
    GREEN = "green"
    RED = "red"
    MISSING = "missing"


@dataclass(frozen=True, kw_only=True)
class CriterionResult:
    criterion: Criterion
    tag: str
    status: CriterionStatus
    reason: str
    tests: tuple[tuple[str, str], ...] = ()  # (test name, outcome)

    def document(self) -> dict[str, object]:
        return {
            "n": self.criterion.number,
            "tag": self.tag,
            "text": self.criterion.text,
            "status": str(self.status),
            "reason": self.reason,
            "tests": [{"name": name, "outcome": outcome} for name, outcome in self.tests],
        }


@dataclass(frozen=True, kw_only=True)
class CommandOutcome:
    """One filtered test command's run for one criterion."""

    command: str
    exit_code: int
    summary: TestSummary


def check_story(story: str) -> str:
    """A story id goes into tags, test filters and shell commands: letters, digits, . _ - only."""
    if not _STORY.match(story):
        raise UsageError(f"--story {story!r}: use letters, digits, '.', '_' and '-' (at most 64)")
    return story


def tag_of(story: str, number: int) -> str:
    return f"[{story}#{number}]"


def from_reports(
    story: str,
    criteria: Sequence[Criterion],
    cases: Sequence[CaseResult],
    tagged_sources: Mapping[str, Sequence[str]],
) -> tuple[CriterionResult, ...]:
    """Judge each criterion by the test cases of JUnit reports. `tagged_sources` maps a tag to the
    places (`path:line`) in the test sources that carry it."""
    results = []
    for criterion in criteria:
        tag = tag_of(story, criterion.number)
        tests = tuple((case.display_name, case.outcome) for case in cases if tag in case.name or tag in case.classname)
        status, reason = _judge(tests, tagged_sources.get(tag, ()))
        results.append(CriterionResult(criterion=criterion, tag=tag, status=status, reason=reason, tests=tests))
    return tuple(results)


def _judge(tests: tuple[tuple[str, str], ...], sources: Sequence[str]) -> tuple[CriterionStatus, str]:
    if not tests:
        if sources:
            where = ", ".join(sources[:3])
            return (
                CriterionStatus.RED,
                f"the tag is in the test sources ({where}) but no test in the reports carries it:"
                " the suite may not have loaded",
            )
        return CriterionStatus.MISSING, "no test names it"
    unproven = [(name, outcome) for name, outcome in tests if outcome != "passed"]
    if unproven:
        listed = ", ".join(f"{name} ({outcome})" for name, outcome in unproven[:5])
        return CriterionStatus.RED, f"{len(unproven)} of {len(tests)} tests did not pass: {listed}"
    return CriterionStatus.GREEN, f"{len(tests)} tests passed"


def from_command(criterion: Criterion, tag: str, outcome: CommandOutcome) -> CriterionResult:
    """Judge a criterion by its filtered test command: green when it exited 0 and ran a test."""
    status, reason = _judge_command(outcome)
    return CriterionResult(criterion=criterion, tag=tag, status=status, reason=reason)


def _judge_command(outcome: CommandOutcome) -> tuple[CriterionStatus, str]:
    counts = outcome.summary.counts
    ran = f"`{outcome.command}` exited {outcome.exit_code}"
    if outcome.exit_code != 0:
        return CriterionStatus.RED, ran + (f", {counts.failed} failed" if counts and counts.failed else "")
    if counts is None:
        return CriterionStatus.RED, f"{ran}, but no test count could be read ({outcome.summary.reason})"
    if counts.executed == 0:
        return CriterionStatus.MISSING, f"{ran}: no test ran"
    return CriterionStatus.GREEN, f"{ran}: {counts.executed} tests passed"
