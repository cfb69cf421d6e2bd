"""`evidence-gate coverage` on real repositories, with reports the real tools write here: coverage.py
(pytest-cov with test contexts), c8 and `go test -coverprofile`; its numbers checked against
diff-cover's on the same reports and diff."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.tools import needs, needs_tools

from ..conftest import CliResult, Repo, git

# Its tests share a module-scoped run: in a parallel run they go to one worker (`--dist=loadgroup`).
pytestmark = pytest.mark.xdist_group("coverage.test_coverage_verb")

TOOLS = Path(__file__).resolve().parents[2] / "tools" / "node_modules" / ".bin"

CART = "def total(prices):\n    return sum(prices)\n"
CART_HEAD = (
    "def total(prices):\n"
    "    amount = sum(prices)\n"
    "    if amount > 100:\n"
    "        amount = amount * 0.9\n"
    "    return amount\n"
    "\n"
    "\n"
    "def unused_helper(x):\n"
    "    # never called\n"
    "    return x * 2\n"
)
TEST_CART = "from shop.cart import total\n\n\ndef test_small():\n    assert total([1, 2]) == 3\n"
TEST_OTHER = "from shop.cart import total\n\n\ndef test_callable():\n    assert callable(total)\n"
GO_SUM = "package cart\n\nfunc Total(items []int) int {\n\tsum := 0\n\tfor _, i := range items {\n\t\tsum += i\n\t}\n"
GO_TEST = (
    'package cart\n\nimport "testing"\n\nfunc TestSmall(t *testing.T) {\n\tif Total([]int{1, 2}) != 3 {\n'
    '\t\tt.Fatal("sum")\n\t}\n}\n'
)
PYTEST_INI = "[pytest]\naddopts = -p no:cacheprovider\n"


def run(command: list[str], cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    environ = {**os.environ, **env}
    return subprocess.run(command, cwd=cwd, env=environ, capture_output=True, text=True, check=True, timeout=300)


def coverage_json(cli: Callable[..., CliResult], repo: Repo, base: str, *args: str | Path) -> tuple[int, Any]:
    result = cli("coverage", "--repo", repo.path, "--base", base, "--json", *args)
    assert result.code in (0, 1, 4), result.err + result.out
    return result.code, json.loads(result.out)


def diff_cover(repo: Repo, base: str, report: Path, out: Path | None = None) -> Any:
    out = out or repo.path.parent / "diff-cover.json"
    run(
        [
            sys.executable,
            "-m",
            "diff_cover.diff_cover_tool",
            str(report),
            f"--compare-branch={base}",
            f"--format=json:{out}",
            "--total-percent-float",
            "-q",
        ],
        repo.path,
    )
    return json.loads(out.read_text())


def measure(repo: Repo) -> tuple[Repo, str]:
    """A Python project's base and head commits, and the head measured by pytest-cov with contexts:
    .coverage, coverage.json and coverage.xml in the work tree."""
    base = repo.commit(
        "base",
        {
            "pytest.ini": PYTEST_INI,
            ".gitignore": ".coverage\ncoverage.json\ncoverage.xml\n",  # a later commit holds no report
            "shop/__init__.py": "",
            "shop/cart.py": CART,
            "tests/__init__.py": "",
            "tests/test_cart.py": TEST_CART,
        },
    )
    repo.commit("head", {"shop/cart.py": CART_HEAD, "tests/test_other.py": TEST_OTHER})
    run([sys.executable, "-m", "pytest", "-q", "--cov=shop", "--cov-context=test", "--cov-report="], repo.path)
    run([sys.executable, "-m", "coverage", "json", "--show-contexts", "-o", "coverage.json"], repo.path)
    run([sys.executable, "-m", "coverage", "xml", "-o", "coverage.xml"], repo.path)
    return repo, base


@pytest.fixture
def python_repo(repo: Repo) -> tuple[Repo, str]:
    """The measured project, the test's own: for a test that commits, writes into it or touches its reports."""
    return measure(repo)


@pytest.fixture(scope="module")
def measured_repo(tmp_path_factory: pytest.TempPathFactory) -> tuple[Repo, str]:
    """The measured project, made and measured once for the tests that only read it and its reports."""
    path = tmp_path_factory.mktemp("measured") / "repo"
    path.mkdir()
    git(path, "init", "--quiet", "--initial-branch=main")
    return measure(Repo(path))


