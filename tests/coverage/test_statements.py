"""A changed line inside a multi-line statement is judged by the line the reports measure the
statement on: real repositories whose change edits only the continuation lines of a multi-line `if`
(as a bug fix often does), measured by pytest-cov; and the reading of Python statements, from
literal sources."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from evidence_gate.coverage.collect import CoverageMap
from evidence_gate.coverage.decision import NO_STATEMENT
from evidence_gate.coverage.model import FileHits, Lines, Sieve, Statement, UnreadableReport
from evidence_gate.coverage.python_statements import MAX_SOURCE_BYTES, statement_lines
from evidence_gate.coverage.registry import reader
from evidence_gate.coverage.statements import judged_by_statement, with_statements
from evidence_gate.ledger.model import GateVerdict, Ledger
from evidence_gate.ledger.payloads.coverage import CoverageData
from evidence_gate.ledger.payloads.integrity import IntegrityData
from evidence_gate.settings import Settings
from tests.tools import needs, needs_tools

from ..conftest import CliResult, Repo, git, judge_repo

# Its tests share a module-scoped run: in a parallel run they go to one worker (`--dist=loadgroup`).
pytestmark = pytest.mark.xdist_group("coverage.test_statements")

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


@pytest.fixture(scope="module")
def fixed_repo(tmp_path_factory: pytest.TempPathFactory) -> tuple[Repo, str]:
    """The project with FIXED at its head, measured once (its three reports) for the tests that only
    read them; and its base commit."""
    path = tmp_path_factory.mktemp("fixed") / "repo"
    path.mkdir()
    git(path, "init", "--quiet", "--initial-branch=main")
    repo = Repo(path)
    return repo, measured_repo(repo, {"shop/cart.py": FIXED})


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
def test_a_continuation_line_of_a_statement_never_reached_is_uncovered(
    fixed_repo: tuple[Repo, str], report: str
) -> None:
    repo, base = fixed_repo
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
    cli: Callable[..., CliResult], fixed_repo: tuple[Repo, str]
) -> None:
    repo, base = fixed_repo
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
    assert (coverage.verdict, coverage.headline) == (GateVerdict.NOT_APPLICABLE, NO_STATEMENT)
    assert coverage.data is None


def test_a_change_to_a_comment_inside_a_statement_holds_no_executable_statement(repo: Repo) -> None:
    """The comment is inside the `if`'s header, yet no part of the statement: said so, not "could
    not determine percentage", as a report was read."""
    before = CART.replace("        member\n", "        member\n        # members only\n")
    after = CART.replace("        member\n", "        member\n        # members only, from 100 on\n\n")
    base = measured_repo(repo, {"shop/cart.py": after}, base={"shop/cart.py": before})
    coverage = coverage_of(repo, base).gate("coverage")
    assert coverage is not None
    assert (coverage.verdict, coverage.headline) == (
        GateVerdict.NOT_APPLICABLE,
        "Coverage gate: the changed lines hold no executable statement — skipping.",
    )
    assert coverage.details == (
        "the reports measure no statement on the changed lines of shop/cart.py: comments, blank lines, or lines "
        "they count in no statement",
    )


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
    statements = {2: Statement(1), 3: Statement(1), 7: Statement(6), 10: Statement(9), 12: Statement(11)}
    judged = judged_by_statement(lines, [1, 2, 7, 10, 12, 20], statements)
    assert judged.measured == {1, 2, 6, 7, 9, 10}  # 12's statement is not measured, 20 is in none
    assert judged.covered == {1, 2, 6, 7}
    assert dict(judged.contexts or {}) == {1: {"t1"}, 2: {"t1"}, 6: {"t2"}, 7: {"t2"}}
    assert judged.continued == {2: 1, 7: 6, 10: 9}
    assert judged_by_statement(lines, [1, 20], statements) is lines
    # A report's own count of the statement goes before its line's: line 1 ran, the arrow body did not.
    assert judged_by_statement(lines, [2, 3], {2: Statement(1, 0), 3: Statement(1, 4)}).covered == {1, 3, 6}


