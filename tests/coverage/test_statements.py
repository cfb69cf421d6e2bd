"""A changed line inside a multi-line statement is judged by the line the reports measure the
statement on: real repositories whose change edits only the continuation lines of a multi-line `if`
(as a bug fix often does), measured by pytest-cov; and the reading of Python statements, from
literal sources."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable

import pytest

from evidence_gate.coverage.collect import CoverageMap
from evidence_gate.coverage.model import Lines
from evidence_gate.coverage.python_statements import MAX_SOURCE_BYTES, statement_lines
from evidence_gate.coverage.statements import judged_by_statement, with_statements
from evidence_gate.gates.coverage import CoverageData
from evidence_gate.gates.integrity import IntegrityData
from evidence_gate.ledger import GateVerdict, Ledger
from evidence_gate.settings import Settings

from ..conftest import CliResult, Repo, judge_repo

CART = (
    "def discount(total, member):\n"  # 1
    "    if (\n"  # 2
    "        member\n"  # 3
    "        and total > 100\n"  # 4
    "    ):\n"  # 5
    "        return total * 0.9\n"  # 6
    "    return total\n"  # 7
    "\n"
    "\n"
    "def refund(amount, paid, cancelled):\n"  # 10
    "    if (\n"  # 11
    "        paid\n"  # 12
    "        and cancelled\n"  # 13
    "    ):\n"  # 14
    "        return -amount\n"  # 15
    "    return 0\n"  # 16
)
# The fix: discount from 100 on, and refund only what was paid and not yet cancelled.
FIXED = CART.replace("and total > 100", "and total >= 100").replace(
    "        and cancelled\n", "        and not cancelled\n        and amount > 0\n"
)
TEST = "from shop.cart import discount\n\n\ndef test_discount():\n    assert discount(200, True) == 180\n"
PYTEST = (
    *("-q", "-p", "no:cacheprovider", "--cov=shop", "--cov-context=test"),
    *("--cov-report=xml:build/coverage.xml", "--cov-report=json:build/coverage.json"),
    *("--cov-report=lcov:build/coverage.lcov", "tests"),
)


def measured_repo(repo: Repo, head: dict[str, str | bytes], base: dict[str, str | bytes] | None = None) -> str:
    """The base commit; the head committed over it and its tests run by pytest-cov: Cobertura, JSON, LCOV."""
    files: dict[str, str | bytes] = {
        "shop/__init__.py": "",
        "shop/cart.py": CART,
        "tests/__init__.py": "",
        "tests/test_cart.py": TEST,
        ".gitignore": "build/\n.coverage\n",
    }
    first = repo.commit("base", {**files, **(base or {})})
    repo.commit("fix", head)
    subprocess.run([sys.executable, "-m", "pytest", *PYTEST], cwd=repo.path, capture_output=True, check=True)
    return first


def coverage_of(repo: Repo, base: str, report: str = "coverage.xml") -> Ledger:
    return judge_repo(Settings(repo=repo.path, reports=(f"build/{report}",), base=base, head="HEAD"))


def test_a_fix_of_only_continuation_lines_is_judged_by_the_statement_the_tests_run(repo: Repo) -> None:
    base = measured_repo(repo, {"shop/cart.py": CART.replace("and total > 100", "and total >= 100")})
    report = (repo.path / "build" / "coverage.xml").read_text()
    assert 'line number="2" hits="1"' in report and 'line number="4"' not in report  # the `if` on its first line
    coverage = coverage_of(repo, base).gate("coverage")
    assert coverage is not None
    assert (coverage.verdict, coverage.headline) == (GateVerdict.PASS, "Coverage gate: PASS (100%).")
    assert isinstance(coverage.data, CoverageData)
    assert (coverage.data.total, coverage.data.covered) == (1, 1)
    assert (
        "1 of the 1 executable changed lines continues a multi-line statement that the reports measure on its "
        "first line; each is judged by that line"
    ) in coverage.details


@pytest.mark.parametrize("report", ["coverage.xml", "coverage.json", "coverage.lcov"])
def test_a_continuation_line_of_a_statement_never_reached_is_uncovered(repo: Repo, report: str) -> None:
    base = measured_repo(repo, {"shop/cart.py": FIXED})
    ledger = coverage_of(repo, base, report)
    coverage = ledger.gate("coverage")
    assert coverage is not None
    assert isinstance(coverage.data, CoverageData)
    # Line 4 continues discount's `if`, which the test runs; 13-14 continue refund's, which no test reaches.
    assert (coverage.data.total, coverage.data.covered, coverage.data.number) == (3, 1, "33.33")
    assert coverage.verdict is GateVerdict.FAIL
    assert [(row.start, row.end, row.state) for row in coverage.data.paths] == [
        (4, 4, "covered"),
        (13, 14, "uncovered"),
    ]
    assert [(note.line, note.end_line, note.title) for note in coverage.annotations] == [
        (13, 14, "Not run by any test")
    ]
    # Gate integrity reads the same lines: refund's hunk is production code no test ran (RH-15).
    integrity = ledger.gate("gate-integrity")
    assert integrity is not None
    assert isinstance(integrity.data, IntegrityData)
    assert integrity.data.tagged == {"RH-15": 1}


def test_the_coverage_command_lists_the_lines_judged_by_their_statement(
    cli: Callable[..., CliResult], repo: Repo
) -> None:
    base = measured_repo(repo, {"shop/cart.py": FIXED})
    report = repo.path / "build" / "coverage.xml"
    result = cli("coverage", "--repo", repo.path, "--base", base, "--report", report, "--json")
    document = json.loads(result.out)
    assert document["changed_lines"] == {"shop/cart.py": [4, 13, 14]}
    assert document["continued_lines"] == {"shop/cart.py": [4, 13, 14]}
    assert document["covered_lines"] == {"shop/cart.py": [4]}


def test_a_source_over_the_cap_keeps_its_lines_as_the_report_has_them(repo: Repo) -> None:
    filler = "# " + "x" * 78 + "\n"
    big = filler * (MAX_SOURCE_BYTES // len(filler) + 1) + CART
    shift = big.count("\n") - CART.count("\n")
    base = measured_repo(
        repo,
        {"shop/cart.py": big.replace("and total > 100", "and total >= 100")},
        base={"shop/cart.py": big},
    )
    assert f'line number="{2 + shift}" hits="1"' in (repo.path / "build" / "coverage.xml").read_text()
    coverage = coverage_of(repo, base).gate("coverage")
    assert coverage is not None
    assert coverage.verdict is GateVerdict.NOT_APPLICABLE
    assert coverage.data is None


def test_python_statements_map_continuation_lines_that_hold_code_to_the_first() -> None:
    source = (
        b"def f(\n"  # 1
        b"    a,\n"  # 2
        b"    # why\n"  # 3
        b"    b=2,\n"  # 4
        b"):\n"  # 5
        b"    if (\n"  # 6
        b"        a\n"  # 7
        b"\n"  # 8
        b"    ):\n"  # 9
        b"        # the body is no part of the header\n"  # 10
        b"        return g(\n"  # 11
        b"            1)\n"  # 12
        b'    x = """\n'  # 13
        b"# text of a string, not a comment\n"  # 14
        b'"""\n'  # 15
        b"    return 1 + \\\n"  # 16
        b"        x\n"  # 17
    )
    assert statement_lines(source) == {2: 1, 4: 1, 5: 1, 7: 6, 9: 6, 12: 11, 14: 13, 15: 13, 17: 16}