def test_coverage_py_numbers_equal_diff_covers(
    cli: Callable[..., CliResult], measured_repo: tuple[Repo, str], tmp_path: Path
) -> None:
    repo, base = measured_repo
    _, ours = coverage_json(cli, repo, base, "--report", repo.path / "coverage.xml", "--no-value-weighting")
    theirs = diff_cover(repo, base, repo.path / "coverage.xml", tmp_path / "diff-cover.json")
    # The added lines of shop/cart.py that coverage.py measures: 2-5 and 8, 10 (9 is a comment).
    assert ours["changed_lines"] == {"shop/cart.py": [2, 3, 4, 5, 8, 10]}
    assert ours["covered_lines"] == {"shop/cart.py": [2, 3, 5, 8]}
    stats = theirs["src_stats"]["shop/cart.py"]
    assert sorted(stats["covered_lines"] + stats["violation_lines"]) == ours["changed_lines"]["shop/cart.py"]
    assert sorted(stats["covered_lines"]) == ours["covered_lines"]["shop/cart.py"]
    assert (theirs["total_num_lines"], theirs["total_num_violations"]) == (6, 2)
    # 4 of 6: diff-cover rounds to the nearest (66.67); this rounds down, so it never overstates.
    assert (theirs["total_percent_covered"], ours["coverage_pct"]) == (66.67, 66.66)
    assert ours["gaps"] == [
        {"path": "shop/cart.py", "start": 4, "end": 4},
        {"path": "shop/cart.py", "start": 10, "end": 10},
    ]
    # No strength verdicts: the lines that ran are covered, their tests' strength unknown, not weak.
    assert ours["gate"]["message"].startswith("Coverage is 66.66% (66.66% including 0 weakly covered paths).")


def test_contexts_weigh_each_line_by_the_strength_of_the_tests_that_ran_it(
    cli: Callable[..., CliResult], measured_repo: tuple[Repo, str], tmp_path: Path
) -> None:
    repo, base = measured_repo
    strength = tmp_path / "strength.json"
    report = ("--report", repo.path / "coverage.json", "--strength", strength)
    # test_other.py is the changed test, still-green; the lines ran under test_cart.py, which is not
    # a changed test, so strength never judged it: those lines are not weak, and count as run by a test.
    strength.write_text(json.dumps({"tests": [{"path": "tests/test_other.py", "verdict": "still-green"}]}))
    code, ours = coverage_json(cli, repo, base, *report)
    assert (code, ours["coverage_pct"], ours["coverage_pct_value"], ours["gate_number"]) == (0, 66.66, None, 66.66)
    assert ours["weak_gaps"] == []
    assert ours["gate"]["message"].startswith("Coverage is 66.66% (66.66% including 0 weakly covered paths).")
    said = cli("coverage", "--repo", repo.path, "--base", base, *report).out
    assert (
        "value-weighted coverage unavailable: strength did not judge the tests that run these lines "
        "(tests/test_cart.py: not judged by strength in this run); the gate used coverage of any test"
    ) in said
    # Judged still-green, the same test makes its lines weak, named with its verdict.
    strength.write_text(json.dumps({"tests": [{"path": "tests/test_cart.py", "verdict": "still-green"}]}))
    code, ours = coverage_json(cli, repo, base, *report)
    assert (code, ours["coverage_pct_value"], ours["gate_number"]) == (1, 0.0, 0.0)  # no line ran under a red test
    assert ours["gate"]["message"].startswith("Value-weighted coverage is critically low (0%; 66.66% including 2")
    assert [(gap["start"], gap["end"], gap["tests"]) for gap in ours["weak_gaps"]] == [
        (2, 3, ["tests/test_cart.py (still-green)"]),
        (5, 8, ["tests/test_cart.py (still-green)"]),  # 6-7 are blank; 8 ran on import, for test_cart.py
    ]
    # Not run by strength, with its reason: any test's coverage, and the reason said.
    reason = "does not load at the head (exit code 2): ModuleNotFoundError: No module named 'shop'"
    strength.write_text(json.dumps({"tests": [{"path": "tests/test_cart.py", "verdict": "not-run", "reason": reason}]}))
    code, ours = coverage_json(cli, repo, base, *report)
    assert (code, ours["coverage_pct_value"], ours["gate_number"], ours["weak_gaps"]) == (0, None, 66.66, [])
    assert "critically low" not in ours["gate"]["message"]
    said = cli("coverage", "--repo", repo.path, "--base", base, *report).out
    assert f"(tests/test_cart.py: not-run: {reason}); the gate used coverage of any test" in said
    strength.write_text(json.dumps({"tests": [{"path": "tests/test_cart.py", "verdict": "red"}]}))
    code, ours = coverage_json(cli, repo, base, "--report", repo.path / "coverage.json", "--strength", strength)
    assert (code, ours["coverage_pct_value"], ours["weak_gaps"]) == (0, 66.66, [])  # above the minimum
    assert ours["gate"]["message"] == (
        "Value-weighted coverage is 66.66% (66.66% including 0 weakly covered paths). "
        "0 paths have only weak tests and 2 have none. Target is 80%."
    )
    critical = ("--minimum", "70", "--report", repo.path / "coverage.json", "--strength", strength)
    code, ours = coverage_json(cli, repo, base, *critical)
    assert code == 1
    code, ours = coverage_json(cli, repo, base, *critical, "--label", "coverage:override")
    assert (code, ours["gate"]["message"]) == (0, "Coverage gate: OVERRIDDEN at 66.66%.")


