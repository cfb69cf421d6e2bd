"""The stack adapter table: loaded from adapters.yaml, validated, and compiled once.

Everything that can be wrong with the table is found here, at load: a schema violation, a regex
that does not compile, a reference pattern without its `ref` group, a template with an unknown
slot. Each error names the adapter and the field, so a bad edit fails fast and says where.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

import pathspec

from evidence_gate.documents import schema_errors, shipped_table, table_yaml
from evidence_gate.errors import ConfigError, UsageError
from evidence_gate.stacks.commands import CommandTemplate, ScriptCommand, parse_template
from evidence_gate.stacks.rules import GLOB_CHARS, AllRule, AnyRule, FileRule, JsonKeys, JsonValue, NotRule, Rule
from evidence_gate.stacks.tools import EVIDENCE_KINDS, Candidate, Evidence, Exemption, ToolSlot

Command = CommandTemplate | ScriptCommand
COMMAND_NAMES = ("build", "test", "test_file", "test_module", "test_names", "lint", "typecheck")


@dataclass(frozen=True, kw_only=True)
class Markers:
    build_success: tuple[re.Pattern[str], ...]
    build_failure: tuple[re.Pattern[str], ...]
    test_success: tuple[re.Pattern[str], ...]
    test_failure: tuple[re.Pattern[str], ...]
    skipped: tuple[re.Pattern[str], ...]
    load_error: tuple[re.Pattern[str], ...]
    exit_marker: re.Pattern[str]
    # a test binary's run, from an opening line to its closing one: load-error lines inside are its output
    reported_opens: tuple[re.Pattern[str], ...] = ()
    reported_closes: tuple[re.Pattern[str], ...] = ()


@dataclass(frozen=True, kw_only=True)
class PathPatterns:
    test: pathspec.GitIgnoreSpec
    snapshot: pathspec.GitIgnoreSpec
    gate_config: pathspec.GitIgnoreSpec
    helper: pathspec.GitIgnoreSpec
    data: pathspec.GitIgnoreSpec


@dataclass(frozen=True, kw_only=True)
class InlineTestRules:
    """Where a stack's source files hold their own tests (Rust's `#[cfg(test)]` modules): the files
    that may, the reader that finds their test items, and the attributes that mark one."""

    reader: str  # a reader of inline_tests.py: `rust`
    files: pathspec.GitIgnoreSpec
    attributes: tuple[re.Pattern[str], ...]  # matched in full against an attribute's text, spaces removed
    functions: tuple[re.Pattern[str], ...]  # those that make a function a test (its name runs it)


@dataclass(frozen=True, kw_only=True)
class TruthSources:
    globs: pathspec.GitIgnoreSpec
    patterns: tuple[str, ...]  # the globs as written (check 9 matches them at any depth)
    references: tuple[re.Pattern[str], ...]


@dataclass(frozen=True, kw_only=True)
class Variant:
    when: Rule
    commands: Mapping[str, Command]


@dataclass(frozen=True, kw_only=True)
class Adapter:
    id: str
    title: str
    stack_class: str
    language: str
    order: int
    supersedes: tuple[str, ...]
    detect: tuple[Rule, ...]
    commands: Mapping[str, Command]
    tools: Mapping[str, ToolSlot]  # the commands chosen from the project's files: typecheck, lint
    variants: tuple[Variant, ...]
    markers: Markers
    parsers: tuple[str, ...]
    paths: PathPatterns
    truth_sources: TruthSources | None
    inline_tests: InlineTestRules | None = None


@dataclass(frozen=True, kw_only=True)
class AdapterTable:
    adapters: Mapping[str, Adapter]
    prune_dirs: frozenset[str]
    max_depth: int
    ci: pathspec.GitIgnoreSpec
    gate_config: pathspec.GitIgnoreSpec
    docs: pathspec.GitIgnoreSpec
    dependency: pathspec.GitIgnoreSpec

    def get(self, adapter_id: str) -> Adapter:
        """The adapter by id; a misspelt id is a usage error, never a silent fallback."""
        try:
            return self.adapters[adapter_id]
        except KeyError:
            known = ", ".join(sorted(self.adapters))
            raise UsageError(f"unknown stack {adapter_id!r} (known: {known})") from None

    @property
    def unknown(self) -> Adapter:
        return self.adapters["unknown"]


def _resource(name: str) -> str:
    return resources.files("evidence_gate.stacks").joinpath(name).read_text(encoding="utf-8")


@cache
def default_table() -> AdapterTable:
    """The table shipped with the package."""
    return _compile(shipped_table("evidence_gate.stacks", "adapters.yaml"), "adapters.yaml")


def load_table(path: Path) -> AdapterTable:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise ConfigError(f"{path}: cannot read the adapter table ({error})") from error
    return load_table_text(text, str(path))


def load_table_text(text: str, source: str) -> AdapterTable:
    document = table_yaml(text, source)
    errors = schema_errors(json.loads(_resource("adapters.schema.json")), document)
    if errors:
        first = errors[0]
        raise ConfigError(f"{source}: {_where(document, list(first.absolute_path))}: {first.message}")
    return _compile(document, source)


def _where(document: Any, path: list[str | int]) -> str:
    """`adapter 'go': markers.test.success[1]` rather than a bare JSON path."""
    if len(path) >= 2 and path[0] == "adapters" and isinstance(path[1], int):
        adapters = document.get("adapters", []) if isinstance(document, dict) else []
        entry = adapters[path[1]] if path[1] < len(adapters) else {}
        name = entry.get("id") if isinstance(entry, dict) else None
        label = f"adapter {name!r}" if isinstance(name, str) else f"adapters[{path[1]}]"
        return f"{label}: {_dotted(path[2:]) or '(the adapter)'}"
    return _dotted(path) or "(top level)"


def _dotted(path: list[str | int]) -> str:
    text = ""
    for part in path:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else part)
    return text


class _Compiler:
    """Compiles one adapter's fields, prefixing every error with the adapter and the field."""

    def __init__(self, source: str, label: str) -> None:
        self.prefix = f"{source}: {label}"

    def regex(self, pattern: str, field: str, group: str | None = None) -> re.Pattern[str]:
        try:
            compiled = re.compile(pattern, re.MULTILINE)
        except re.error as error:
            raise ConfigError(f"{self.prefix}: {field}: bad regex {pattern!r} ({error})") from error
        if group and group not in compiled.groupindex:
            raise ConfigError(f"{self.prefix}: {field}: {pattern!r} lacks the named group (?P<{group}>...)")
        return compiled

    def regexes(self, patterns: list[str], field: str) -> tuple[re.Pattern[str], ...]:
        return tuple(self.regex(pattern, f"{field}[{index}]") for index, pattern in enumerate(patterns))

    def globs(self, patterns: list[str], field: str) -> pathspec.GitIgnoreSpec:
        try:
            return pathspec.GitIgnoreSpec.from_lines(patterns)
        except (ValueError, TypeError) as error:
            raise ConfigError(f"{self.prefix}: {field}: bad path pattern ({error})") from error

    def rule(self, raw: dict[str, Any], field: str) -> Rule:
        if "all" in raw:
            return AllRule(rules=tuple(self.rule(r, f"{field}.all[{i}]") for i, r in enumerate(raw["all"])))
        if "any" in raw:
            return AnyRule(rules=tuple(self.rule(r, f"{field}.any[{i}]") for i, r in enumerate(raw["any"])))
        if "not" in raw:
            return NotRule(rule=self.rule(raw["not"], f"{field}.not"))
        contains = raw.get("contains")
        keys = raw.get("json_keys")
        value = raw.get("json_value")
        if GLOB_CHARS.search(raw["file"].rstrip("/").rpartition("/")[0]):
            raise ConfigError(
                f"{self.prefix}: {field}.file: {raw['file']!r}: only the last part of a path may be a glob"
            )
        return FileRule(
            pattern=raw["file"],
            contains=self.regex(contains, f"{field}.contains") if contains else None,
            json_keys=(
                JsonKeys(paths=tuple(keys["in"]), match=self.regex(keys["match"], f"{field}.json_keys.match"))
                if keys
                else None
            ),
            json_value=(
                JsonValue(at=value["at"], match=self.regex(value["match"], f"{field}.json_value.match"))
                if value
                else None
            ),
        )

    def commands(self, raw: dict[str, Any], field: str) -> dict[str, Command]:
        compiled: dict[str, Command] = {}
        for name, value in raw.items():
            where = f"{self.prefix}: {field}.{name}"
            if isinstance(value, str):
                compiled[name] = parse_template(value, where)
            else:
                args = value.get("args")
                compiled[name] = ScriptCommand(
                    script=value["script"],
                    args=parse_template(args, f"{where}.args") if args else None,
                    capture=value.get("capture", False),
                )
        return compiled

    def tools(self, raw: dict[str, Any], commands: Mapping[str, Command]) -> dict[str, ToolSlot]:
        slots: dict[str, ToolSlot] = {}
        for name, slot in raw.items():
            field = f"tools.{name}"
            if name in commands:
                raise ConfigError(f"{self.prefix}: {field}: commands.{name} is given too; the tools choose it")
            candidates = tuple(
                self.candidate(entry, f"{field}.candidates[{i}]") for i, entry in enumerate(slot["candidates"])
            )
            default = slot.get("default")
            if default is not None and default not in {candidate.tool for candidate in candidates}:
                raise ConfigError(f"{self.prefix}: {field}.default: no candidate {default!r}")
            exempt = slot.get("not_applicable")
            slots[name] = ToolSlot(
                candidates=candidates,
                default=default,
                not_applicable=(
                    Exemption(
                        says=exempt["says"],
                        when=self.rule(exempt["when"], f"{field}.not_applicable.when") if "when" in exempt else None,
                        without_sources=tuple(exempt.get("without_sources", ())),
                        not_sources=tuple(exempt.get("not_sources", ())),
                    )
                    if exempt
                    else None
                ),
                none=slot.get("none"),
            )
        return slots

    def candidate(self, raw: dict[str, Any], field: str) -> Candidate:
        return Candidate(
            tool=raw["tool"],
            command=self.commands({"command": raw["command"]}, field)["command"],
            evidence={
                kind: tuple(
                    Evidence(says=entry["says"], when=self.rule(entry["when"], f"{field}.{kind}[{i}].when"))
                    for i, entry in enumerate(raw.get(kind, ()))
                )
                for kind in EVIDENCE_KINDS
            },
        )


