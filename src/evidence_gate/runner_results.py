"""What the container takes from the runner step's ledger: only what needed the project's toolchain.

The runner step (run/action.yml) ran the pull request's code: the changed tests for test strength,
and the project's type checker, linter and smoke commands. Its ledger is a file in the workspace,
where that code (a daemon a test left, a test step before it) could have written too. So the
container judges again, itself, every gate that needs no project code (evidence, gate integrity,
coverage, scope, criteria, suppressions, references) from the git objects the event names, and
takes from the runner's ledger only the results it could not measure: those of `MEASURED_ON_RUNNER`,
each shown as measured on the runner. A runner ledger about another head or base, or made for
another check, is refused with its reason; a gate it lacks, or shows off or silent where this job's
settings do not allow it, fails or is unavailable here: never a pass the container cannot check.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from evidence_gate.errors import UsageError
from evidence_gate.gates.gate import Gate
from evidence_gate.gates.registry import GATES
from evidence_gate.ledger.catalog import gives
from evidence_gate.ledger.model import GateResult, GateVerdict, Ledger
from evidence_gate.model import PullRequest
from evidence_gate.settings import Settings

MEASURED_ON_RUNNER = frozenset({"type-check", "lint", "strength", "smoke"})
ON_THE_RUNNER = "measured on the runner"


def check_runner_ledger(ledger: Ledger, pull: PullRequest | None, sha: str, settings: Settings) -> None:
    """Refuse, with the reason, a runner ledger that is not about this run: another head commit, a
    pull request's ledger without its base or with another one, another check name."""
    expected_head = pull.head_sha if pull else sha
    if ledger.head is None:
        raise UsageError("the runner's ledger names no head commit, so it cannot be tied to this run; refusing it")
    if ledger.head != expected_head:
        raise UsageError(
            f"the runner's ledger is about {ledger.head[:12]}, not {expected_head[:12]}: refusing it"
            " (run the runner step on the event's head SHA)"
        )
    if pull is not None and ledger.base is None:
        raise UsageError(
            "the runner's ledger has no base commit, so its checks saw no change: refusing it"
            " (the runner step takes the base SHA from the pull request's event)"
        )
    if pull is not None and ledger.base != pull.base_sha:
        raise UsageError(
            f"the runner's ledger compares with {str(ledger.base)[:12]}, not the pull request's base"
            f" {pull.base_sha[:12]}: refusing it"
        )
    if ledger.check_name != settings.check_name:
        raise UsageError(
            f"the runner's ledger was made for the check {ledger.check_name!r}, not {settings.check_name!r};"
            " refusing it"
        )


def check_digest(path: Path, expected: str) -> None:
    """The ledger file is the one the runner step wrote: its SHA-256, from the step's output, must match."""
    wanted = expected.strip().lower()
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    if digest != wanted:
        raise UsageError(
            "the runner's ledger was changed after the runner step wrote it (its SHA-256 is not the step's"
            " `ledger-sha256` output): refusing it"
        )


def with_runner_results(ledger: Ledger, settings: Settings, gates: Sequence[Gate[Any]] = GATES) -> list[Gate[Any]]:
    """The registry's gates, those measured on the runner replaced by the runner's results."""
    return [_taken(gate, ledger, settings) if gate.id in MEASURED_ON_RUNNER else gate for gate in gates]


def _taken(gate: Gate[Any], ledger: Ledger, settings: Settings) -> Gate[GateResult]:
    found = ledger.gate(gate.id)
    result = _trusted(gate, found, settings)
    return Gate(id=gate.id, title=gate.title, gather=lambda *_: result, judge=lambda taken, _settings: taken)


def _trusted(gate: Gate[Any], found: GateResult | None, settings: Settings) -> GateResult:
    if found is None:
        why = "the runner's ledger has no result for this check (was the runner step's configuration the same?)"
        return GateResult(id=gate.id, title=gate.title, verdict=GateVerdict.UNAVAILABLE, headline=why)
    if found.verdict is GateVerdict.OFF:
        why = "the runner's ledger shows this check switched off, and this job's configuration does not switch it off"
        return replace(found, verdict=GateVerdict.FAIL, headline=why)
    if found.verdict in (GateVerdict.INFO, GateVerdict.UNVERIFIABLE) and not gives(gate.id, found.verdict):
        why = f"the runner's ledger shows this check as {found.verdict}, a verdict it never gives"
        return replace(found, verdict=GateVerdict.FAIL, headline=why)
    return replace(found, title=gate.title, headline=f"{found.headline} ({ON_THE_RUNNER})")