def test_without_contexts_or_strength_value_weighting_is_unavailable_and_said(
    cli: Callable[..., CliResult], measured_repo: tuple[Repo, str]
) -> None:
    repo, base = measured_repo
    result = cli("coverage", "--repo", repo.path, "--base", base, "--report", repo.path / "coverage.xml")
    assert result.code == 0  # 66.66 is above the minimum: below the target fails only with --fail-on target
    assert "value-weighted coverage unavailable: no strength verdicts" in result.out
    assert "shop/cart.py:4-4: Changed line 4: not run by any test." in result.out
    failing = cli(
        "coverage", "--repo", repo.path, "--base", base, "--report", repo.path / "coverage.xml", "--fail-on", "target"
    )
    assert failing.code == 1


@needs((TOOLS / "c8").exists(), "c8 is not installed (scripts/install-test-tools.sh)")
def test_c8_lcov_written_inside_a_sub_project_equals_diff_cover(cli: Callable[..., CliResult], repo: Repo) -> None:
    web = "packages/web/"
    source = "function total(items) {\n  return items.reduce((a, b) => a + b, 0);\n}\nmodule.exports = { total };\n"
    head_source = (
        "function total(items) {\n  let amount = items.reduce((a, b) => a + b, 0);\n  if (amount > 100) {\n"
        "    amount = amount * 0.9;\n  }\n  return amount;\n}\nmodule.exports = { total };\n"
    )
    test = (
        "const test = require('node:test');\nconst assert = require('node:assert');\n"
        "const { total } = require('../src/cart.js');\ntest('small', () => assert.strictEqual(total([1, 2]), 3));\n"
    )
    package = json.dumps({"name": "web", "version": "1.0.0", "private": True})
    base = repo.commit(
        "base", {web + "package.json": package, web + "src/cart.js": source, web + "test/cart.test.js": test}
    )
    repo.commit("head", {web + "src/cart.js": head_source})
    run([str(TOOLS / "c8"), "--reporter=lcov", "node", "--test", "test/"], repo.path / web)
    report = repo.path / web / "coverage" / "lcov.info"
    assert "SF:src/cart.js" in report.read_text()  # relative to the sub-project, as c8 writes it
    _, ours = coverage_json(cli, repo, base, "--report", report, "--no-value-weighting")
    assert ours["changed_lines"] == {web + "src/cart.js": [2, 3, 4, 5, 6]}
    # V8 counts the closing brace of the branch not taken as not run, with its body.
    assert ours["covered_lines"] == {web + "src/cart.js": [2, 3, 6]}
    assert ours["gaps"] == [{"path": web + "src/cart.js", "start": 4, "end": 5}]
    assert ours["coverage_pct"] == 60.0
    # diff-cover's trap: it maps an LCOV name against the top of the repository (whatever directory it
    # runs in), finds no `src/cart.js` there, measures nothing and says 100% for 5 changed lines.
    trap = diff_cover(repo, base, report)
    assert (trap["num_changed_lines"], trap["total_num_lines"], trap["total_percent_covered"]) == (5, 0, 100.0)
    # With the names written from the top, diff-cover reads the same lines, and the numbers agree.
    from_top = repo.path.parent / "lcov-from-top.info"
    from_top.write_text(report.read_text().replace("SF:src/", f"SF:{web}src/"))
    theirs = diff_cover(repo, base, from_top)
    stats = theirs["src_stats"][web + "src/cart.js"]
    assert sorted(stats["covered_lines"]) == ours["covered_lines"][web + "src/cart.js"]
    assert sorted(stats["violation_lines"]) == [4, 5]
    assert theirs["total_percent_covered"] == ours["coverage_pct"]
    _, same = coverage_json(cli, repo, base, "--report", from_top, "--no-value-weighting")
    assert same["covered_lines"] == ours["covered_lines"]


