"""The evidence gate inside the pipeline: real git repositories, real runners' logs and reports left
in the workspace by the test step, every source weighed and none left out."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

from evidence_gate.effects import effects_for
from evidence_gate.ledger.digest import Digest, decode, encode
from evidence_gate.ledger.model import GateResult, GateVerdict, Ledger
from evidence_gate.settings import Settings

from .conftest import Repo, judge_repo, local_environment

LOGS = Path(__file__).parent / "fixtures" / "stack-logs"
PYTHON = {"pyproject.toml": "[project]\nname = 'shop'\n", ".gitignore": "build/\n", "shop.py": "X = 1\n"}


def run(repo: Repo, project: dict[str, str], outputs: dict[str, str]) -> Ledger:
    """The project committed, then the test step's outputs written (untracked, fresh) under build/."""
    repo.commit("project", project)
    for name, fixture in outputs.items():
        target = repo.path / "build" / name
        target.parent.mkdir(exist_ok=True)
        shutil.copy(LOGS / fixture, target)
    settings = Settings(repo=repo.path, reports=("build/*.log", "build/*.xml"))
    return judge_repo(settings, in_ci=True)


def evidence_gate(ledger: Ledger) -> GateResult:
    gate = ledger.gate("evidence")
    assert gate is not None
    return gate


def test_a_failing_junit_report_fails_beside_a_passing_log(repo: Repo) -> None:
    ledger = run(repo, PYTHON, {"pytest.log": "pytest/success.log", "junit.xml": "pytest/failure.junit.xml"})
    gate = evidence_gate(ledger)
    assert (gate.verdict, gate.headline) == (GateVerdict.FAIL, "2 of 5 tests failed")


def test_a_killed_session_beside_a_finished_one_fails_with_its_reason(repo: Repo) -> None:
    repo.commit("project", PYTHON)
    (repo.path / "build").mkdir()
    shutil.copy(LOGS / "pytest" / "success.log", repo.path / "build" / "a.log")
    lines = (LOGS / "pytest" / "mixed.log").read_text(encoding="utf-8").splitlines(keepends=True)
    (repo.path / "build" / "b.log").write_text("".join(lines[:6]), encoding="utf-8")
    settings = Settings(repo=repo.path, reports=("build/*.log",))
    gate = evidence_gate(judge_repo(settings, in_ci=True))
    assert gate.verdict is GateVerdict.FAIL
    assert gate.headline.startswith("cannot read build/b.log: ")  # workspace-relative: no runner path


def test_a_log_and_its_junit_report_are_one_run_and_the_report_counts(repo: Repo) -> None:
    ledger = run(repo, PYTHON, {"pytest.log": "pytest/success.log", "junit.xml": "pytest/success.junit.xml"})
    gate = evidence_gate(ledger)
    assert (gate.verdict, ledger.counts and ledger.counts.executed) == (GateVerdict.PASS, 7)
    assert "the log and the reports describe one run: 7 executed, 0 failed, 0 skipped, counted once" in gate.details


def test_without_a_junit_report_the_ledger_lists_the_failed_tests_the_log_names(repo: Repo) -> None:
    ledger = run(repo, PYTHON, {"pytest.log": "pytest/mixed.log"})
    assert [(test.name, test.message) for test in ledger.failed_tests] == [
        ("test_mixed.py::test_assert_fails", None),
        ("test_mixed.py::test_exception_fails", None),
        ("test_mixed.py::test_fixture_error", None),
    ]


def test_the_failed_tests_a_junit_report_names_stand_over_the_logs(repo: Repo) -> None:
    ledger = run(repo, PYTHON, {"pytest.log": "pytest/mixed.log", "junit.xml": "pytest/mixed.junit.xml"})
    assert ledger.failed_tests
    assert all(test.message for test in ledger.failed_tests)  # the report's cases, with their messages


