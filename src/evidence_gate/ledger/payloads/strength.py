"""The strength gate's payload: each changed test file's verdict, and the gate's result judged from
that table alone (`result`), so that shards of one run (`strength-shard: I/N`) merge into one table
judged again as one (`combine`) with no gate module: merge reads ledgers, it runs nothing."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from evidence_gate.ledger.model import Annotation, GateData, GateResult, GateVerdict
from evidence_gate.ledger.payload import spec
from evidence_gate.wording import plural

ID = "strength"
TITLE = "Test strength"
NO_PRODUCTION = "no production change to revert"
LIMIT = (
    "Production files go back whole and added files are removed, so a test that references new code fails to"
    " compile or load without it whatever it asserts: that is no evidence, so such a test is unjudged, not red."
    " Only tests that compile and load against the base are judged."
)


class Verdict(StrEnum):
    """A changed test file's verdict (strength/verdict.py says how its runs decide it)."""

    RED = "red"
    STILL_GREEN = "still-green"
    UNJUDGED = "unjudged"
    NOT_RUN = "not-run"


@dataclass(frozen=True, kw_only=True)
class TestRow:
    path: str
    verdict: str = field(metadata=spec(schema={"enum": [str(verdict) for verdict in Verdict]}))
    reason: str
    scope: str | None
    command: str | None  # what ran last (the base run, else the head run)
    seconds: float = field(metadata=spec(schema={"minimum": 0}))  # all its runs together
    runs: str | None = None  # the runs made, in order, and why a head run was left out


@dataclass(frozen=True, kw_only=True)
class StrengthData:
    tests: tuple[TestRow, ...]
    changed_tests: int = field(metadata=spec(schema={"minimum": 0}))
    # the `I/N` of each shard merged in; empty when the run was not sharded
    shards: tuple[str, ...] = field(metadata=spec(items={"pattern": "^[0-9]{1,4}/[0-9]{1,4}$"}))
    note: str | None  # why there is nothing to judge

    @property
    def counts(self) -> dict[str, int]:
        found = Counter(row.verdict for row in self.tests)
        return {str(verdict): found.get(str(verdict), 0) for verdict in Verdict}

    @property
    def limit(self) -> str | None:
        return LIMIT if any(row.verdict == Verdict.UNJUDGED for row in self.tests) else None


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
    assert isinstance(left, StrengthData) and isinstance(right, StrengthData)  # noqa: S101 -- the catalog pairs them by id
    paths = {row.path for row in left.tests}
    merged = StrengthData(
        tests=left.tests + tuple(row for row in right.tests if row.path not in paths),
        changed_tests=max(left.changed_tests, right.changed_tests),
        shards=tuple(dict.fromkeys(left.shards + right.shards)),
        note=left.note or right.note,
    )
    return result(merged)
