"""The comparing tags: a hunk's removed lines weighed against its added ones (the lines a change
moves within a file already taken out of both, see tagger.py). Pure functions over line texts.

| tag | relaxes when |
|---|---|
| RH-3 test-removed | a file's test definitions fall in number (a rename keeps the number) |
| RH-4 assertion-removed | a hunk's assertions fall in number, or an added one cannot fail |
| RH-5 expectation-changed | a removed and an added assertion differ only in their literals, or an |
| | exact assertion gives way to a weak one (`toBe(5)` to `toBeGreaterThan(0)`) |
| RH-8 threshold-lowered | a gate's number moves the relaxing way, or every setting of it goes |
| | (across the whole change); a setting switching a check off is added; a rule comes down from error |
| RH-12 test-excluded | a test command's whole scope (`go test ./...`) is removed and run again nowhere |
| | (across the whole change) |
| RH-10 ci-step-removed | a CI line running a check is removed and no line running it added; a job |
| | is dropped from `needs:` |
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from evidence_gate.integrity.idioms import ByLanguage, Idioms, Patterns, Threshold, union_of

# Literals an expectation is written in: numbers, quoted strings, and the constants of the languages.
_LITERAL = re.compile(
    r"""-?\d+(\.\d+)?([eE][-+]?\d+)?|"(\\.|[^"\\])*"|'(\\.|[^'\\])*'|`[^`]*`|\b(True|False|None|true|false|nil|null)\b"""
)
_NEEDS = re.compile(r"^\s*needs:\s*\[?(?P<jobs>[^\]#]*)")
_JOB = re.compile(r"[\w.-]+")


def count(lines: Iterable[str], patterns: Patterns) -> int:
    found = union_of(patterns)
    return 0 if found is None else sum(1 for line in lines if found.search(line))


def of_language(by_language: ByLanguage, language: str | None) -> Patterns:
    return by_language.get(language, ()) if language else ()


def assertions_lost(removed: Sequence[str], added: Sequence[str], language: str | None, idioms: Idioms) -> bool:
    """RH-4: fewer assertions added than removed, or a vacuous one added."""
    assertions = of_language(idioms.assertions, language)
    if count(added, assertions) < count(removed, assertions):
        return True
    return count(added, of_language(idioms.vacuous, language)) > 0


def expectation_changed(removed: Sequence[str], added: Sequence[str], language: str | None, idioms: Idioms) -> bool:
    """RH-5: an assertion whose shape is kept and whose literals (the expected value) are not; or an
    exact assertion given way to a weak one (a bound, a type, presence)."""
    assertion = union_of(of_language(idioms.assertions, language))
    if assertion is None:
        return False
    if _weakened(removed, added, of_language(idioms.assertions, language), of_language(idioms.weak, language)):
        return True
    shapes = {_shape(line): line.strip() for line in added if assertion.search(line)}
    return bool(shapes) and any(
        shapes.get(_shape(line), line.strip()) != line.strip() for line in removed if assertion.search(line)
    )


def _weakened(removed: Sequence[str], added: Sequence[str], assertions: Patterns, weak: Patterns) -> bool:
    """The weak assertions rise in number while the exact ones (every other assertion) fall."""
    weak_removed, weak_added = count(removed, weak), count(added, weak)
    exact_removed, exact_added = count(removed, assertions) - weak_removed, count(added, assertions) - weak_added
    return weak_added > weak_removed and exact_added < exact_removed


def _shape(line: str) -> str:
    return " ".join(_LITERAL.sub("\0", line).split())


def severity_lowered(removed: Sequence[str], added: Sequence[str], idioms: Idioms) -> bool:
    """RH-8: a removed line at severity error and an added line that is the same but for a lower one."""
    lowered = set()
    for line in added:
        for pattern in idioms.severity_lower:
            lowered.add(" ".join(pattern.sub("\0", line).split()))
    return any(
        " ".join(pattern.sub("\0", line).split()) in lowered
        for line in removed
        for pattern in idioms.severity_error
        if pattern.search(line)
    )


def switched_off(added: Sequence[str], idioms: Idioms) -> bool:
    return count(added, idioms.switched_off) > 0


@dataclass(frozen=True, kw_only=True)
class Setting:
    """One number a gate's configuration sets, as a line of the change says it."""

    key: str  # the threshold's key, with the metric it names (`jest-coverage:branches`)
    value: float
    relaxing: str  # lower | higher
    tag: str  # what relaxing it is tagged (RH-8, RH-13)
    default: float | None = None  # the value in force where nothing sets it


def settings(lines: Iterable[str], thresholds: Sequence[Threshold], screen: re.Pattern[str] | None) -> list[Setting]:
    """The numbers the lines set; `screen` (all thresholds' patterns as one) skips the others fast."""
    found = []
    for line in lines:
        if screen is None or not screen.search(line):
            continue
        for threshold in thresholds:
            for match in threshold.pattern.finditer(line):
                named = match.groupdict().get("name")
                key = f"{threshold.key}:{named}" if named else threshold.key
                value = float(match.group("value"))
                found.append(
                    Setting(
                        key=key, value=value, relaxing=threshold.relaxing, tag=threshold.tag, default=threshold.default
                    )
                )
    return found


def relaxed_keys(removed: Sequence[Setting], added: Sequence[Setting]) -> set[str]:
    """The keys whose setting the change relaxes, all files together: moved with its value, a
    threshold is no change; raised, no relaxation; removed everywhere, a relaxation. A key with a
    default is weighed against it where the change sets it anew (a jest `testTimeout: 60000` added
    raises its 5 s; an RSpec `retry: 3`, its none) or removes it everywhere (its default is back)."""
    relaxed = set()
    defaults = {setting.key: setting.default for setting in (*removed, *added) if setting.default is not None}
    for key in {setting.key for setting in removed} | defaults.keys():
        before = [setting.value for setting in removed if setting.key == key] or [defaults[key]]
        after = [setting.value for setting in added if setting.key == key]
        if not after and key not in defaults:
            relaxed.add(key)
            continue
        after = after or [defaults[key]]  # removed everywhere: its default is back
        way = next(setting.relaxing for setting in (*removed, *added) if setting.key == key)
        if min(after) < min(before) if way == "lower" else max(after) > max(before):
            relaxed.add(key)
    return relaxed


def checks_removed(removed: Sequence[str], added_in_file: Sequence[str], idioms: Idioms) -> bool:
    """RH-10: a removed line runs a check that no line the file adds runs."""
    for pattern in idioms.ci_checks:
        lost = {match.group(0) for line in removed for match in pattern.finditer(line)}
        kept = {match.group(0) for line in added_in_file for match in pattern.finditer(line)}
        if lost - kept:
            return True
    return False


def scopes(lines: Iterable[str], patterns: Patterns) -> set[tuple[str, str]]:
    """RH-12: the whole scopes test commands run (`go test ./...`), each with its pattern."""
    return {
        (pattern.pattern, match.group("scope"))
        for line in lines
        for pattern in patterns
        for match in pattern.finditer(line)
    }


def needs_dropped(removed: Sequence[str], added_in_file: Sequence[str]) -> bool:
    """RH-10: a job named in a removed `needs:` that no added `needs:` of the file names."""
    return bool(_needs(removed) - _needs(added_in_file))


def _needs(lines: Iterable[str]) -> set[str]:
    jobs: set[str] = set()
    for line in lines:
        found = _NEEDS.match(line)
        if found:
            jobs.update(_JOB.findall(found.group("jobs")))
    return jobs


def definitions(lines: Iterable[str], language: str | None, idioms: Idioms) -> int:
    return count(lines, of_language(idioms.definitions, language))
