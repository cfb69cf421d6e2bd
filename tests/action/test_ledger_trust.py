"""A ledger read from outside is data, not a verdict: its verdict is recomputed from its gates, and
merge mixes only the shards of one run (one head, one check)."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from evidence_gate.errors import UsageError
from evidence_gate.event import load_context
from evidence_gate.github.publish import checked_ledger
from evidence_gate.ledger.document import from_document, read_ledger, to_document, write_ledger
from evidence_gate.ledger.model import GateResult, GateVerdict, Ledger, Verdict, merge
from evidence_gate.model import Counts
from evidence_gate.settings import Settings


def shard(verdict: GateVerdict, head: str | None = "a" * 40, check_name: str = "Evidence Gate") -> Ledger:
    gates = (GateResult(id="evidence", title="Test evidence", verdict=verdict, headline=str(verdict)),)
    return Ledger(
        verdict=Verdict.PASS if verdict is GateVerdict.PASS else Verdict.BLOCKED,
        head=head,
        base=None,
        stack="python",
        counts=Counts(passed=1, failed=0 if verdict is GateVerdict.PASS else 1, skipped=0),
        gates=gates,
        check_name=check_name,
    )


def test_a_stated_pass_over_a_failed_gate_reads_as_blocked_with_the_reason() -> None:
    document = to_document(shard(GateVerdict.FAIL))
    document["verdict"] = "PASS"
    ledger = from_document(document, "forged.json")
    assert ledger.verdict is Verdict.BLOCKED
    forged = ledger.gate("ledger")
    assert forged is not None
    assert forged.verdict is GateVerdict.FAIL
    assert forged.headline.startswith("the ledger says PASS, but its gates say BLOCKED")


def test_a_stated_pass_over_gates_that_proved_nothing_is_not_a_pass() -> None:
    document = to_document(shard(GateVerdict.UNAVAILABLE))
    document["verdict"] = "PASS"
    assert from_document(document, "forged.json").verdict is Verdict.BLOCKED


def test_a_ledger_whose_verdict_matches_its_gates_reads_unchanged(tmp_path: Path) -> None:
    original = shard(GateVerdict.PASS)
    write_ledger(original, tmp_path / "ledger.json")
    assert read_ledger(tmp_path / "ledger.json") == original


@pytest.mark.parametrize(
    ("other", "message"),
    [
        (shard(GateVerdict.PASS, head="b" * 40), "merge: the ledgers name different head commits"),
        (shard(GateVerdict.PASS, head=None), "merge: the ledgers name different head commits"),
        (shard(GateVerdict.PASS, check_name="Other"), "merge: the ledgers name different check names"),
    ],
    ids=["other-head", "no-head", "other-check"],
)
def test_merge_refuses_ledgers_of_another_run(other: Ledger, message: str) -> None:
    with pytest.raises(UsageError, match=message):
        merge([shard(GateVerdict.PASS), other])


def test_the_merged_verdict_is_the_merged_gates(tmp_path: Path) -> None:
    forged = to_document(shard(GateVerdict.FAIL))
    forged["verdict"] = "PASS"
    merged = merge([shard(GateVerdict.PASS), from_document(forged, "forged.json")])
    assert merged.verdict is Verdict.BLOCKED


def test_the_merge_verb_refuses_shards_of_different_commits_in_one_line(tmp_path: Path) -> None:
    paths = []
    for index, head in enumerate(("a" * 40, "b" * 40)):
        path = tmp_path / f"ledger-{index}.json"
        write_ledger(shard(GateVerdict.PASS, head=head), path)
        paths.append(str(path))
    result = subprocess.run(
        [sys.executable, "-m", "evidence_gate", "merge", *paths, "-o", str(tmp_path / "merged.json")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 2
    assert len(result.stderr.strip().splitlines()) == 1
    assert "different head commits" in result.stderr
    assert not (tmp_path / "merged.json").exists()


def test_a_gate_a_ledger_switches_off_that_this_jobs_settings_do_not_is_a_failure(tmp_path: Path) -> None:
    """A ledger made elsewhere (a fork's run) does not decide its own gate settings: a gate it shows
    as off counts as off only where this job's `gates-off` switches it off too."""
    gates = (
        GateResult(id="evidence", title="Test evidence", verdict=GateVerdict.OFF, headline="switched off"),
        GateResult(id="criteria", title="Acceptance criteria", verdict=GateVerdict.OFF, headline="switched off"),
    )
    made = replace(shard(GateVerdict.PASS), gates=gates, verdict=Verdict.STAGNATION)
    context = load_context({"GITHUB_REPOSITORY": "octo-org/shop", "GITHUB_SHA": "a" * 40})
    assert context is not None
    settings = Settings(repo=tmp_path, gates_off=("criteria",))
    checked = checked_ledger(made, context, settings)
    evidence, criteria = checked.gates
    assert (evidence.verdict, evidence.headline) == (
        GateVerdict.FAIL,
        "the ledger shows this gate switched off, and this job's configuration does not switch it off",
    )
    assert criteria.verdict is GateVerdict.OFF
    assert checked.verdict is Verdict.BLOCKED


def test_a_ledger_cannot_quiet_a_gate_with_a_verdict_that_gate_never_gives(tmp_path: Path) -> None:
    """`info` and `unverifiable` say nothing to the verdict: a ledger made elsewhere may show them
    only for the gates that give them (the smoke test, the plan's manual items)."""
    gates = (
        GateResult(id="evidence", title="Test evidence", verdict=GateVerdict.PASS, headline="2 tests passed"),
        GateResult(id="lint", title="Linter", verdict=GateVerdict.INFO, headline="quiet"),
        GateResult(id="type-check", title="Type checker", verdict=GateVerdict.UNVERIFIABLE, headline="quiet"),
        GateResult(id="smoke", title="Smoke test", verdict=GateVerdict.INFO, headline="1 of 1 exited 0"),
        GateResult(id="criteria", title="Acceptance criteria", verdict=GateVerdict.UNVERIFIABLE, headline="manual"),
    )
    made = replace(shard(GateVerdict.PASS), gates=gates, verdict=Verdict.PASS)
    context = load_context({"GITHUB_REPOSITORY": "octo-org/shop", "GITHUB_SHA": "a" * 40})
    assert context is not None
    checked = checked_ledger(made, context, Settings(repo=tmp_path))
    assert [gate.verdict for gate in checked.gates] == [
        GateVerdict.PASS,
        GateVerdict.FAIL,
        GateVerdict.FAIL,
        GateVerdict.INFO,
        GateVerdict.UNVERIFIABLE,
    ]
    assert checked.gates[1].headline == "the ledger shows this gate as info, a verdict it never gives"
    assert checked.verdict is Verdict.BLOCKED