def test_a_source_python_cannot_parse_has_no_statements() -> None:
    for source in (
        b"if (:\n",  # a syntax error
        b"def f(\n    a,\n",  # ends inside a statement
        b"x = " + b"-" * 200_000 + b"1",  # too deep for the parser
        b"x = 1 +" + b" 1 +" * 100_000 + b" 1",  # too deep to build
        b"a = 1\x00\n",
        b"# -*- coding: nonesuch -*-\nx = 1\n",
        b"x = (\n    1)\n" + b"#" * MAX_SOURCE_BYTES,  # over the cap
    ):
        assert statement_lines(source) is None, source[:30]


def test_a_changed_line_is_judged_by_its_statement_only_where_a_report_measures_that() -> None:
    lines = Lines(
        measured=frozenset({1, 6, 9}),
        covered=frozenset({1, 6}),
        contexts={1: frozenset({"t1"}), 6: frozenset({"t2"})},
    )
    statements = {2: 1, 3: 1, 7: 6, 10: 9, 12: 11}
    judged = judged_by_statement(lines, [1, 2, 7, 10, 12, 20], statements)
    assert judged.measured == {1, 2, 6, 7, 9, 10}  # 12's statement is not measured, 20 is in none
    assert judged.covered == {1, 2, 6, 7}
    assert dict(judged.contexts or {}) == {1: {"t1"}, 2: {"t1"}, 6: {"t2"}, 7: {"t2"}}
    assert judged.continued == {2: 1, 7: 6, 10: 9}
    assert judged_by_statement(lines, [1, 20], statements) is lines


def test_only_a_python_source_that_parses_is_read_for_statements() -> None:
    lines = Lines(measured=frozenset({1}), covered=frozenset({1}))
    found = CoverageMap(files={"a.py": lines, "b.js": lines, "c.py": lines, "d.py": lines}, reports=())
    sources = {"a.py": b"x = (\n    1)\n", "b.js": b"x = (\n    1)\n", "c.py": b"x = (\n    1\n"}
    asked: list[tuple[str, int]] = []

    def read(path: str, cap: int) -> bytes | None:
        asked.append((path, cap))
        return sources.get(path)

    changed = {"a.py": (2,), "b.js": (2,), "c.py": (2,), "d.py": (2,)}
    files = with_statements(found, changed, read).files
    assert files["a.py"].measured == {1, 2} and files["a.py"].continued == {2: 1}
    assert files["b.js"] is lines and files["c.py"] is lines and files["d.py"] is lines
    assert asked == [("a.py", MAX_SOURCE_BYTES + 1), ("c.py", MAX_SOURCE_BYTES + 1), ("d.py", MAX_SOURCE_BYTES + 1)]
    # A file whose changed lines the reports all measure is not read.
    asked.clear()
    with_statements(found, {"a.py": (1,)}, read)
    assert asked == []
