"""Ledger version 3 carries each gate's typed payload, checked by the gate's own schema, and the
quality record; a version-1 ledger, as the released action wrote it, and a version-2 one still
read, render and merge, their stated verdicts checked by the rules they were written under."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from evidence_gate.errors import UsageError
from evidence_gate.ledger.document import LEDGER_VERSION, from_document, to_document
from evidence_gate.ledger.model import GateVerdict, Verdict, merge
from evidence_gate.ledger.payloads.evidence import EvidenceData
from evidence_gate.render import render_comment
from evidence_gate.settings import Settings
from tests.conftest import Repo, judge_repo
from tests.render.checks import check_structure, quality_markers

V1 = Path(__file__).resolve().parents[1] / "fixtures" / "ledgers" / "v1-demo.json"


def v1_document() -> dict[str, Any]:
    document: dict[str, Any] = json.loads(V1.read_text(encoding="utf-8"))
    return document


def test_a_version_1_ledger_reads_with_its_headlines_and_excerpts_and_no_payload() -> None:
    ledger = from_document(v1_document(), "v1-demo.json")
    assert ledger.verdict is Verdict.BLOCKED
    evidence, criteria = ledger.gates
    assert (evidence.verdict, evidence.headline) == (GateVerdict.FAIL, "1 of 5 tests failed")
    assert criteria.headline == "1 of 2 acceptance criteria proven by passing tests"
    assert [excerpt.source for excerpt in evidence.excerpts] == ["build/pytest.log"]
    assert evidence.data is None and criteria.data is None
    comment = render_comment(ledger)
    markers = quality_markers(ledger, "comment")
    assert "<!-- QG:CHECK:3:FAIL -->" in markers and "<!-- QG:CHECK:6:FAIL -->" in markers
    check_structure(comment, markers)
    assert "refused with a message: no test names it" in comment  # no payload: the criteria partial shows details


def test_a_version_1_ledger_merges_with_a_version_2_one_of_the_same_run() -> None:
    old = from_document(v1_document(), "v1-demo.json")
    new = from_document(to_document(old), "v2.json")
    merged = merge([old, new])
    assert merged.verdict is Verdict.BLOCKED
    assert merged.counts is not None and merged.counts.executed == 10


def shop_ledger(repo: Repo) -> dict[str, Any]:
    repo.commit("base", {"pyproject.toml": "[project]\nname = 'shop'\n"})
    (repo.path / "build").mkdir()
    (repo.path / "build" / "junit.xml").write_text(
        '<testsuite name="pytest" tests="1"><testcase classname="t" name="test_a"/></testsuite>\n', encoding="utf-8"
    )
    return to_document(judge_repo(Settings(repo=repo.path, reports=("build/*.xml",)), in_ci=True))


def test_a_version_2_ledger_is_read_and_its_stagnation_was_its_word_for_nothing_proven(repo: Repo) -> None:
    document = shop_ledger(repo)
    document["version"] = 2
    del document["quality"]
    document["gates"] = [
        {**gate, "verdict": "unavailable"} if gate["id"] == "gate-integrity" else gate
        for gate in document["gates"]
        if gate["id"] in ("evidence", "gate-integrity", "strength", "coverage", "criteria")
    ]
    document["verdict"] = "STAGNATION"  # version 2's verdict for a gate that could not run
    ledger = from_document(document, "v2.json")
    assert ledger.gate("ledger") is None  # no contradiction: its verdict followed its rules
    assert ledger.verdict is Verdict.BLOCKED  # and today's rules block an unavailable gate
    document["verdict"] = "PASS"
    assert from_document(document, "v2.json").gate("ledger") is not None


def evidence_index(document: dict[str, Any]) -> int:
    return next(index for index, gate in enumerate(document["gates"]) if gate["id"] == "evidence")


def test_a_version_3_ledger_round_trips_each_gates_payload(repo: Repo) -> None:
    document = shop_ledger(repo)
    assert document["version"] == LEDGER_VERSION == 3
    ledger = from_document(copy.deepcopy(document), "ledger.json")
    evidence = ledger.gate("evidence")
    assert evidence is not None and isinstance(evidence.data, EvidenceData)
    assert [source.result for source in evidence.data.sources] == ["1 test passed"]
    assert to_document(ledger) == document


def test_a_payload_that_breaks_its_gates_schema_is_refused_naming_where(repo: Repo) -> None:
    document = shop_ledger(repo)
    index = evidence_index(document)
    del document["gates"][index]["data"]["sources"][0]["status"]
    with pytest.raises(
        UsageError, match=rf"forged.json: not a valid ledger: gates/{index}/data/sources/0: 'status' is a"
    ):
        from_document(document, "forged.json")


def test_a_payload_of_a_gate_this_version_does_not_know_is_dropped_and_its_details_kept(repo: Repo) -> None:
    document = shop_ledger(repo)
    document["gates"].append(
        {
            "id": "mutation",
            "title": "Mutation testing",
            "verdict": "pass",
            "headline": "every mutant of the change is killed",
            "details": ["src/cart.py: 12 of 12 changed lines covered"],
            "excerpts": [],
            "annotations": [],
            "data": {"files": [{"path": "src/cart.py", "covered": 12}]},
        }
    )
    newer = from_document(document, "newer.json").gate("mutation")
    assert newer is not None
    assert (newer.data, newer.details) == (None, ("src/cart.py: 12 of 12 changed lines covered",))


@pytest.mark.parametrize("version", [0, 4, "2", True, None])
def test_a_version_this_tool_does_not_read_is_one_clear_line(version: object) -> None:
    document = v1_document()
    document["version"] = version
    with pytest.raises(
        UsageError, match=r"x.json: not a valid ledger: version: .* is not one this tool reads \(1, 2, 3\)"
    ):
        from_document(document, "x.json")
