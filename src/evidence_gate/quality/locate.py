"""Where each diagnostic of a type checker's or a linter's output is: the file and line it names,
read with the patterns of `locations.yaml` (checked by `locations.schema.json`), one line at a
time. A diagnostic whose place cannot be read (cargo's `warning:` with no `-->` line after it) is
kept with no place, never dropped: the judgement counts it as new (quality/debt.py).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from evidence_gate.documents import load_table, shipped_table
from evidence_gate.errors import ConfigError
from evidence_gate.quality.diagnostics import is_warning

_GROUPS = {
    "diagnostic": {"path", "line", "message"},
    "file": {"path"},
    "under_file": {"line", "message"},
    "opening": {"message"},
    "arrow": {"path", "line"},
    "skip": set(),
    "whole_file": {"message"},
}


_PLACEHOLDER = re.compile(r"\{([A-Za-z_]\w*)\}")  # `{key}` in a `cause`: the pattern's group `key`


@dataclass(frozen=True, kw_only=True)
class Found:
    """One diagnostic as the tool printed it: its path (as printed) and line, or None for both. A
    diagnostic about a whole file (a path, no line) may carry its `cause`: what a changed line of
    that file matches when the change could have caused it (quality/debt.py)."""

    path: str | None
    line: int | None
    message: str
    cause: re.Pattern[str] | None = None


@dataclass(frozen=True, kw_only=True)
class LinePattern:
    tools: tuple[str, ...]
    kind: str
    pattern: re.Pattern[str]
    file: str | None = None  # a `whole_file` diagnostic's file (cargo's manifest warnings: Cargo.toml)
    cause: str | None = None  # a `whole_file` diagnostic's cause, `{group}` placeholders unfilled

    def cause_of(self, groups: re.Match[str]) -> re.Pattern[str] | None:
        """The cause with this match's groups filled in, each taken literally."""
        if self.cause is None:
            return None
        return re.compile(_PLACEHOLDER.sub(lambda name: re.escape(groups[name.group(1)] or ""), self.cause))


@functools.cache
def default_patterns() -> tuple[LinePattern, ...]:
    return _patterns(shipped_table("evidence_gate.quality", "locations.yaml"), "locations.yaml")


def load_patterns(data: bytes, source: str) -> tuple[LinePattern, ...]:
    return _patterns(load_table(data, source, "evidence_gate.quality", "locations.schema.json"), source)


def _patterns(document: Any, source: str) -> tuple[LinePattern, ...]:
    return tuple(_pattern(item, f"{source}: patterns/{n}") for n, item in enumerate(document["patterns"]))


def _pattern(item: dict[str, Any], where: str) -> LinePattern:
    try:
        pattern = re.compile(item["pattern"])
    except re.error as error:
        raise ConfigError(f"{where}: {error}") from error
    missing = _GROUPS[item["kind"]] - set(pattern.groupindex)
    if missing:
        raise ConfigError(f"{where}: a {item['kind']} pattern needs the group(s) {', '.join(sorted(missing))}")
    if item["kind"] == "whole_file" and ("file" in item) == ("path" in pattern.groupindex):
        raise ConfigError(f"{where}: a whole_file pattern names its file by `file` or by a `path` group, one of them")
    cause = item.get("cause")
    if cause is not None:
        unknown = sorted(set(_PLACEHOLDER.findall(cause)) - set(pattern.groupindex))
        if unknown:
            raise ConfigError(f"{where}: cause: {{{unknown[0]}}} is no group of the pattern")
        try:
            re.compile(_PLACEHOLDER.sub("x", cause))
        except re.error as error:
            raise ConfigError(f"{where}: cause: {error}") from error
    return LinePattern(
        tools=tuple(item["tools"]), kind=item["kind"], pattern=pattern, file=item.get("file"), cause=cause
    )


def locate(
    lines: Iterable[str], patterns: tuple[LinePattern, ...] | None = None, *, errors_only: bool = False
) -> tuple[Found, ...]:
    """Every diagnostic of `lines`, in order, each with the place it names when it names one; for a
    type checker (`errors_only`), its errors alone: a warning or a note is no error (diagnostics.py)."""
    table = default_patterns() if patterns is None else patterns
    found: list[Found] = []
    current_file: str | None = None
    opening: str | None = None  # a diagnostic waiting for its `-->` line
    for text in lines:
        line = text.rstrip("\r\n")
        match = next(((entry, m) for entry in table if (m := entry.pattern.match(line))), None)
        if match is None:
            continue
        entry, groups = match
        kind = entry.kind
        if kind == "skip":
            continue
        if kind == "arrow":
            if opening is not None:
                found.append(Found(path=groups["path"], line=int(groups["line"]), message=opening))
                opening = None
            continue
        if opening is not None:  # another diagnostic came first: the open one named no place
            found.append(Found(path=None, line=None, message=opening))
            opening = None
        if kind == "whole_file":
            path = entry.file or groups["path"]
            found.append(Found(path=path, line=None, message=groups["message"].strip(), cause=entry.cause_of(groups)))
        elif kind == "opening":
            opening = groups["message"].strip()
        elif kind == "file":
            current_file = groups["path"]
        elif kind == "under_file":
            found.append(Found(path=current_file, line=int(groups["line"]), message=groups["message"].strip()))
        else:
            found.append(Found(path=groups["path"], line=int(groups["line"]), message=groups["message"].strip()))
    if opening is not None:
        found.append(Found(path=None, line=None, message=opening))
    return tuple(item for item in found if not (errors_only and is_warning(item.message)))