def test_an_exit_code_echoed_into_the_log_fails_and_is_kept_in_the_ledger(repo: Repo) -> None:
    repo.commit("project", PYTHON)
    (repo.path / "build").mkdir()
    log = repo.path / "build" / "pytest.log"
    log.write_text((LOGS / "pytest" / "success.log").read_text(encoding="utf-8") + "EXIT_CODE=1\n", encoding="utf-8")
    gate = evidence_gate(judge_repo(Settings(repo=repo.path, reports=("build/*.log",))))
    assert (gate.verdict, gate.headline) == (GateVerdict.FAIL, "the command exited 1")
    assert [item.exit_code for item in gate.excerpts] == [1]


def test_on_the_unknown_stack_a_log_is_judged_by_the_markers_of_its_parsers_stack(repo: Repo) -> None:
    project = {".gitignore": "build/\n", "README.md": "no manifest\n"}
    ledger = run(repo, project, {"go-test.log": "go-test/noisy-green.json.log"})
    assert ledger.stack == "unknown"
    gate = evidence_gate(ledger)
    assert (gate.verdict, gate.headline) == (GateVerdict.PASS, "6 tests executed, all passed (0 skipped)")


MANY = """\
import pytest

@pytest.mark.parametrize("n", range(48))
def test_price(n):
    assert n >= 0

def test_total():
    assert True

def test_discount():
    assert True
"""


def pytest_run(repo: Repo) -> None:
    """The workflow's test step: a real pytest run writing its console log and JUnit report."""
    build = repo.path / "build"
    build.mkdir(exist_ok=True)
    command = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", f"--junitxml={build / 'junit.xml'}"]
    result = subprocess.run(command, cwd=repo.path, capture_output=True, check=False)
    (build / "pytest.log").write_bytes(result.stdout + result.stderr)


def base_and_head(repo: Repo, head_files: dict[str, str]) -> tuple[str, str, Digest]:
    """The base commit run for real and its ledger kept as the digest its check run carries; then the
    head commit checked out and run for real."""
    base = repo.commit("base", {**PYTHON, "tests/test_shop.py": MANY})
    pytest_run(repo)
    base_ledger = judge_repo(Settings(repo=repo.path, reports=REPORTS), in_ci=True)
    assert base_ledger.counts is not None and base_ledger.counts.executed == 50
    encoded = encode(base_ledger)
    digest = decode(encoded or "")
    assert digest is not None
    repo.git("checkout", "--quiet", "-b", "feature")
    head = repo.commit("head", head_files)
    shutil.rmtree(repo.path / "build")
    pytest_run(repo)
    return base, head, digest


REPORTS = ("build/*.log", "build/*.xml")


def test_a_head_that_stops_running_the_bases_tests_fails_and_names_them(repo: Repo) -> None:
    base, head, digest = base_and_head(repo, {"pytest.ini": "[pytest]\naddopts = -k 'total or discount'\n"})
    settings = Settings(repo=repo.path, reports=REPORTS, base=base, head=head)
    ledger = judge_repo(settings, baseline=digest, in_ci=True)
    gate = evidence_gate(ledger)
    assert gate.verdict is GateVerdict.FAIL
    assert gate.headline.startswith("48 tests the base ran are missing, and the change does not delete them: ")
    assert "tests/test_shop.py::test_price[0], tests/test_shop.py::test_price[10]" in gate.headline
    assert "missing: tests/test_shop.py::test_price[9]" in gate.details


def test_tests_the_change_deletes_are_named_and_block(repo: Repo) -> None:
    fewer = MANY.replace('@pytest.mark.parametrize("n", range(48))\ndef test_price(n):\n    assert n >= 0\n\n', "")
    base, head, digest = base_and_head(repo, {"tests/test_shop.py": fewer})
    settings = Settings(repo=repo.path, reports=REPORTS, base=base, head=head)
    gate = evidence_gate(judge_repo(settings, baseline=digest, in_ci=True))
    assert gate.verdict is GateVerdict.FAIL
    assert gate.headline.startswith("48 fewer tests executed than at the base (50 -> 2; deleted by the change: ")
    assert "48 tests the base ran are gone with the lines the change deletes" in gate.details


def test_a_run_without_a_base_says_the_change_was_not_inspected(repo: Repo) -> None:
    repo.commit("base", {"README.md": "shop\n"})
    ledger = judge_repo(Settings(repo=repo.path))
    gate = ledger.gate("evidence")
    assert gate is not None
    assert gate.details[0].startswith("no base was given, so the change itself was not inspected")