def test_only_a_python_source_that_parses_is_read_for_statements() -> None:
    lines = Lines(measured=frozenset({1}), covered=frozenset({1}))
    found = CoverageMap(files={"a.py": lines, "b.js": lines, "c.py": lines, "d.py": lines}, reports=())
    sources = {"a.py": b"x = (\n    1)\n", "b.js": b"x = (\n    1)\n", "c.py": b"x = (\n    1\n"}
    asked: list[tuple[str, int]] = []

    def read(path: str, cap: int) -> bytes | None:
        asked.append((path, cap))
        return sources.get(path)

    changed = {path: {2: "    1)"} for path in ("a.py", "b.js", "c.py", "d.py")}
    files = with_statements(found, changed, read).files
    assert files["a.py"].measured == {1, 2} and files["a.py"].continued == {2: 1}
    assert files["b.js"] is lines and files["c.py"] is lines and files["d.py"] is lines
    assert asked == [("a.py", MAX_SOURCE_BYTES + 1), ("c.py", MAX_SOURCE_BYTES + 1), ("d.py", MAX_SOURCE_BYTES + 1)]
    # A file whose changed lines the reports all measure is not read.
    asked.clear()
    with_statements(found, {"a.py": {1: "x = ("}}, read)
    assert asked == []


def test_a_reports_statement_holds_a_changed_line_only_where_its_text_holds_code() -> None:
    lines = Lines(measured=frozenset({2}), covered=frozenset({2}))
    held = {line: Statement(2, 1) for line in range(3, 10)}
    found = CoverageMap(files={"a.js": lines, "a.vue": lines}, reports=(), statements={"a.js": held, "a.vue": held})
    texts = {
        3: "    member &&",
        4: "    // why",
        5: "",
        6: "    /* why */ total > 100",
        7: "    /* a block comment's first line",
        8: "     * and its next",
        9: "  ) {",
    }
    files = with_statements(found, {"a.js": texts, "a.vue": texts}, lambda path, cap: None).files
    assert files["a.js"].continued == {3: 2, 6: 2, 9: 2}
    assert files["a.vue"] is lines  # no comment syntax known for it: nothing is judged by its statement


def test_istanbul_gives_each_continuation_line_the_innermost_statement_that_holds_it(tmp_path: Path) -> None:
    def statement(start: tuple[int, int], end: tuple[int, int] | None) -> dict[str, object]:
        located: dict[str, object] = {"start": {"line": start[0], "column": start[1]}}
        if end is not None:
            located["end"] = {"line": end[0], "column": end[1]}
        return located

    statements = {
        "0": statement((1, 0), (1, 10)),
        "1": statement((2, 2), (8, 3)),  # `if (` over lines 2-5, its body from 6
        "2": statement((6, 4), (6, 20)),
        "3": statement((10, 10), (12, 2)),  # `const label = (name) => ({`
        "4": statement((10, 18), (12, 1)),  # the arrow function's body, never run
        "5": statement((14, 0), None),  # no end: no continuation lines
        "6": statement((16, 0), (17, 1)),
        "7": statement((16, 0), (16, 9)),  # starts as early, ends sooner: inside it
    }
    counts = {"0": 1, "1": 2, "2": 0, "3": 1, "4": 0, "5": 1, "6": 3, "7": 0}
    entry = {"path": "/src/a.js", "statementMap": statements, "s": counts}
    report = tmp_path / "coverage-final.json"
    report.write_text(json.dumps({"/src/a.js": entry}))
    (hits,) = reader("istanbul").read(report, lambda name: Sieve(changed=None))
    assert isinstance(hits, FileHits)
    assert hits.hits == {1: 1, 2: 2, 6: 0, 10: 1, 14: 1, 16: 3}
    assert hits.statements == {
        **{line: Statement(2, 2) for line in (3, 4, 5)},
        **{line: Statement(10, 0) for line in (11, 12)},
        17: Statement(16, 3),
    }
    statements["5"] = statement((14, 0), (2_000_000_000, 1))
    report.write_text(json.dumps({"/src/a.js": entry}))
    with pytest.raises(UnreadableReport, match="ends at line 2000000000, past any source's"):
        list(reader("istanbul").read(report, lambda name: Sieve(changed=None)))


NODE_TOOLS = Path(__file__).resolve().parents[2] / "tools" / "node_modules"
JS_CART = """function discount(total, member) {
  if (
    member &&
    total > 100
  ) {
    return total * 0.9;
  }
  return total;
}

function refund(amount, paid, cancelled) {
  if (
    paid &&
    cancelled
  ) {
    return -amount;
  }
  return 0;
}

const label = (name) => ({
  name: name,
});

module.exports = { discount, refund, label };
"""
JS_FIXED = (
    JS_CART.replace("    total > 100\n", "    // a discount from 100 on\n    total >= 100\n")
    .replace("    cancelled\n", "    !cancelled\n")
    .replace("  name: name,\n", "  name: name.trim(),\n")
)
JS_TEST = (
    "const { discount } = require('../src/cart.js');\ntest('discount', () => expect(discount(200, true)).toBe(180));\n"
)


