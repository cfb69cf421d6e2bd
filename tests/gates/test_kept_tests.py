"""The kept-tests check as a pure function: the base run's digest and this run in, a verdict out."""

from __future__ import annotations

from evidence_gate.kept_tests import KeptTestsFacts, evaluate_kept_tests
from evidence_gate.model import Counts

BASE = {"a" * 12: "passed", "b" * 12: "passed", "c" * 12: "failed", "d" * 12: "skipped"}
NAMES = {"a" * 12: "tests.test_cart::test_total", "b" * 12: "tests.test_cart::test_price[3]"}


def facts(**changes: object) -> KeptTestsFacts:
    values: dict[str, object] = {
        "base_counts": Counts(passed=2, failed=1, skipped=1),
        "base_tests": BASE,
        "base_names": NAMES,
        "counts": Counts(passed=3, failed=0, skipped=1),
        "tests": dict(BASE),
        "removed_test_lines": (),
    }
    values.update(changes)
    return KeptTestsFacts(**values)  # type: ignore[arg-type]  # the test's literal facts


def test_every_base_test_still_run_holds() -> None:
    assert evaluate_kept_tests(facts()).ok


def test_fewer_tests_than_the_base_fail_by_counts_alone_without_identities() -> None:
    verdict = evaluate_kept_tests(facts(tests={}, counts=Counts(passed=2, failed=0, skipped=0)))
    assert (verdict.ok, verdict.reason) == (
        False,
        "1 fewer tests executed than at the base (3 -> 2; no test identities on both sides to tell which tests went"
        " missing)",
    )


def test_a_missing_test_is_named_and_an_unnamed_one_counted() -> None:
    now = {"b" * 12: "passed", "d" * 12: "skipped", "e" * 12: "passed"}
    verdict = evaluate_kept_tests(facts(tests=now))
    assert verdict.reason == (
        "2 tests the base ran are missing, and the change does not delete them: tests.test_cart::test_total,"
        " 1 more unnamed"
    )


def test_a_test_whose_definition_the_change_removed_is_named_and_blocks_by_the_count() -> None:
    """Deleting a test is not a way to green: the executed count may not fall below the base's."""
    now = {"a" * 12: "passed", "c" * 12: "passed", "d" * 12: "skipped"}
    removed = ("@pytest.mark.parametrize('n', range(4))", "def test_price(n):")
    verdict = evaluate_kept_tests(
        facts(tests=now, counts=Counts(passed=2, failed=0, skipped=1), removed_test_lines=removed)
    )
    assert not verdict.ok
    assert verdict.reason.endswith("(3 -> 2; deleted by the change: tests.test_cart::test_price[3])")
    assert "deleted by the change: tests.test_cart::test_price[3]" in verdict.details


def test_a_test_renamed_by_the_change_keeps_the_count_and_passes() -> None:
    now = {"a" * 12: "passed", "c" * 12: "passed", "e" * 12: "passed"}
    removed = ("def test_price(n):",)
    verdict = evaluate_kept_tests(facts(tests=now, removed_test_lines=removed))
    assert verdict.ok, verdict.reason


def test_a_name_inside_another_word_does_not_explain_a_missing_test() -> None:
    now = {"a" * 12: "passed", "c" * 12: "passed", "d" * 12: "skipped"}
    verdict = evaluate_kept_tests(facts(tests=now, removed_test_lines=("def test_price_rounding():",)))
    assert not verdict.ok


def test_a_test_the_base_skipped_may_go() -> None:
    now = {"a" * 12: "passed", "b" * 12: "passed", "c" * 12: "passed"}
    assert evaluate_kept_tests(facts(tests=now)).ok


def test_a_base_test_now_skipped_fails_by_the_count() -> None:
    now = {**BASE, "c" * 12: "skipped"}
    verdict = evaluate_kept_tests(facts(tests=now, counts=Counts(passed=2, failed=0, skipped=2)))
    assert verdict.reason == "1 fewer tests executed than at the base (3 -> 2; 1 now skipped)"
