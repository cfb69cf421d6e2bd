"""The settings table, settings.yaml (checked by settings.schema.json): one row per setting, from
which settings.py takes its keys, defaults, parsing and the config file's schema, and from which
scripts/write-settings.py writes action.yml's inputs and docs/usage.md's inputs table. The comment at
the top of settings.yaml says what each column means."""

from __future__ import annotations

import json
import textwrap
from dataclasses import dataclass
from typing import Any

import yaml

from evidence_gate.documents import load_table, shipped_table
from evidence_gate.errors import ConfigError


@dataclass(frozen=True, kw_only=True)
class Row:
    """One setting: a row of settings.yaml, whose comment says what each column means."""

    key: str
    kind: str  # the row's `type`: text, whole, switch, choice, list, lines or map
    default: Any  # a list's as a tuple
    input_default: str | None
    input: bool
    config: bool
    in_settings: bool  # a field of Settings (else the action reads the input itself)
    own: bool  # resolve parses it itself
    flags: tuple[str, ...]
    schema: dict[str, Any]  # the config file's rule: the type's, then the row's own
    unit: str
    description: str

    @property
    def name(self) -> str:
        """The field of Settings that holds it."""
        return self.key.replace("-", "_")


_TEXT = {"type": "string", "minLength": 1, "maxLength": 4096}
_RULES: dict[str, dict[str, Any]] = {
    "text": _TEXT,
    "whole": {"type": "integer"},
    "switch": {"type": "boolean"},
    "choice": {},
    "list": {"type": "array", "maxItems": 1000, "items": _TEXT},
    "lines": {"type": "array", "maxItems": 1000, "items": _TEXT},
    "map": {"type": "object", "additionalProperties": _TEXT},
}


def load_rows(data: bytes, source: str) -> tuple[Row, ...]:
    """A settings table given as data, checked by settings.schema.json: a bad edit is an error naming the row."""
    return _rows(load_table(data, source, "evidence_gate", "settings.schema.json"), source)


def _rows(document: Any, source: str) -> tuple[Row, ...]:
    keys = [entry["key"] for entry in document["settings"]]
    if len(set(keys)) != len(keys):
        raise ConfigError(f"{source}: a key is in more than one row: {sorted({k for k in keys if keys.count(k) > 1})}")
    return tuple(
        Row(
            key=entry["key"],
            kind=entry["type"],
            default=tuple(entry["default"]) if isinstance(entry.get("default"), list) else entry.get("default"),
            input_default=entry.get("input-default"),
            input=entry["input"],
            config=entry["config"],
            in_settings=entry.get("field", True),
            own=entry.get("parse") == "own",
            flags=tuple(entry.get("flags", ())),
            schema=_RULES[entry["type"]] | entry.get("schema", {}),
            unit=entry.get("unit", ""),
            description=" ".join(entry["description"].split()),
        )
        for entry in document["settings"]
    )


ROWS = _rows(shipped_table("evidence_gate", "settings.yaml"), "settings.yaml")

ACTION_INPUTS = ("\ninputs:\n", "\noutputs:\n")  # action.yml's inputs lie between these
USAGE_INPUTS = "| Input | Default | Description |\n| --- | --- | --- |\n"  # docs/usage.md's table starts so


def input_default(row: Row) -> str:
    """action.yml's default: the row's `input-default`, else empty for a setting the config file may
    set (GitHub hands a Docker action every input, an unset one at its default, as `INPUT_<NAME>`:
    a default there would outvote the config file), else its default as an input spells it."""
    if row.input_default is not None:
        return row.input_default
    return "" if row.config else spelled_default(row)


def spelled_default(row: Row) -> str:
    """The setting's default as an input spells it: `true`, `60`, `always`; empty for none."""
    if row.default in (None, (), {}):
        return ""
    return str(row.default).lower() if isinstance(row.default, bool) else str(row.default)


def action_inputs(rows: tuple[Row, ...] = ROWS) -> str:
    """action.yml's `inputs:` block, from the rows that are inputs."""
    blocks = []
    for row in rows:
        if row.input:
            description = _scalar(row.description, "\n    description: ")
            blocks.append(
                f"  {row.key}:{description}\n    required: false\n    default: {_scalar(input_default(row))}\n"
            )
    return "".join(blocks)


def _scalar(text: str, lead: str = "") -> str:
    """`text` as YAML: plain when it reads back as itself, quoted when short, else folded (`>-`)."""
    if len(lead) + len(text) > 116 and lead:
        return lead.rstrip() + " >-\n" + "\n".join("      " + line for line in textwrap.wrap(text, 108))
    if text and _reads_back(text):
        return lead + text
    return lead + (json.dumps(text) if lead else "'" + text.replace("'", "''") + "'")


def _reads_back(text: str) -> bool:
    try:
        return bool(yaml.safe_load(f"k: {text}") == {"k": text})
    except yaml.YAMLError:
        return False


def usage_inputs(rows: tuple[Row, ...] = ROWS) -> str:
    """docs/usage.md's inputs table, from the rows that are inputs."""
    lines = []
    for row in rows:
        if row.input:
            shown = input_default(row) or spelled_default(row)
            default = f"`{shown}`" if shown else "(empty)"
            lines.append(f"| `{row.key}` | {default} | {row.description.replace('|', chr(92) + '|')} |\n")
    return USAGE_INPUTS + "".join(lines)


def rewritten(action_yml: str, usage_md: str, rows: tuple[Row, ...] = ROWS) -> tuple[str, str]:
    """action.yml and docs/usage.md with their inputs written from the table, the rest as they are."""
    start = action_yml.index(ACTION_INPUTS[0]) + len(ACTION_INPUTS[0])
    end = action_yml.index(ACTION_INPUTS[1], start) + 1
    table = usage_md.index(USAGE_INPUTS)
    after = usage_md.index("\n\n", table) + 1
    return (
        action_yml[:start] + action_inputs(rows) + action_yml[end:],
        usage_md[:table] + usage_inputs(rows) + usage_md[after:],
    )
