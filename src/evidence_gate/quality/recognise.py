"""Which tool wrote a log handed in with `logs:`, read from the log itself with the patterns of
`recognisers.yaml` (checked by `recognisers.schema.json`): the Toolchain table names that tool, not
the adapter's default command, when a step ran another (a flake8 log where ruff is the default).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from evidence_gate.documents import load_table, shipped_table
from evidence_gate.errors import ConfigError


@dataclass(frozen=True, kw_only=True)
class Recogniser:
    name: str  # as the Toolchain table names it
    commands: tuple[str, ...]  # a command holding one of these ran it
    patterns: tuple[re.Pattern[str], ...]

    def ran(self, command: str) -> bool:
        return any(word in command for word in self.commands)


@functools.cache
def default_recognisers() -> tuple[Recogniser, ...]:
    return _recognisers(shipped_table("evidence_gate.quality", "recognisers.yaml"), "recognisers.yaml")


def load_recognisers(data: bytes, source: str) -> tuple[Recogniser, ...]:
    return _recognisers(load_table(data, source, "evidence_gate.quality", "recognisers.schema.json"), source)


def _recognisers(document: Any, source: str) -> tuple[Recogniser, ...]:
    return tuple(_recogniser(item, f"{source}: tools/{n}") for n, item in enumerate(document["tools"]))


def _recogniser(item: dict[str, Any], where: str) -> Recogniser:
    try:
        patterns = tuple(re.compile(pattern) for pattern in item["patterns"])
    except re.error as error:
        raise ConfigError(f"{where}: {error}") from error
    return Recogniser(name=item["name"], commands=tuple(item["commands"]), patterns=patterns)


def recognise(lines: Iterable[str], table: tuple[Recogniser, ...] | None = None) -> Recogniser | None:
    """The tool that wrote `lines`: of those whose pattern matches a line, the first in the table."""
    tools = default_recognisers() if table is None else table
    found: set[int] = set()
    for line in lines:
        found.update(
            index
            for index, tool in enumerate(tools)
            if index not in found and any(pattern.search(line) for pattern in tool.patterns)
        )
        if 0 in found:
            break
    return tools[min(found)] if found else None
