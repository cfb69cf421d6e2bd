"""Each gate's payload, declared once (ledger/payloads/), and the codec that derives its JSON Schema,
reader and writer (ledger/payload.py): the derived schemas take the ledgers released versions wrote,
keep every bound a ledger from an untrusted fork is held to, and what is written reads back equal."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from evidence_gate.ledger.catalog import CATALOG, ENTRIES
from evidence_gate.ledger.model import GateData
from evidence_gate.ledger.payload import read, schema, spec, write
from evidence_gate.ledger.payloads import strength
from evidence_gate.ledger.payloads.coverage import CoverageData, PathRow
from evidence_gate.ledger.payloads.criteria import CriteriaData, Criterion, CriterionResult, CriterionStatus
from evidence_gate.ledger.payloads.evidence import EvidenceData, SourceRead
from evidence_gate.ledger.payloads.integrity import HunkGroup, HunkRead, IntegrityData, Suppression
from evidence_gate.ledger.payloads.references import Reference, ReferencesData
from evidence_gate.ledger.payloads.scope import ScopeData
from evidence_gate.ledger.payloads.suppressions import AuditData
from evidence_gate.ledger.payloads.tools import Diagnostic, Located, ToolData, ToolRun
from evidence_gate.model import Counts, ToolRow, ToolStatus

LEDGERS = Path(__file__).resolve().parent / "fixtures" / "ledgers"
COUNTS = Counts(passed=3, failed=1, skipped=2)
UNJUSTIFIED = Suppression(path="shop/cart.py", line=4, text="x = 1  # noqa", justified=False, fix="# noqa  # <why>")
JUSTIFIED = Suppression(path="shop/cart.py", line=9, text="y = 2  # noqa: E501 -- a table", justified=True)
RUN = ToolRun(
    command="mypy --strict shop",
    source="ran",
    exit_code=1,
    output="shop/cart.py:3: error: oops\nEXIT_CODE=1",
    count=1,
    first_error="shop/cart.py:3: error: oops",
    located=Located(
        pre_existing=2,
        new=1,
        unlocated=0,
        new_shown=(Diagnostic(where="shop/cart.py:3", message="oops"),),
        pre_existing_shown=(Diagnostic(where=None, message="old"),),
    ),
)
# A populated value of every payload type, each optional part present and absent somewhere.
POPULATED: tuple[GateData, ...] = (
    EvidenceData(
        first_error="tests/test_cart.py::test_total: assert 3 == 4",
        counts=COUNTS,
        counts_source="junit.xml",
        sources=(
            SourceRead(source="test.log", parser="pytest", status="failed", counts=COUNTS, reason=None, exit_code=1),
            SourceRead(
                source="x.log", parser=None, status="unparsed", counts=None, reason="no summary", exit_code=None
            ),
        ),
        stale=("old.xml",),
        refused=("huge.xml: over the cap",),
        unmatched=("reports/*.xml",),
        fresh_after="the event's time",
    ),
    IntegrityData(
        summary_line="GATE_SUMMARY: listed=2",
        listed=2,
        eligible=2,
        inspected=2,
        unread=0,
        tagged={"RH-6": 2, "RH-15?": 1},
        languages_unlisted=("cobol",),
        hunks=(
            HunkRead(id="H1", path="shop/cart.py", header="@@ -1 +1 @@", tags=("RH-6",), failing=True, excerpt="+x"),
        ),
        failures=("RH-6 without a reason",),
        parked=("[S-1#2]: why",),
        suppressions=(UNJUSTIFIED, JUSTIFIED),
        groups=(HunkGroup(tags=("RH-3",), folder="tests/unit/", count=12, files=3),),
        suppressions_total=7,
        unjustified_total=4,
    ),
    AuditData(lines=(UNJUSTIFIED, JUSTIFIED), total=5, unjustified=3),
    strength.StrengthData(
        tests=(
            strength.TestRow(
                path="tests/test_cart.py", verdict="red", reason="fails", scope=None, command="pytest x", seconds=1.5
            ),
            strength.TestRow(
                path="tests/test_a.py", verdict="unjudged", reason="load", scope="-k a", command=None, seconds=0
            ),
        ),
        changed_tests=2,
        shards=("1/2",),
        note=None,
    ),
    CoverageData(
        total=10,
        covered=8,
        strong=5,
        value_weighted=True,
        number="50",
        outcome="below-target",
        paths=(
            PathRow(path="shop/cart.py", start=3, end=4, state="weak", tests=("tests/test_cart.py (still-green)",)),
        ),
        paths_total=1,
        unmapped=("shop/gen.py",),
        unmapped_total=1,
        unknown=2,
        labels=("coverage:accept-risk",),
    ),
    ScopeData(source="the configuration's `scope`", globs=("shop/**",), changed=3, outside=("x",), outside_total=1),
    CriteriaData(
        story="SHOP-1",
        criteria=(
            CriterionResult(
                criterion=Criterion(number=1, text="totals round down"),
                tag="[SHOP-1#1]",
                status=CriterionStatus.RED,
                reason="1 of 2 tests did not pass",
                tests=(("test_total[SHOP-1#1]", "failed"), ("test_round[SHOP-1#1]", "passed")),
            ),
            CriterionResult(
                criterion=Criterion(number=2, text=None),
                tag="[SHOP-1#2]",
                status=CriterionStatus.UNVERIFIABLE,
                reason="manual",
            ),
        ),
    ),
    ReferencesData(
        sources=("Localizable.strings",),
        unreadable=("bad.json: not JSON",),
        references=(Reference(path="a.swift", line=3, key="hello", found=False),),
        total=4,
        dangling_total=2,
    ),
    ToolData(
        row=ToolRow(check=1, tool="type checker", status=ToolStatus.DETECTED, command="mypy", reason="detected"),
        runs=(
            RUN,
            ToolRun(command="mypy b", source="type-check.log", exit_code=None, output="", count=None, first_error=None),
        ),
        baseline_count=3,
        counted="errors",
    ),
)


def fixture_payloads() -> list[tuple[str, str, Any]]:
    """Each payload of each fixture ledger (those released versions wrote): file, gate id, data."""
    found = []
    for path in sorted(LEDGERS.glob("*.json")):
        document = json.loads(path.read_text(encoding="utf-8"))
        found += [(path.name, gate["id"], gate["data"]) for gate in document["gates"] if gate.get("data") is not None]
    return found


def test_every_payload_type_of_the_catalog_has_a_populated_value_here() -> None:
    assert {type(value) for value in POPULATED} == {entry.payload for entry in ENTRIES if entry.payload}


@pytest.mark.parametrize(("name", "gate_id", "data"), fixture_payloads(), ids=lambda item: str(item)[:40])
def test_the_derived_schema_takes_each_payload_of_the_ledgers_released_versions_wrote(
    name: str, gate_id: str, data: Any
) -> None:
    payload = CATALOG[gate_id].payload
    assert payload is not None
    jsonschema.Draft202012Validator(schema(payload)).validate(data)
    value = read(payload, data)
    jsonschema.Draft202012Validator(schema(payload)).validate(write(value))
    assert read(payload, write(value)) == value


@pytest.mark.parametrize("value", POPULATED, ids=lambda value: type(value).__name__)
def test_what_the_writer_writes_the_schema_takes_and_the_reader_reads_back_equal(value: GateData) -> None:
    document = json.loads(json.dumps(write(value)))
    jsonschema.Draft202012Validator(schema(type(value))).validate(document)
    assert read(type(value), document) == value


def test_a_ledger_written_before_the_totals_were_kept_reads_them_as_what_it_listed() -> None:
    document = write(AuditData(lines=(UNJUSTIFIED, JUSTIFIED, UNJUSTIFIED), total=9, unjustified=8))
    del document["total"], document["unjustified"]
    jsonschema.Draft202012Validator(schema(AuditData)).validate(document)
    assert read(AuditData, document) == AuditData(lines=(UNJUSTIFIED, JUSTIFIED, UNJUSTIFIED), total=3, unjustified=2)


def test_an_empty_fix_is_left_out_and_the_criterion_is_written_flat() -> None:
    assert "fix" not in write(JUSTIFIED) and write(UNJUSTIFIED)["fix"] == "# noqa  # <why>"
    criteria = POPULATED[6]
    assert isinstance(criteria, CriteriaData)
    assert write(criteria.criteria[0]) == {
        "n": 1,
        "text": "totals round down",
        "tag": "[SHOP-1#1]",
        "status": "red",
        "reason": "1 of 2 tests did not pass",
        "tests": [
            {"name": "test_total[SHOP-1#1]", "outcome": "failed"},
            {"name": "test_round[SHOP-1#1]", "outcome": "passed"},
        ],
    }


@pytest.mark.parametrize(
    ("payload", "path", "bound"),
    [
        (IntegrityData, ("suppressions",), {"maxItems": 1_000}),
        (AuditData, ("lines",), {"maxItems": 1_000}),
        (CoverageData, ("paths",), {"maxItems": 200}),
        (ScopeData, ("globs",), {"maxItems": 1000}),
        (ScopeData, ("outside",), {"maxItems": 200}),
        (ReferencesData, ("references",), {"maxItems": 5_000}),
        (ToolData, ("runs",), {"maxItems": 50}),
        (ToolData, ("row", "check"), {"minimum": 1, "maximum": 9}),
        (EvidenceData, ("counts", "passed"), {"minimum": 0}),
        (CriteriaData, ("criteria", "n"), {"minimum": 1}),
        (strength.StrengthData, ("shards",), {"items": {"type": "string", "pattern": "^[0-9]{1,4}/[0-9]{1,4}$"}}),
    ],
)
def test_the_bounds_a_ledger_from_a_fork_is_held_to_are_kept(
    payload: type[GateData], path: tuple[str, ...], bound: dict[str, Any]
) -> None:
    found = schema(payload)
    for name in path:
        found = _inside(found)["properties"][name]
    for key, value in bound.items():
        assert _unwrapped(found)[key] == value, (path, key)


def _unwrapped(found: dict[str, Any]) -> dict[str, Any]:
    """The non-null branch of a nullable schema."""
    if "anyOf" in found:
        (found,) = (branch for branch in found["anyOf"] if branch != {"type": "null"})
    return found


def _inside(found: dict[str, Any]) -> dict[str, Any]:
    """The object a schema holds: itself, or an array's items."""
    found = _unwrapped(found)
    return _unwrapped(found["items"]) if found.get("type") == "array" else found


