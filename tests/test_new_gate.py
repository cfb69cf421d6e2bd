"""How a new gate lands (docs/gates.md: Adding a gate): its payload declared once (a dataclass, in
a module under ledger/payloads/), one catalog entry, one module (its pure `judge`, its `GATE`), one
registry line and one partial template. Here a small gate written as the next ones will be: it
judges the diff's hunks from the shared facts, carries a typed payload that goes through the ledger
and back, and is laid out by its own partial, with the pipeline, the ledger and the renderers
untouched."""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from evidence_gate.effects import effects_for
from evidence_gate.facts import Facts, RunInputs
from evidence_gate.gates.gate import Gate, shared_facts
from evidence_gate.gates.registry import GATES
from evidence_gate.ledger.catalog import Entry, with_entries
from evidence_gate.ledger.document import from_document, ledger_json
from evidence_gate.ledger.model import GateResult, GateVerdict
from evidence_gate.ledger.payload import spec
from evidence_gate.model import FileKind
from evidence_gate.pipeline import run_pipeline
from evidence_gate.render import render_comment
from evidence_gate.settings import Settings
from evidence_gate.stacks.table import default_table

from .conftest import Repo, local_environment


@dataclass(frozen=True, kw_only=True)
class Added:
    """The payload, declared once: its schema, reader and writer are derived (ledger/payload.py)."""

    places: tuple[str, ...] = field(metadata=spec(schema={"maxItems": 100}))  # path:line of each added TODO


# Its catalog entry: what a reader of ledgers knows of it. A gate of the tool's own is a line of
# `ledger/catalog.py`'s ENTRIES; this one joins the catalog passed to the ledger's reader.
ENTRY = Entry(id="todos", title="New TODOs", payload=Added)


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


TODOS: Gate[Facts] = Gate(id="todos", title="New TODOs", gather=shared_facts, judge=judge, data=Added)
PARTIAL = "{% for place in gate.data.places %}- TODO at {{ place | md }}\n{% endfor %}"


def test_a_gate_is_a_payload_a_catalog_entry_a_module_a_registry_line_and_a_partial(repo: Repo, tmp_path: Path) -> None:
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
    # through the ledger and back: written by its writer, read by its reader with the entry
    document = json.loads(ledger_json(ledger))
    (written,) = (gate["data"] for gate in document["gates"] if gate["id"] == "todos")
    assert written == {"places": ["shop/cart.py:2"]}
    read_back = from_document(document, "the ledger", with_entries(ENTRY)).gate("todos")
    assert read_back is not None and read_back.data == todos.data
    # a reader without the entry keeps the gate and drops a payload it does not know
    unknown = from_document(document, "the ledger").gate("todos")
    assert unknown is not None and (unknown.verdict, unknown.data) == (GateVerdict.FAIL, None)
    templates = tmp_path / "templates"
    (templates / "gates").mkdir(parents=True)
    (templates / "gates" / "todos.md.j2").write_text(PARTIAL, encoding="utf-8")
    comment = render_comment(ledger, templates)
    assert "| — | New TODOs | — | 1 TODO added | ❌ FAIL |" in comment  # beside the numbered checks, with its icon
    assert "- TODO at shop/cart.py:2" in comment
    switched_off = replace(settings, gates_off=(*settings.gates_off, "todos"))
    off = run_pipeline(switched_off, RunInputs(table=default_table()), effects, registry).gate("todos")
    assert off is not None and off.verdict is GateVerdict.OFF
