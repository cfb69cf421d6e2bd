"""The evidence gate, judged from literal facts: no repository, no file, no process."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import jsonschema

from evidence_gate.facts import Reports
from evidence_gate.gates import evidence
from evidence_gate.ledger.digest import Digest
from evidence_gate.ledger.model import FailedTest, GateVerdict
from evidence_gate.ledger.payload import read, schema, write
from evidence_gate.ledger.payloads.evidence import EvidenceData
from evidence_gate.model import Counts
from evidence_gate.settings import Settings

from .literal_facts import counted, facts, log

SETTINGS = Settings(repo=Path("/checkout"), reports=("build/*.log",))


def test_a_passing_log_passes_and_its_payload_says_how_it_was_read() -> None:
    gate = evidence.judge(facts(), SETTINGS)
    assert (gate.verdict, gate.headline) == (GateVerdict.PASS, "3 tests executed, all passed (0 skipped)")
    assert gate.details[0] == (
        "no base was given, so the change itself was not inspected (give --base, or run on a pull request)"
    )
    assert isinstance(gate.data, EvidenceData)
    (source,) = gate.data.sources
    assert (source.source, source.read_by, source.result) == ("build/pytest.log", "pytest", "3 tests passed")
    assert gate.data.counts == Counts(passed=3, failed=0, skipped=0)


def test_without_reports_the_gate_is_unavailable_and_says_which_setting_is_missing() -> None:
    none_given = facts(reports=Reports(given=False), logs=())
    gate = evidence.judge(none_given, replace(SETTINGS, reports=()))
    assert (gate.verdict, gate.headline) == (
        GateVerdict.UNAVAILABLE,
        "no test logs or reports were given (set `reports`)",
    )


def test_globs_that_match_nothing_are_named() -> None:
    unmatched = facts(reports=Reports(given=True, unmatched=("build/*.log",)), logs=())
    gate = evidence.judge(unmatched, SETTINGS)
    assert (gate.verdict, gate.headline) == (GateVerdict.UNAVAILABLE, "no file matched `reports`")
    assert "no file matched `reports` glob 'build/*.log'" in gate.details


def test_a_refused_report_fails_the_gate_whatever_the_logs_say() -> None:
    reports = replace(facts().reports, refused=("build/env.log: a symlink leading outside the workspace",))
    gate = evidence.judge(facts(reports=reports), SETTINGS)
    assert gate.verdict is GateVerdict.FAIL
    assert gate.headline.startswith("refused to read 1 evidence file: build/env.log: a symlink leading outside")


def test_an_exit_code_in_the_log_fails_it() -> None:
    gate = evidence.judge(facts(log(counted(3), exit_code=1)), SETTINGS)
    assert (gate.verdict, gate.headline) == (GateVerdict.FAIL, "the command exited 1")


def test_failed_tests_beyond_those_listed_are_counted_in_one_line() -> None:
    listed = (FailedTest(name="tests/test_a.py::test_one", message=None),)
    cases = replace(facts().cases, failed=listed, failed_total=3)
    gate = evidence.judge(facts(log(counted(1, failed=3)), cases=cases), SETTINGS)
    assert (gate.verdict, gate.headline) == (GateVerdict.FAIL, "3 of 4 tests failed")
    assert "2 more failed tests are not listed" in gate.details


def test_a_stale_report_fails_the_claim() -> None:
    gate = evidence.judge(facts(stale=("build/pytest.log is committed to git, not produced by this run",)), SETTINGS)
    assert gate.verdict is GateVerdict.FAIL


def test_a_test_the_base_ran_and_this_run_lost_fails_it() -> None:
    base = Digest(
        counts=Counts(passed=2, failed=0, skipped=0),
        tests={"aaaaaaaaaaaa": "passed", "bbbbbbbbbbbb": "passed"},
        names={"bbbbbbbbbbbb": "tests.test_shop::test_refund"},
    )
    cases = replace(facts().cases, identities={"aaaaaaaaaaaa": "passed"})
    gate = evidence.judge(facts(log(counted(1)), cases=cases, baseline=base), SETTINGS)
    assert gate.verdict is GateVerdict.FAIL
    assert "tests.test_shop::test_refund" in gate.headline


def test_the_payload_matches_its_schema_and_reads_back_as_it_was() -> None:
    gate = evidence.judge(facts(log(counted(3, failed=1, skipped=2)), log(counted(0, source="b.log"))), SETTINGS)
    assert isinstance(gate.data, EvidenceData)
    document = write(gate.data)
    jsonschema.Draft202012Validator(schema(EvidenceData)).validate(document)
    assert read(EvidenceData, document) == gate.data
    assert [source.result for source in gate.data.sources] == ["1 of 4 tests failed, 2 skipped", "no test ran"]
