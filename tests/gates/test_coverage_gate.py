"""The coverage gate in the pipeline, on real repositories with reports coverage.py writes: found
among `reports` by content, judged, and settling gate integrity's unpaired production hunks."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from evidence_gate.gates.coverage import DOC_TESTS_ONLY
from evidence_gate.ledger.model import GateVerdict
from evidence_gate.ledger.payloads.coverage import CoverageData
from evidence_gate.ledger.payloads.integrity import IntegrityData
from evidence_gate.settings import Settings
from tests.tools import needs_tools

from ..conftest import Repo, judge_repo

FILLER = "".join(f"\n\ndef unchanged_{n}():\n    return {n}\n" for n in range(3))
CART = "def total(prices):\n    return sum(prices)\n" + FILLER
TEST = "from shop.cart import total\n\n\ndef test_total():\n    assert total([1, 2]) == 3\n"
# Two hunks: total's new branch, which the unchanged test runs, and a new function no test calls.
CART_HEAD = (
    "def total(prices):\n    if not prices:\n        return 0\n    return sum(prices)\n"
    + FILLER
    + "\n\ndef refund(amount):\n    return -amount\n"
)


def measured_repo(repo: Repo) -> tuple[str, str]:
    base = repo.commit(
        "base",
        {
            "shop/__init__.py": "",
            "shop/cart.py": CART,
            "tests/__init__.py": "",
            "tests/test_cart.py": TEST,
            ".gitignore": "build/\n.coverage\n",
        },
    )
    head = repo.commit("refunds", {"shop/cart.py": CART_HEAD})
    (repo.path / "build").mkdir()
    for command in (
        ["pytest", "-q", "-p", "no:cacheprovider", "--cov=shop", "--cov-context=test", "--cov-report=", "tests"],
        ["coverage", "xml", "-o", "build/coverage.xml"],
        ["coverage", "json", "--show-contexts", "-o", "build/coverage.json"],
    ):
        subprocess.run([sys.executable, "-m", *command], cwd=repo.path, capture_output=True, check=True)
    return base, head


def junit(repo: Repo) -> None:
    """The test run's JUnit report, as the project's CI writes it beside (or without) coverage."""
    command = ["pytest", "-q", "-p", "no:cacheprovider", "--junitxml=build/junit.xml", "tests"]
    subprocess.run([sys.executable, "-m", *command], cwd=repo.path, capture_output=True, check=True)


def test_tests_that_ran_with_no_coverage_report_for_a_code_change_is_missing_and_blocks(repo: Repo) -> None:
    """Seed 003: no coverage report while tests exist blocks, with the one-line fix; the check's row
    says MISSING too."""
    base, head = measured_repo(repo)
    junit(repo)
    ledger = judge_repo(Settings(repo=repo.path, reports=("build/junit.xml",), base=base, head=head))
    coverage = ledger.gate("coverage")
    assert coverage is not None
    assert coverage.verdict is GateVerdict.MISSING
    assert coverage.headline == (
        "MISSING: no coverage report among the reports, but tests exist (1 ran) and the change alters the code"
        " of 1 production file (shop/cart.py)"
    )
    assert coverage.details[0].endswith(
        ": hand in the coverage report of this test run (`reports`), or switch the gate off in the base branch's"
        " config (`gates-off: [coverage]`)"
    )
    assert ledger.verdict.value == "BLOCKED"


@pytest.mark.parametrize(
    ("change", "why"),
    [
        ({"tests/test_cart.py": TEST + "\n\ndef test_empty():\n    assert total([]) == 0\n"}, "a test-only change"),
        ({"shop/cart.py": "# The cart.\n" + CART}, "a comment-only change"),
    ],
    ids=["test-only", "comment-only"],
)
def test_with_no_code_changed_no_coverage_report_is_due(repo: Repo, change: dict[str, str], why: str) -> None:
    base = repo.commit(
        "base", {"shop/__init__.py": "", "shop/cart.py": CART, "tests/__init__.py": "", "tests/test_cart.py": TEST}
    )
    head = repo.commit(why, change)
    (repo.path / "build").mkdir()
    junit(repo)
    ledger = judge_repo(Settings(repo=repo.path, reports=("build/junit.xml",), base=base, head=head))
    coverage = ledger.gate("coverage")
    assert coverage is not None
    assert (coverage.verdict, coverage.headline) == (
        GateVerdict.NOT_APPLICABLE,
        "Coverage gate: could not determine percentage — skipping.",
    )


def test_unpaired_hunks_are_settled_by_what_the_tests_ran(repo: Repo) -> None:
    base, head = measured_repo(repo)
    ledger = judge_repo(Settings(repo=repo.path, reports=("build/coverage.json",), base=base, head=head))
    integrity = ledger.gate("gate-integrity")
    assert integrity is not None
    assert isinstance(integrity.data, IntegrityData)
    # The branch the test runs loses `RH-15?`; the function no test calls becomes RH-15: its `def`
    # line ran on import, outside any test (the contexts say so), and its body never ran.
    assert integrity.data.tagged == {"RH-15": 1}
    assert [(hunk.path, hunk.tags) for hunk in integrity.data.hunks] == [("shop/cart.py", ("RH-15",))]
    coverage = ledger.gate("coverage")
    assert coverage is not None
    assert isinstance(coverage.data, CoverageData)
    # Lines 2 and 3 (the branch) and 19-20 (refund): the test runs 2, and refund's `def` runs on import.
    assert (coverage.data.total, coverage.data.covered) == (4, 2)
    assert coverage.verdict is GateVerdict.FAIL  # 50% is under the minimum
    assert [(note.line, note.end_line) for note in coverage.annotations] == [(3, 3), (20, 20)]


def test_without_a_coverage_report_the_unpaired_tag_stays_unresolved_and_coverage_is_skipped(repo: Repo) -> None:
    base, head = measured_repo(repo)
    for report in ("coverage.xml", "coverage.json"):
        (repo.path / "build" / report).unlink()
    (repo.path / "build" / "notes.txt").write_text("not a report of any kind\n")
    ledger = judge_repo(Settings(repo=repo.path, reports=("build/*",), base=base, head=head))
    integrity = ledger.gate("gate-integrity")
    assert integrity is not None
    assert isinstance(integrity.data, IntegrityData)
    assert integrity.data.tagged == {"RH-15?": 2}
    coverage = ledger.gate("coverage")
    assert coverage is not None
    assert (coverage.verdict, coverage.headline) == (
        GateVerdict.NOT_APPLICABLE,
        "Coverage gate: could not determine percentage — skipping.",
    )
    assert coverage.details == ("no coverage report among the reports",)


def test_without_contexts_a_def_line_run_on_import_counts_as_run(repo: Repo) -> None:
    """Cobertura cannot tell import from a test: refund's `def` line ran, so its hunk is not RH-15."""
    base, head = measured_repo(repo)
    ledger = judge_repo(Settings(repo=repo.path, reports=("build/coverage.xml",), base=base, head=head))
    integrity = ledger.gate("gate-integrity")
    assert integrity is not None
    assert isinstance(integrity.data, IntegrityData)
    assert integrity.data.tagged == {}


