"""Detection rules from the adapter table, compiled, and their evaluation on a directory."""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Sequence
from dataclasses import dataclass

from evidence_gate.stacks.tree import DirectoryView

GLOB_CHARS = re.compile(r"[*?\[]")


@dataclass(frozen=True, kw_only=True)
class JsonKeys:
    """Matches when a key of one of the objects at `paths` (dotted; "." is the top) matches."""

    paths: tuple[str, ...]
    match: re.Pattern[str]


@dataclass(frozen=True, kw_only=True)
class JsonValue:
    """Matches when the string at the dotted path `at` (`scripts.test`) matches."""

    at: str
    match: re.Pattern[str]


@dataclass(frozen=True, kw_only=True)
class FileRule:
    """A name (glob) in the directory, or a relative path whose last part may be a glob
    (`.github/workflows/*.yml`); a leading "/" reads from the top of the scanned tree instead, a
    trailing "/" asks for a directory.

    Without a trailing "/" either kind matches: `*.xcodeproj` is a directory, `Podfile` a file.
    """

    pattern: str
    contains: re.Pattern[str] | None = None
    json_keys: JsonKeys | None = None
    json_value: JsonValue | None = None


@dataclass(frozen=True, kw_only=True)
class AllRule:
    rules: tuple[Rule, ...]


@dataclass(frozen=True, kw_only=True)
class AnyRule:
    rules: tuple[Rule, ...]


@dataclass(frozen=True, kw_only=True)
class NotRule:
    rule: Rule


Rule = FileRule | AllRule | AnyRule | NotRule


def evaluate(rule: Rule, directory: DirectoryView) -> tuple[str, ...] | None:
    """The paths that made `rule` match in `directory`, or None when it does not match.

    A `not` rule that holds contributes no evidence (an absence is not a path).
    """
    match rule:
        case FileRule():
            return _evaluate_file(rule, directory)
        case AllRule(rules=rules):
            evidence: list[str] = []
            for part in rules:
                found = evaluate(part, directory)
                if found is None:
                    return None
                evidence.extend(found)
            return tuple(evidence)
        case AnyRule(rules=rules):
            return evaluate_any(rules, directory)
        case NotRule(rule=inner):
            return () if evaluate(inner, directory) is None else None


def evaluate_any(rules: Sequence[Rule], directory: DirectoryView) -> tuple[str, ...] | None:
    """The evidence of every rule that matches (so the output names all the manifests seen)."""
    evidence: list[str] = []
    matched = False
    for rule in rules:
        found = evaluate(rule, directory)
        if found is not None:
            matched = True
            evidence.extend(path for path in found if path not in evidence)
    return tuple(evidence) if matched else None


def _evaluate_file(rule: FileRule, directory: DirectoryView) -> tuple[str, ...] | None:
    want_dir = rule.pattern.endswith("/")
    pattern = rule.pattern.rstrip("/")
    if pattern.startswith("/"):
        top = directory.tree_root()
        if top is None:
            return None
        directory, pattern = top, pattern.lstrip("/")
    parent, _, name_glob = pattern.rpartition("/")
    where = directory
    if not GLOB_CHARS.search(name_glob):
        candidates = [pattern] if directory.exists(pattern) else []
    else:
        below = directory.below(parent) if parent else directory
        if below is None:
            return None
        where = below
        candidates = sorted(name for name in where.names if fnmatch.fnmatchcase(name, name_glob))
    found = [
        where.relpath(name)
        for name in candidates
        if (where.is_dir(name) or not want_dir) and _content_matches(rule, where, name)
    ]
    return tuple(found) if found else None


def _content_matches(rule: FileRule, directory: DirectoryView, name: str) -> bool:
    if rule.contains is not None:
        text = directory.read_text(name)
        return text is not None and rule.contains.search(text) is not None
    if rule.json_keys is not None:
        document = directory.read_json(name)
        return any(
            isinstance(key, str) and rule.json_keys.match.search(key)
            for path in rule.json_keys.paths
            for key in _object_at(document, path)
        )
    if rule.json_value is not None:
        value = _value_at(directory.read_json(name), rule.json_value.at)
        return isinstance(value, str) and rule.json_value.match.search(value) is not None
    return True


def _object_at(document: object, dotted: str) -> dict[str, object]:
    node = _value_at(document, dotted)
    return node if isinstance(node, dict) else {}


def _value_at(document: object, dotted: str) -> object:
    node = document
    if dotted != ".":
        for part in dotted.split("."):
            node = node.get(part) if isinstance(node, dict) else None
    return node
