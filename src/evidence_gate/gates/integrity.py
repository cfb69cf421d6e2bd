"""The gate-integrity gate: was a gate weakened to reach green? It lists every gate edit of the
change and tags the hunks that relax one (integrity/: the tags are docs/integrity.md's); a
reviewer reads each tagged hunk. It fails only where a relaxation is not a matter of review:

| fails on | why |
|---|---|
| RH-14 frozen-test-changed; a freeze record deleted, thinned or detached | a red test made green by editing it |
| a suppression or coverage exclusion added without a reason on its line | the ignore-comment audit |
| a tag listed in `fail-on-tags` | the team's own choice |

The rest pass as `review` (never a green pass: a relaxation is for a reviewer to read), listed, each
with a warning annotation; a change whose only tags are unresolved (`RH-15?`) passes, those listed
without one. GROUP_AT or more hunks with the same tags in one folder (a suite removed) are
read as one line with their count (`RH-3 x312 under tests/unit/`), not one excerpt each; a hunk that
fails the gate is always read alone. Without a base there is no change to inventory: not applicable,
said so; an inventory that cannot run is unavailable with its reason, never "none detected".
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import PurePosixPath

from evidence_gate.coverage.doc_tests import doc_tested
from evidence_gate.effects import Effects
from evidence_gate.errors import EvidenceGateError
from evidence_gate.facts import Facts
from evidence_gate.gates.gate import Earlier, Gate
from evidence_gate.integrity.idioms import default_idioms
from evidence_gate.integrity.report import DEFAULT_READ_CAP, eligible, first_line, hunk_id
from evidence_gate.integrity.survey import Survey, survey
from evidence_gate.integrity.tagger import TaggedHunk
from evidence_gate.ledger.model import Annotation, GateResult, GateVerdict
from evidence_gate.ledger.payloads.integrity import (
    MAX_SUPPRESSIONS,
    TAG_NAMES,
    HunkGroup,
    HunkRead,
    IntegrityData,
    Suppression,
)
from evidence_gate.settings import Settings
from evidence_gate.wording import plural

ID = "gate-integrity"
TITLE = "Gate integrity"
EXCERPT_LINES = 40  # of each tagged hunk, in the payload; the inventory's artifact holds every line
EXCERPT_CHARS = 300  # of a suppression's line
GROUP_AT = 5  # hunks with the same tags in one folder read as one line


@dataclass(frozen=True, kw_only=True)
class IntegrityFacts:
    survey: Survey | None
    problem: str | None = None  # why there is no survey
    no_change: bool = False  # no base: there is no change to inventory (a push, the CLI without --base)


def gather(facts: Facts, settings: Settings, effects: Effects, earlier: Earlier) -> IntegrityFacts:
    if facts.change is None:
        reason = "no base was given, so there is no change whose gate edits to inventory"
        return IntegrityFacts(survey=None, problem=reason, no_change=True)
    try:
        executed = None
        if facts.coverage is not None:
            files = facts.coverage.map.files
            # a Rust hunk whose own doc tests ran comes with its test, which the report cannot measure
            aside = doc_tested(facts.coverage, facts.change, facts.reports.logs).lines
            executed = {
                path: (lines.measured - aside.get(path, frozenset()), lines.run_by_tests)
                for path, lines in files.items()
            }
        found = survey(effects.checkout(), facts.change, default_idioms(), DEFAULT_READ_CAP, executed)
        return IntegrityFacts(survey=found)
    except EvidenceGateError as error:
        return IntegrityFacts(survey=None, problem=f"the inventory could not run: {error.one_line()}")


def judge(facts: IntegrityFacts, settings: Settings) -> GateResult:
    found = facts.survey
    if found is None:
        reason = facts.problem or "the inventory did not run"
        verdict = GateVerdict.NOT_APPLICABLE if facts.no_change else GateVerdict.UNAVAILABLE
        return GateResult(id=ID, title=TITLE, verdict=verdict, headline=reason)
    summary, inventory = found.summary, found.inventory
    fail_on = set(settings.fail_on_tags)
    read = eligible(inventory)[: summary.inspected]

    def failing(hunk: TaggedHunk) -> bool:
        return "RH-14" in hunk.tags or bool(fail_on & {tag.rstrip("?") for tag in hunk.tags})

    failures = [
        *found.frozen.failures,
        *(
            f"{hunk.path} {hunk.header}: {', '.join(sorted(fail_on & set(hunk.tags)))} (fail-on-tags)"
            for hunk in inventory.hunks
            if fail_on & set(hunk.tags)
        ),
    ]
    tagged = [hunk for hunk in read if hunk.tags]
    groups, grouped = _groups([hunk for hunk in eligible(inventory) if hunk.tags and not failing(hunk)])
    record = found.frozen.record
    audited = [
        Suppression(
            path=hunk.path,
            line=line.number,
            text=line.text[:EXCERPT_CHARS],
            justified=line.number not in hunk.unjustified,
            fix=dict(hunk.fixes).get(line.number, "")[:EXCERPT_CHARS],
        )
        for hunk in inventory.hunks
        for line in hunk.added
        if line.number in hunk.audited
    ]
    data = IntegrityData(
        summary_line=summary.line("the ledger"),
        listed=summary.listed,
        eligible=summary.eligible,
        inspected=summary.inspected,
        unread=summary.unread,
        tagged=summary.tagged,
        languages_unlisted=summary.languages_unlisted,
        hunks=tuple(
            _read(index, hunk, failing(hunk))
            for index, hunk in enumerate(read)
            if hunk.tags and id(hunk) not in grouped
        ),
        groups=groups,
        failures=tuple(failures),
        suppressions=_listed(audited),
        suppressions_total=len(audited),
        unjustified_total=sum(1 for item in audited if not item.justified),
        parked=tuple(f"{item.criterion}: {item.why}" for item in (record.parked if record else ())),
    )
    return GateResult(
        id=ID,
        title=TITLE,
        verdict=_verdict(data),
        headline=_headline(data),
        details=(
            *failures,
            *([f"no idioms for: {', '.join(data.languages_unlisted)}"] if data.languages_unlisted else []),
        ),
        annotations=tuple(
            Annotation(
                path=hunk.path,
                line=first_line(hunk),
                end_line=first_line(hunk),
                level="failure" if failing(hunk) else "warning",
                message=f"{hunk.header}: a gate edit to read: "
                + ", ".join(TAG_NAMES[t.rstrip("?")] for t in hunk.tags),
                title=", ".join(hunk.tags),
            )
            for hunk in tagged
            if failing(hunk) or any(not tag.endswith("?") for tag in hunk.tags)  # an unresolved tag is listed only
        ),
        data=data,
    )


def _listed(audited: Sequence[Suppression]) -> tuple[Suppression, ...]:
    """The suppressions the payload lists, in the change's order: each unjustified one first, then
    justified ones up to MAX_SUPPRESSIONS. The cap bounds what is shown; check 7 judges the totals."""
    bare = [index for index, item in enumerate(audited) if not item.justified][:MAX_SUPPRESSIONS]
    justified = [index for index, item in enumerate(audited) if item.justified][: MAX_SUPPRESSIONS - len(bare)]
    return tuple(audited[index] for index in sorted(bare + justified))


def _verdict(data: IntegrityData) -> GateVerdict:
    """Failed (a frozen test rewritten, a tag `fail-on-tags` names); else review when a hunk carries a
    tag that is no mere question (`RH-15?`): a relaxation passes, but never reads as green."""
    if data.failures:
        return GateVerdict.FAIL
    return GateVerdict.REVIEW if any(not tag.endswith("?") for tag in data.tagged) else GateVerdict.PASS


def _headline(data: IntegrityData) -> str:
    if data.failures:
        more = f" (and {plural(len(data.failures) - 1, 'more failure')})" if len(data.failures) > 1 else ""
        return data.failures[0] + more
    partial = f"; gate edits: partial ({data.inspected:,} of {data.eligible:,} eligible read)" if data.partial else ""
    if not data.listed:
        return "no gate edit"
    if not data.tagged:
        return f"{plural(data.listed, 'gate edit')}, none relaxes a gate{partial}"
    tags = ", ".join(
        f"{tag} \N{MULTIPLICATION SIGN}{count}" if count > 1 else tag for tag, count in data.tagged.items()
    )
    return f"{plural(data.listed, 'gate edit')}; tagged for review: {tags}{partial}"


def _groups(hunks: Sequence[TaggedHunk]) -> tuple[tuple[HunkGroup, ...], set[int]]:
    """The groups of GROUP_AT or more hunks with the same tags in one folder, in the order their
    first hunk comes, and the `id`s of the hunks they hold."""
    by_key: dict[tuple[tuple[str, ...], str], list[TaggedHunk]] = {}
    for hunk in hunks:
        by_key.setdefault((hunk.tags, _folder(hunk.path)), []).append(hunk)
    groups = []
    grouped: set[int] = set()
    for (tags, folder), members in by_key.items():
        if len(members) < GROUP_AT:
            continue
        groups.append(
            HunkGroup(tags=tags, folder=folder, count=len(members), files=len({hunk.path for hunk in members}))
        )
        grouped.update(id(hunk) for hunk in members)
    return tuple(groups), grouped


def _folder(path: str) -> str:
    parent = PurePosixPath(path).parent.as_posix()
    return "." if parent == "." else parent + "/"


def _names(tags: tuple[str, ...]) -> str:
    return ", ".join(TAG_NAMES[tag.rstrip("?")] for tag in tags)


def _read(index: int, hunk: TaggedHunk, failing: bool) -> HunkRead:
    lines = [*(f"-{line.text}" for line in hunk.removed), *(f"+{line.text}" for line in hunk.added)]
    cut = f"\n… {len(lines) - EXCERPT_LINES} more lines" if len(lines) > EXCERPT_LINES else ""
    return HunkRead(
        id=hunk_id(index),
        path=hunk.path,
        header=hunk.header,
        tags=hunk.tags,
        failing=failing,
        excerpt="\n".join(lines[:EXCERPT_LINES]) + cut,
    )


GATE: Gate[IntegrityFacts] = Gate(
    id=ID,
    title=TITLE,
    gather=gather,
    judge=judge,
    data=IntegrityData,
)