def test_a_report_dated_after_the_clocks_now_was_not_written_by_this_run(repo: Repo) -> None:
    """A file's time is set at will: a report dated in the future would pass any "written after the
    run started" test. The run's clock (passed in with the effects) says when now is."""
    repo.commit("project", PYTHON)
    report = repo.path / "build" / "junit.xml"
    report.parent.mkdir()
    shutil.copy(LOGS / "pytest" / "success.junit.xml", report)
    now = report.stat().st_mtime
    os.utime(report, (now + 86_400, now + 86_400))
    settings = Settings(repo=repo.path, reports=("build/*.xml",))
    effects = replace(effects_for(repo.path, local_environment()), clock=lambda: now)
    gate = evidence_gate(judge_repo(settings, in_ci=True, effects=effects))
    assert gate.verdict is GateVerdict.FAIL
    assert gate.headline.startswith("stale evidence: build/junit.xml is dated ")
    assert gate.headline.endswith("in the future: its time was set, not written by this run")
    later = replace(effects, clock=lambda: now + 86_400)
    assert evidence_gate(judge_repo(settings, in_ci=True, effects=later)).verdict is GateVerdict.PASS


def test_a_failing_pytest_case_is_named_as_pytests_console_names_it(repo: Repo) -> None:
    """pytest's JUnit report dots the test file's path (`tests.test_shop.TestCart`); its console
    prints the node id (`tests/test_shop.py::TestCart::test_total[2]`). The node id is the one
    spelling shown, in the failing tests and in the annotations alike."""
    suite = (
        "import pytest\n\n\nclass TestCart:\n    @pytest.mark.parametrize('n', [1, 2])\n"
        "    def test_total(self, n):\n        assert n == 1\n\n\ndef test_refund():\n    assert False\n"
    )
    ini = "[pytest]\njunit_family = xunit1\n"  # file and line on each case, for annotations
    repo.commit("project", {**PYTHON, "pytest.ini": ini, "tests/__init__.py": "", "tests/test_shop.py": suite})
    pytest_run(repo)
    ledger = judge_repo(Settings(repo=repo.path, reports=("build/junit.xml",)), in_ci=True)
    failed = [test.name for test in ledger.failed_tests]
    assert failed == ["tests/test_shop.py::TestCart::test_total[2]", "tests/test_shop.py::test_refund"]
    log = (repo.path / "build" / "pytest.log").read_text(encoding="utf-8")
    assert all(f"FAILED {name}" in log for name in failed)
    gate = evidence_gate(ledger)
    assert [note.title for note in gate.annotations] == [f"{name} failed" for name in failed]


def test_a_module_pytest_could_not_collect_is_named_by_its_file(repo: Repo) -> None:
    """pytest reports a module that fails to import as a case named by the dotted module; its console
    says `ERROR tests/test_broken.py`. The file is the name shown."""
    broken = "import missing_module  # the suite cannot load\n\n\ndef test_x():\n    pass\n"
    repo.commit("project", {**PYTHON, "tests/__init__.py": "", "tests/test_broken.py": broken})
    pytest_run(repo)
    ledger = judge_repo(Settings(repo=repo.path, reports=REPORTS), in_ci=True)
    assert [test.name for test in ledger.failed_tests] == ["tests/test_broken.py"]
    assert "ERROR tests/test_broken.py" in (repo.path / "build" / "pytest.log").read_text(encoding="utf-8")


def test_without_a_coverage_report_the_toolchain_row_says_what_the_coverage_check_said(repo: Repo) -> None:
    """No coverage report among the reports: the coverage check skips, not applicable, and its
    Toolchain row agrees (not MISSING beside a Results row that is not applicable)."""
    ledger = run(repo, PYTHON, {"junit.xml": "pytest/success.junit.xml"})
    coverage = ledger.gate("coverage")
    assert coverage is not None and coverage.verdict is GateVerdict.NOT_APPLICABLE
    (row,) = [row for row in ledger.quality.toolchain if row.check == 4]
    assert (str(row.status), row.reason) == ("NOT_APPLICABLE", f"no coverage report: {coverage.headline}")
