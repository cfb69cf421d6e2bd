"""The ledger reader fuzzed (`ledger/document.read_ledger`, with the schemas of every version it
reads): real ledgers of versions 1 and 3 and a passing one, their fields replaced, removed or added,
mutated as bytes, and garbage.

A ledger file is a ledger or a one-line `UsageError`, never a traceback; and a ledger read as PASS
is one whose gates all passed or did not apply: no stated verdict, and no field outside the gates,
makes a PASS of a ledger whose gates do not."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given

from evidence_gate.errors import UsageError
from evidence_gate.ledger.document import read_ledger, to_document
from evidence_gate.ledger.model import GateResult, GateVerdict, Ledger, Verdict
from evidence_gate.model import Counts

from .inputs import FIXTURES, garbage, json_texts, mutated

pytestmark = pytest.mark.fuzz

PASSED = to_document(
    Ledger(
        verdict=Verdict.PASS,
        head="a" * 40,
        base="b" * 40,
        stack="python",
        counts=Counts(passed=3, failed=0, skipped=1),
        gates=(
            GateResult(id="evidence", title="Test evidence", verdict=GateVerdict.PASS, headline="3 passed"),
            GateResult(id="strength", title="Strength", verdict=GateVerdict.NOT_APPLICABLE, headline="no tests"),
        ),
    )
)
DOCUMENTS: tuple[dict[str, Any], ...] = (
    json.loads((FIXTURES / "ledgers" / "v1-demo.json").read_text("utf-8")),
    json.loads((FIXTURES / "ledgers" / "v3-demo.json").read_text("utf-8")),
    PASSED,
)
# What a gate may say in a ledger that passes: nothing failed, was missing or could not be told.
NOT_BLOCKING = {
    GateVerdict.PASS,
    GateVerdict.NOT_APPLICABLE,
    GateVerdict.OFF,
    GateVerdict.INFO,
    GateVerdict.UNVERIFIABLE,
}

inputs = json_texts(DOCUMENTS) | mutated(tuple(json.dumps(each, indent=2).encode() for each in DOCUMENTS), json=True)


@pytest.fixture(scope="module")
def ledger_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("ledger") / "ledger.json"


@given(data=inputs | garbage)
def test_a_ledger_file_is_a_ledger_or_a_one_line_error(ledger_path: Path, data: bytes) -> None:
    ledger_path.write_bytes(data)
    try:
        ledger = read_ledger(ledger_path)
    except UsageError as error:
        assert len(error.one_line()) < 1_000, error.one_line()
        return
    if ledger.verdict is Verdict.PASS:
        stated = json.loads(data)["gates"]
        assert all(GateVerdict(gate["verdict"]) in NOT_BLOCKING for gate in stated), "a PASS over gates that block"
        assert all(gate.verdict in NOT_BLOCKING for gate in ledger.gates)
