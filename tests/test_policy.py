"""One policy from verdict to conclusion and exit code, for the action, `run` and `publish`."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from evidence_gate.ledger.model import Verdict
from evidence_gate.policy import conclusion, exit_code
from evidence_gate.settings import FailOn

from .conftest import CliResult, Repo


@pytest.mark.parametrize(
    ("verdict", "fail_on", "expected"),
    [
        (Verdict.PASS, FailOn.STAGNATION, ("success", 0)),
        (Verdict.BLOCKED, FailOn.STAGNATION, ("failure", 1)),
        (Verdict.STAGNATION, FailOn.STAGNATION, ("failure", 1)),
        (Verdict.STAGNATION, FailOn.BLOCKED, ("failure", 1)),  # a blocked verdict that repeated
        (Verdict.STAGNATION, FailOn.NEVER, ("neutral", 0)),
        (Verdict.BLOCKED, FailOn.BLOCKED, ("failure", 1)),
        (Verdict.BLOCKED, FailOn.NEVER, ("neutral", 0)),
    ],
)
def test_the_conclusion_and_the_exit_code_agree(verdict: Verdict, fail_on: FailOn, expected: tuple[str, int]) -> None:
    assert (conclusion(verdict, fail_on), exit_code(verdict, fail_on)) == expected


@pytest.mark.parametrize(("fail_on", "code"), [("stagnation", 1), ("blocked", 1), ("never", 0)])
def test_run_honours_fail_on(repo: Repo, cli: Callable[..., CliResult], fail_on: str, code: int) -> None:
    repo.commit("base", {"README.md": "shop\n"})
    result = cli("run", "--repo", repo.path, "--fail-on", fail_on, "--format", "json")
    assert '"verdict": "BLOCKED"' in result.out  # no type checker, no test evidence: nothing proven
    assert result.code == code
