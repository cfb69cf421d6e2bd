"""The idiom table (`idioms.yaml`, checked by `idioms.schema.json`): per tag, the regular expressions
that mark a relaxing line, per language, and the file kinds a tag is looked for in. Loaded once,
compiled, and each pattern's failure to compile is a one-line error naming the tag and language."""

from __future__ import annotations

import fnmatch
import functools
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from evidence_gate.documents import load_table, shipped_table
from evidence_gate.errors import ConfigError
from evidence_gate.integrity.configs import ConfigRules, load_rules
from evidence_gate.model import FileKind

ANY_LANGUAGE = "any"
_NAMED = re.compile(r"\(\?P<\w+>")  # a named group: one name may stand once in an alternation
CONFIG_KINDS = frozenset({FileKind.CI, FileKind.GATE_CONFIG})


@dataclass(frozen=True, kw_only=True)
class TagIdioms:
    id: str  # RH-n (its name: integrity/report.py, TAG_NAMES)
    kinds: frozenset[FileKind]
    added: Mapping[str, tuple[re.Pattern[str], ...]]  # language (or `any`) -> patterns on added lines
    removed: Mapping[str, tuple[re.Pattern[str], ...]]

    def matches(self, side: Mapping[str, tuple[re.Pattern[str], ...]], language: str | None, text: str) -> bool:
        found = union(side, language)
        return found is not None and found.search(text) is not None

    def applicable(self, side: Mapping[str, Patterns], language: str | None) -> Patterns:
        return (*side.get(ANY_LANGUAGE, ()), *(side.get(language, ()) if language else ()))


@functools.cache
def union_of(patterns: tuple[re.Pattern[str], ...]) -> re.Pattern[str] | None:
    """One alternation of several patterns, searched once per line instead of once per pattern."""
    if not patterns:
        return None
    return re.compile("|".join(f"(?:{_NAMED.sub('(?:', pattern.pattern)})" for pattern in patterns))


def union(side: Mapping[str, tuple[re.Pattern[str], ...]], language: str | None) -> re.Pattern[str] | None:
    """The patterns of a side that apply to a language: its own and those of any language, as one."""
    return union_of((*side.get(ANY_LANGUAGE, ()), *(side.get(language, ()) if language else ())))


Patterns = tuple[re.Pattern[str], ...]
ByLanguage = Mapping[str, Patterns]
Screen = tuple[re.Pattern[str] | None, re.Pattern[str] | None]  # added-line idioms, removed-line idioms


@dataclass(frozen=True, kw_only=True)
class Threshold:
    key: str  # what the number sets, wherever it is set (`coverage-fail-under`)
    relaxing: str  # lower | higher: the way that relaxes the gate
    pattern: re.Pattern[str]  # with a `value` group
    tag: str = "RH-8"  # what relaxing it is tagged
    default: float | None = None  # the value in force where nothing sets it (jest's 5 s timeout)


@dataclass(frozen=True, kw_only=True)
class AuditRules:
    """The ignore-comment audit's one rule (check 7): what makes the text after a suppression's
    directive and codes a reason, and how a reason is written after one, per language."""

    reason: re.Pattern[str]  # matched where the directive and its codes end
    within: Patterns  # a reason the directive holds itself (`reason = "…"`, `Justification = "…"`)
    fix: Mapping[str, str]  # language -> what goes after a bare directive (`  # <why>`)
    fix_by_directive: tuple[tuple[re.Pattern[str], str], ...] = ()  # a tool's own syntax, first

    def write(self, directive: str, language: str | None) -> str:
        """What goes after this directive for its reason (` -- <why>` where no language says)."""
        found = next((write for pattern, write in self.fix_by_directive if pattern.search(directive)), None)
        return found or self.fix.get(language or "", " -- <why>")


@dataclass(frozen=True, kw_only=True)
class Idioms:
    languages: Mapping[str, tuple[str, ...]]  # language -> globs of a path's last part
    tags: tuple[TagIdioms, ...]
    definitions: ByLanguage  # a test's definition line (RH-3)
    assertions: ByLanguage  # an assertion (RH-4, RH-5)
    vacuous: ByLanguage  # an assertion that cannot fail (RH-4)
    weak: ByLanguage  # an assertion that checks less than an exact value (RH-5 when it replaces one)
    thresholds: tuple[Threshold, ...]  # RH-8
    switched_off: Patterns  # a setting that switches a check off (RH-8)
    severity_error: Patterns  # a lint rule at error (RH-8 when it comes down)
    severity_lower: Patterns
    ci_checks: Patterns  # a CI line that runs a test, lint or type check (RH-10)
    narrowed: Patterns  # a test command's whole scope, in its `scope` group (RH-12 when it is lost)
    audit: AuditRules
    configs: ConfigRules  # what loosens a lint, type-check or coverage configuration (configs.py)
    _screens: dict[tuple[FileKind, str | None], Screen] = field(default_factory=dict, compare=False, repr=False)

    def screen(self, kind: FileKind, language: str | None) -> Screen:
        """One pattern for every added-line idiom, and one for every removed-line idiom, of the tags
        looked for in this kind of file and language: a line neither matches carries no idiom tag."""
        if (kind, language) not in self._screens:
            tags = [tag for tag in self.tags if kind in tag.kinds]
            added = tuple(pattern for tag in tags for pattern in tag.applicable(tag.added, language))
            removed = tuple(pattern for tag in tags for pattern in tag.applicable(tag.removed, language))
            self._screens[kind, language] = (union_of(added), union_of(removed))
        return self._screens[kind, language]

    @functools.cached_property
    def threshold_screen(self) -> re.Pattern[str] | None:
        return union_of(tuple(threshold.pattern for threshold in self.thresholds))

    def language(self, path: str) -> str | None:
        return _language(self.languages_key, path.rpartition("/")[2])

    @property
    def languages_key(self) -> tuple[tuple[str, tuple[str, ...]], ...]:
        return tuple(self.languages.items())

    def covers(self, language: str | None, kind: FileKind) -> bool:
        """Whether some tag looked for in this kind of file has idioms for its language: idioms of its
        own, or, in CI and configuration files, idioms for any language (a `|| true` is one in any)."""
        for tag in self.tags:
            if kind not in tag.kinds:
                continue
            if language is not None and (language in tag.added or language in tag.removed):
                return True
            if kind in CONFIG_KINDS and (ANY_LANGUAGE in tag.added or ANY_LANGUAGE in tag.removed):
                return True
        return False


