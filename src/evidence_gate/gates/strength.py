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

Shards of one run (`strength-shard: I/N`) merge into one table (`combine`), judged again as one.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from evidence_gate.effects import Effects
from evidence_gate.errors import EvidenceGateError
from evidence_gate.facts import Facts
from evidence_gate.gates.gate import DataType, Earlier, Gate
from evidence_gate.ledger.model import Annotation, GateData, GateResult, GateVerdict
from evidence_gate.model import parse_shard
from evidence_gate.runner import refuse_untrusted_head
from evidence_gate.settings import Settings
from evidence_gate.strength.report import LIMIT
from evidence_gate.strength.session import Options, Outcome, Stack, judge_change
from evidence_gate.strength.verdict import Judged, Verdict
from evidence_gate.wording import plural

ID = "strength"
TITLE = "Test strength"
NO_PRODUCTION = "no production change to revert"


@dataclass(frozen=True, kw_only=True)
class StrengthFacts:
    outcome: Outcome | None
    shard: str | None = None
    problem: str | None = None
    applicable: bool = True  # False: the problem says why it is not for this run, not what went wrong


@dataclass(frozen=True, kw_only=True)
class TestRow:
    path: str
    verdict: str
    reason: str
    scope: str | None
    command: str | None  # what ran last (the base run, else the head run)
    seconds: float  # all its runs together

    def document(self) -> dict[str, object]:
        return {
            "path": self.path,
            "verdict": self.verdict,
            "reason": self.reason,
            "scope": self.scope,
            "command": self.command,
            "seconds": self.seconds,
        }


@dataclass(frozen=True, kw_only=True)
class StrengthData:
    tests: tuple[TestRow, ...]
    changed_tests: int
    shards: tuple[str, ...]  # the `I/N` of each shard merged in; empty when the run was not sharded
    note: str | None  # why there is nothing to judge

    @property
    def counts(self) -> dict[str, int]:
        found = Counter(row.verdict for row in self.tests)
        return {str(verdict): found.get(str(verdict), 0) for verdict in Verdict}

    @property
    def limit(self) -> str | None:
        return LIMIT if any(row.verdict == Verdict.UNJUDGED for row in self.tests) else None

    def document(self) -> dict[str, object]:
        return {
            "tests": [row.document() for row in self.tests],
            "changed_tests": self.changed_tests,
            "shards": list(self.shards),
            "note": self.note,
        }


def read_data(document: Any) -> StrengthData:
    return StrengthData(
        tests=tuple(
            TestRow(
                path=row["path"],
                verdict=row["verdict"],
                reason=row["reason"],
                scope=row["scope"],
                command=row["command"],
                seconds=row["seconds"],
            )
            for row in document["tests"]
        ),
        changed_tests=document["changed_tests"],
        shards=tuple(document["shards"]),
        note=document["note"],
    )


_TEXT_OR_NULL = {"type": ["string", "null"]}
DATA_SCHEMA: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "required": ["tests", "changed_tests", "shards", "note"],
    "properties": {
        "tests": {
            "type": "array",
            "items": {
                "type": "object",
                "additionalProperties": False,
                "required": ["path", "verdict", "reason", "scope", "command", "seconds"],
                "properties": {
                    "path": {"type": "string"},
                    "verdict": {"enum": [str(verdict) for verdict in Verdict]},
                    "reason": {"type": "string"},
                    "scope": _TEXT_OR_NULL,
                    "command": _TEXT_OR_NULL,
                    "seconds": {"type": "number", "minimum": 0},
                },
            },
        },
        "changed_tests": {"type": "integer", "minimum": 0},
        "shards": {"type": "array", "items": {"type": "string", "pattern": "^[0-9]{1,4}/[0-9]{1,4}$"}},
        "note": _TEXT_OR_NULL,
    },
}


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
        )
        outcome = judge_change(effects, facts.change, stack, options, lambda judged, total: None)
    except EvidenceGateError as error:
        return StrengthFacts(outcome=None, problem=f"the strength runs could not start: {error.one_line()}")
    return StrengthFacts(outcome=outcome, shard=settings.strength_shard)


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
    )


def result(data: StrengthData) -> GateResult:
    """The gate's result from its table alone: a run's, or several shards' merged."""
    counts = data.counts
    not_run = [row for row in data.tests if row.verdict == Verdict.NOT_RUN and NO_PRODUCTION not in row.reason]
    missing = _missing_shards(data.shards)
    if counts[Verdict.STILL_GREEN]:
        verdict = GateVerdict.FAIL
    elif missing or not_run:
        verdict = GateVerdict.UNAVAILABLE
    elif counts[Verdict.RED]:
        verdict = GateVerdict.PASS
    else:
        verdict = GateVerdict.NOT_APPLICABLE
    return GateResult(
        id=ID,
        title=TITLE,
        verdict=verdict,
        headline=_headline(data, missing),
        details=tuple(f"{row.path}: {row.verdict}: {row.reason}" for row in data.tests if row.verdict != Verdict.RED),
        annotations=tuple(
            Annotation(
                path=row.path,
                line=1,
                end_line=1,
                level="failure",
                message=f"still-green: {row.reason}",
                title="passes without the production change",
            )
            for row in data.tests
            if row.verdict == Verdict.STILL_GREEN
        ),
        data=data,
    )


def _headline(data: StrengthData, missing: str | None) -> str:
    if not data.tests:
        return data.note or "no changed test to judge"
    if all(row.verdict == Verdict.NOT_RUN and NO_PRODUCTION in row.reason for row in data.tests):
        return f"only tests changed: {NO_PRODUCTION}, nothing to judge"
    counts = ", ".join(f"{number} {verdict}" for verdict, number in data.counts.items() if number)
    judged = f"{plural(len(data.tests), 'changed test file')}: {counts}"
    if missing:
        return f"{judged}; {missing}"
    if not data.counts[Verdict.RED] and not data.counts[Verdict.STILL_GREEN] and data.counts[Verdict.UNJUDGED]:
        return f"{judged}: every one needs the change's new code to load, so none could be judged without it"
    return judged


def _missing_shards(shards: Sequence[str]) -> str | None:
    if not shards:
        return None
    counts = {int(shard.split("/")[1]) for shard in shards}
    seen = {int(shard.split("/")[0]) for shard in shards}
    total = max(counts)
    if len(counts) > 1 or seen != set(range(1, total + 1)):
        return f"only shards {', '.join(sorted(set(shards)))} of {total} were merged"
    return None


def combine(left: GateData, right: GateData) -> GateResult:
    """Two shards' tables as one, judged again: each test file belongs to one shard."""
    assert isinstance(left, StrengthData) and isinstance(right, StrengthData)  # noqa: S101 -- the registry pairs them by id
    paths = {row.path for row in left.tests}
    merged = StrengthData(
        tests=left.tests + tuple(row for row in right.tests if row.path not in paths),
        changed_tests=max(left.changed_tests, right.changed_tests),
        shards=tuple(dict.fromkeys(left.shards + right.shards)),
        note=left.note or right.note,
    )
    return result(merged)


GATE: Gate[StrengthFacts] = Gate(
    id=ID,
    title=TITLE,
    gather=gather,
    judge=judge,
    data=DataType(schema=DATA_SCHEMA, read=read_data, combine=combine),
)
