"""Which type checker and linter a project uses, chosen by the adapter table's `tools` from the
project's own files: the first candidate with evidence, taking the evidence in order (a config file
or section, then a dev dependency, then a CI step that runs it), else the slot's default, else none.

The files are the head's, read like stack detection (never through a link), but the commands are
the table's: a pull request can only pick among the tools the table names, never write a command.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from evidence_gate.model import ToolChoice
from evidence_gate.stacks.commands import CommandTemplate, ScriptCommand
from evidence_gate.stacks.rules import Rule, evaluate
from evidence_gate.stacks.tree import DirectoryView, Warnings, walk

EVIDENCE_KINDS = ("config", "dependency", "ci")  # the order evidence is taken in
SOURCE_DEPTH = 8  # how deep below the project's root `without_sources` looks


@dataclass(frozen=True, kw_only=True)
class Evidence:
    says: str  # how the reason names it: `[flake8] in setup.cfg`; `{path}` is the file that matched
    when: Rule


@dataclass(frozen=True, kw_only=True)
class Candidate:
    tool: str  # `flake8`
    command: CommandTemplate | ScriptCommand
    evidence: Mapping[str, tuple[Evidence, ...]]  # by kind, of EVIDENCE_KINDS


@dataclass(frozen=True, kw_only=True)
class Exemption:
    """When the language has no such tool for these sources: NOT_APPLICABLE, saying why."""

    says: str
    when: Rule | None  # None: always, unless a source below is one of `without_sources`
    without_sources: tuple[str, ...]  # suffixes (`.ts`) of the sources that need the tool
    # suffixes of files that end like a source but are none (`.d.ts`: declarations a JavaScript package ships)
    not_sources: tuple[str, ...] = ()


@dataclass(frozen=True, kw_only=True)
class ToolSlot:
    candidates: tuple[Candidate, ...]
    default: str | None  # the candidate taken without evidence
    not_applicable: Exemption | None
    none: str | None  # without evidence and default: NOT_APPLICABLE with this justification; None: MISSING


Describe = Callable[[CommandTemplate | ScriptCommand], str]


def choose(
    slot: ToolSlot, view: DirectoryView, prune: frozenset[str], describe: Describe
) -> tuple[ToolChoice, Candidate | None]:
    """The tool of one check for the project at `view`, and the candidate it is (None: no tool)."""
    exempt = slot.not_applicable
    if exempt is not None and _exempt(exempt, view, prune):
        return ToolChoice(tool=None, command=None, why=exempt.says, applies=False), None
    for kind in EVIDENCE_KINDS:
        for candidate in slot.candidates:
            for evidence in candidate.evidence.get(kind, ()):
                found = evaluate(evidence.when, view)
                if found is not None:
                    says = evidence.says.replace("{path}", found[0] if found else "")
                    return _chosen(candidate, f"{candidate.tool}: {says}", describe), candidate
    default = next((candidate for candidate in slot.candidates if candidate.tool == slot.default), None)
    if default is not None:
        return _chosen(default, f"{default.tool}: the default, no other is configured", describe), default
    if slot.none is not None:
        return ToolChoice(tool=None, command=None, why=slot.none, applies=False), None
    names = " or ".join(candidate.tool for candidate in slot.candidates)
    why = f"no {names} is configured: no config file, dev dependency or CI step names one"
    return ToolChoice(tool=None, command=None, why=why), None


def _chosen(candidate: Candidate, why: str, describe: Describe) -> ToolChoice:
    return ToolChoice(tool=candidate.tool, command=describe(candidate.command), why=why)


def _exempt(exempt: Exemption, view: DirectoryView, prune: frozenset[str]) -> bool:
    if exempt.when is not None and evaluate(exempt.when, view) is None:
        return False
    return not exempt.without_sources or not _has_sources(view, exempt, prune)


def _has_sources(view: DirectoryView, exempt: Exemption, prune: frozenset[str]) -> bool:
    """A file ending in one of `without_sources` (and in none of `not_sources`) below the project's
    root, outside the pruned folders (node_modules, build output) and the dot-folders; links are not
    followed."""
    for below in walk(view.base / view.rel, SOURCE_DEPTH, prune, Warnings()):
        for name, is_dir in below.names.items():
            if not is_dir and name.endswith(exempt.without_sources) and not name.endswith(exempt.not_sources):
                return True
    return False
