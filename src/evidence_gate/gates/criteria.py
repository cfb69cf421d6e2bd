"""Per-criterion evidence: is each acceptance criterion proven by a named, passing test?

A criterion is tagged in test names as `[<story-id>#<n>]`. It is `green` when tests carry its tag
and every one of them passed; `red` when one of them failed or was skipped, or when the tag is in
the test sources but no test in the reports carries it (the suite could not even load); `missing`
when nothing carries it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import PurePosixPath

from evidence_gate.criteria_source import (
    TagTally,
    TooManyCriteria,
    criteria_from_body,
    parked_items,
    tagged_sources,
)
from evidence_gate.effects import Effects
from evidence_gate.errors import UsageError
from evidence_gate.facts import Facts
from evidence_gate.gates.gate import Earlier, Gate
from evidence_gate.integrity.frozen import RECORD, parse_record
from evidence_gate.ledger.model import GateResult, GateVerdict
from evidence_gate.ledger.payloads.criteria import CriteriaData, Criterion, CriterionResult, CriterionStatus
from evidence_gate.model import TestSummary
from evidence_gate.settings import Settings
from evidence_gate.wording import plural

ID = "criteria"
TITLE = "Acceptance criteria"
_STORY = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$")
# JavaScript's syntax characters and `/`: escaping them is valid in a `u`-flag RegExp, Python's re
# and RE2 alike. Anything else escaped (`\-`, `\#`, as re.escape does) is a syntax error under `u`.
_REGEX_SYNTAX = re.compile(r"[.*+?^${}()|\[\]\\/]")


@dataclass(frozen=True, kw_only=True)
class CommandOutcome:
    """One filtered test command's run for one criterion."""

    command: str
    exit_code: int
    summary: TestSummary


def check_story(story: str) -> str:
    """A story id goes into tags, test filters and command arguments: letters, digits, . _ - only."""
    if not _STORY.match(story):
        raise UsageError(f"--story {story!r}: use letters, digits, '.', '_' and '-' (at most 64)")
    return story


def tag_of(story: str, number: int) -> str:
    return f"[{story}#{number}]"


def regex_escaped(text: str) -> str:
    """`text` as a regular expression matching it literally, in the dialects test filters use
    (JavaScript with or without the `u` flag, Python, Go)."""
    return _REGEX_SYNTAX.sub(lambda match: "\\" + match.group(), text)


_MANUAL = re.compile(r"[(\[]manual[)\]]", re.IGNORECASE)
_FILE = re.compile(r"\bfile:?\s*`(?P<path>[^`\s]+)`", re.IGNORECASE)


def named_file(criterion: Criterion) -> str | None:
    """The file a criterion names as its evidence (`file: \u0060docs/x.md\u0060`), when it names one."""
    found = _FILE.search(criterion.text or "")
    return found["path"] if found else None


def from_reports(
    story: str,
    criteria: Sequence[Criterion],
    tagged: Mapping[str, TagTally],
    tagged_sources: Mapping[str, Sequence[str]],
    files: Mapping[str, bool] | None = None,
) -> tuple[CriterionResult, ...]:
    """Judge each criterion by the tagged test cases of JUnit reports. `tagged_sources` maps a tag to
    the places (`path:line`) in the test sources that carry it. A criterion no test names is proven
    by the file it names existing at head (`files`: path -> exists); one marked `(manual)` needs a
    reviewer's judgment: unverifiable, never blocking."""
    results = []
    for criterion in criteria:
        tag = tag_of(story, criterion.number)
        tally = tagged.get(tag)
        status, reason = _judge(tally, tagged_sources.get(tag, ()))
        path = named_file(criterion)
        if status is CriterionStatus.MISSING and path is not None and files is not None:
            exists = files.get(path, False)
            status = CriterionStatus.GREEN if exists else CriterionStatus.RED
            reason = f"the file {path} {'exists' if exists else 'it names is not'} at head"
        elif status is CriterionStatus.MISSING and _MANUAL.search(criterion.text or ""):
            status, reason = CriterionStatus.UNVERIFIABLE, "marked (manual): a reviewer's judgment, not blocking"
        tests = (*tally.unproven_names, *((name, "passed") for name in tally.passed_names)) if tally is not None else ()
        results.append(CriterionResult(criterion=criterion, tag=tag, status=status, reason=reason, tests=tests))
    return tuple(results)


def _judge(tally: TagTally | None, sources: Sequence[str]) -> tuple[CriterionStatus, str]:
    if tally is None:
        if sources:
            where = ", ".join(sources[:3])
            return (
                CriterionStatus.RED,
                f"the tag is in the test sources ({where}) but no test in the reports carries it:"
                " the suite may not have loaded",
            )
        return CriterionStatus.MISSING, "no test names it"
    if tally.unproven:
        listed = ", ".join(f"{name} ({outcome})" for name, outcome in tally.unproven_names[:5])
        return CriterionStatus.RED, f"{tally.unproven:,} of {plural(tally.total, 'test')} did not pass: {listed}"
    return CriterionStatus.GREEN, f"{plural(tally.total, 'test')} passed"


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
    return CriterionStatus.GREEN, f"{ran}: {plural(counts.executed, 'test')} passed"


