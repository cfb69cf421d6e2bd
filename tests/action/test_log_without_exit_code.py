"""A console log that records no exit code, as the README's workflow writes it (`pytest ... 2>&1 |
tee evidence/pytest.log` under `shell: bash`, `-eo pipefail`): beside the run's JUnit report its
missing exit code is moot, said once in one line, and the log is not dumped into the comment; as
the only evidence, the line says how to record the code."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from evidence_gate.ledger.model import GateVerdict
from tests.github_fake import FakeGitHub

from ..conftest import Repo
from .harness import PR, TESTS, Run, event, pull_request


def readme_test_step(repo: Repo) -> None:
    """The README's test step, as GitHub runs a `shell: bash` step: `bash -eo pipefail`."""
    (repo.path / "evidence").mkdir(exist_ok=True)
    command = (
        f"{sys.executable} -m pytest -p no:cacheprovider --junitxml=evidence/junit.xml tests"
        " 2>&1 | tee evidence/pytest.log"
    )
    subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", command], cwd=repo.path, check=True)


def test_the_readme_logs_missing_exit_code_beside_its_junit_report_is_one_line_and_no_dump(
    tmp_path: Path, repo: Repo, server: FakeGitHub, action: Callable[..., Run]
) -> None:
    base, head = pull_request(repo, server, TESTS)
    readme_test_step(repo)
    reports = "evidence/junit.xml\nevidence/pytest.log"
    run = action(repo, event(tmp_path, base, head), head, reports=reports, gates_off="type-check\nlint\ncriteria")
    gate = run.ledger.gate("evidence")
    assert gate is not None and gate.verdict is GateVerdict.PASS, gate
    assert gate.excerpts == ()  # the log is not dumped
    (comment,) = server.comments(PR)
    for text in (comment.body, run.summary, Path(run.outputs["report"]).read_text()):
        assert "no exit code recorded" not in text
        assert "test session starts" not in text  # pytest's console output
        assert text.count("records no exit code") == 1
    line = (
        "evidence/pytest.log records no exit code (no `EXIT_CODE=` line): moot, the per-case report"
        " evidence/junit.xml says how each test ended"
    )
    assert line in comment.body


def test_a_log_alone_without_its_exit_code_says_how_to_record_it(
    tmp_path: Path, repo: Repo, server: FakeGitHub, action: Callable[..., Run]
) -> None:
    base, head = pull_request(repo, server, TESTS)
    readme_test_step(repo)
    run = action(
        repo, event(tmp_path, base, head), head, reports="evidence/pytest.log", gates_off="type-check\nlint\ncriteria"
    )
    gate = run.ledger.gate("evidence")
    assert gate is not None and gate.verdict is GateVerdict.PASS, gate  # today's rule: the counts decide
    assert [item.source for item in gate.excerpts] == ["evidence/pytest.log"]
    (detail,) = [line for line in gate.details if "records no exit code" in line]
    assert detail.endswith('to record it, append `; echo "EXIT_CODE=$?"` after the test command (docs/usage.md)')
