"""The job's own test run standing for a changed test file's first head run, on real repositories
with pytest's real JUnit reports: the base run comes first, the head is run alone after it only where
the verdict needs it (red, still-green), and every verdict still rests on the file's own runs."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from evidence_gate.facts import case_sources
from evidence_gate.ledger.model import Ledger
from evidence_gate.ledger.payloads.strength import StrengthData
from evidence_gate.settings import Settings
from evidence_gate.summary.base import CaseResult

from ..conftest import Repo, judge_repo

PYPROJECT = "[project]\nname = 'shop'\nversion = '1'\n\n[tool.pytest.ini_options]\naddopts = '-p no:cacheprovider'\n"
CART_BUGGY = "def total(prices):\n    return sum(prices[1:])\n"
CART_FIXED = "def total(prices):\n    return sum(prices)\n"
STATE = "ready = False\n"
HEAD_TESTS = {
    # fails without the fix
    "tests/test_total.py": "from shop.cart import total\n\n\ndef test_total():\n    assert total([2, 3]) == 5\n",
    # passes without it
    "tests/test_empty.py": "from shop.cart import total\n\n\ndef test_empty():\n    assert total([]) == 0\n",
    # passes only after a test of another file ran first: alone, it fails
    "tests/test_a_setup.py": "from shop import state\n\n\ndef test_setup():\n    state.ready = True\n",
    "tests/test_b_needs_setup.py": (
        "from shop import state\nfrom shop.cart import total\n\n\n"
        "def test_ready():\n    assert state.ready and total([1, 1]) == 2\n"
    ),
}
REPORT = "build/junit.xml"


def commit_pair(repo: Repo) -> tuple[str, str]:
    base = repo.commit(
        "base",
        {
            "pyproject.toml": PYPROJECT,
            ".gitignore": "build/\n",
            "shop/__init__.py": "",
            "shop/state.py": STATE,
            "shop/cart.py": CART_BUGGY,
            "tests/test_a_setup.py": HEAD_TESTS["tests/test_a_setup.py"],
        },
    )
    head = repo.commit("fix the total", {"shop/cart.py": CART_FIXED, **HEAD_TESTS})
    return base, head


def job_test_run(repo: Repo) -> None:
    """The workflow's own test step, at the head, writing its JUnit report."""
    subprocess.run(
        [sys.executable, "-m", "pytest", "-q", f"--junitxml={REPORT}", "tests"],
        cwd=repo.path,
        env={**os.environ, "PYTHONPATH": "."},
        capture_output=True,
        check=True,
    )


def strength_rows(ledger: Ledger) -> dict[str, tuple[str, str, str | None]]:
    strength = ledger.gate("strength")
    assert strength is not None and isinstance(strength.data, StrengthData), strength
    return {row.path: (row.verdict, row.reason, row.runs) for row in strength.data.tests}


def judged(repo: Repo, base: str, head: str, reports: tuple[str, ...]) -> dict[str, tuple[str, str, str | None]]:
    return strength_rows(judge_repo(Settings(repo=repo.path, reports=reports, base=base, head=head), in_ci=True))


def test_passing_cases_in_the_jobs_report_stand_for_the_first_head_run(repo: Repo) -> None:
    base, head = commit_pair(repo)
    job_test_run(repo)
    rows = judged(repo, base, head, (REPORT,))
    skipped = "the job's reports of this head have its cases passing (1 passed)"
    assert rows["tests/test_total.py"][0] == "red", rows
    assert rows["tests/test_total.py"][2] == f"base, then head ({skipped})"
    assert rows["tests/test_empty.py"][0] == "still-green", rows
    assert rows["tests/test_empty.py"][2] == f"base, then head ({skipped})"
    # passing in the job's run but not alone: its head run alone, after the base run, says so
    verdict, reason, runs = rows["tests/test_b_needs_setup.py"]
    assert verdict == "not-run", rows
    assert reason.startswith("fails at the head (1 failed, 0 passed"), reason
    assert reason.endswith(f", though {skipped}"), reason
    assert runs == f"base, then head ({skipped})"


def test_without_reports_each_file_runs_at_the_head_first(repo: Repo) -> None:
    base, head = commit_pair(repo)
    rows = judged(repo, base, head, ())
    assert rows["tests/test_total.py"][::2] == ("red", "head, then base, then head again"), rows
    assert rows["tests/test_empty.py"][::2] == ("still-green", "head, then base"), rows
    verdict, reason, runs = rows["tests/test_b_needs_setup.py"]
    assert (verdict, runs) == ("not-run", "head"), rows
    assert "though" not in reason


def test_a_failed_case_a_stale_report_or_another_checkout_keeps_the_first_head_run(repo: Repo) -> None:
    base, head = commit_pair(repo)
    job_test_run(repo)
    report = repo.path / REPORT
    text = report.read_text()
    assert text.count('classname="tests.test_total"') == 1
    # the report says test_total failed: it is run at the head first, as without a report
    failed = re.sub(
        r'(<testcase classname="tests.test_total"[^>]*?)\s*/>', r'\1><failure message="no" /></testcase>', text
    )
    assert failed != text
    report.write_text(failed)
    assert judged(repo, base, head, (REPORT,))["tests/test_total.py"][2] == "head, then base, then head again"
    # written before the head was checked out: not this run's, so not read for this
    report.write_text(text)
    an_hour_ago = report.stat().st_mtime - 3600
    os.utime(report, (an_hour_ago, an_hour_ago))
    repo.git("checkout", "--quiet", "--detach", head)
    assert judged(repo, base, head, (REPORT,))["tests/test_total.py"][2] == "head, then base, then head again"
    # made in a checkout of another commit than the head strength judges
    later = repo.commit("a note", {"NOTES.md": "notes\n"})
    assert later != head
    job_test_run(repo)
    assert judged(repo, base, head, (REPORT,))["tests/test_total.py"][2] == "head, then base, then head again"


def test_a_case_is_found_by_its_file_its_pytest_node_id_or_its_class(tmp_path: Path) -> None:
    top = tmp_path / "checkout"

    def case(**fields: str | bool) -> CaseResult:
        given: dict[str, object] = {"name": "t", "classname": "", "file": None, "line": None, "outcome": "passed"}
        given.update(fields)
        return CaseResult(message=None, **given)  # type: ignore[arg-type]  # the fields above, as given

    assert case_sources(case(file=f"{top}/web/cart.test.js"), top) == ("web/cart.test.js",)
    assert case_sources(case(file="./spec/cart_spec.rb"), top) == ("spec/cart_spec.rb",)
    assert case_sources(case(file="tests\\Cart.Tests.cs"), top) == ("tests/Cart.Tests.cs",)
    assert case_sources(case(file="/elsewhere/cart.test.js"), top) == ()
    pytest_case = case(classname="tests.test_cart", from_pytest=True, shown_as="tests/test_cart.py::test_add")
    assert case_sources(pytest_case, top) == ("tests/test_cart.py", "class tests.test_cart")
    assert case_sources(case(classname="com.example.shop.TaxTest$Rounding"), top) == ("class com.example.shop.TaxTest",)
