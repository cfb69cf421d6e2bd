"""The first pull request of a project with a debt: no baseline, 60 lint warnings and a type error
on its base commit. `evidence-gate quality` with the project's own ruff and mypy tells the
base's diagnostics (on lines the change did not touch) from the change's own."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.conftest import Repo
from tests.quality.project import CART, python_project, quality, report_checks, verdict

# 60 unused imports (ruff's F401) and one wrong return type (mypy's return-value), none of them the change's
LEGACY = (
    '"""The old code."""\n\n'
    + "".join(f"from os import path as path_{n}\n" for n in range(60))
    + '\n\ndef name() -> int:\n    """Not a number."""\n    return "shop"  # a type error since before the change\n'
)
SHIPPING_TESTS = """from shop import shipping


def test_shipping() -> None:
    assert (shipping(150), shipping(50)) == (0, 5)
"""
SHIPPING = '''

def shipping(total_price: int) -> int:
    """Free over 100."""
    return 0 if total_price > 100 else 5
'''


def base_with_debt(repo: Repo) -> None:
    python_project(repo)
    repo.commit("legacy code", {"shop/legacy.py": LEGACY})


def test_a_clean_change_passes_the_linter_and_type_checker_over_the_bases_debt(repo: Repo) -> None:
    base_with_debt(repo)
    change = {"shop/__init__.py": CART + SHIPPING, "tests/test_shipping.py": SHIPPING_TESTS}  # clean lines
    repo.commit("shipping", change)
    result = quality(repo, "--base", "HEAD~1")
    checks = report_checks(result.out)
    assert (result.code, verdict(result.out), checks[1], checks[2]) == (0, "PASS", "PASS", "PASS"), result.out
    assert "exit code 1: 60 pre-existing, 0 new (no baseline: those on lines the change did not touch" in result.out
    assert "exit code 1: 1 pre-existing, 0 new" in result.out  # the type checker's
    assert "| 2 | Linter | no baseline | 60 warnings, exit 1 | PASS |" in result.out
    assert "**Diagnostics:** 60 pre-existing (on lines the change did not touch), 0 new" in result.out
    assert "<details><summary>Pre-existing: 60, the first 20 shown</summary>" in result.out
    assert "- shop/legacy.py:3: F401 \\[\\*\\] `os.path` imported but unused" in result.out  # the debt, listed


def test_a_warning_on_a_changed_line_fails_naming_it(repo: Repo) -> None:
    base_with_debt(repo)
    docstring, rest = CART.split("\n", 1)
    repo.commit(
        "shipping",
        {"shop/__init__.py": f"{docstring}\n\nimport json\n{rest}{SHIPPING}", "tests/test_shipping.py": SHIPPING_TESTS},
    )
    result = quality(repo, "--base", "HEAD~1")
    assert (result.code, report_checks(result.out)[2]) == (1, "FAIL"), result.out
    first_new = "shop/\\_\\_init\\_\\_.py:3: F401 `json` imported but unused"
    assert f"exit code 1: 60 pre-existing, 1 new; first new: {first_new}" in result.out
    assert f"- Check 2 (Linter): FAIL: {first_new}" in result.out  # the reason, and the failure's signature


def test_a_log_from_the_jobs_own_checkout_is_read_by_its_absolute_paths(repo: Repo, tmp_path: Path) -> None:
    """The linter ran in another checkout (the job's, read in the action's container): its absolute
    paths are the changed files they end with."""
    base_with_debt(repo)
    config = (repo.path / ".github" / "evidence-gate.yml").read_text()
    repo.commit("the linter's log", {".github/evidence-gate.yml": config + "logs:\n  lint: build/ruff.log\n"})
    docstring, rest = CART.split("\n", 1)
    repo.commit(
        "shipping",
        {"shop/__init__.py": f"{docstring}\n\nimport json\n{rest}{SHIPPING}", "tests/test_shipping.py": SHIPPING_TESTS},
    )
    job = tmp_path / "job" / "checkout" / "shop"
    subprocess.run(["git", "clone", "--quiet", str(repo.path), str(job)], check=True)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    ran = subprocess.run(
        [sys.executable, "-m", "ruff", "check", "--no-cache", "--output-format=concise", str(job)],
        cwd=elsewhere,
        capture_output=True,
        text=True,
        check=False,
    )
    (repo.path / "build").mkdir()
    (repo.path / "build" / "ruff.log").write_text(f"{ran.stdout}{ran.stderr}EXIT_CODE={ran.returncode}\n")
    assert f"{job}/shop/legacy.py:3:24: F401" in ran.stdout  # absolute, as the job's checkout has it
    result = quality(repo, "--base", "HEAD~1")
    assert report_checks(result.out)[2] == "FAIL", result.out
    assert "exit code 1: 60 pre-existing, 1 new; first new: " in result.out
    assert "/job/checkout/shop/shop/\\_\\_init\\_\\_.py:3: F401 `json` imported but unused" in result.out
