"""Imports only run down the layers docs/architecture.md lists: a module imports its own layer and
the layers below. Every import counts, a lazy one inside a function too, and every module must be
placed, so a new one is placed on purpose."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from dataclasses import dataclass
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "src" / "evidence_gate"
ARCHITECTURE = ROOT / "docs" / "architecture.md"

# (importer, imported): why it may run up. At most three, each with its reason.
EXCEPTIONS: dict[tuple[str, str], str] = {}
MAX_EXCEPTIONS = 3


@dataclass(frozen=True)
class Layer:
    rank: int  # 0 is the lowest
    name: str
    members: tuple[str, ...]  # `git`, or `gates/` for a package


@cache
def layers() -> tuple[Layer, ...]:
    """The table under `<!-- layers: highest first -->`: its rows, the lowest first."""
    text = ARCHITECTURE.read_text(encoding="utf-8")
    _, found, table = text.partition("<!-- layers: highest first -->")
    assert found, "docs/architecture.md has no layer table"
    rows = []
    for line in table.splitlines()[3:]:  # past the marker, the header and its rule
        if not line.startswith("|"):
            break
        name, modules = (cell.strip() for cell in line.strip("|").split("|")[:2])
        rows.append((name, tuple(re.findall(r"`([^`]+)`", modules))))
    assert len(rows) >= 5, "the layer table is too short to be the architecture's"
    return tuple(Layer(rank, name, members) for rank, (name, members) in enumerate(reversed(rows)))


def module_names() -> dict[str, Path]:
    """`gates.coverage`, `ledger.model`, `cli`, … for every module of the package."""
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE).with_suffix("").parts
        if parts[-1] == "__init__" and len(parts) > 1:
            parts = parts[:-1]
        found[".".join(parts)] = path
    assert len(found) > 100, "the package's modules were not found"
    return found


def layer_of(module: str) -> Layer | None:
    for layer in layers():
        for member in layer.members:
            if member.endswith("/") and (module + ".").startswith(member[:-1] + "."):
                return layer
            if module == member:
                return layer
    return None


def imported(module: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The package's modules `module` imports, lazily or not, as dotted names without the package."""
    is_package = path.name == "__init__.py"
    here = module.split(".") if is_package else module.split(".")[:-1]
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = here[: len(here) - node.level + 1]
                target = ".".join(["evidence_gate", *base, *([node.module] if node.module else [])])
            else:
                target = node.module or ""
            targets = [f"{target}.{alias.name}" for alias in node.names] + [target]
        else:
            continue
        for target in targets:
            if target == "evidence_gate" or not target.startswith("evidence_gate."):
                continue
            name = target.removeprefix("evidence_gate.")
            while name and name not in known:  # `ledger.model.Ledger` is `ledger.model`
                name = name.rpartition(".")[0]
            if name:
                names.add(name)
    return names


def test_the_layer_table_places_every_module() -> None:
    unplaced = [module for module in module_names() if layer_of(module) is None]
    assert not unplaced, f"docs/architecture.md's layer table does not place {unplaced}"


def test_imports_only_run_down_the_layers() -> None:
    known = module_names()
    upward = []
    for module, path in known.items():
        own = layer_of(module)
        assert own is not None
        for name in sorted(imported(module, path, known)):
            target = layer_of(name)
            assert target is not None
            if target.rank > own.rank and (module, name) not in EXCEPTIONS:
                upward.append(f"{module} ({own.name}) imports {name} ({target.name})")
    assert not upward, "imports that run up a layer:\n" + "\n".join(upward)


def test_the_exceptions_are_few_named_and_still_needed() -> None:
    assert len(EXCEPTIONS) <= MAX_EXCEPTIONS
    known = module_names()
    for (module, name), reason in EXCEPTIONS.items():
        assert len(reason) > 20, f"{module} -> {name} needs its reason"
        assert name in imported(module, known[module], known), f"{module} no longer imports {name}: drop it"


def test_the_walk_sees_lazy_and_relative_imports(tmp_path: Path) -> None:
    """The walker is not blind: an import inside a function counts, and so does a relative one."""
    known = {"gates.scope": tmp_path / "scope.py", "cli": tmp_path / "cli.py", "ledger.model": tmp_path / "m.py"}
    source = known["gates.scope"]
    source.write_text("def f():\n    from evidence_gate.cli import main\n\nfrom ..ledger.model import Ledger\n")
    assert imported("gates.scope", source, known) == {"cli", "ledger.model"}


def test_publishing_a_ledger_loads_no_gate_reader_of_tests_or_runner() -> None:
    """A fork's ledger is published in a `workflow_run` that holds a write token: the publisher must
    not load the code that judges, runs tests or starts processes."""
    probe = (
        "import sys, evidence_gate.github.publish\n"
        "print('\\n'.join(sorted(m for m in sys.modules if m.startswith("
        "('evidence_gate.gates', 'evidence_gate.strength', 'evidence_gate.runner')))))"
    )
    loaded = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, cwd=ROOT
    ).stdout.split()
    assert loaded == []


MAX_MODULE_LINES = 400


def test_no_module_is_over_400_lines() -> None:
    """A module longer than this holds two jobs: split it by them (docs/architecture.md)."""
    long = {
        module: lines
        for module, path in module_names().items()
        if (lines := len(path.read_text(encoding="utf-8").splitlines())) > MAX_MODULE_LINES
    }
    assert long == {}
