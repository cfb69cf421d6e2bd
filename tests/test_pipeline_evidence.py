"""The evidence gate inside the pipeline: real git repositories, real runners' logs and reports left
in the workspace by the test step, every source weighed and none left out."""

from __future__ import annotations

import shutil
from pathlib import Path

from evidence_gate.ledger import GateResult, GateVerdict, Ledger
from evidence_gate.pipeline import RunInputs, run_pipeline
from evidence_gate.settings import Settings

from .conftest import Repo

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
    return run_pipeline(RunInputs(settings=settings, in_ci=True))


def evidence_gate(ledger: Ledger) -> GateResult:
    gate = ledger.gate("evidence")
    assert gate is not None
    return gate


def test_a_failing_junit_report_fails_beside_a_passing_log(repo: Repo) -> None:
    ledger = run(repo, PYTHON, {"pytest.log": "pytest/success.log", "junit.xml": "pytest/failure.junit.xml"})
    gate = evidence_gate(ledger)
    assert (gate.verdict, gate.summary) == (GateVerdict.FAIL, "2 of 5 tests failed")


def test_a_killed_session_beside_a_finished_one_fails_with_its_reason(repo: Repo) -> None:
    repo.commit("project", PYTHON)
    (repo.path / "build").mkdir()
    shutil.copy(LOGS / "pytest" / "success.log", repo.path / "build" / "a.log")
    lines = (LOGS / "pytest" / "mixed.log").read_text(encoding="utf-8").splitlines(keepends=True)
    (repo.path / "build" / "b.log").write_text("".join(lines[:6]), encoding="utf-8")
    settings = Settings(repo=repo.path, reports=("build/*.log",))
    gate = evidence_gate(run_pipeline(RunInputs(settings=settings, in_ci=True)))
    assert gate.verdict is GateVerdict.FAIL
    assert gate.summary.startswith(f"cannot read {repo.path / 'build' / 'b.log'}: ")


def test_a_log_and_its_junit_report_are_one_run_and_the_report_counts(repo: Repo) -> None:
    ledger = run(repo, PYTHON, {"pytest.log": "pytest/success.log", "junit.xml": "pytest/success.junit.xml"})
    gate = evidence_gate(ledger)
    assert (gate.verdict, ledger.counts and ledger.counts.executed) == (GateVerdict.PASS, 7)
    assert "the log and the reports describe one run: 7 executed, 0 failed, 0 skipped, counted once" in gate.details


def test_an_exit_code_echoed_into_the_log_fails_and_is_kept_in_the_ledger(repo: Repo) -> None:
    repo.commit("project", PYTHON)
    (repo.path / "build").mkdir()
    log = repo.path / "build" / "pytest.log"
    log.write_text((LOGS / "pytest" / "success.log").read_text(encoding="utf-8") + "EXIT_CODE=1\n", encoding="utf-8")
    gate = evidence_gate(run_pipeline(RunInputs(settings=Settings(repo=repo.path, reports=("build/*.log",)))))
    assert (gate.verdict, gate.summary) == (GateVerdict.FAIL, "the command exited 1")
    assert [item.exit_code for item in gate.evidence] == [1]


def test_on_the_unknown_stack_a_log_is_judged_by_the_markers_of_its_parsers_stack(repo: Repo) -> None:
    project = {".gitignore": "build/\n", "README.md": "no manifest\n"}
    ledger = run(repo, project, {"go-test.log": "go-test/noisy-green.json.log"})
    assert ledger.stack == "unknown"
    gate = evidence_gate(ledger)
    assert (gate.verdict, gate.summary) == (GateVerdict.PASS, "6 tests executed, all passed (0 skipped)")
