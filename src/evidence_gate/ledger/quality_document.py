"""The quality record's JSON form, in the ledger (`quality`, schema version 3) and as a baseline
file: `{type_check: {exit, errors}, lint: {exit, warnings}, test: {exit, passed, failed, skipped},
coverage: {percent}, timestamp}`, with null for a tool not detected there (never omitted)."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from typing import Any

from evidence_gate.documents import load_json, read_capped, schema_errors, schema_message
from evidence_gate.errors import UsageError
from evidence_gate.ledger.quality_record import (
    Baseline,
    QualityRecord,
    Stage,
    Stagnation,
    State,
    SuiteFigures,
    ToolFigures,
)
from evidence_gate.model import ToolRow, ToolStatus

MAX_BASELINE_BYTES = 16 * 1024 * 1024  # the test names are the bulk of it


def record_document(record: QualityRecord) -> dict[str, Any]:
    state = record.state
    return {
        "stage": str(record.stage),
        "state": None if state is None else {"commit": state.commit, "diff": state.diff, "time": state.time},
        "toolchain": [
            {
                "check": row.check,
                "tool": row.tool,
                "status": str(row.status),
                "command": row.command,
                "reason": row.reason,
            }
            for row in record.toolchain
        ],
        "baseline": None if record.baseline is None else _figures(record.baseline),
        "measured": None if record.measured is None else _figures(record.measured),
        "baseline_source": record.baseline_source,
        "signatures": {str(number): text for number, text in sorted(record.signatures.items())},
        "history": record.history,
        "earlier": [{str(number): mark for number, mark in sorted(run.items())} for run in record.earlier],
        "stagnation": None
        if record.stagnation is None
        else {
            "check": record.stagnation.check,
            "title": record.stagnation.title,
            "summary": record.stagnation.summary,
        },
    }


def read_record(document: dict[str, Any]) -> QualityRecord:
    """A validated ledger's `quality` (the ledger schema has checked its shape)."""
    state, found = document["state"], document["stagnation"]
    return QualityRecord(
        stage=Stage(document["stage"]),
        state=None if state is None else State(commit=state["commit"], diff=state["diff"], time=state["time"]),
        toolchain=tuple(
            ToolRow(
                check=row["check"],
                tool=row["tool"],
                status=ToolStatus(row["status"]),
                command=row["command"],
                reason=row["reason"],
            )
            for row in document["toolchain"]
        ),
        baseline=None if document["baseline"] is None else _baseline(document["baseline"]),
        measured=None if document["measured"] is None else _baseline(document["measured"]),
        baseline_source=document["baseline_source"],
        signatures={int(number): text for number, text in document["signatures"].items()},
        history=document["history"],
        earlier=tuple({int(number): mark for number, mark in run.items()} for run in document["earlier"]),
        stagnation=None
        if found is None
        else Stagnation(check=found["check"], title=found["title"], summary=found["summary"]),
    )


def _figures(baseline: Baseline) -> dict[str, Any]:
    test = baseline.test
    return {
        "type_check": _tool(baseline.type_check, "count"),
        "lint": _tool(baseline.lint, "count"),
        "test": None
        if test is None
        else {"exit": test.exit, "passed": test.passed, "failed": test.failed, "skipped": test.skipped},
        "coverage": baseline.coverage,
        "timestamp": baseline.timestamp,
    }


def _tool(figures: ToolFigures | None, name: str) -> dict[str, Any] | None:
    return None if figures is None else {"exit": figures.exit, name: figures.count}


def _baseline(document: dict[str, Any]) -> Baseline:
    test = document["test"]
    return Baseline(
        type_check=_read_tool(document["type_check"], "count"),
        lint=_read_tool(document["lint"], "count"),
        test=None
        if test is None
        else SuiteFigures(exit=test["exit"], passed=test["passed"], failed=test["failed"], skipped=test["skipped"]),
        coverage=document["coverage"],
        timestamp=document["timestamp"],
    )


def _read_tool(document: dict[str, Any] | None, name: str) -> ToolFigures | None:
    return None if document is None else ToolFigures(exit=document["exit"], count=document[name])


def baseline_file(baseline: Baseline) -> str:
    """A baseline as its file holds it: errors and warnings by those names, the percent in an object."""
    return json.dumps(baseline_document(baseline), indent=2, ensure_ascii=True) + "\n"


def baseline_document(baseline: Baseline, *, tests: bool = True) -> dict[str, Any]:
    """The baseline file's JSON; without `tests`, the figures alone (the digest has its own identities)."""
    figures = _figures(baseline)
    document: dict[str, Any] = {
        "type_check": None
        if baseline.type_check is None
        else {"exit": baseline.type_check.exit, "errors": baseline.type_check.count},
        "lint": None if baseline.lint is None else {"exit": baseline.lint.exit, "warnings": baseline.lint.count},
        "test": figures["test"],
        "coverage": None if baseline.coverage is None else {"percent": baseline.coverage},
        "timestamp": baseline.timestamp,
    }
    if tests:
        document["tests"] = {
            "outcomes": dict(sorted(baseline.outcomes.items())),
            "names": dict(sorted(baseline.names.items())),
        }
    return document


def read_baseline(path: Path, shown: str) -> Baseline:
    """A baseline file, untrusted (it may be the pull request's): validated, bounded."""
    return parse_baseline(read_capped(path, MAX_BASELINE_BYTES, UsageError, "the baseline"), shown)


def parse_baseline(data: bytes, shown: str) -> Baseline:
    """A baseline file's bytes (a file of the work tree, or of the base commit), validated."""
    if len(data) > MAX_BASELINE_BYTES:
        raise UsageError(f"{shown}: the baseline is larger than {MAX_BASELINE_BYTES:,} bytes; refusing to read it")
    document = load_json(data, shown, UsageError)
    problem = baseline_problem(document)
    if problem:
        raise UsageError(f"{shown}: not a valid baseline: {problem}")
    return baseline_of(document)


def baseline_problem(document: object) -> str | None:
    """Why `document` is not a baseline file's JSON, or None when it is."""
    schema = json.loads(resources.files("evidence_gate.schemas").joinpath("baseline.schema.json").read_text("utf-8"))
    errors = schema_errors(schema, document)
    if not errors:
        return None
    where = "/".join(str(part) for part in errors[0].absolute_path) or "(top level)"
    return f"{where}: {schema_message(errors[0])}"


def baseline_of(document: dict[str, Any]) -> Baseline:
    """A validated baseline file's values."""
    test, coverage = document["test"], document["coverage"]
    tests = document.get("tests", {})
    return Baseline(
        type_check=_read_tool(document["type_check"], "errors"),
        lint=_read_tool(document["lint"], "warnings"),
        test=None
        if test is None
        else SuiteFigures(exit=test["exit"], passed=test["passed"], failed=test["failed"], skipped=test["skipped"]),
        coverage=None if coverage is None else coverage["percent"],
        timestamp=document["timestamp"],
        outcomes=dict(tests.get("outcomes", {})),
        names=dict(tests.get("names", {})),
    )
