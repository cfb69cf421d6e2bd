"""How a new gate lands: one module (its pure `judge`, a payload type, a `GATE`), one registry
line and one partial template. Here a small gate written as the next ones will be: it judges the
diff's hunks from the shared facts, carries a typed payload and is laid out by its own partial,
with the pipeline, the ledger and the renderers untouched."""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from evidence_gate.effects import effects_for
from evidence_gate.facts import Facts, RunInputs
from evidence_gate.gates.gate import DataType, Gate, shared_facts
from evidence_gate.gates.registry import GATES
from evidence_gate.ledger.model import GateResult, GateVerdict
from evidence_gate.model import FileKind
from evidence_gate.pipeline import run_pipeline
from evidence_gate.render import render_comment
from evidence_gate.settings import Settings
from evidence_gate.stacks.table import default_table

from .conftest import Repo, local_environment


@dataclass(frozen=True, kw_only=True)
class Added:
    places: tuple[str, ...]  # path:line of each added TODO

    def document(self) -> dict[str, object]:
        return {"places": list(self.places)}


def judge(facts: Facts, settings: Settings) -> GateResult:
    """Does the change add a TODO to production code?"""
    if facts.change is None:
        return GateResult(id="todos", title="New TODOs", verdict=GateVerdict.NOT_APPLICABLE, headline="no change")
    places = tuple(
        f"{changed.path}:{line.number}"
        for changed in facts.change.of_kind(FileKind.PRODUCTION)
        for line in changed.added_lines
        if "TODO" in line.text
    )
    verdict = GateVerdict.FAIL if places else GateVerdict.PASS
    headline = f"{len(places)} TODO added" if places else "no TODO added"
    return GateResult(id="todos", title="New TODOs", verdict=verdict, headline=headline, data=Added(places=places))


SCHEMA = {"type": "object", "required": ["places"], "properties": {"places": {"type": "array"}}}
TODOS: Gate[Facts] = Gate(
    id="todos",
    title="New TODOs",
    gather=shared_facts,
    judge=judge,
    data=DataType(schema=SCHEMA, read=lambda document: Added(places=tuple(document["places"]))),
)
PARTIAL = "{% for place in gate.data.places %}- TODO at {{ place | md }}\n{% endfor %}"


def test_a_gate_is_a_module_a_registry_line_and_a_partial(repo: Repo, tmp_path: Path) -> None:
    base = repo.commit("base", {"pyproject.toml": "[project]\nname = 'shop'\n", "shop/cart.py": "X = 1\n"})
    head = repo.commit("todo", {"shop/cart.py": "X = 1\n# TODO: round the total\n"})
    settings = Settings(repo=repo.path, base=base, head=head, gates_off=("type-check", "lint"))
    effects = effects_for(repo.path, local_environment())
    registry: tuple[Gate[Any], ...] = (*GATES, TODOS)
    ledger = run_pipeline(settings, RunInputs(table=default_table()), effects, registry)
    todos = ledger.gate("todos")
    assert todos is not None
    assert (todos.verdict, todos.headline, todos.data) == (
        GateVerdict.FAIL,
        "1 TODO added",
        Added(places=("shop/cart.py:2",)),
    )
    templates = tmp_path / "templates"
    (templates / "gates").mkdir(parents=True)
    (templates / "gates" / "todos.md.j2").write_text(PARTIAL, encoding="utf-8")
    comment = render_comment(ledger, templates)
    assert "| — | New TODOs | — | 1 TODO added | ❌ FAIL |" in comment  # beside the numbered checks, with its icon
    assert "- TODO at shop/cart.py:2" in comment
    switched_off = replace(settings, gates_off=(*settings.gates_off, "todos"))
    off = run_pipeline(switched_off, RunInputs(table=default_table()), effects, registry).gate("todos")
    assert off is not None and off.verdict is GateVerdict.OFF
