"""The ledger: what a run found, as the values every check writes into.

It is what crosses every boundary: between CLI verbs, between a host step and the container step,
between matrix shards (`merge`), between a fork's run and the `workflow_run` that publishes it, and
between a base commit's run and the PR's (the baseline digest). Rendering and publishing take a
ledger and nothing else. Its JSON form, versioned and schema-checked, is `ledger/document.py`.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any, ClassVar, Protocol

from evidence_gate import __version__
from evidence_gate.errors import UsageError
from evidence_gate.ledger.quality_record import QualityRecord
from evidence_gate.model import Counts

MAX_NAMED_TESTS = 5_000  # names kept beside identities, so a test missing from a later run can be named
MAX_TEST_NAME = 300
OUTPUT_HEAD_LINES = 50
OUTPUT_TAIL_LINES = 10


class Verdict(StrEnum):
    """The overall verdict. There is no warning tier: a check that fails, is MISSING or could not
    run blocks. STAGNATION is a BLOCKED verdict whose failure repeated: the same check failed with
    the same error on three consecutive runs of the pull request, so retrying is pointless."""

    PASS = "PASS"
    BLOCKED = "BLOCKED"
    STAGNATION = "STAGNATION"


class GateVerdict(StrEnum):
    PASS = "pass"
    FAIL = "fail"
    NOT_APPLICABLE = "not-applicable"
    UNAVAILABLE = "unavailable"
    OFF = "off"  # switched off by the configuration (`gates-off`): shown as off, never silently absent
    MISSING = "missing"  # the tool a check needs is not there (a project with sources and no type checker): blocks
    INFO = "info"  # reported, never blocking (a smoke test)
    UNVERIFIABLE = "unverifiable"  # needs human judgment (a plan item no test can prove): reported, never blocking
    REVIEW = "review"  # passed, with something a reviewer must read (a relaxing edit tagged): never blocking


class Outcome(StrEnum):
    PASSED = "passed"
    FAILED = "failed"
    SKIPPED = "skipped"


@dataclass(frozen=True, kw_only=True)
class Excerpt:
    """Output a gate read (a log) or ran (a command), trimmed to its first and last lines."""

    source: str  # the log's name, as reviewers read it, or the command
    exit_code: int | None  # the exit code it records, when it records one
    output: str


@dataclass(frozen=True, kw_only=True)
class Annotation:
    path: str
    line: int
    end_line: int
    level: str  # notice | warning | failure
    message: str
    title: str | None = None


class GateData(Protocol):
    """A gate's typed payload (counts, per-criterion statuses, later hunks and verdict tables): what
    its partial template lays out. A dataclass under ledger/payloads/, whose JSON form is derived from
    it (ledger/payload.py); `ledger/document.py` checks and reads it back by the gate's catalog entry."""

    __dataclass_fields__: ClassVar[dict[str, Any]]


@dataclass(frozen=True, kw_only=True)
class GateResult:
    id: str
    title: str
    verdict: GateVerdict
    headline: str  # the one line the Result column shows
    excerpts: tuple[Excerpt, ...] = ()
    annotations: tuple[Annotation, ...] = ()
    details: tuple[str, ...] = ()
    data: GateData | None = None


@dataclass(frozen=True, kw_only=True)
class FailedTest:
    name: str
    message: str | None
    path: str | None = None
    line: int | None = None


@dataclass(frozen=True, kw_only=True)
class Deltas:
    """Changes against the base commit's run, by test identity, not only by counts."""

    executed: int  # executed now minus executed at the base
    added: int  # test identities new in this run
    removed: int  # test identities the base ran and this run does not
    newly_failing: int  # failing now, not failing at the base (new tests included)
    newly_skipped: int  # skipped now, not skipped at the base


@dataclass(frozen=True, kw_only=True)
class Ledger:
    verdict: Verdict
    head: str | None
    base: str | None
    stack: str
    counts: Counts | None
    tests: dict[str, str] = field(default_factory=dict)  # test id hash -> outcome
    test_names: dict[str, str] = field(default_factory=dict)  # test id hash -> name, for the first MAX_NAMED_TESTS
    failed_tests: tuple[FailedTest, ...] = ()
    gates: tuple[GateResult, ...] = ()
    check_name: str = "Evidence Gate"
    tool_version: str = __version__
    deltas: Deltas | None = None
    baseline: str = "not looked up"  # why there is no baseline, when there is none
    quality: QualityRecord = field(default_factory=QualityRecord)  # the quality-gate report's own values

    def gate(self, gate_id: str) -> GateResult | None:
        return next((gate for gate in self.gates if gate.id == gate_id), None)


def compare(base_counts: Counts | None, base_tests: dict[str, str], ledger: Ledger) -> Deltas:
    """Deltas of `ledger` against a base run's counts and test identities."""
    now, before = ledger.tests, base_tests
    executed_now = ledger.counts.executed if ledger.counts else 0
    executed_before = base_counts.executed if base_counts else 0
    return Deltas(
        executed=executed_now - executed_before,
        added=sum(1 for identity in now if identity not in before),
        removed=sum(1 for identity in before if identity not in now),
        newly_failing=sum(
            1 for identity, outcome in now.items() if outcome == Outcome.FAILED and before.get(identity) != outcome
        ),
        newly_skipped=sum(
            1 for identity, outcome in now.items() if outcome == Outcome.SKIPPED and before.get(identity) != outcome
        ),
    )


