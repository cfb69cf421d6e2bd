"""Which toolchains a tree uses, from its manifests: the adapter table's detection rules applied to
the root and up to `max_depth` levels below it, reading only the files a rule asks about."""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path, PurePosixPath

from evidence_gate.errors import UsageError
from evidence_gate.model import Detection, StackMatch, ToolChoice
from evidence_gate.stacks.commands import (
    LOCKFILES,
    PACKAGE_MANAGERS,
    CommandTemplate,
    ScriptCommand,
    SlotValue,
    script_command,
)
from evidence_gate.stacks.rules import evaluate, evaluate_any
from evidence_gate.stacks.table import Adapter, AdapterTable, Command
from evidence_gate.stacks.tools import choose
from evidence_gate.stacks.tree import DirectoryView, Warnings, list_directory, open_root, walk

_PACKAGE_MANAGER_FIELD = re.compile(r"^(?P<name>[a-z]+)@")


def detect(path: Path, table: AdapterTable) -> Detection:
    """Every adapter that matches somewhere in the tree, and the primary one.

    The primary is the match nearest the root, then the one with the lowest `order`. An adapter that
    `supersedes` another removes that one's matches at its root and below (an Android app is not
    also reported as a plain JVM build). Matches of one adapter nested below another match of the
    same adapter are folded into it, their manifests kept as evidence.
    """
    base = open_root(path)
    warnings = Warnings()
    views: dict[str, DirectoryView] = {}
    found: list[tuple[Adapter, DirectoryView, tuple[str, ...]]] = []
    candidates = [adapter for adapter in table.adapters.values() if adapter.detect]
    for view in walk(base, table.max_depth, table.prune_dirs, warnings):
        views[view.rel] = view
        for adapter in candidates:
            evidence = evaluate_any(adapter.detect, view)
            if evidence is not None:
                found.append((adapter, view, evidence))

    kept = [
        (adapter, view, evidence)
        for adapter, view, evidence in found
        if not any(
            adapter.id in other.supersedes and _within(view.rel, other_view.rel) for other, other_view, _ in found
        )
    ]
    folded: dict[tuple[str, str], list[str]] = {}
    roots: dict[tuple[str, str], tuple[Adapter, DirectoryView]] = {}
    for adapter, view, evidence in kept:
        outer = next(
            (key for key in roots if key[0] == adapter.id and key[1] != view.rel and _within(view.rel, key[1])),
            None,
        )
        key = outer or (adapter.id, view.rel)
        roots.setdefault(key, (adapter, view))
        folded.setdefault(key, []).extend(evidence)

    matches = sorted(
        (
            _match(adapter, view, tuple(folded[key]), _ancestors(view.rel, views), table.prune_dirs)
            for key, (adapter, view) in roots.items()
        ),
        key=lambda match: (match.depth, match.order, match.root, match.adapter_id),
    )
    unknown = StackMatch(
        adapter_id=table.unknown.id,
        stack_class=table.unknown.stack_class,
        language=table.unknown.language,
        root=".",
        depth=0,
        order=table.unknown.order,
        evidence=(),
    )
    return Detection(primary=matches[0] if matches else unknown, matches=tuple(matches), warnings=tuple(warnings.lines))


def command_for(
    table: AdapterTable,
    adapter_id: str,
    name: str,
    repo: Path,
    root: str = ".",
    slots: Mapping[str, SlotValue] | None = None,
) -> str:
    """The shell command `name` of an adapter for the project at `repo/root`, slots filled in.

    Variants and the package manager are resolved against that directory; slot values are
    checked and quoted (see commands.py).
    """
    adapter = table.get(adapter_id)
    base = open_root(repo)
    warnings = Warnings()
    chain: list[DirectoryView] = []
    for rel in _ancestor_paths(root):
        view = list_directory(base, rel, warnings)
        if view is None:
            raise UsageError(f"{rel}: cannot list this directory")
        chain.append(view)
    manager = _package_manager(chain[-1], chain[:-1])
    commands = _resolve(adapter, chain[-1], chain[:-1], _tools(adapter, chain[-1], manager, table.prune_dirs))
    if name not in commands:
        available = ", ".join(sorted(commands)) or "none"
        raise UsageError(f"stack {adapter_id!r} has no {name!r} command here (available: {available})")
    return _render(commands[name], manager, slots or {})