def _compile(document: dict[str, Any], source: str) -> AdapterTable:
    common = document["common"]
    top = _Compiler(source, "common")
    top.regex(common["exit_marker"], "exit_marker", group="code")
    adapters: dict[str, Adapter] = {}
    for raw in document["adapters"]:
        if raw["id"] in adapters:
            raise ConfigError(f"{source}: adapter {raw['id']!r}: id: defined twice")
        adapters[raw["id"]] = _compile_adapter(raw, common, source)
    if "unknown" not in adapters:
        raise ConfigError(f"{source}: adapters: the 'unknown' adapter is required")
    for adapter in adapters.values():
        for other in adapter.supersedes:
            if other not in adapters:
                raise ConfigError(f"{source}: adapter {adapter.id!r}: supersedes: no adapter {other!r}")
    return AdapterTable(
        adapters=adapters,
        prune_dirs=frozenset(common["prune_dirs"]),
        max_depth=common["max_depth"],
        ci=top.globs(common["paths"]["ci"], "paths.ci"),
        gate_config=top.globs(common["paths"]["gate_config"], "paths.gate_config"),
        docs=top.globs(common["paths"]["docs"], "paths.docs"),
        dependency=top.globs(common["paths"].get("dependency", []), "paths.dependency"),
    )


def _compile_adapter(raw: dict[str, Any], common: dict[str, Any], source: str) -> Adapter:
    c = _Compiler(source, f"adapter {raw['id']!r}")
    markers = raw["markers"]
    truth = raw.get("truth_sources")
    inline = raw.get("inline_tests")
    commands = c.commands(raw["commands"], "commands")
    for index, variant in enumerate(raw.get("variants", ())):
        chosen = sorted(set(variant["commands"]) & set(raw.get("tools", {})))
        if chosen:
            raise ConfigError(
                f"{source}: adapter {raw['id']!r}: variants[{index}].commands.{chosen[0]}: the tools choose it"
            )
    return Adapter(
        id=raw["id"],
        title=raw["title"],
        stack_class=raw["class"],
        language=raw["language"],
        order=raw["order"],
        supersedes=tuple(raw.get("supersedes", ())),
        detect=tuple(c.rule(rule, f"detect[{index}]") for index, rule in enumerate(raw["detect"])),
        commands=commands,
        tools=c.tools(raw.get("tools", {}), commands),
        variants=tuple(
            Variant(
                when=c.rule(variant["when"], f"variants[{index}].when"),
                commands=c.commands(variant["commands"], f"variants[{index}].commands"),
            )
            for index, variant in enumerate(raw.get("variants", ()))
        ),
        markers=Markers(
            build_success=c.regexes(markers["build"]["success"], "markers.build.success"),
            build_failure=c.regexes(markers["build"]["failure"], "markers.build.failure"),
            test_success=c.regexes(markers["test"]["success"], "markers.test.success"),
            test_failure=c.regexes(markers["test"]["failure"], "markers.test.failure"),
            skipped=c.regexes(markers["skipped"], "markers.skipped"),
            load_error=c.regexes(markers["load_error"], "markers.load_error"),
            exit_marker=c.regex(markers.get("exit_marker", common["exit_marker"]), "markers.exit_marker", "code"),
            reported_opens=c.regexes(markers.get("reported", {}).get("opens", []), "markers.reported.opens"),
            reported_closes=c.regexes(markers.get("reported", {}).get("closes", []), "markers.reported.closes"),
        ),
        parsers=tuple(raw["parsers"]),
        paths=PathPatterns(
            test=c.globs(raw["paths"]["test"], "paths.test"),
            snapshot=c.globs(raw["paths"]["snapshot"], "paths.snapshot"),
            gate_config=c.globs(raw["paths"]["gate_config"], "paths.gate_config"),
            helper=c.globs(raw["paths"].get("helper", []), "paths.helper"),
            data=c.globs(raw["paths"].get("data", []), "paths.data"),
        ),
        truth_sources=(
            TruthSources(
                globs=c.globs(truth["globs"], "truth_sources.globs"),
                patterns=tuple(truth["globs"]),
                references=tuple(
                    c.regex(pattern, f"truth_sources.references[{index}]", group="ref")
                    for index, pattern in enumerate(truth["references"])
                ),
            )
            if truth
            else None
        ),
        inline_tests=(
            InlineTestRules(
                reader=inline["reader"],
                files=c.globs(inline["files"], "inline_tests.files"),
                attributes=c.regexes(inline["attributes"], "inline_tests.attributes"),
                functions=c.regexes(inline["functions"], "inline_tests.functions"),
            )
            if inline
            else None
        ),
    )
