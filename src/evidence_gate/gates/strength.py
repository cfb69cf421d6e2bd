"""The strength gate: does each changed test fail without the production change it comes with?
(strength/: the runs, the rules and their verdicts.)

It runs the project's tests, twice each, so it runs on the runner only, in unattended runs: the
container has no toolchain and says so ("not run here"), a developer's `run` leaves it to
`evidence-gate strength`, and a `pull_request_target` run with a fork's head is refused.

| verdicts of the changed tests | the gate |
|---|---|
| any still-green | fail: a test that passes without the change proves nothing about it |
| any not-run, other than for want of a production change | unavailable: not judged is not proven |
| red, with or without unjudged | pass |
| unjudged only, tests only, or no test changed | not applicable, said so |
| no per-file command for the stack, and no `strength-command` | not applicable, saying to set one |

Shards of one run (`strength-shard: I/N`) merge into one table, judged again as one from the table
alone (ledger/payloads/strength.py: `result`, `combine`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from evidence_gate.effects import Effects
from evidence_gate.errors import EvidenceGateError
from evidence_gate.facts import Facts
from evidence_gate.gates.gate import Earlier, Gate
from evidence_gate.git import WORKTREE
from evidence_gate.ledger.model import GateResult, GateVerdict
from evidence_gate.ledger.payloads.strength import ID, TITLE, StrengthData, TestRow, result
from evidence_gate.model import Counts, parse_shard
from evidence_gate.runner import refuse_untrusted_head
from evidence_gate.settings import Settings
from evidence_gate.strength.session import Options, Outcome, Stack, judge_change
from evidence_gate.strength.verdict import Judged


@dataclass(frozen=True, kw_only=True)
class StrengthFacts:
    outcome: Outcome | None
    shard: str | None = None
    problem: str | None = None
    applicable: bool = True  # False: the problem says why it is not for this run, not what went wrong


def gather(facts: Facts, settings: Settings, effects: Effects, earlier: Earlier) -> StrengthFacts:
    if facts.change is None:
        return _not_for_this_run("no base was given, so there is no production change to take away")
    if not effects.runs_tests:
        return _not_for_this_run("not run here: it runs the project's tests, so use the runner step (run/action.yml)")
    if not facts.in_ci:
        return _not_for_this_run(
            "it runs every changed test twice, so only in unattended CI runs; `evidence-gate strength` runs it here"
        )
    adapter = facts.adapter
    runs_files = any(
        "test_file" in commands for commands in (adapter.commands, *(v.commands for v in adapter.variants))
    )
    if settings.strength_command is None and not runs_files:
        return _not_for_this_run(
            f"the `{adapter.id}` stack has no command that runs one test file: set `strength-command` to judge"
            " test strength"
        )
    try:
        refuse_untrusted_head(effects.environ)
        stack = Stack(
            table=facts.classifier.table,
            adapter=facts.adapter,
            root=facts.detection.primary.root,
            classifier=facts.classifier,
        )
        options = Options(
            timeout=settings.strength_timeout_ms / 1000,
            jobs=settings.strength_jobs,
            template=settings.strength_command,
            shard=parse_shard(settings.strength_shard) if settings.strength_shard else None,
            install=settings.strength_install,
            reported=_reported(facts, effects),
        )
        outcome = judge_change(effects, facts.change, stack, options, lambda judged, total: None)
    except EvidenceGateError as error:
        return StrengthFacts(outcome=None, problem=f"the strength runs could not start: {error.one_line()}")
    return StrengthFacts(outcome=outcome, shard=settings.strength_shard)


def _reported(facts: Facts, effects: Effects) -> Mapping[str, Counts] | None:
    """The job's reports' test cases by file and class, when the checkout they were run in is the head
    strength judges: they stand for a changed test file's first head run (strength/session.py)."""
    change = facts.change
    if change is None or not facts.cases.by_source:
        return None
    if change.head != WORKTREE and change.head != effects.checkout().resolve_commit("HEAD", "head"):
        return None
    return facts.cases.by_source


def _not_for_this_run(why: str) -> StrengthFacts:
    return StrengthFacts(outcome=None, problem=why, applicable=False)


def judge(facts: StrengthFacts, settings: Settings) -> GateResult:
    if facts.outcome is None:
        verdict = GateVerdict.UNAVAILABLE if facts.applicable else GateVerdict.NOT_APPLICABLE
        return GateResult(id=ID, title=TITLE, verdict=verdict, headline=facts.problem or "it did not run")
    outcome = facts.outcome
    data = StrengthData(
        tests=tuple(_row(item) for item in outcome.judged),
        changed_tests=outcome.changed_tests,
        shards=(facts.shard,) if facts.shard else (),
        note=outcome.note,
    )
    return result(data)


def _row(item: Judged) -> TestRow:
    runs = [run for run in (item.head, item.base, item.rerun) if run is not None]
    last = item.base or item.head
    return TestRow(
        path=item.path,
        verdict=str(item.verdict),
        reason=item.reason,
        scope=item.scope,
        command=last.command if last else None,
        seconds=round(sum(run.seconds for run in runs), 3),
        runs=item.runs,
    )


GATE: Gate[StrengthFacts] = Gate(
    id=ID,
    title=TITLE,
    gather=gather,
    judge=judge,
    data=StrengthData,
)
