"""The ledger: its JSON form round-trips and validates, merge follows the matrix rules, and the
baseline digest survives a check run's summary and refuses tampering."""

from __future__ import annotations

import hashlib
import json
from dataclasses import replace
from pathlib import Path

import pytest

from evidence_gate.errors import UsageError
from evidence_gate.ledger.digest import decode, encode, from_digest
from evidence_gate.ledger.document import from_document, read_ledger, to_document, write_ledger
from evidence_gate.ledger.model import (
    Annotation,
    Excerpt,
    FailedTest,
    GateResult,
    GateVerdict,
    Ledger,
    Verdict,
    compare,
    legacy_verdict,
    merge,
    overall_verdict,
    trim_output,
)
from evidence_gate.ledger.model import case_identity as identity_of
from evidence_gate.ledger.quality_record import Baseline, QualityRecord, SuiteFigures, ToolFigures
from evidence_gate.model import Counts


def gate(verdict: GateVerdict, gate_id: str = "evidence", note: str = "a.py") -> GateResult:
    return GateResult(
        id=gate_id,
        title="Test evidence",
        verdict=verdict,
        headline=f"{verdict}",
        excerpts=(Excerpt(source="read log", exit_code=None, output="ok"),),
        annotations=(Annotation(path=note, line=3, end_line=3, level="failure", message="boom"),),
    )


def ledger(verdict: Verdict, counts: Counts, tests: dict[str, str], gates: tuple[GateResult, ...]) -> Ledger:
    return Ledger(
        verdict=verdict, head="a" * 40, base="b" * 40, stack="python", counts=counts, tests=tests, gates=gates
    )


def test_overall_verdict() -> None:
    assert overall_verdict([gate(GateVerdict.PASS), gate(GateVerdict.NOT_APPLICABLE)]) is Verdict.PASS
    assert overall_verdict([gate(GateVerdict.PASS), gate(GateVerdict.FAIL)]) is Verdict.BLOCKED
    # No warning tier: a gate that could not run, or whose tool is missing, blocks.
    assert overall_verdict([gate(GateVerdict.PASS), gate(GateVerdict.UNAVAILABLE)]) is Verdict.BLOCKED
    assert overall_verdict([gate(GateVerdict.PASS), gate(GateVerdict.MISSING)]) is Verdict.BLOCKED
    # Every gate justifiably not applicable (a docs-only change) passes; informational ones say nothing.
    assert overall_verdict([gate(GateVerdict.NOT_APPLICABLE), gate(GateVerdict.INFO)]) is Verdict.PASS
    assert overall_verdict([gate(GateVerdict.PASS), gate(GateVerdict.UNVERIFIABLE)]) is Verdict.PASS
    # Nothing proven is blocked: no evidence.
    assert overall_verdict([gate(GateVerdict.INFO), gate(GateVerdict.OFF)]) is Verdict.BLOCKED
    assert overall_verdict([]) is Verdict.BLOCKED
    # STAGNATION is a blocked run whose failure repeated; it never turns a pass into a failure.
    assert overall_verdict([gate(GateVerdict.FAIL)], stagnation=True) is Verdict.STAGNATION
    assert overall_verdict([gate(GateVerdict.PASS)], stagnation=True) is Verdict.PASS


def test_a_version_2_ledger_is_checked_by_the_rules_it_was_written_under() -> None:
    gates = [gate(GateVerdict.PASS), gate(GateVerdict.UNAVAILABLE)]
    assert legacy_verdict(gates) is Verdict.STAGNATION
    assert legacy_verdict([gate(GateVerdict.NOT_APPLICABLE)]) is Verdict.STAGNATION


def test_the_json_form_round_trips_and_validates(tmp_path: Path) -> None:
    original = ledger(
        Verdict.BLOCKED,
        Counts(passed=3, failed=1, skipped=0),
        {identity_of("cart", "adds"): "failed"},
        (gate(GateVerdict.FAIL),),
    )
    path = tmp_path / "ledger.json"
    write_ledger(original, path)
    assert read_ledger(path) == original


def test_a_ledger_that_does_not_validate_is_a_usage_error() -> None:
    document = to_document(ledger(Verdict.PASS, Counts(passed=1, failed=0, skipped=0), {}, ()))
    document["verdict"] = "GREEN"
    with pytest.raises(UsageError, match=r"artifact\.json: not a valid ledger: verdict: 'GREEN' is not one of"):
        from_document(document, "artifact.json")


def test_merge_adds_counts_unions_tests_concatenates_annotations_and_takes_the_worst_verdict() -> None:
    shard_a = ledger(
        Verdict.PASS, Counts(passed=5, failed=0, skipped=1), {"aaaaaaaaaaaa": "passed"}, (gate(GateVerdict.PASS),)
    )
    shard_b = ledger(
        Verdict.BLOCKED,
        Counts(passed=2, failed=1, skipped=0),
        {"aaaaaaaaaaaa": "failed", "bbbbbbbbbbbb": "passed"},
        (gate(GateVerdict.FAIL, note="b.py"),),
    )
    merged = merge([shard_a, shard_b])
    assert merged.verdict is Verdict.BLOCKED
    assert merged.counts == Counts(passed=7, failed=1, skipped=1)
    assert merged.tests == {"aaaaaaaaaaaa": "failed", "bbbbbbbbbbbb": "passed"}
    (merged_gate,) = merged.gates
    assert merged_gate.verdict is GateVerdict.FAIL
    assert [note.path for note in merged_gate.annotations] == ["a.py", "b.py"]


