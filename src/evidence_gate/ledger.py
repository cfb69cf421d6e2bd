"""The ledger: the one versioned JSON document every check writes into.

It is the artifact that crosses every boundary: between CLI verbs, between a host step and the
container step, between matrix shards (`merge`), between a fork's run and the `workflow_run` that
publishes it, and between a base commit's run and the PR's (the baseline digest). Rendering and
publishing take a ledger and nothing else. Its schema is `schemas/ledger.schema.json`; a ledger
read from outside (an artifact, another job) is validated against it before use.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field, replace
from enum import StrEnum
from importlib import resources
from pathlib import Path
from typing import Any

import jsonschema

from evidence_gate import __version__
from evidence_gate.documents import clipped, load_json, read_capped, schema_message
from evidence_gate.errors import UsageError
from evidence_gate.model import Counts
from evidence_gate.workspace import write_user_file

LEDGER_VERSION = 1
MAX_LEDGER_BYTES = 64 * 1024 * 1024
MAX_NAMED_TESTS = 5_000  # names kept beside identities, so a test missing from a later run can be named
MAX_TEST_NAME = 300
OUTPUT_HEAD_LINES = 50
OUTPUT_TAIL_LINES = 10


class Verdict(StrEnum):
    """The overall verdict. STAGNATION: nothing failed, but nothing was proven either (a gate could
    not run, or every gate was not applicable), so the change is neither blocked nor green."""

    PASS = "PASS"
    BLOCKED = "BLOCKED"
    STAGNATION = "STAGNATION"


class GateVerdict(StrEnum):
    PASS = "pass"
    FAIL = "fail"
    NOT_APPLICABLE = "not-applicable"
    UNAVAILABLE = "unavailable"


class Outcome(StrEnum):
    PASSED = "passed"
    FAILED = "failed"
    SKIPPED = "skipped"


@dataclass(frozen=True, kw_only=True)
class Evidence:
    """A command a gate ran or read, with its output trimmed to its first and last lines."""

    command: str
    exit_code: int | None
    output: str


@dataclass(frozen=True, kw_only=True)
class Annotation:
    path: str
    line: int
    end_line: int
    level: str  # notice | warning | failure
    message: str
    title: str | None = None


@dataclass(frozen=True, kw_only=True)
class GateResult:
    id: str
    title: str
    verdict: GateVerdict
    summary: str
    evidence: tuple[Evidence, ...] = ()
    annotations: tuple[Annotation, ...] = ()
    details: tuple[str, ...] = ()


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


def test_id(classname: str, name: str) -> str:
    """A compact, stable identity for a test: 12 hex digits of SHA-256 of `classname::name`."""
    return hashlib.sha256(f"{classname}::{name}".encode()).hexdigest()[:12]


def trim_output(text: str) -> str:
    """The first 50 and the last 10 lines, with the count of lines left out between them."""
    lines = text.splitlines()
    if len(lines) <= OUTPUT_HEAD_LINES + OUTPUT_TAIL_LINES:
        return "\n".join(lines)
    left_out = len(lines) - OUTPUT_HEAD_LINES - OUTPUT_TAIL_LINES
    return "\n".join([*lines[:OUTPUT_HEAD_LINES], f"... {left_out} lines truncated ...", *lines[-OUTPUT_TAIL_LINES:]])


def overall_verdict(gates: Sequence[GateResult]) -> Verdict:
    """Any failed gate blocks. Otherwise a gate that could not run, or no gate that passed, is
    stagnation: a pass needs evidence."""
    verdicts = {gate.verdict for gate in gates}
    if GateVerdict.FAIL in verdicts:
        return Verdict.BLOCKED
    if GateVerdict.UNAVAILABLE in verdicts or GateVerdict.PASS not in verdicts:
        return Verdict.STAGNATION
    return Verdict.PASS


_GATE_RANK = {GateVerdict.NOT_APPLICABLE: 0, GateVerdict.PASS: 1, GateVerdict.UNAVAILABLE: 2, GateVerdict.FAIL: 3}


def merge(ledgers: Sequence[Ledger]) -> Ledger:
    """Ledgers of several jobs (a test matrix) as one: counts add up, test identities union (a
    failure anywhere wins), failed tests and annotations concatenate, the worst gate of each id
    wins and the verdict is the merged gates'. Shards of one run name one head and one check: a
    ledger about another commit or check cannot be mixed in."""
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
            gates[gate.id] = _merge_gate(gates[gate.id], gate) if gate.id in gates else gate
    return replace(
        first,
        verdict=overall_verdict(list(gates.values())),
        counts=total,
        tests=tests,
        failed_tests=tuple(test for ledger in ledgers for test in ledger.failed_tests),
        gates=tuple(gates.values()),
    )


def _merge_gate(left: GateResult, right: GateResult) -> GateResult:
    worst = max((left, right), key=lambda gate: _GATE_RANK[gate.verdict])
    return replace(
        worst,
        summary=left.summary if left.summary == right.summary else f"{left.summary}; {right.summary}",
        evidence=left.evidence + right.evidence,
        annotations=left.annotations + right.annotations,
        details=left.details + right.details,
    )


def to_document(ledger: Ledger) -> dict[str, Any]:
    counts = ledger.counts
    return {
        "version": LEDGER_VERSION,
        "tool": {"name": "evidence-gate", "version": ledger.tool_version},
        "check_name": ledger.check_name,
        "verdict": str(ledger.verdict),
        "head": ledger.head,
        "base": ledger.base,
        "stack": ledger.stack,
        "counts": (
            None
            if counts is None
            else {
                "executed": counts.executed,
                "passed": counts.passed,
                "failed": counts.failed,
                "skipped": counts.skipped,
            }
        ),
        "tests": {
            "id": "sha256(classname::name)[:12]",
            "outcomes": dict(sorted(ledger.tests.items())),
            "names": dict(sorted(ledger.test_names.items())),
        },
        "baseline": ledger.baseline,
        "deltas": None if ledger.deltas is None else asdict(ledger.deltas),
        "failed_tests": [
            {"name": test.name, "message": test.message, "path": test.path, "line": test.line}
            for test in ledger.failed_tests
        ],
        "gates": [
            {
                "id": gate.id,
                "title": gate.title,
                "verdict": str(gate.verdict),
                "summary": gate.summary,
                "details": list(gate.details),
                "evidence": [
                    {"command": item.command, "exit_code": item.exit_code, "output": item.output}
                    for item in gate.evidence
                ],
                "annotations": [
                    {
                        "path": note.path,
                        "line": note.line,
                        "end_line": note.end_line,
                        "level": note.level,
                        "message": note.message,
                        "title": note.title,
                    }
                    for note in gate.annotations
                ],
            }
            for gate in ledger.gates
        ],
    }


def _schema() -> dict[str, Any]:
    text = resources.files("evidence_gate.schemas").joinpath("ledger.schema.json").read_text(encoding="utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema


def from_document(document: Any, source: str) -> Ledger:
    """A ledger from its JSON form, validated first: a ledger from an artifact is untrusted data.
    Its verdict is never taken on trust: it is recomputed from its gates, and a stated verdict that
    differs from theirs adds a failed `ledger` gate."""
    errors = sorted(
        jsonschema.Draft202012Validator(_schema()).iter_errors(document), key=lambda error: list(error.absolute_path)
    )
    if errors:
        where = clipped("/".join(str(part) for part in errors[0].absolute_path)) or "(top level)"
        raise UsageError(f"{source}: not a valid ledger: {where}: {schema_message(errors[0])}")
    counts = document["counts"]
    gates = _gates(document["gates"])
    stated, recomputed = Verdict(document["verdict"]), overall_verdict(gates)
    if stated is not recomputed:
        gates += (
            GateResult(
                id="ledger",
                title="Ledger",
                verdict=GateVerdict.FAIL,
                summary=f"the ledger says {stated}, but its gates say {recomputed}: the verdict is always the"
                " gates', and a ledger that contradicts them fails",
            ),
        )
    return Ledger(
        verdict=overall_verdict(gates),
        head=document["head"],
        base=document["base"],
        stack=document["stack"],
        check_name=document["check_name"],
        tool_version=document["tool"]["version"],
        counts=None
        if counts is None
        else Counts(passed=counts["passed"], failed=counts["failed"], skipped=counts["skipped"]),
        tests=dict(document["tests"]["outcomes"]),
        test_names=dict(document["tests"].get("names", {})),
        baseline=document["baseline"],
        deltas=None if document["deltas"] is None else Deltas(**document["deltas"]),
        failed_tests=tuple(
            FailedTest(name=test["name"], message=test["message"], path=test["path"], line=test["line"])
            for test in document["failed_tests"]
        ),
        gates=gates,
    )


def _gates(documents: list[dict[str, Any]]) -> tuple[GateResult, ...]:
    return tuple(
        GateResult(
            id=gate["id"],
            title=gate["title"],
            verdict=GateVerdict(gate["verdict"]),
            summary=gate["summary"],
            details=tuple(gate["details"]),
            evidence=tuple(
                Evidence(command=item["command"], exit_code=item["exit_code"], output=item["output"])
                for item in gate["evidence"]
            ),
            annotations=tuple(
                Annotation(
                    path=note["path"],
                    line=note["line"],
                    end_line=note["end_line"],
                    level=note["level"],
                    message=note["message"],
                    title=note["title"],
                )
                for note in gate["annotations"]
            ),
        )
        for gate in documents
    )


def ledger_json(ledger: Ledger) -> str:
    """The ledger as the JSON text written to a file; ASCII, so any path or name survives."""
    return json.dumps(to_document(ledger), indent=2, ensure_ascii=True) + "\n"


def write_ledger(ledger: Ledger, path: Path) -> None:
    """Write the ledger where the user asked (a command-line path); outputs named by a repository's
    config go through `Workspace.write_text` instead."""
    write_user_file(path, ledger_json(ledger))


def read_ledger(path: Path) -> Ledger:
    """A ledger file, read in bounded time and memory (see documents.py): an artifact is untrusted."""
    document = load_json(read_capped(path, MAX_LEDGER_BYTES, UsageError, "the ledger"), str(path), UsageError)
    return from_document(document, str(path))


def read_ledgers(paths: Iterable[Path]) -> list[Ledger]:
    return [read_ledger(path) for path in paths]
