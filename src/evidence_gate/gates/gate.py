"""What a gate is: an id, a title, a pure `judge`, and where it needs one, a `gather` step.

`gather(facts, settings, effects, earlier)` reads what only this gate needs, beyond the facts every
gate shares (the tags in the test sources, a run of the changed tests in a worktree of its own),
through the effects passed in, and returns the gate's own facts value. `earlier` holds the results
of the gates judged before it, by id: coverage weighs its lines by what strength found. `judge(gate_facts,
settings)` decides, from values only, so a test hands it literal facts. A gate switched off by the
configuration (`gates-off`) is neither gathered nor judged: it is shown as off.

Its payload (`GateResult.data`) is a typed value of the gate's own, `data`: a dataclass under
ledger/payloads/, declared once (ledger/payload.py derives its JSON Schema, its reader and its
writer), and named by the gate's entry in the catalog (ledger/catalog.py), which is all a reader of
ledgers needs. Its partial template, `templates/gates/<id>.md.j2`, lays the payload out wherever the
gate is shown.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Generic, TypeVar

from evidence_gate.effects import Effects
from evidence_gate.facts import Facts
from evidence_gate.ledger.catalog import stage_skip
from evidence_gate.ledger.model import GateData, GateResult, GateVerdict
from evidence_gate.settings import Settings

F = TypeVar("F")


Earlier = Mapping[str, GateResult]
NONE_EARLIER: Earlier = MappingProxyType({})


def shared_facts(facts: Facts, settings: Settings, effects: Effects, earlier: Earlier) -> Facts:
    """The `gather` of a gate that judges the shared facts alone."""
    return facts


@dataclass(frozen=True, kw_only=True)
class Gate(Generic[F]):
    id: str
    title: str
    gather: Callable[[Facts, Settings, Effects, Earlier], F]
    judge: Callable[[F, Settings], GateResult]
    data: type[GateData] | None = None  # its payload's type: the catalog's entry names the same

    def result(self, facts: Facts, settings: Settings, effects: Effects, earlier: Earlier = NONE_EARLIER) -> GateResult:
        if self.id in settings.gates_off:
            return GateResult(
                id=self.id,
                title=self.title,
                verdict=GateVerdict.OFF,
                headline=f"switched off {settings.gates_off_by}",
            )
        skipped = stage_skip(self.id, settings.stage)
        if skipped is not None:
            return GateResult(id=self.id, title=self.title, verdict=GateVerdict.NOT_APPLICABLE, headline=skipped)
        return self.judge(self.gather(facts, settings, effects, earlier), settings)
