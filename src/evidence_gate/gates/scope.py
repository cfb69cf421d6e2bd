"""Check 5, scope: every changed file lies within the declared scope, the configuration's `scope`
globs or a `Scope:` list in the pull request's body (.gitignore syntax, one item a line); the files
outside it are listed. With no scope declared there is nothing to judge: not applicable, saying so.

A scope from the body is the author's own declaration: the check holds the change to it, and
a reviewer reads it beside the diff. The configuration's, when set, is the one that applies."""

from __future__ import annotations

from dataclasses import dataclass

import pathspec

from evidence_gate.body_lists import label_line, listed_under
from evidence_gate.documents import clipped
from evidence_gate.effects import Effects
from evidence_gate.facts import Facts
from evidence_gate.gates.gate import Earlier, Gate
from evidence_gate.ledger.model import GateResult, GateVerdict
from evidence_gate.ledger.payloads.scope import MAX_GLOBS, MAX_LISTED, ScopeData
from evidence_gate.settings import Settings
from evidence_gate.wording import plural

ID = "scope"
TITLE = "Scope"
_LABEL = label_line("Scope")


@dataclass(frozen=True, kw_only=True)
class ScopeFacts:
    data: ScopeData | None
    reason: str = ""  # why there is nothing to judge
    bad: bool = False  # the declared scope cannot be read: unavailable, never a pass


def body_scope(body: str) -> tuple[str, ...]:
    """The globs a body declares: `Scope: a, b` on one line, or a list under a `Scope:` line."""
    return listed_under(body, _LABEL, MAX_GLOBS)


def gather(facts: Facts, settings: Settings, effects: Effects, earlier: Earlier) -> ScopeFacts:
    if facts.change is None:
        return ScopeFacts(data=None, reason="no base was given, so there is no change to hold to a scope")
    if settings.scope:
        globs, source = settings.scope, "the configuration's `scope`"
    else:
        globs = body_scope(facts.pull_request.body) if facts.pull_request else ()
        source = "the pull request's `Scope:` list"
    if not globs:
        return ScopeFacts(
            data=None,
            reason="no scope declared: no `scope` in the configuration, no `Scope:` list in the pull request's body",
        )
    try:
        spec = pathspec.GitIgnoreSpec.from_lines(globs)
    except ValueError as error:  # pathspec's pattern error: `!` alone, a trailing `\\`
        return ScopeFacts(data=None, reason=f"{source} holds a glob that is not .gitignore syntax ({error})", bad=True)
    outside = [changed.path for changed in facts.change.files if not spec.match_file(changed.path)]
    return ScopeFacts(
        data=ScopeData(
            source=source,
            globs=tuple(globs),
            changed=len(facts.change.files),
            outside=tuple(outside[:MAX_LISTED]),
            outside_total=len(outside),
        )
    )


def judge(facts: ScopeFacts, settings: Settings) -> GateResult:
    data = facts.data
    if data is None:
        verdict = GateVerdict.UNAVAILABLE if facts.bad else GateVerdict.NOT_APPLICABLE
        return GateResult(id=ID, title=TITLE, verdict=verdict, headline=clipped(facts.reason))
    if data.outside_total:
        headline = f"{plural(data.outside_total, 'changed file')} outside {data.source}"
        return GateResult(
            id=ID,
            title=TITLE,
            verdict=GateVerdict.FAIL,
            headline=headline,
            details=tuple(f"{path}: outside the scope" for path in data.outside),
            data=data,
        )
    headline = f"all {plural(data.changed, 'changed file')} within {data.source}"
    return GateResult(id=ID, title=TITLE, verdict=GateVerdict.PASS, headline=headline, data=data)


GATE: Gate[ScopeFacts] = Gate(id=ID, title=TITLE, gather=gather, judge=judge, data=ScopeData)