def case_identity(classname: str, name: str) -> str:
    """A compact, stable identity for a test case: 12 hex digits of SHA-256 of `classname::name`."""
    return hashlib.sha256(f"{classname}::{name}".encode()).hexdigest()[:12]


def trim_output(text: str) -> str:
    """The first 50 and the last 10 lines, with the count of lines left out between them."""
    lines = text.splitlines()
    if len(lines) <= OUTPUT_HEAD_LINES + OUTPUT_TAIL_LINES:
        return "\n".join(lines)
    left_out = len(lines) - OUTPUT_HEAD_LINES - OUTPUT_TAIL_LINES
    return "\n".join([*lines[:OUTPUT_HEAD_LINES], f"... {left_out} lines truncated ...", *lines[-OUTPUT_TAIL_LINES:]])


BLOCKING = frozenset({GateVerdict.FAIL, GateVerdict.MISSING, GateVerdict.UNAVAILABLE})
# Said nothing either way: shown, and left out when deciding whether anything was proven.
SILENT = frozenset({GateVerdict.OFF, GateVerdict.INFO, GateVerdict.UNVERIFIABLE})
NO_EVIDENCE = "no evidence: no gate passed, and not every gate was justifiably not applicable"


def overall_verdict(gates: Sequence[GateResult], stagnation: bool = False) -> Verdict:
    """A failed, missing or unavailable gate blocks; a pass needs a gate that passed, or every gate
    that spoke justifiably not applicable (a docs-only change). Nothing proven is BLOCKED
    (`NO_EVIDENCE`). A blocked run whose failure repeated (`stagnation`) is STAGNATION."""
    spoke = {gate.verdict for gate in gates} - SILENT
    if spoke & BLOCKING or not spoke:
        return Verdict.STAGNATION if stagnation else Verdict.BLOCKED
    return Verdict.PASS


def legacy_verdict(gates: Sequence[GateResult]) -> Verdict:
    """The verdict as ledgers of versions 1 and 2 stated it: STAGNATION for nothing proven (a gate
    that could not run, or none that passed). Used only to check what such a ledger says."""
    verdicts = {gate.verdict for gate in gates}
    if GateVerdict.FAIL in verdicts:
        return Verdict.BLOCKED
    if GateVerdict.UNAVAILABLE in verdicts or GateVerdict.PASS not in verdicts:
        return Verdict.STAGNATION
    return Verdict.PASS


_GATE_RANK = {
    GateVerdict.OFF: 0,
    GateVerdict.INFO: 0,
    GateVerdict.UNVERIFIABLE: 1,
    GateVerdict.NOT_APPLICABLE: 1,
    GateVerdict.PASS: 2,
    GateVerdict.REVIEW: 3,
    GateVerdict.UNAVAILABLE: 4,
    GateVerdict.MISSING: 5,
    GateVerdict.FAIL: 6,
}


GateCombiner = Callable[[GateResult, GateResult], GateResult | None]


def merge(ledgers: Sequence[Ledger], combine: GateCombiner = lambda left, right: None) -> Ledger:
    """Ledgers of several jobs (a test matrix) as one: counts add up, test identities union (a
    failure anywhere wins), failed tests and annotations concatenate, the worst gate of each id
    wins and the verdict is the merged gates'. A gate whose shards' payloads add up (`combine`, by
    the gate registry: the strength table) is judged again from both. Shards of one run name one
    head and one check: a ledger about another commit or check cannot be mixed in."""
    if not ledgers:
        raise UsageError("merge: no ledgers given")
    first = ledgers[0]
    for attribute, what in (("head", "head commits"), ("check_name", "check names")):
        values = sorted({str(getattr(ledger, attribute)) for ledger in ledgers})
        if len(values) > 1:
            raise UsageError(f"merge: the ledgers name different {what} ({', '.join(values)}): merge one run's shards")
    counts = [ledger.counts for ledger in ledgers if ledger.counts is not None]
    total = sum(counts[1:], counts[0]) if counts else None
    tests: dict[str, str] = {}
    for ledger in ledgers:
        for identity, outcome in ledger.tests.items():
            if tests.get(identity) != Outcome.FAILED:
                tests[identity] = outcome
    gates: dict[str, GateResult] = {}
    for ledger in ledgers:
        for gate in ledger.gates:
            if gate.id in gates:
                gates[gate.id] = combine(gates[gate.id], gate) or _merge_gate(gates[gate.id], gate)
            else:
                gates[gate.id] = gate
    return replace(
        first,
        verdict=overall_verdict(list(gates.values()), first.quality.stagnation is not None),
        counts=total,
        tests=tests,
        failed_tests=tuple(test for ledger in ledgers for test in ledger.failed_tests),
        gates=tuple(gates.values()),
    )


def _merge_gate(left: GateResult, right: GateResult) -> GateResult:
    """The worse of two shards' results of one gate, with both shards' lines. Their typed payloads
    describe different runs: one is kept only when both shards agree on it, else the details speak."""
    worst = max((left, right), key=lambda gate: _GATE_RANK[gate.verdict])
    return replace(
        worst,
        data=left.data if left.data == right.data else None,
        headline=left.headline if left.headline == right.headline else f"{left.headline}; {right.headline}",
        excerpts=left.excerpts + right.excerpts,
        annotations=left.annotations + right.annotations,
        details=left.details + right.details,
    )
