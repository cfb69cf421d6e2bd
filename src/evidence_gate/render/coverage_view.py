"""The coverage gate's decision and the author's choices by label, as the pull request body's
section shows them: in every form of it, for they are what a reviewer must see. Fitting may drop
the gate's body (its diagram, its proposals) and its view; these are read from the ledger itself,
and only the paths listed under a choice go, last of all, and are then counted.

The payload's `choices` (the coverage gate's, `gates/coverage.py`) is read by name, as the Results
row reads a payload's `current`: rendering imports no gate.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from evidence_gate.escaping import _Untrusted
from evidence_gate.ledger.model import Ledger
from evidence_gate.wording import plural

COVERAGE = "coverage"  # the coverage gate's id


@dataclass(frozen=True, kw_only=True)
class UncoveredView:
    path: _Untrusted
    lines: _Untrusted  # `line 3`, `lines 14-15`


@dataclass(frozen=True, kw_only=True)
class ChoiceView:
    label: _Untrusted  # coverage:accept-risk, coverage:intentional or coverage:override
    effect: _Untrusted  # what it did to the decision, in the decision's words; or why it did nothing
    paths: list[UncoveredView]  # what a `coverage:intentional` that decided leaves uncovered
    notes: list[str]  # "… N more intentionally uncovered paths": past the rows shown, or dropped to fit


@dataclass(frozen=True, kw_only=True)
class CoverageView:
    line: _Untrusted  # the decision's message, as the gate's headline holds it
    choices: list[ChoiceView]  # one per coverage label the pull request carries


def coverage_view(
    ledger: Ledger, clip: Callable[[str], _Untrusted], rows: int | None, show_paths: Callable[[int], bool]
) -> CoverageView | None:
    """The coverage gate's line and choices, when the ledger holds its payload (it has none when the
    gate was skipped, unavailable or off). `clip` makes a text untrusted, cut to the output's inline
    size; `rows` caps the paths listed; `show_paths(index of the gate)` is false once fitting
    dropped them."""
    for index, gate in enumerate(ledger.gates):
        if gate.id != COVERAGE or gate.data is None:
            continue
        found: Sequence[Any] = getattr(gate.data, "choices", ())
        return CoverageView(
            line=clip(gate.headline),
            choices=[_choice(choice, clip, rows, show_paths(index)) for choice in found],
        )
    return None


def _choice(choice: Any, clip: Callable[[str], _Untrusted], rows: int | None, show: bool) -> ChoiceView:
    paths: Sequence[Any] = choice.paths
    shown: Sequence[Any] = paths[:rows] if show else ()
    hidden = len(paths) - len(shown)
    return ChoiceView(
        label=clip(choice.label),
        effect=clip(choice.effect),
        paths=[UncoveredView(path=clip(row.path), lines=clip(row.lines)) for row in shown],
        notes=[f"… {plural(hidden, 'more intentionally uncovered path')}"] if hidden else [],
    )
