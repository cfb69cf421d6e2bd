"""The ledger as a versioned JSON document: written to a file or an artifact, read back from one.

Version 3 (`schemas/ledger.schema.json`) adds the quality-gate report's values (`quality`: the
stage, the toolchain, the baseline, the failed checks' signatures, the stagnation) and the gate
verdicts `missing`, `info` and `unverifiable`; its STAGNATION is a blocked verdict that repeated.
Version 2 (`schemas/ledger.v2.schema.json`) gives each gate a one-line `headline`, its `excerpts`
and a typed `data` payload, whose shape is the gate's own: its dataclass under `ledger/payloads/`,
which the catalog (`ledger/catalog.py`) names by gate id, and whose schema, reader and writer
`ledger/payload.py` derives; it is checked by gate id. Version 1 (`schemas/ledger.v1.schema.json`,
what the released action wrote: a gate's `summary` and `evidence`, no payload) is still read, so a
ledger artifact or baseline made by an older run keeps working. A ledger read from outside (an artifact, another job)
is untrusted: it is validated against its version's schema before use, and its verdict is never
taken on trust. A version 1 or 2 ledger's stated verdict is checked by the rules it was written
under (its STAGNATION meant "nothing proven"), and recomputed by today's.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterable
from dataclasses import asdict
from importlib import resources
from pathlib import Path
from typing import Any

from evidence_gate.documents import clipped, load_json, read_capped, schema_errors, schema_message
from evidence_gate.errors import UsageError
from evidence_gate.ledger.catalog import CATALOG, Catalog, payload_type
from evidence_gate.ledger.model import (
    Annotation,
    Deltas,
    Excerpt,
    FailedTest,
    GateResult,
    GateVerdict,
    Ledger,
    Verdict,
    legacy_verdict,
    overall_verdict,
)
from evidence_gate.ledger.payload import read, schema, write
from evidence_gate.ledger.quality_document import read_record, record_document
from evidence_gate.ledger.quality_record import QualityRecord
from evidence_gate.model import Counts
from evidence_gate.workspace import write_user_file

LEDGER_VERSION = 3
READ_VERSIONS = (1, 2, 3)
MAX_LEDGER_BYTES = 64 * 1024 * 1024


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
        "counts": None if counts is None else _counts(counts),
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
                "headline": gate.headline,
                "details": list(gate.details),
                "excerpts": [
                    {"source": item.source, "exit_code": item.exit_code, "output": item.output}
                    for item in gate.excerpts
                ],
                "annotations": [asdict(note) for note in gate.annotations],
                "data": None if gate.data is None else write(gate.data),
            }
            for gate in ledger.gates
        ],
        "quality": record_document(ledger.quality),
    }


def _counts(counts: Counts) -> dict[str, int]:
    return {"executed": counts.executed, "passed": counts.passed, "failed": counts.failed, "skipped": counts.skipped}


@functools.cache
def _schema(version: int) -> dict[str, Any]:
    name = "ledger.schema.json" if version == LEDGER_VERSION else f"ledger.v{version}.schema.json"
    loaded: dict[str, Any] = json.loads(resources.files("evidence_gate.schemas").joinpath(name).read_text("utf-8"))
    return loaded


@functools.cache
def _payload_schema(payload: type) -> dict[str, Any]:
    return schema(payload)


def _check(checks: dict[str, Any], document: Any, source: str, at: str = "") -> None:
    errors = schema_errors(checks, document)
    if errors:
        where = clipped("/".join([*([at] if at else []), *(str(part) for part in errors[0].absolute_path)]))
        raise UsageError(f"{source}: not a valid ledger: {where or '(top level)'}: {schema_message(errors[0])}")


def from_document(document: Any, source: str, catalog: Catalog = CATALOG) -> Ledger:
    """A ledger from its JSON form, validated first: a ledger from an artifact is untrusted data.
    Its verdict is never taken on trust: it is recomputed from its gates, and a stated verdict that
    differs from theirs adds a failed `ledger` gate. Each payload is read by its gate's entry in
    `catalog`."""
    version = document.get("version") if isinstance(document, dict) else None
    if version not in READ_VERSIONS or isinstance(version, bool):
        shown = clipped(json.dumps(version)) if version is not None else "none"
        known = ", ".join(map(str, READ_VERSIONS))
        raise UsageError(f"{source}: not a valid ledger: version: {shown} is not one this tool reads ({known})")
    _check(_schema(version), document, source)
    counts = document["counts"]
    gates = tuple(_gate(gate, version, source, index, catalog) for index, gate in enumerate(document["gates"]))
    quality = read_record(document["quality"]) if version >= 3 else QualityRecord()
    repeated = quality.stagnation is not None
    stated = Verdict(document["verdict"])
    recomputed = overall_verdict(gates, repeated) if version >= 3 else legacy_verdict(gates)
    if stated is not recomputed:
        gates += (
            GateResult(
                id="ledger",
                title="Ledger",
                verdict=GateVerdict.FAIL,
                headline=f"the ledger says {stated}, but its gates say {recomputed}: the verdict is always the"
                " gates', and a ledger that contradicts them fails",
            ),
        )
    return Ledger(
        verdict=overall_verdict(gates, repeated),
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
        quality=quality,
    )


def _gate(gate: dict[str, Any], version: int, source: str, index: int, catalog: Catalog) -> GateResult:
    """One gate of a validated document. Version 1 named the headline `summary` and the excerpts
    `evidence` (each naming its log as `command`), and carried no payload."""
    headline = gate["summary"] if version == 1 else gate["headline"]
    excerpts = gate["evidence"] if version == 1 else gate["excerpts"]
    data = None if version == 1 else gate["data"]
    payload = payload_type(gate["id"], catalog)
    if data is not None and payload is not None:
        _check(_payload_schema(payload), data, source, f"gates/{index}/data")
    return GateResult(
        id=gate["id"],
        title=gate["title"],
        verdict=GateVerdict(gate["verdict"]),
        headline=headline,
        details=tuple(gate["details"]),
        excerpts=tuple(
            Excerpt(
                source=item["command"] if version == 1 else item["source"],
                exit_code=item["exit_code"],
                output=item["output"],
            )
            for item in excerpts
        ),
        annotations=tuple(Annotation(**note) for note in gate["annotations"]),
        # A payload of a gate this version does not know is dropped: its details still read.
        data=None if data is None or payload is None else read(payload, data),
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
