"""What a verdict means for the check run and the step, in one place: the action, `run` and
`publish` all answer with the same conclusion and exit code for the same verdict and `fail-on`."""

from __future__ import annotations

from evidence_gate.ledger import Verdict
from evidence_gate.settings import FailOn


def conclusion(verdict: Verdict, fail_on: FailOn) -> str:
    """The check run's conclusion. STAGNATION fails unless `fail-on` is `blocked` or `never`."""
    if verdict is Verdict.PASS:
        return "success"
    if fail_on is FailOn.NEVER or (verdict is Verdict.STAGNATION and fail_on is FailOn.BLOCKED):
        return "neutral"
    return "failure"


def exit_code(verdict: Verdict, fail_on: FailOn) -> int:
    """The step (or command) fails exactly when the check run's conclusion is a failure."""
    return 1 if conclusion(verdict, fail_on) == "failure" else 0