@needs((NODE_TOOLS / "jest").exists(), "jest is not installed (scripts/install-test-tools.sh)")
def test_jests_statement_map_judges_a_continuation_line_by_its_own_statement(
    cli: Callable[..., CliResult], repo: Repo
) -> None:
    package = json.dumps({"name": "shop", "private": True, "jest": {"collectCoverageFrom": ["src/**/*.js"]}})
    files = {"package.json": package, "src/cart.js": JS_CART, "test/cart.test.js": JS_TEST}
    base = repo.commit("base", {**files, ".gitignore": "node_modules\ncoverage\n"})
    repo.commit("fix", {"src/cart.js": JS_FIXED})
    (repo.path / "node_modules").symlink_to(NODE_TOOLS, target_is_directory=True)
    jest = [str(NODE_TOOLS / "jest" / "bin" / "jest.js"), "--ci", "--coverage", "--coverageReporters=json"]
    subprocess.run(["node", *jest, "--coverageReporters=lcov"], cwd=repo.path, capture_output=True, check=True)
    report = repo.path / "coverage" / "coverage-final.json"
    result = cli("coverage", "--repo", repo.path, "--base", base, "--report", report, "--json")
    document = json.loads(result.out)
    # Added: 4 (a comment), 5 (discount's condition, run), 15 (refund's, never reached) and 23 (the body
    # of `label`'s arrow function, never run, though its declaration on line 22 ran when the module loaded).
    assert document["changed_lines"] == {"src/cart.js": [5, 15, 23]}
    assert document["continued_lines"] == {"src/cart.js": [5, 15, 23]}
    assert document["covered_lines"] == {"src/cart.js": [5]}
    assert document["gate"]["message"].startswith("Coverage is critically low (33.33%")
    # istanbul's LCOV lists a statement's start line alone: its continuation lines stay unmeasured.
    lcov = cli("coverage", "--repo", repo.path, "--base", base, "--report", repo.path / "coverage" / "lcov.info")
    assert lcov.code == 4


GO_CART = """package cart

func Discount(total int, member bool) int {
	if member &&
		total > 100 {
		return total * 9 / 10
	}
	return total
}

func Refund(amount int, paid bool, cancelled bool) int {
	if paid &&
		cancelled {
		return -amount
	}
	return 0
}
"""
GO_TEST = """package cart

import "testing"

func TestDiscount(t *testing.T) {
	if Discount(200, true) != 180 {
		t.Fatal("discount")
	}
}
"""


@needs_tools("go", hint="Go is installed by scripts/test.sh as root")
def test_a_go_coverprofiles_blocks_already_span_a_conditions_continuation_lines(
    cli: Callable[..., CliResult], repo: Repo, tmp_path: Path, go_build_cache: Path
) -> None:
    files = {"go.mod": "module example.com/shop\n\ngo 1.19\n", "cart/cart.go": GO_CART, "cart/cart_test.go": GO_TEST}
    base = repo.commit("base", files)
    fixed = GO_CART.replace("total > 100 {", "total >= 100 {").replace("\t\tcancelled {", "\t\t!cancelled {")
    repo.commit("fix", {"cart/cart.go": fixed})
    env = {
        **os.environ,
        "GOPATH": str(tmp_path / "gopath"),
        "GOCACHE": str(go_build_cache),
        "GOFLAGS": "-mod=mod",
        "GOPROXY": "off",
        "GOSUMDB": "off",
        "GOTOOLCHAIN": "local",
        "CGO_ENABLED": "0",
    }
    go_test = ["go", "test", "-coverprofile=cover.out", "./..."]
    subprocess.run(go_test, cwd=repo.path, env=env, capture_output=True, check=True, timeout=300)
    result = cli("coverage", "--repo", repo.path, "--base", base, "--report", repo.path / "cover.out", "--json")
    document = json.loads(result.out)
    assert document["changed_lines"] == {"cart/cart.go": [5, 13]}
    assert document["covered_lines"] == {"cart/cart.go": [5]}  # Refund's `if` is never reached
    assert document["continued_lines"] == {}  # the blocks measure the lines themselves: nothing to judge by another
