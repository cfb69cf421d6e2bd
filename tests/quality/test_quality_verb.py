"""`evidence-gate quality` end to end on real repositories, with the project's own mypy, ruff and
pytest: a clean pass, a deleted test, a new lint warning, a missing type checker, a docs-only
change, and STAGNATION over three runs with the same error (and none when the error changes)."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from evidence_gate.cli import main
from evidence_gate.ledger.document import from_document
from evidence_gate.render import render_report
from tests.conftest import Repo, local_environment
from tests.quality.project import SYSTEM_PATH, TOTAL_TESTS, python_project, quality, report_checks, verdict
from tests.render.checks import check_structure, find, quality_markers, result_rows, seen

DISCOUNT = '''

def discount(price: int) -> int:
    """Ten off, never below zero."""
    return max(0, price - 10)
'''
DISCOUNT_TESTS = """from shop import discount


def test_discount() -> None:
    assert discount(15) == 5
"""


def unused_import(repo: Repo, name: str) -> None:
    """A commit that imports `name` and does not use it: one lint warning (ruff's F401)."""
    source = (repo.path / "shop" / "__init__.py").read_text()
    docstring, rest = source.split("\n", 1)
    repo.commit(f"import {name}", {"shop/__init__.py": f"{docstring}\n\nimport {name}\n{rest}"})


def feature(repo: Repo) -> None:
    """A change that adds a function and its test."""
    repo.commit(
        "discount",
        {
            "shop/__init__.py": (repo.path / "shop" / "__init__.py").read_text() + DISCOUNT,
            "tests/test_discount.py": DISCOUNT_TESTS,
        },
    )


def test_a_clean_change_passes_every_check_with_its_evidence(repo: Repo, capsys: pytest.CaptureFixture[str]) -> None:
    python_project(repo)
    feature(repo)
    capsys.readouterr()
    result = quality(repo, "--base", "HEAD~1")
    assert (result.code, verdict(result.out)) == (0, "PASS"), result.out
    assert capsys.readouterr().err.startswith("Running quality gate checks against baseline metrics.\n")
    assert not result.out.startswith("Running")  # the report is all of standard output
    assert report_checks(result.out) == {
        1: "PASS",
        2: "PASS",
        3: "PASS",
        4: "PASS",
        5: "NOT_APPLICABLE",
        6: "NOT_APPLICABLE",
        7: "NOT_APPLICABLE",
        8: "NOT_APPLICABLE",
        9: "NOT_APPLICABLE",
    }
    assert "## Quality Gate Report — pre-pr" in result.out
    assert "| 1. type checker | DETECTED | mypy . (mypy: \\[tool.mypy\\] in pyproject.toml) |" in result.out
    assert "Success: no issues found in" in result.out  # mypy's own output, under the capture protocol
    assert "| 3 | Test Suite | no baseline | 3 executed, 0 failed | PASS |" in result.out


def test_a_deleted_test_blocks_check_3_naming_it(repo: Repo) -> None:
    python_project(repo)
    repo.commit(
        "drop a test",
        {"tests/test_total.py": TOTAL_TESTS.split("\n\n\ndef test_total_of_nothing")[0] + "\n"},
    )
    result = quality(repo, "--base", "HEAD~1", "--baseline-from", "base")
    assert (result.code, verdict(result.out)) == (1, "BLOCKED"), result.out
    assert report_checks(result.out)[3] == "FAIL"
    assert "| 3 | Test Suite | 2 executed, 0 failed | 1 executed, 0 failed | FAIL |" in result.out
    assert (
        "- Check 3 (Test Suite): FAIL: 1 fewer tests executed than at the base (2 -&gt; 1; deleted by the change:"
        " tests/test\\_total.py::test\\_total\\_of\\_nothing)"
    ) in result.out


def test_a_new_lint_warning_blocks_check_2_with_the_delta(repo: Repo) -> None:
    python_project(repo)
    unused_import(repo, "os")
    result = quality(repo, "--base", "HEAD~1", "--baseline-from", "base")
    assert (result.code, verdict(result.out)) == (1, "BLOCKED"), result.out
    assert report_checks(result.out)[2] == "FAIL"
    assert "| 2 | Linter | 0 warnings, exit 0 | 1 warning, exit 1 | FAIL |" in result.out
    assert "exit code 1: 1 warning (baseline 0, +1)" in result.out


def test_a_project_with_sources_and_no_type_checker_is_missing_and_blocked(repo: Repo) -> None:
    python_project(repo, tools=("ruff",))
    feature(repo)
    result = quality(repo, "--base", "HEAD~1")
    assert (result.code, verdict(result.out)) == (1, "BLOCKED"), result.out
    assert report_checks(result.out)[1] == "MISSING"
    assert "| 1. type checker | MISSING | mypy . (`mypy` is not in the project's virtualenv or on PATH" in result.out


def test_a_docs_only_change_is_not_applicable_with_its_justification_and_passes(repo: Repo) -> None:
    python_project(repo)
    repo.commit("docs", {"docs/guide.md": "# Guide\n", "README.md": "# Shop\n"})
    result = quality(repo, "--base", "HEAD~1", "--reports", "build/none.xml")
    checks = report_checks(result.out)
    assert (result.code, verdict(result.out)) == (0, "PASS"), result.out
    assert checks[1] == checks[2] == "NOT_APPLICABLE"
    assert "all 2 changed files are documentation (.md)" in result.out


def test_the_same_failure_three_runs_running_is_stagnation(repo: Repo, tmp_path: Path) -> None:
    python_project(repo)
    unused_import(repo, "os")
    folder = tmp_path / "reports"
    codes = [quality(repo, "--base", "HEAD~1", "--write-report", folder).code for _ in range(3)]
    assert codes == [1, 1, 3]
    third = (folder / "gate-report-pre-pr-003.md").read_text()
    assert verdict(third) == "STAGNATION"
    assert "STAGNATION DETECTED: Check 2 (Linter) has failed 3 consecutive times with:" in third
    assert sorted(path.name for path in folder.iterdir()) == [
        "gate-report-pre-pr-001.md",
        "gate-report-pre-pr-002.md",
        "gate-report-pre-pr-003.md",
    ]


def test_a_failure_whose_error_changes_is_blocked_each_time(repo: Repo, tmp_path: Path) -> None:
    python_project(repo)
    folder = tmp_path / "reports"
    verdicts = []
    for unused in ("os", "sys", "json"):  # three runs, each failing the linter on another import
        repo.git("reset", "--quiet", "--hard", "main~0" if unused == "os" else "HEAD~1")
        unused_import(repo, unused)
        result = quality(repo, "--base", "HEAD~1", "--write-report", folder)
        verdicts.append((result.code, verdict(result.out)))
    assert verdicts == [(1, "BLOCKED")] * 3


def test_the_report_reads_as_its_layout_through_githubs_renderer(repo: Repo) -> None:
    python_project(repo)
    unused_import(repo, "os")
    result = quality(repo, "--base", "HEAD~1", "--json")
    ledger = from_document(json.loads(result.out), "ledger.json")
    report = render_report(ledger)
    root = check_structure(report, quality_markers(ledger, "report"))
    assert seen(find(root, "h2")) == "Quality Gate Report — pre-pr"
    assert [seen(heading) for heading in root.iter("h3")][:3] == ["Toolchain", "Results", "Evidence"]
    assert [seen(heading) for heading in root.iter("h4")][:2] == ["Check 1: Type Checker", "Check 2: Linter"]
    paragraphs = [seen(paragraph) for paragraph in root.iter("p")]
    assert paragraphs[0].startswith("State: ") and paragraphs[1].startswith("Diff: 1 file changed, 2 insertions(+)")
    assert "Verdict: BLOCKED" in paragraphs
    assert [row[4] for row in result_rows(root)][:2] == ["PASS", "FAIL"]
    assert "<!-- QG:SIGNATURE:2:" in report  # the failed check's signature, under its marker


def test_the_post_refactor_stage_judges_checks_1_to_4_and_says_why_not_the_rest(repo: Repo) -> None:
    python_project(repo)
    feature(repo)
    result = quality(repo, "--base", "HEAD~1", "--stage", "post-refactor")
    assert "## Quality Gate Report — post-refactor" in result.out
    checks = report_checks(result.out)
    assert [checks[number] for number in (1, 2, 3, 4)] == ["PASS"] * 4
    assert [checks[number] for number in (5, 6, 7, 8, 9)] == ["NOT_APPLICABLE"] * 5
    assert result.out.count("not checked at the post-refactor stage: a refactor keeps behaviour") >= 5


def test_a_baseline_file_written_by_the_baseline_verb_is_what_quality_compares_with(repo: Repo, tmp_path: Path) -> None:
    python_project(repo)
    out = io.StringIO()
    environ = {**local_environment(), "PATH": SYSTEM_PATH}
    baseline_file = tmp_path / "baseline.json"
    assert main(["baseline", "--repo", str(repo.path), "--out", str(baseline_file)], out=out, environ=environ) == 0
    written = json.loads(baseline_file.read_text())
    assert written["type_check"] == {"exit": 0, "errors": 0}
    assert written["lint"] == {"exit": 0, "warnings": 0}
    assert written["test"] == {"exit": 0, "passed": 2, "failed": 0, "skipped": 0}
    assert sorted(written["tests"]["names"].values()) == [
        "tests/test_total.py::test_total",
        "tests/test_total.py::test_total_of_nothing",
    ]
    unused_import(repo, "os")
    result = quality(repo, "--base", "HEAD~1", "--baseline", baseline_file)
    assert "| 2 | Linter | 0 warnings, exit 0 | 1 warning, exit 1 | FAIL |" in result.out
    assert f"**Compared with:** the baseline file {baseline_file}" in result.out.replace("\\", "")


def test_in_a_pull_requests_run_the_configuration_is_the_base_commits(repo: Repo, tmp_path: Path) -> None:
    """The pull request's own config file cannot swap the linter for a command that always passes."""
    base = python_project(repo)
    unused_import(repo, "os")
    config = (repo.path / ".github" / "evidence-gate.yml").read_text()
    head = repo.commit("quiet the linter", {".github/evidence-gate.yml": config + "lint-command: 'true'\n"})
    event = tmp_path / "event.json"
    pull = {"number": 7, "body": "", "base": {"sha": base}, "head": {"sha": head, "repo": {"full_name": "o/shop"}}}
    event.write_text(json.dumps({"pull_request": pull}))
    out = io.StringIO()
    environ = {
        **local_environment(),
        "PATH": SYSTEM_PATH,
        "GITHUB_EVENT_NAME": "pull_request",
        "GITHUB_EVENT_PATH": str(event),
        "GITHUB_REPOSITORY": "o/shop",
    }
    code = main(["quality", "--repo", str(repo.path)], out=out, environ=environ)
    assert code == 1
    assert "| 2. linter | DETECTED | ruff check . (ruff: \\[tool.ruff\\] in pyproject.toml) |" in out.getvalue()
    assert report_checks(out.getvalue())[2] == "FAIL"


def test_the_work_tree_as_head_checks_the_uncommitted_change(repo: Repo) -> None:
    python_project(repo)
    source = (repo.path / "shop" / "__init__.py").read_text()
    docstring, rest = source.split("\n", 1)
    repo.write({"shop/__init__.py": f"{docstring}\n\nimport os\n{rest}"})  # not committed
    result = quality(repo, "--base", "HEAD", "--head", "worktree")
    assert (result.code, report_checks(result.out)[2]) == (1, "FAIL"), result.out
    assert "(with the work tree's changes)" in result.out
    assert "**Diff:** 1 file changed, 2 insertions(+)" in result.out


def test_a_virtualenv_the_repository_commits_is_not_the_projects_tools(repo: Repo) -> None:
    """A committed `.venv/bin/ruff` that always passes is the pull request's file, never its linter."""
    python_project(repo, tools=("mypy",))
    fake = repo.path / ".venv" / "bin" / "ruff"
    fake.write_text('#!/bin/sh\necho "All checks passed!"\n')
    fake.chmod(0o755)
    repo.git("add", "--force", ".venv/bin/ruff")
    unused_import(repo, "os")
    result = quality(repo, "--base", "HEAD~1")
    checks = report_checks(result.out)
    assert (result.code, checks[1], checks[2]) == (1, "MISSING", "MISSING"), result.out
    assert "| 2. linter | MISSING | ruff check . (`ruff` is not in the project's virtualenv or on PATH" in result.out


def baseline_json(warnings: int) -> str:
    lint = {"exit": 1 if warnings else 0, "warnings": warnings}
    return json.dumps({"type_check": None, "lint": lint, "test": None, "coverage": None, "timestamp": ""})


def test_in_a_pull_requests_run_the_baseline_file_is_the_base_commits(repo: Repo, tmp_path: Path) -> None:
    """The pull request cannot raise its own baseline to let its new warnings through."""
    python_project(repo)
    config = (repo.path / ".github" / "evidence-gate.yml").read_text()
    base = repo.commit(
        "baseline",
        {
            "docs/baseline.json": baseline_json(0),
            ".github/evidence-gate.yml": config + "baseline: docs/baseline.json\n",
        },
    )
    unused_import(repo, "os")
    head = repo.commit("more room", {"docs/baseline.json": baseline_json(5)})
    assert (
        "| 2 | Linter | 5 warnings, exit 1 | 1 warning, exit 1 | PASS |" in quality(repo, "--base", base).out
    )  # no PR
    event = tmp_path / "event.json"
    pull = {"number": 7, "body": "", "base": {"sha": base}, "head": {"sha": head, "repo": {"full_name": "o/shop"}}}
    event.write_text(json.dumps({"pull_request": pull}))
    environ = {
        **local_environment(),
        "PATH": SYSTEM_PATH,
        "GITHUB_EVENT_NAME": "pull_request",
        "GITHUB_EVENT_PATH": str(event),
        "GITHUB_REPOSITORY": "o/shop",
    }
    out = io.StringIO()
    assert main(["quality", "--repo", str(repo.path)], out=out, environ=environ) == 1
    assert "| 2 | Linter | 0 warnings, exit 0 | 1 warning, exit 1 | FAIL |" in out.getvalue()
    assert f"the baseline file docs/baseline.json at the base commit {base[:12]}" in out.getvalue()
