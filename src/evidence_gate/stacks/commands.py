"""Shell command templates: parsed and checked at load, rendered with untrusted slot values.

Slot values come from pull requests (file names, test names), so they are treated as hostile: a
value that could change the command's meaning is refused with an error naming the slot, rather
than escaped in a way that depends on a shell's quoting rules being understood perfectly.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from evidence_gate.errors import ConfigError, UnsafeSlotValue

SLOTS = frozenset({"file", "files", "package", "name", "names", "dir", "stem"})
LIST_SLOTS = frozenset({"files", "names"})

# Characters refused in any slot value: every one can end a quoted string, start an expansion, or
# split a command line in some shell, and none belongs in a test name or a sane path.
_REFUSED = re.compile(r"[\x00-\x1f\x7f\"'`$\\]")
_SLOT = re.compile(r"\{([A-Za-z_]+)\}")

SlotValue = str | Sequence[str]


@dataclass(frozen=True, kw_only=True)
class Slot:
    name: str
    quoted: bool


Segment = str | Slot


@dataclass(frozen=True, kw_only=True)
class CommandTemplate:
    """A shell command with slots; `quoted` slots sit inside "..." or '...' in the template."""

    source: str
    segments: tuple[Segment, ...]

    @property
    def slots(self) -> frozenset[str]:
        return frozenset(segment.name for segment in self.segments if isinstance(segment, Slot))

    def render(self, values: Mapping[str, SlotValue]) -> str:
        parts: list[str] = []
        for segment in self.segments:
            if isinstance(segment, str):
                parts.append(segment)
                continue
            if segment.name not in values:
                raise UnsafeSlotValue(f"the command `{self.source}` needs a value for {{{segment.name}}}")
            parts.append(_render_slot(segment, values[segment.name]))
        return "".join(parts)


@dataclass(frozen=True, kw_only=True)
class ScriptCommand:
    """A package.json script, run through the repository's package manager."""

    script: str
    args: CommandTemplate | None
    capture: bool = False  # the capture protocol's exit marker after it: a script silent on success (tsc)


def parse_template(source: str, where: str) -> CommandTemplate:
    """Split `source` into literal text and slots, noting whether each slot is inside quotes.

    `where` names the adapter and field for load errors.
    """
    segments: list[Segment] = []
    quote: str | None = None
    literal: list[str] = []
    index = 0
    while index < len(source):
        char = source[index]
        slot = _SLOT.match(source, index)
        if slot:
            name = slot.group(1)
            if name not in SLOTS:
                raise ConfigError(f"{where}: unknown slot {{{name}}} (known: {', '.join(sorted(SLOTS))})")
            if name in LIST_SLOTS and quote:
                raise ConfigError(f"{where}: the list slot {{{name}}} cannot stand inside quotes")
            segments.append("".join(literal))
            literal = []
            segments.append(Slot(name=name, quoted=quote is not None))
            index = slot.end()
            continue
        if char == "\\" and quote != "'" and index + 1 < len(source):
            literal.append(source[index : index + 2])
            index += 2
            continue
        if char in "\"'" and quote in (None, char):
            quote = None if quote == char else char
        literal.append(char)
        index += 1
    if quote:
        raise ConfigError(f"{where}: unbalanced {quote} in `{source}`")
    segments.append("".join(literal))
    return CommandTemplate(source=source, segments=tuple(segment for segment in segments if segment != ""))


def check_slot_value(name: str, value: str) -> str:
    """Refuse a value that could break out of its place in a command line."""
    if value == "":
        raise UnsafeSlotValue(f"{{{name}}}: empty value")
    if value.startswith("-"):
        raise UnsafeSlotValue(f"{{{name}}}: {value!r} starts with '-' and would be read as an option")
    bad = _REFUSED.search(value)
    if bad:
        raise UnsafeSlotValue(f"{{{name}}}: {value!r} contains {bad.group()!r}, which is not allowed in a command slot")
    return value


def _render_slot(slot: Slot, value: SlotValue) -> str:
    if slot.name in LIST_SLOTS:
        items = [value] if isinstance(value, str) else list(value)
        if not items:
            raise UnsafeSlotValue(f"{{{slot.name}}}: empty list")
        return " ".join(shlex.quote(check_slot_value(slot.name, item)) for item in items)
    if not isinstance(value, str):
        raise UnsafeSlotValue(f"{{{slot.name}}}: takes one value, not a list")
    checked = check_slot_value(slot.name, value)
    return checked if slot.quoted else shlex.quote(checked)


PACKAGE_MANAGERS = ("npm", "pnpm", "yarn", "bun")
LOCKFILES = (
    ("bun.lock", "bun"),
    ("bun.lockb", "bun"),
    ("pnpm-lock.yaml", "pnpm"),
    ("yarn.lock", "yarn"),
    ("package-lock.json", "npm"),
    ("npm-shrinkwrap.json", "npm"),
)


CAPTURE = ' 2>&1; echo "EXIT_CODE=$?"'  # the capture protocol's exit marker (adapters.yaml, `exit_marker`)


def script_command(manager: str, command: ScriptCommand, args: str | None) -> str:
    """`npm run test -- ARGS`, `pnpm run test ARGS`, ...: npm alone needs `--` before arguments. A
    capturing script ends with the exit marker, so a silent green build (`tsc`) is evidence. `args`
    is the rendered arguments, or their template, shown with its slots."""
    line = f"{manager} run {command.script}"
    if args is not None:
        line = f"{line} -- {args}" if manager == "npm" else f"{line} {args}"
    return line + CAPTURE if command.capture else line
