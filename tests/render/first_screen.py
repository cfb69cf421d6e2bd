"""The comments whose first screen the tests look at and docs/images shows: a passing fix, a relaxing
change and a run with 200 failing tests (the demo is the fourth, run for real). Each is rendered
with links to the head commit, as the action publishes it."""

from __future__ import annotations

from evidence_gate.ledger.model import Annotation, Deltas, FailedTest, GateResult, GateVerdict, Ledger, Verdict
from evidence_gate.model import Counts
from evidence_gate.render import Links, links_for, render_comment
from tests.render.ledgers import gate

HEAD = "4f2a9c1e7b3d5a6f8e0c2b4d6a8f0e1c3b5d7a9f"
LINKS = links_for("https://github.com", "octo-org/shop", HEAD)


TITLES = {
    "type-check": "Type checker",
    "lint": "Linter",
    "evidence": "Test evidence",
    "coverage": "Coverage",
    "strength": "Test strength",
    "gate-integrity": "Gate integrity",
}


def _gate(gate_id: str, verdict: GateVerdict, **fields: object) -> GateResult:
    return gate(gate_id, verdict, title=TITLES.get(gate_id, gate_id.title()), **fields)


def _passed(gate_id: str, headline: str) -> GateResult:
    return _gate(gate_id, GateVerdict.PASS, headline=headline)


def _common(*extra: GateResult) -> tuple[GateResult, ...]:
    return (
        _passed("type-check", "exit code 0, 0 errors"),
        _passed("lint", "exit code 0, 0 warnings"),
        *extra,
        _gate("scope", GateVerdict.NOT_APPLICABLE, headline="no scope is declared"),
        _gate("criteria", GateVerdict.NOT_APPLICABLE, headline="the body lists no acceptance criteria"),
        _gate("suppressions", GateVerdict.NOT_APPLICABLE, headline="the change adds no suppression"),
        _gate("references", GateVerdict.NOT_APPLICABLE, headline="no truth source"),
        _gate("smoke", GateVerdict.NOT_APPLICABLE, headline="no smoke commands are configured"),
    )


def passing_fix() -> Ledger:
    """A one-line fix with its regression test: red without the change, every changed line run."""
    return _ledger(
        Verdict.PASS,
        Counts(passed=121, failed=0, skipped=0),
        Deltas(executed=1, added=1, removed=0, newly_failing=0, newly_skipped=0),
        _common(
            _passed("evidence", "121 of 121 tests passed"),
            _passed("coverage", "Coverage gate: PASS (100%)."),
            _passed("strength", "1 changed test file: 1 red"),
            _passed("gate-integrity", "1 gate edit, none relaxes a gate"),
        ),
    )


def _tagged(path: str, line: int, tag: str, name: str) -> Annotation:
    """Gate integrity's annotation of a hunk it tagged for review."""
    return Annotation(
        path=path, line=line, end_line=line, level="warning", title=tag, message=f"a gate edit to read: {name}"
    )


def _ledger(
    verdict: Verdict,
    counts: Counts,
    deltas: Deltas,
    gates: tuple[GateResult, ...],
    failed_tests: tuple[FailedTest, ...] = (),
) -> Ledger:
    return Ledger(
        verdict=verdict,
        head=HEAD,
        base="b" * 40,
        stack="python",
        counts=counts,
        deltas=deltas,
        gates=gates,
        failed_tests=failed_tests,
    )


def relaxing_change() -> Ledger:
    """A change that skips a test, drops an assertion and lowers the coverage threshold: gate
    integrity tags each for review, and one changed line runs in no test."""
    review = (
        _tagged("tests/test_cart.py", 14, "RH-1", "test-skipped"),
        _tagged("tests/test_cart.py", 31, "RH-4", "assertion-removed"),
        _tagged("pyproject.toml", 40, "RH-8", "threshold-lowered"),
    )
    uncovered = Annotation(
        path="shop/cart.py",
        line=22,
        end_line=24,
        level="warning",
        title="Not run by any test",
        message="Changed lines 22-24: not run by any test.",
    )
    return _ledger(
        Verdict.PASS,
        Counts(passed=118, failed=0, skipped=1),
        Deltas(executed=-1, added=0, removed=0, newly_failing=0, newly_skipped=1),
        _common(
            _passed("evidence", "118 of 118 tests passed, 1 skipped"),
            _gate("coverage", GateVerdict.PASS, headline="Coverage gate: PASS (85%).", annotations=(uncovered,)),
            _gate("strength", GateVerdict.NOT_APPLICABLE, headline="no changed test to judge"),
            _gate(
                "gate-integrity",
                GateVerdict.REVIEW,
                headline="3 gate edits; tagged for review: RH-1, RH-4, RH-8",
                annotations=review,
            ),
        ),
    )


def failing_run() -> Ledger:
    """A run with 200 failing tests."""
    failed = tuple(
        FailedTest(
            name=f"tests/test_orders.py::test_order_{index:03d}",
            message=f"AssertionError: expected status 200, got 500 (order {index})",
            path="tests/test_orders.py",
            line=10 + index * 4,
        )
        for index in range(200)
    )
    return _ledger(
        Verdict.BLOCKED,
        Counts(passed=40, failed=200, skipped=0),
        Deltas(executed=0, added=0, removed=0, newly_failing=200, newly_skipped=0),
        _common(
            _gate("evidence", GateVerdict.FAIL, headline="200 of 240 tests failed"),
            _gate("coverage", GateVerdict.NOT_APPLICABLE, headline="Coverage gate: could not determine percentage."),
            _passed("strength", "1 changed test file: 1 red"),
            _passed("gate-integrity", "no gate edit"),
        ),
        failed_tests=failed,
    )


CASES = {"passing-fix": passing_fix, "relaxing-change": relaxing_change, "failing-run": failing_run}


def comment(name: str, links: Links | None = LINKS) -> str:
    return render_comment(CASES[name](), links=links)