def test_a_coverage_report_that_maps_nothing_makes_the_gate_unavailable_with_the_fix(repo: Repo) -> None:
    base, head = measured_repo(repo)
    (repo.path / "build" / "lcov.info").write_text("SF:/elsewhere/lib.js\nDA:1,1\nend_of_record\n")
    ledger = judge_repo(Settings(repo=repo.path, reports=("build/lcov.info",), base=base, head=head))
    coverage = ledger.gate("coverage")
    assert coverage is not None
    assert coverage.verdict is GateVerdict.UNAVAILABLE
    assert coverage.headline.startswith("a coverage report could not be used: build/lcov.info: none of its 1 files")


def cobertura(path: str, lines: range) -> str:
    """A Cobertura report that says every one of `lines` of `path` ran."""
    hits = "".join(f'<line number="{number}" hits="1"/>' for number in lines)
    return (
        '<?xml version="1.0" ?>\n<coverage version="7.4" line-rate="1"><sources><source>.</source></sources>'
        f'<packages><package name="shop"><classes><class name="cart.py" filename="{path}" line-rate="1">'
        f"<lines>{hits}</lines></class></classes></package></packages></coverage>\n"
    )


def refunds_change(repo: Repo, report: dict[str, str]) -> tuple[str, str]:
    base = repo.commit("base", {"shop/__init__.py": "", "shop/cart.py": CART, "tests/test_cart.py": TEST})
    head = repo.commit("refunds", {"shop/cart.py": CART_HEAD, **report})
    return base, head


def test_a_coverage_report_committed_to_git_is_stale_and_not_used(repo: Repo) -> None:
    base, head = refunds_change(repo, {"coverage.xml": cobertura("shop/cart.py", range(1, 21))})
    ledger = judge_repo(Settings(repo=repo.path, reports=("coverage.xml",), base=base, head=head))
    coverage = ledger.gate("coverage")
    assert coverage is not None
    assert (coverage.verdict, coverage.headline) == (
        GateVerdict.UNAVAILABLE,
        "a coverage report could not be used: stale evidence: coverage.xml is committed to git,"
        " not produced by this run",
    )
    assert coverage.data is None


