"""The acceptance-criteria gate, judged from literal facts."""

from __future__ import annotations

from evidence_gate.criteria_source import TagTally
from evidence_gate.gates.criteria import CriteriaFacts, judge_criteria
from evidence_gate.ledger.model import GateVerdict
from evidence_gate.ledger.payloads.criteria import Criterion

CHECKLIST = (Criterion(number=1, text="refunds are logged"), Criterion(number=2, text="totals round down"))


def tally(total: int, unproven: int = 0) -> TagTally:
    names = [("tests::test_refund", "failed")] if unproven else []
    return TagTally(total=total, unproven=unproven, passed_names=["tests::test_ok"], unproven_names=names)


def test_every_criterion_proven_passes() -> None:
    facts = CriteriaFacts(checklist=CHECKLIST, story="S", case_reports=1, tagged={"[S#1]": tally(2), "[S#2]": tally(1)})
    gate = judge_criteria(facts)
    assert (gate.verdict, gate.headline) == (GateVerdict.PASS, "2 of 2 acceptance criteria proven by passing tests")


def test_a_criterion_with_a_failing_test_fails() -> None:
    facts = CriteriaFacts(
        checklist=CHECKLIST, story="S", case_reports=1, tagged={"[S#1]": tally(2, 1), "[S#2]": tally(1)}
    )
    gate = judge_criteria(facts)
    assert gate.verdict is GateVerdict.FAIL
    assert gate.details[0] == ("red: [S#1] refunds are logged: 1 of 2 tests did not pass: tests::test_refund (failed)")


def test_a_tag_only_in_the_test_sources_is_red() -> None:
    facts = CriteriaFacts(
        checklist=CHECKLIST[:1], story="S", case_reports=1, sources={"[S#1]": ["tests/test_refund.py:4"]}
    )
    assert judge_criteria(facts).verdict is GateVerdict.FAIL


def test_too_many_criteria_fail_with_the_reason() -> None:
    facts = CriteriaFacts(
        checklist=(), checklist_problem="201 acceptance criteria; at most 200 are read", too_many=True
    )
    gate = judge_criteria(facts)
    assert (gate.verdict, gate.headline) == (GateVerdict.FAIL, "201 acceptance criteria; at most 200 are read")


def test_a_body_without_a_checklist_is_not_applicable_and_says_why() -> None:
    gate = judge_criteria(CriteriaFacts(checklist=(), checklist_problem="no checklist items under the heading"))
    assert (gate.verdict, gate.headline) == (GateVerdict.NOT_APPLICABLE, "no checklist items under the heading")


def test_criteria_without_a_story_or_reports_cannot_be_judged() -> None:
    assert judge_criteria(CriteriaFacts(checklist=CHECKLIST, case_reports=1)).verdict is GateVerdict.UNAVAILABLE
    no_reports = judge_criteria(CriteriaFacts(checklist=CHECKLIST[:1], story="S"))
    assert (no_reports.verdict, no_reports.headline) == (
        GateVerdict.UNAVAILABLE,
        "1 acceptance criterion, but no report names test cases (a JUnit XML report does)",
    )