@functools.cache
def _language(languages: tuple[tuple[str, tuple[str, ...]], ...], name: str) -> str | None:
    return next((language for language, globs in languages if any(fnmatch.fnmatchcase(name, g) for g in globs)), None)


@functools.cache
def default_idioms() -> Idioms:
    return _idioms(shipped_table("evidence_gate.integrity", "idioms.yaml"), "idioms.yaml")


def load_idioms(data: bytes, source: str) -> Idioms:
    return _idioms(load_table(data, source, "evidence_gate.integrity", "idioms.schema.json"), source)


def _idioms(document: Any, source: str) -> Idioms:
    return Idioms(
        languages={language: tuple(globs) for language, globs in document["languages"].items()},
        tags=tuple(_tag(tag, source) for tag in document["tags"]),
        definitions=_by_language(document["definitions"], f"{source}: definitions"),
        assertions=_by_language(document["assertions"], f"{source}: assertions"),
        vacuous=_by_language(document["vacuous"], f"{source}: vacuous"),
        weak=_by_language(document["weak"], f"{source}: weak"),
        thresholds=tuple(
            _threshold(item, f"{source}: thresholds/{n}") for n, item in enumerate(document["thresholds"])
        ),
        switched_off=_patterns(document["switched_off"], f"{source}: switched_off"),
        severity_error=_patterns(document["severities"]["error"], f"{source}: severities.error"),
        severity_lower=_patterns(document["severities"]["lower"], f"{source}: severities.lower"),
        ci_checks=_patterns(document["ci_checks"], f"{source}: ci_checks"),
        narrowed=_scoped(document.get("narrowed", []), f"{source}: narrowed"),
        audit=_audit(document["audit"], f"{source}: audit"),
        configs=load_rules(document["configs"], lambda pattern, where: _patterns([pattern], f"{source}: {where}")[0]),
    )


def _audit(item: dict[str, Any], where: str) -> AuditRules:
    (reason,) = _patterns([item["reason"]], f"{where}.reason")
    by_directive = item.get("fix_by_directive", [])
    directives = _patterns([entry["directive"] for entry in by_directive], f"{where}.fix_by_directive")
    return AuditRules(
        reason=reason,
        within=_patterns(item["within"], f"{where}.within"),
        fix=dict(item["fix"]),
        fix_by_directive=tuple(zip(directives, (entry["write"] for entry in by_directive), strict=True)),
    )


def _patterns(sources: list[str], where: str) -> Patterns:
    try:
        return tuple(re.compile(pattern) for pattern in sources)
    except re.error as error:
        raise ConfigError(f"{where}: {error}") from error


def _scoped(sources: list[str], where: str) -> Patterns:
    patterns = _patterns(sources, where)
    for n, pattern in enumerate(patterns):
        if "scope" not in pattern.groupindex:
            raise ConfigError(f"{where}/{n}: the pattern has no `scope` group for what it runs")
    return patterns


def _by_language(document: dict[str, list[str]], where: str) -> ByLanguage:
    return {language: _patterns(patterns, f"{where}.{language}") for language, patterns in document.items()}


def _threshold(item: dict[str, Any], where: str) -> Threshold:
    (pattern,) = _patterns([item["pattern"]], where)
    if "value" not in pattern.groupindex:
        raise ConfigError(f"{where}: the pattern has no `value` group for the number")
    default = item.get("default")
    return Threshold(
        key=item["key"],
        relaxing=item["relaxing"],
        pattern=pattern,
        tag=item.get("tag", "RH-8"),
        default=None if default is None else float(default),
    )


def _tag(tag: dict[str, Any], source: str) -> TagIdioms:
    return TagIdioms(
        id=tag["id"],
        kinds=frozenset(FileKind(kind) for kind in tag["kinds"]),
        added=_by_language(tag.get("added", {}), f"{source}: {tag['id']} added"),
        removed=_by_language(tag.get("removed", {}), f"{source}: {tag['id']} removed"),
    )
