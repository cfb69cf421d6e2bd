"""What a verdict means for the check run and the step, in one place: the action, `run` and
`publish` all answer with the same conclusion and exit code for the same verdict and `fail-on`."""

from __future__ import annotations

from evidence_gate.ledger.model import Verdict
from evidence_gate.settings import FailOn


def conclusion(verdict: Verdict, fail_on: FailOn) -> str:
    """The check run's conclusion. BLOCKED and STAGNATION (a BLOCKED that repeated) fail unless
    `fail-on` is `never`."""
    if verdict is Verdict.PASS:
        return "success"
    if fail_on is FailOn.NEVER:
        return "neutral"
    return "failure"


def exit_code(verdict: Verdict, fail_on: FailOn) -> int:
    """The step (or command) fails exactly when the check run's conclusion is a failure."""
    return 1 if conclusion(verdict, fail_on) == "failure" else 0