def test_the_same_report_written_by_this_run_is_used(repo: Repo) -> None:
    base, head = refunds_change(repo, {})
    (repo.path / "coverage.xml").write_text(cobertura("shop/cart.py", range(1, 21)), encoding="utf-8")
    ledger = judge_repo(Settings(repo=repo.path, reports=("coverage.xml",), base=base, head=head))
    coverage = ledger.gate("coverage")
    assert coverage is not None
    assert coverage.verdict is GateVerdict.PASS, coverage
    assert isinstance(coverage.data, CoverageData)
    assert coverage.data.covered == coverage.data.total > 0


RUST_FILLER = "".join(f"\n/// Unchanged {n}.\npub fn unchanged_{n}() -> u32 {{\n    {n}\n}}\n" for n in range(6))
RUST_LIB = "/// One.\npub fn one() -> u32 {\n    1\n}\n" + RUST_FILLER
DOC_TESTED = (
    "\n/// Two.\n///\n/// ```\n/// assert_eq!(shop::two(), 2);\n/// ```\npub fn two() -> u32 {\n"
    "    let two = 1 + 1;\n    two\n}\n"
)
UNTESTED = "\n/// Three, which no test runs.\npub fn three() -> u32 {\n    let three = 2 + 1;\n    three\n}\n"


@needs_tools("cargo-llvm-cov", hint="scripts/test.sh installs it")
@pytest.mark.parametrize(
    ("lib", "verdict"),
    [(RUST_LIB + DOC_TESTED, GateVerdict.NOT_APPLICABLE), (UNTESTED + RUST_LIB + DOC_TESTED, GateVerdict.FAIL)],
    ids=["doc-tested only", "and an untested function in a hunk of its own"],
)
def test_rust_lines_run_only_by_their_doc_tests_are_set_aside_never_called_uncovered(
    repo: Repo, tmp_path: Path, lib: str, verdict: GateVerdict
) -> None:
    """cargo llvm-cov on stable does not measure doc tests: a hunk whose doc test ran is set aside
    with the reason, while a hunk no doc test of its own covers is still judged (uncovered here)."""
    manifest = '[package]\nname = "shop"\nversion = "0.1.0"\nedition = "2021"\n'
    test = "#[test]\nfn one() {\n    assert_eq!(shop::one(), 1);\n}\n"
    base = repo.commit(
        "base", {"Cargo.toml": manifest, "src/lib.rs": RUST_LIB, "tests/one.rs": test, ".gitignore": "build/\n"}
    )
    head = repo.commit("two", {"src/lib.rs": lib})
    (repo.path / "build").mkdir()
    command = (  # as the Rust example workflow runs them
        "cargo llvm-cov --lcov --output-path build/lcov.info > build/cargo.log 2>&1; code=$?;"
        " cargo test --doc >> build/cargo.log 2>&1; doc=$?; [ $code -ne 0 ] || code=$doc;"
        " echo EXIT_CODE=$code >> build/cargo.log"
    )
    environ = {**os.environ, "CARGO_TARGET_DIR": str(tmp_path / "target")}
    subprocess.run(["bash", "-c", command], cwd=repo.path, env=environ, capture_output=True, check=True, timeout=600)
    log = (repo.path / "build" / "cargo.log").read_text()
    assert "test src/lib.rs - two (line " in log and log.endswith("EXIT_CODE=0\n"), log
    ledger = judge_repo(Settings(repo=repo.path, reports=("build/cargo.log", "build/lcov.info"), base=base, head=head))
    coverage = ledger.gate("coverage")
    assert coverage is not None
    assert coverage.verdict is verdict, coverage
    (aside,) = [line for line in coverage.details if "set aside" in line]
    assert aside.startswith("4 changed lines (4 of src/lib.rs) run by no test the coverage report measures")
    if verdict is GateVerdict.NOT_APPLICABLE:
        assert coverage.headline == DOC_TESTS_ONLY
    # Gate integrity alike: the doc-tested hunk comes with its test; the other is run by none (RH-15).
    integrity = ledger.gate("gate-integrity")
    assert integrity is not None and isinstance(integrity.data, IntegrityData)
    assert integrity.data.tagged == ({} if verdict is GateVerdict.NOT_APPLICABLE else {"RH-15": 1})
