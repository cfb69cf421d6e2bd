"""The coverage gate weighing each changed line by what the strength gate really said of its tests,
on real repositories: strength runs the changed tests with and without the change, coverage.py
(pytest-cov with test contexts) says which test ran each line."""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import replace

from evidence_gate.ledger.document import from_document, to_document
from evidence_gate.ledger.model import GateResult, GateVerdict, Ledger
from evidence_gate.ledger.payloads.coverage import CoverageData
from evidence_gate.render import render_comment, render_pr_section
from evidence_gate.settings import Settings

from ..conftest import Repo, judge_repo

PYPROJECT = "[project]\nname = 'shop'\nversion = '1'\n\n[tool.pytest.ini_options]\naddopts = '-p no:cacheprovider'\n"
CART = "def total(prices):\n    return sum(prices)\n"
# total's new guard (lines 2-3), then describe's new body (lines 7-8), which behaves as before.
CART_BASE = CART + "\n\ndef describe(prices):\n    return f'{len(prices)} items'\n"
CART_HEAD = (
    "def total(prices):\n    if any(price < 0 for price in prices):\n        raise ValueError('negative price')\n"
    "    return sum(prices)\n\n\ndef describe(prices):\n    count = len(prices)\n    return f'{count} items'\n"
)
TEST_GUARD = (
    "import pytest\n\nfrom shop.cart import total\n\n\ndef test_negative():\n"
    "    with pytest.raises(ValueError):\n        total([-1])\n"
)
TEST_TOTAL = "from shop.cart import total\n\n\ndef test_total():\n    assert total([1]) == 1\n"
TEST_DESCRIBE = "from shop.cart import describe\n\n\ndef test_describe():\n    assert describe([1, 2]) == '2 items'\n"


def measured(repo: Repo, base: dict[str, str], head: dict[str, str], source: str = ".") -> Ledger:
    """Base and head committed, the workflow's test step run with coverage (`source` on the import
    path, as the project's own CI sets it), then the pipeline with strength judging the changed tests."""
    first = repo.commit("base", {"pyproject.toml": PYPROJECT, ".gitignore": "build/\n.coverage\n", **base})
    last = repo.commit("head", head)
    environ = {**os.environ, "PYTHONPATH": source}
    for command in (
        ["pytest", "-q", "--cov=shop", "--cov-context=test", "--cov-report=", "tests"],
        ["coverage", "json", "--show-contexts", "-o", "build/coverage.json"],
    ):
        subprocess.run([sys.executable, "-m", *command], cwd=repo.path, env=environ, capture_output=True, check=True)
    settings = Settings(repo=repo.path, reports=("build/coverage.json",), base=first, head=last)
    return judge_repo(settings, in_ci=True)


def gates(ledger: Ledger) -> tuple[GateResult, GateResult, CoverageData]:
    strength, coverage = ledger.gate("strength"), ledger.gate("coverage")
    assert strength is not None
    assert coverage is not None
    assert isinstance(coverage.data, CoverageData)
    return strength, coverage, coverage.data


def test_lines_run_by_a_test_strength_could_not_run_are_coverage_of_any_test_with_its_reason(repo: Repo) -> None:
    """The package lies where only the project's CI puts it on the import path: strength's run of the
    test does not load, so it is not-run, and its two changed lines are covered, never weak or 0%."""
    base = {"lib/shop/__init__.py": "", "lib/shop/cart.py": CART, "tests/test_cart.py": TEST_TOTAL}
    head = {"lib/shop/cart.py": CART_HEAD.split("\n\n\n")[0] + "\n", "tests/test_cart.py": TEST_GUARD}
    strength, coverage, data = gates(measured(repo, base, head, source="lib"))
    assert strength.details == (
        "tests/test_cart.py: not-run: does not load at the head (exit code 2): "
        "ModuleNotFoundError: No module named 'shop'",
    )
    assert (coverage.verdict, coverage.headline) == (GateVerdict.PASS, "Coverage gate: PASS (100%).")
    assert (data.total, data.covered, data.strong, data.value_weighted, data.weak) == (2, 2, None, False, 0)
    assert coverage.details == (
        "value-weighted coverage unavailable: strength did not judge the tests that run these lines "
        "(tests/test_cart.py: not-run: does not load at the head (exit code 2): "
        "ModuleNotFoundError: No module named 'shop'); the gate used coverage of any test",
    )
    assert [row.state for row in data.paths] == ["covered"]
    assert coverage.annotations == ()