def test_deltas_are_by_test_identity() -> None:
    base_tests = {"000000000001": "passed", "000000000002": "passed", "000000000003": "skipped"}
    head = ledger(
        Verdict.BLOCKED,
        Counts(passed=1, failed=1, skipped=1),
        {"000000000001": "failed", "000000000004": "passed", "000000000005": "skipped"},
        (),
    )
    deltas = compare(Counts(passed=2, failed=0, skipped=1), base_tests, head)
    assert (deltas.executed, deltas.added, deltas.removed, deltas.newly_failing, deltas.newly_skipped) == (
        0,
        2,
        2,
        1,
        1,
    )


def test_trim_output_keeps_the_first_50_and_last_10_lines() -> None:
    text = "\n".join(f"line {n}" for n in range(1, 201))
    lines = trim_output(text).splitlines()
    assert lines[49] == "line 50"
    assert lines[50] == "... 140 lines truncated ..."
    assert lines[51:] == [f"line {n}" for n in range(191, 201)]


def test_the_digest_round_trips_through_a_check_run_summary() -> None:
    original = ledger(Verdict.PASS, Counts(passed=2, failed=0, skipped=1), {"abcdef012345": "skipped"}, ())
    digest = encode(original)
    assert digest is not None
    found = decode(f"## Evidence Gate\nsome summary\n{digest}\n")
    assert found is not None
    assert (found.counts, found.tests) == (original.counts, original.tests)


def test_the_digest_carries_what_the_checks_measured_and_the_failed_checks_signatures() -> None:
    """A later run's baseline (the Results table's baseline column, check 2's warnings) and history."""
    measured = Baseline(
        type_check=ToolFigures(exit=0, count=0),
        lint=ToolFigures(exit=1, count=4),
        test=SuiteFigures(exit=1, passed=2, failed=1, skipped=0),
        coverage="81.25",
        timestamp="2026-12-01T10:00:00Z",
    )
    record = QualityRecord(signatures={2: "0123456789ab", 3: "ba9876543210"}, measured=measured)
    original = replace(
        ledger(Verdict.BLOCKED, Counts(passed=2, failed=1, skipped=0), {"abcdef012345": "failed"}, ()), quality=record
    )
    digest = encode(original)
    assert digest is not None
    found = decode(digest)
    assert found is not None
    assert (found.figures, found.signatures) == (measured, {2: "0123456789ab", 3: "ba9876543210"})
    baseline = from_digest(found)
    assert (baseline.lint, baseline.test, baseline.outcomes) == (
        measured.lint,
        measured.test,
        {"abcdef012345": "failed"},
    )


def test_a_digest_with_a_forged_signature_or_figures_is_no_baseline() -> None:
    import base64
    import gzip

    for extra in ({"g": {"2": "not-a-hash"}}, {"g": {"12": "0123456789ab"}}, {"q": {"lint": {"exit": 0}}}):
        document = {"c": [1, 0, 0], "t": "", "n": {}, **extra}
        forged = base64.b64encode(gzip.compress(json.dumps(document).encode())).decode()
        assert decode(f"<!-- evidence-gate:digest:v1:{forged} -->") is None, extra


@pytest.mark.parametrize(
    "summary",
    [
        "no digest at all",
        "<!-- evidence-gate:digest:v1:not-base64!! -->",
        "<!-- evidence-gate:digest:v1:aGVsbG8= -->",  # base64, but not gzip
    ],
)
def test_a_missing_or_tampered_digest_is_no_baseline(summary: str) -> None:
    assert decode(summary) is None


def test_a_digest_with_a_forged_shape_is_refused() -> None:
    import base64
    import gzip

    forged = base64.b64encode(gzip.compress(json.dumps({"c": [-1, 0, 0], "t": ""}).encode())).decode()
    assert decode(f"<!-- evidence-gate:digest:v1:{forged} -->") is None


def test_failed_tests_survive_the_round_trip(tmp_path: Path) -> None:
    original = Ledger(
        verdict=Verdict.BLOCKED,
        head=None,
        base=None,
        stack="go",
        counts=None,
        failed_tests=(FailedTest(name="TestCart", message="boom", path="cart_test.go", line=12),),
    )
    path = tmp_path / "ledger.json"
    write_ledger(original, path)
    assert read_ledger(path).failed_tests == original.failed_tests


def test_the_digest_carries_test_names_and_drops_them_first_when_it_would_not_fit() -> None:
    named = {f"{n:012x}": f"tests.test_cart::test_price[{n}]" for n in range(50)}
    ledger = Ledger(
        verdict=Verdict.PASS,
        head="h",
        base=None,
        stack="python",
        counts=Counts(passed=50, failed=0, skipped=0),
        tests=dict.fromkeys(named, "passed"),
        test_names=named,
    )
    digest = decode(encode(ledger) or "")
    assert digest is not None and digest.names == named
    many = {
        hashlib.sha256(str(n).encode()).hexdigest()[:12]: hashlib.sha512(str(n).encode()).hexdigest()
        for n in range(3000)
    }
    big = replace(ledger, tests=dict.fromkeys(many, "passed"), test_names=many)
    encoded = encode(big)
    assert encoded is not None and len(encoded) < 49_000
    kept = decode(encoded)
    assert kept is not None and len(kept.tests) == 3000 and 0 < len(kept.names) < 3000