@needs_tools("go", hint="Go is installed by scripts/test.sh as root")
def test_go_coverprofile_maps_through_the_module_path(
    cli: Callable[..., CliResult], repo: Repo, tmp_path: Path, go_build_cache: Path
) -> None:
    module = "services/shop/"
    base = repo.commit(
        "base",
        {
            module + "go.mod": "module example.com/shop\n\ngo 1.19\n",
            module + "cart/cart.go": GO_SUM + "\treturn sum\n}\n",
            module + "cart/cart_test.go": GO_TEST,
        },
    )
    repo.commit(
        "head",
        {module + "cart/cart.go": GO_SUM + "\tif sum > 100 {\n\t\tsum = sum * 9 / 10\n\t}\n\treturn sum\n}\n"},
    )
    env = {
        "GOPATH": str(tmp_path / "gopath"),
        "GOCACHE": str(go_build_cache),
        "GOFLAGS": "-mod=mod",
        "GOPROXY": "off",
        "GOSUMDB": "off",
        "GOTOOLCHAIN": "local",
        "CGO_ENABLED": "0",
    }
    run(["go", "test", "-coverprofile=cover.out", "./..."], repo.path / module, **env)
    report = repo.path / module / "cover.out"
    assert "example.com/shop/cart/cart.go" in report.read_text()
    _, ours = coverage_json(cli, repo, base, "--report", report, "--no-value-weighting")
    path = module + "cart/cart.go"
    assert ours["changed_lines"] == {path: [8, 9, 10]}
    # `if sum > 100 {` ran; the block of its body, which ends at its `}`, did not.
    assert ours["covered_lines"] == {path: [8]}
    assert ours["gaps"] == [{"path": path, "start": 9, "end": 10}]


def test_a_report_naming_no_file_of_the_repository_is_an_error_with_the_fix(
    cli: Callable[..., CliResult], repo: Repo, tmp_path: Path
) -> None:
    base = repo.commit("base", {"app.js": "x\n"})
    repo.commit("head", {"app.js": "x\ny\n"})
    report = tmp_path / "lcov.info"
    report.write_text("SF:/somewhere/else/lib.js\nDA:1,1\nend_of_record\n")
    result = cli("coverage", "--repo", repo.path, "--base", base, "--report", report)
    assert result.code == 2
    assert (
        "none of its 1 files is a file of this repository; run the tests from the checkout" in result.err + result.out
    )


def test_a_test_only_change_is_skipped_with_the_issues_words(
    cli: Callable[..., CliResult], python_repo: tuple[Repo, str]
) -> None:
    repo, _ = python_repo
    head = repo.git("rev-parse", "HEAD")
    repo.commit("tests only", {"tests/test_more.py": TEST_OTHER})
    os.utime(repo.path / "coverage.xml")  # written by this run, after the commit it measures
    code, ours = coverage_json(cli, repo, head, "--report", repo.path / "coverage.xml")
    assert code == 4
    assert ours["gate"]["message"] == "Coverage gate: could not determine percentage — skipping."
    assert ours["coverage_pct"] is None