def test_lines_run_by_an_unjudged_test_are_coverage_of_any_test_with_its_reason(repo: Repo) -> None:
    """The test imports what the change adds: without the change it does not load, so strength
    leaves it unjudged; its lines are not weak, and the gate says why it used any test's coverage."""
    base = {"shop/__init__.py": "", "shop/cart.py": CART_BASE, "tests/test_cart.py": TEST_DESCRIBE}
    head = {
        "shop/cart.py": CART_BASE + "\n\ndef refund(amount):\n    return -amount\n",
        "tests/test_refund.py": "from shop.cart import refund\n\n\ndef test_refund():\n    assert refund(5) == -5\n",
    }
    strength, coverage, data = gates(measured(repo, base, head))
    assert [detail.split(": ")[:2] for detail in strength.details] == [["tests/test_refund.py", "unjudged"]]
    assert (coverage.verdict, coverage.headline) == (GateVerdict.PASS, "Coverage gate: PASS (100%).")
    assert (data.strong, data.value_weighted, data.weak) == (None, False, 0)
    # refund's `def` line ran on import, on behalf of every test that ran the file: test_cart.py too,
    # which is not a changed test, so strength did not run it either.
    (note,) = coverage.details
    assert note.startswith(
        "value-weighted coverage unavailable: strength did not judge the tests that run these lines "
        "(tests/test_cart.py: not judged by strength in this run; "
        "tests/test_refund.py: unjudged: does not load without the change"
    )
    assert note.endswith("; the gate used coverage of any test")


def test_a_line_run_only_by_a_still_green_test_is_weak_and_one_a_red_test_runs_is_not(repo: Repo) -> None:
    base = {"shop/__init__.py": "", "shop/cart.py": CART_BASE, "tests/test_cart.py": TEST_TOTAL}
    head = {"shop/cart.py": CART_HEAD, "tests/test_guard.py": TEST_GUARD, "tests/test_describe.py": TEST_DESCRIBE}
    ledger = measured(repo, base, head)
    strength, coverage, data = gates(ledger)
    assert [detail.split(": ")[:2] for detail in strength.details] == [["tests/test_describe.py", "still-green"]]
    # The guard (2-3) runs under the red test; describe's body (8-9) only under the still-green one.
    assert [(row.lines, row.state, row.tests) for row in data.paths] == [
        ("lines 2-3", "strong", ()),
        ("lines 8-9", "weak", ("tests/test_describe.py (still-green)",)),
    ]
    assert (data.total, data.covered, data.strong, data.value_weighted) == (4, 4, 2, True)
    assert (coverage.verdict, coverage.headline) == (
        GateVerdict.FAIL,
        "Value-weighted coverage is critically low (50%; 100% including 1 weakly covered paths). "
        "0 of 2 code paths have no tests. Minimum threshold is 60%.",
    )
    assert [(note.line, note.end_line, note.message) for note in coverage.annotations] == [
        (
            8,
            9,
            "Changed lines 8-9: run only by tests not shown to fail without the change: "
            "tests/test_describe.py (still-green)",
        )
    ]
    for text in (render_comment(ledger), render_pr_section(ledger, 60_000)):
        assert "a test that fails without the change (now run by tests/test\\_describe.py (still-green))" in text
    # A ledger whose weak path names no test (one written before every weak path had its tests) is
    # still shown without an empty name.
    nameless = replace(data, paths=tuple(replace(row, tests=()) for row in data.paths))
    old = replace(
        ledger,
        gates=tuple(replace(gate, data=nameless) if gate.id == "coverage" else gate for gate in ledger.gates),
    )
    for text in (render_comment(old), render_pr_section(old, 60_000)):
        assert "now run by" not in text
        assert "shop/cart.py lines 8-9: a test that fails without the change\n" in text
    # A ledger written before the count of lines strength did not judge was kept still reads: none.
    document = to_document(ledger)
    (kept,) = [gate["data"] for gate in document["gates"] if gate["id"] == "coverage"]
    assert kept.pop("unknown") == 0
    (read,) = [gate for gate in from_document(document, "old ledger").gates if gate.id == "coverage"]
    assert read.data == data