@dataclass(frozen=True, kw_only=True)
class CriteriaFacts:
    """What the acceptance-criteria gate judges: the PR body's checklist (or why it has none), the
    story, how many reports name test cases, the tagged tests they hold and where the tags stand in
    the test files."""

    checklist: tuple[Criterion, ...]
    checklist_problem: str | None = None  # why the body yields no checklist
    too_many: bool = False  # the checklist is longer than is read: a failure, never a skip
    story: str | None = None
    case_reports: int = 0
    tagged: Mapping[str, TagTally] = field(default_factory=dict)
    sources: Mapping[str, Sequence[str]] = field(default_factory=dict)
    parked: Mapping[str, str] = field(default_factory=dict)  # tag -> why the freeze record parks it
    later: tuple[str, ...] = ()  # the body's items under a `Later` or `Parked` heading
    files: Mapping[str, bool] = field(default_factory=dict)  # a file a criterion names -> whether it is at head


def gather(facts: Facts, settings: Settings, effects: Effects, earlier: Earlier) -> CriteriaFacts:
    """The body's checklist parsed and, when there is something to judge, the tags looked up in the
    test files (one `git grep`)."""
    body = facts.pull_request.body if facts.pull_request else ""
    problem, too_many = None, False
    try:
        criteria: tuple[Criterion, ...] = criteria_from_body(body, "the pull request body") if body else ()
    except TooManyCriteria as error:
        criteria, problem, too_many = (), error.one_line(), True
    except UsageError as error:
        criteria, problem = (), error.one_line()
    story = settings.story
    ready = bool(criteria and story and facts.cases.reports)
    return CriteriaFacts(
        checklist=criteria,
        checklist_problem=problem,
        too_many=too_many,
        story=story,
        case_reports=facts.cases.reports,
        tagged=facts.cases.tagged,
        sources=tagged_sources(story, criteria, effects.git, facts.classifier) if ready and story else {},
        parked=_parked(effects, facts.head) if ready else {},
        later=parked_items(body) if body else (),
        files=_named_files(effects, facts.head, criteria),
    )


def _named_files(effects: Effects, head: str | None, criteria: Sequence[Criterion]) -> dict[str, bool]:
    """Whether each file a criterion names is at head: a relative path inside the checkout only."""
    found: dict[str, bool] = {}
    for criterion in criteria:
        path = named_file(criterion)
        if path is None or path in found:
            continue
        inside = not PurePosixPath(path).is_absolute() and ".." not in PurePosixPath(path).parts
        found[path] = bool(inside and effects.git and head and effects.git.file_at(head, PurePosixPath(path)))
    return found


def _parked(effects: Effects, head: str | None) -> dict[str, str]:
    """The criteria the head's freeze record parks; none without one, or with one that cannot be read
    (the gate-integrity gate says so)."""
    data = effects.git.file_at(head, RECORD) if effects.git and head else None
    try:
        record = parse_record(data, str(RECORD)) if data is not None else None
    except UsageError:
        return {}
    return {item.criterion: item.why for item in record.parked} if record else {}


def judge(facts: CriteriaFacts, settings: Settings) -> GateResult:
    return judge_criteria(facts)


def judge_criteria(facts: CriteriaFacts) -> GateResult:
    """Is each acceptance criterion of the pull request proven by a named, passing test?"""

    def result(
        verdict: GateVerdict, headline: str, details: tuple[str, ...] = (), data: CriteriaData | None = None
    ) -> GateResult:
        return GateResult(id=ID, title=TITLE, verdict=verdict, headline=headline, details=details, data=data)

    criteria = facts.checklist
    if facts.too_many:
        return result(GateVerdict.FAIL, facts.checklist_problem or f"more than {len(criteria)} criteria")
    if not criteria:
        return result(
            GateVerdict.NOT_APPLICABLE,
            facts.checklist_problem or "the pull request body has no '## Acceptance criteria' checklist",
        )
    listed = plural(len(criteria), "acceptance criterion", "acceptance criteria")
    if facts.story is None:
        return result(GateVerdict.UNAVAILABLE, f"{listed}, but no `story` is set to tag tests with [story#n]")
    if not facts.case_reports:
        return result(GateVerdict.UNAVAILABLE, f"{listed}, but no report names test cases (a JUnit XML report does)")
    results = tuple(
        replace(item, status=CriterionStatus.PARKED, reason=f"parked by the freeze: {facts.parked[item.tag]}")
        if item.tag in facts.parked
        else item
        for item in from_reports(facts.story, criteria, facts.tagged, facts.sources, facts.files)
    )
    green = sum(1 for item in results if item.status is CriterionStatus.GREEN)
    judged = sum(1 for item in results if item.status is not CriterionStatus.UNVERIFIABLE)
    texts = {" ".join((item.criterion.text or "").lower().split()) for item in results}
    deferred = [item for item in facts.later if " ".join(item.lower().split()) in texts]
    details = (
        *(
            f"{item.status}: {item.tag} {item.criterion.text or ''}: {item.reason}".replace("  ", " ")
            for item in results
        ),
        *(f"parked (Later): {item}" for item in facts.later),
    )
    data = CriteriaData(story=facts.story, criteria=results)
    if deferred:
        headline = f"the plan is not complete: an acceptance criterion is parked under Later: {deferred[0]}"
        return result(GateVerdict.FAIL, headline, details, data)
    if not judged:
        return result(GateVerdict.UNVERIFIABLE, f"{listed}, each marked (manual): a reviewer's judgment", details, data)
    return result(
        GateVerdict.PASS if green == judged else GateVerdict.FAIL,
        f"{green:,} of {listed} proven by passing tests"
        + (f" ({len(results) - judged:,} left to a reviewer)" if judged < len(results) else ""),
        details,
        data,
    )


GATE: Gate[CriteriaFacts] = Gate(
    id=ID,
    title=TITLE,
    gather=gather,
    judge=judge,
    data=CriteriaData,
)