@pytest.mark.parametrize("staleness", ["committed", "older-than-the-run"])
def test_a_stale_report_is_not_used_and_the_gate_is_unavailable(
    cli: Callable[..., CliResult], python_repo: tuple[Repo, str], staleness: str
) -> None:
    """Held to the freshness rule of test reports: a coverage.xml committed to git, or written before
    the run started, gave 'Coverage gate: PASS (100%)'."""
    repo, base = python_repo
    report = repo.path / "coverage.xml"
    if staleness == "committed":
        repo.git("add", "--force", "coverage.xml")
        repo.git("commit", "--quiet", "-m", "the report too")
        os.utime(report)
        why = f"{report} is committed to git, not produced by this run"
    else:
        os.utime(report, (1_000_000_000, 1_000_000_000))
        why = f"{report} was written at 2001-09-09"
    result = cli("coverage", "--repo", repo.path, "--base", base, "--report", report, "--no-value-weighting")
    assert result.code == 4
    assert result.out.startswith(f"a coverage report could not be used: stale evidence: {why}")
    assert "PASS" not in result.out


def test_two_reports_merge_as_any_run_and_diff_covers_intersection_differs(
    cli: Callable[..., CliResult], measured_repo: tuple[Repo, str], tmp_path: Path
) -> None:
    """diff-cover keeps a line missed only when every report that measures its file misses it, so a
    second report that does not list the line at all hides the miss; here only a run covers a line."""
    repo, base = measured_repo
    first, second = tmp_path / "first.info", tmp_path / "second.info"
    first.write_text("SF:shop/cart.py\nDA:2,1\nDA:3,1\nDA:4,0\nDA:5,1\nend_of_record\n")
    second.write_text("SF:shop/cart.py\nDA:2,1\nend_of_record\n")
    _, ours = coverage_json(cli, repo, base, "--report", first, "--report", second, "--no-value-weighting")
    assert ours["covered_lines"] == {"shop/cart.py": [2, 3, 5]}
    assert ours["gaps"] == [{"path": "shop/cart.py", "start": 4, "end": 4}]
    out = tmp_path / "both.json"
    run(
        [
            sys.executable,
            "-m",
            "diff_cover.diff_cover_tool",
            str(first),
            str(second),
            f"--compare-branch={base}",
            f"--format=json:{out}",
            "-q",
        ],
        repo.path,
    )
    stats = json.loads(out.read_text())["src_stats"]["shop/cart.py"]
    assert stats["violation_lines"] == []  # line 4, which no run covered, is not reported by diff-cover


def test_uncommitted_changes_and_an_untracked_go_module_are_measured_with_head_worktree(
    cli: Callable[..., CliResult], repo: Repo, tmp_path: Path
) -> None:
    """`--head worktree`: the files are the work tree's (tracked and untracked), and a go.mod not yet
    committed still maps import paths."""
    base = repo.commit("base", {"README.md": "shop\n"})
    repo.write({"svc/go.mod": "module example.com/svc\n\ngo 1.19\n", "svc/cart.go": "package svc\n\nfunc A() {}\n"})
    report = tmp_path / "cover.out"
    report.write_text("mode: set\nexample.com/svc/cart.go:3.10,3.12 1 0\n")
    _, ours = coverage_json(cli, repo, base, "--head", "worktree", "--report", report, "--no-value-weighting")
    assert ours["changed_lines"] == {"svc/cart.go": [3]}
    assert ours["gaps"] == [{"path": "svc/cart.go", "start": 3, "end": 3}]


def test_bad_arguments_are_one_line_errors(cli: Callable[..., CliResult], python_repo: tuple[Repo, str]) -> None:
    repo, base = python_repo
    (repo.path / "junit.xml").write_text('<?xml version="1.0"?><testsuites><testsuite name="t"/></testsuites>\n')
    (repo.path / "strength.json").write_text('{"tests": "not a list"}\n')
    cases = [
        (("--report", repo.path / "junit.xml"), "not a coverage report this version reads"),
        (
            ("--report", repo.path / "coverage.xml", "--strength", repo.path / "strength.json"),
            "not the JSON of `evidence-gate strength --json`",
        ),
        (
            ("--report", repo.path / "coverage.xml", "--minimum", "90", "--target", "80"),
            "--minimum and --target are percentages",
        ),
    ]
    for arguments, message in cases:
        result = cli("coverage", "--repo", repo.path, "--base", base, *arguments)
        assert result.code == 2, arguments
        assert message in result.err + result.out
        assert "Traceback" not in result.err + result.out