@dataclass(frozen=True, kw_only=True)
class Sample:
    """Every hint the codec knows, in a payload of this test's own."""

    name: str = field(metadata=spec(schema={"maxLength": 8}))
    size: float
    flag: bool
    status: CriterionStatus | None
    rows: tuple[Counts, ...]
    table: dict[str, int] = field(metadata=spec(items={"minimum": 0}, keys={"pattern": "^[a-z]+$"}))
    pairs: tuple[tuple[str, int], ...] = field(default=(), metadata=spec(names=("key", "value")))
    kind: str | None = field(default=None, metadata=spec(schema={"enum": ["a", "b"]}))


def test_the_codec_derives_a_closed_schema_with_the_fields_without_a_default_required() -> None:
    derived = schema(Sample)
    assert derived["additionalProperties"] is False
    assert derived["required"] == ["name", "size", "flag", "status", "rows", "table"]
    assert derived["properties"]["name"] == {"type": "string", "maxLength": 8}
    assert derived["properties"]["status"] == {"enum": [*(str(status) for status in CriterionStatus), None]}
    assert derived["properties"]["table"]["propertyNames"] == {"pattern": "^[a-z]+$"}
    assert derived["properties"]["kind"] == {"type": ["string", "null"], "enum": ["a", "b", None]}
    value = Sample(name="a", size=0.5, flag=True, status=None, rows=(COUNTS,), table={"x": 1}, pairs=(("k", 2),))
    document = write(value)
    assert document["pairs"] == [{"key": "k", "value": 2}]
    jsonschema.Draft202012Validator(derived).validate(document)
    assert read(Sample, document) == value
    bad_ones = (
        {**document, "name": "too long!"},
        {**document, "table": {"X": 1}},
        {**document, "more": 1},
        {**document, "kind": "c"},
    )
    for bad in bad_ones:
        assert not jsonschema.Draft202012Validator(derived).is_valid(bad)