def _match(
    adapter: Adapter,
    view: DirectoryView,
    evidence: tuple[str, ...],
    ancestors: list[DirectoryView],
    prune: frozenset[str],
) -> StackMatch:
    manager = _package_manager(view, ancestors)
    tools = _tools(adapter, view, manager, prune)
    commands = _resolve(adapter, view, ancestors, tools)
    return StackMatch(
        adapter_id=adapter.id,
        stack_class=adapter.stack_class,
        language=adapter.language,
        root=view.rel,
        depth=view.depth,
        order=adapter.order,
        evidence=tuple(dict.fromkeys(evidence)),
        commands={name: _describe(command, manager) for name, command in commands.items()},
        tools={name: choice for name, (choice, _) in tools.items()},
    )


def _tools(
    adapter: Adapter, view: DirectoryView, manager: str, prune: frozenset[str]
) -> dict[str, tuple[ToolChoice, Command | None]]:
    """Each `tools` slot's choice for the project at `view`, with the command it chose."""
    chosen: dict[str, tuple[ToolChoice, Command | None]] = {}
    for name, slot in adapter.tools.items():
        choice, candidate = choose(slot, view, prune, lambda command: _describe(command, manager))
        chosen[name] = (choice, None if candidate is None else candidate.command)
    return chosen


def _resolve(
    adapter: Adapter,
    view: DirectoryView,
    ancestors: list[DirectoryView],
    tools: Mapping[str, tuple[ToolChoice, Command | None]],
) -> dict[str, Command]:
    """The adapter's commands with the first matching variant applied and the tools chosen; a
    package-script command whose script the package.json does not define is left out (there is
    nothing to run)."""
    commands = dict(adapter.commands)
    commands.update({name: command for name, (_, command) in tools.items() if command is not None})
    for variant in adapter.variants:
        if evaluate(variant.when, view) is not None:
            commands.update(variant.commands)
            break
    scripts = _scripts(view)
    return {
        name: command
        for name, command in commands.items()
        if not isinstance(command, ScriptCommand) or command.script in scripts
    }


def _scripts(view: DirectoryView) -> set[str]:
    if "package.json" not in view.names:
        return set()
    document = view.read_json("package.json")
    scripts = document.get("scripts") if isinstance(document, dict) else None
    return {key for key in scripts if isinstance(key, str)} if isinstance(scripts, dict) else set()


def _package_manager(view: DirectoryView, ancestors: list[DirectoryView]) -> str:
    """npm, pnpm, yarn or bun: `packageManager` in package.json first, then the nearest lockfile."""
    for directory in [view, *reversed(ancestors)]:
        if "package.json" in directory.names:
            document = directory.read_json("package.json")
            declared = document.get("packageManager") if isinstance(document, dict) else None
            found = _PACKAGE_MANAGER_FIELD.match(declared) if isinstance(declared, str) else None
            if found and found.group("name") in PACKAGE_MANAGERS:
                return found.group("name")
        for lockfile, manager in LOCKFILES:
            if lockfile in directory.names:
                return manager
    return "npm"


def _render(command: Command, manager: str, slots: Mapping[str, SlotValue]) -> str:
    if isinstance(command, CommandTemplate):
        return command.render(slots)
    return script_command(manager, command, command.args.render(slots) if command.args else None)


def _describe(command: Command, manager: str) -> str:
    """The command as a template, slots still in braces, for display."""
    if isinstance(command, CommandTemplate):
        return command.source
    return script_command(manager, command, command.args.source if command.args else None)


def _within(rel: str, outer: str) -> bool:
    return outer == "." or rel == outer or rel.startswith(outer + "/")


def _ancestor_paths(rel: str) -> list[str]:
    """`a/b` -> [".", "a", "a/b"]."""
    if rel in (".", ""):
        return ["."]
    parts = PurePosixPath(rel).parts
    return ["."] + ["/".join(parts[: index + 1]) for index in range(len(parts))]


def _ancestors(rel: str, views: Mapping[str, DirectoryView]) -> list[DirectoryView]:
    return [views[path] for path in _ancestor_paths(rel)[:-1] if path in views]
