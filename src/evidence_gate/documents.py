"""Reading a JSON or YAML document that someone else wrote, in bounded time and memory.

A config file, an event payload and a ledger artifact can all come from a pull request. Each is read
up to a size cap, nested no deeper than MAX_DEPTH, and YAML anchors and aliases are refused (a
config has no need for them, and they are how a few hundred bytes expand to gigabytes). Every
failure is one line, and no message quotes more than MAX_QUOTED characters of the document.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

from evidence_gate.errors import ConfigError, EvidenceGateError
from evidence_gate.workspace import open_resolved, read_at_most

if TYPE_CHECKING:
    import jsonschema

MAX_DEPTH = 64
MAX_QUOTED = 200
MAX_NUMBER_CHARACTERS = 4_300  # the digits Python's int() reads from text by default


def clipped(text: str, limit: int = MAX_QUOTED) -> str:
    """`text` on one line, at most `limit` characters of it, with the count of the rest."""
    line = " ".join(text.split())
    if len(line) <= limit:
        return line
    return f"{line[:limit]}… ({len(line) - limit:,} more characters)"


def schema_message(error: jsonschema.ValidationError) -> str:
    """A schema error's message with the offending value quoted in part: jsonschema renders all of
    it, however large, at the start of the message."""
    rendered = repr(error.instance)
    return clipped(error.message.replace(rendered, clipped(rendered, MAX_QUOTED // 2), 1))


def schema_errors(schema: Mapping[str, Any], document: Any) -> list[jsonschema.ValidationError]:
    """Where `document` breaks the JSON Schema `schema` (draft 2020-12), the shallowest first. jsonschema is
    imported here, at first use: a command that checks no document (`--version`, `coverage`) never loads it."""
    import jsonschema

    return sorted(jsonschema.Draft202012Validator(schema).iter_errors(document), key=lambda e: list(e.absolute_path))


def read_capped(path: Path, limit: int, error: type[EvidenceGateError], what: str) -> bytes:
    """The bytes of `path`, refused once it holds more than `limit`: the rest is never read. Only a
    regular file is read (a FIFO would block); where it may lie is the caller's to check."""
    try:
        with open_resolved(path) as handle:
            data = read_at_most(handle, limit + 1)
    except OSError as problem:
        raise error(f"{path}: cannot read {what} ({problem.strerror or problem})") from problem
    if len(data) > limit:
        raise error(f"{path}: {what} is larger than {limit:,} bytes; refusing to read it")
    return data


def load_json(data: bytes, source: str, error: type[EvidenceGateError]) -> Any:
    try:
        document = json.loads(data.decode("utf-8"))
    except UnicodeDecodeError as problem:
        raise error(f"{source}: not UTF-8 ({problem.reason} at byte {problem.start})") from problem
    except json.JSONDecodeError as problem:
        raise error(f"{source}: not JSON ({clipped(str(problem))})") from problem
    except ValueError as problem:  # an integer past the 4,300 digits Python reads from text
        raise error(f"{source}: cannot read its JSON ({clipped(str(problem))})") from problem
    except RecursionError as problem:
        raise error(f"{source}: nested deeper than {MAX_DEPTH} levels") from problem
    if _depth(document) > MAX_DEPTH:
        raise error(f"{source}: nested deeper than {MAX_DEPTH} levels")
    return document


def load_yaml(data: bytes, source: str, error: type[EvidenceGateError]) -> Any:
    try:
        loader = _BoundedLoader(data.decode("utf-8"), source)
        try:
            return loader.get_single_data()
        finally:
            loader.dispose()
    except UnicodeDecodeError as problem:
        raise error(f"{source}: not UTF-8 ({problem.reason} at byte {problem.start})") from problem
    except yaml.YAMLError as problem:
        raise error(f"{source}: not valid YAML ({clipped(str(problem))})") from problem
    except ValueError as problem:  # a well-formed scalar Python cannot hold: a date of month 13
        raise error(f"{source}: cannot read its YAML ({clipped(str(problem))})") from problem


def _depth(document: Any) -> int:
    """How deeply `document` nests, walked without recursion."""
    deepest = 0
    pending: list[tuple[Any, int]] = [(document, 1)]
    while pending:
        value, depth = pending.pop()
        if isinstance(value, dict | list):
            deepest = max(deepest, depth)
            if depth > MAX_DEPTH:
                break
            pending.extend((child, depth + 1) for child in (value.values() if isinstance(value, dict) else value))
    return deepest


class _BoundedLoader(yaml.SafeLoader):
    """PyYAML's safe loader, with anchors, aliases and nesting past MAX_DEPTH refused as it composes."""

    def __init__(self, stream: str, source: str) -> None:
        super().__init__(stream)
        self.name = source  # marks in messages name the file, not "<unicode string>"
        self._depth = 0

    def compose_node(self, parent: yaml.Node | None, index: object) -> yaml.Node | None:
        event = self.peek_event()  # type: ignore[no-untyped-call]  # PyYAML's stubs leave it untyped
        if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None) is not None:
            raise yaml.composer.ComposerError(
                None, None, "anchors and aliases (& and *) are not allowed here", event.start_mark
            )
        if self._depth >= MAX_DEPTH:
            raise yaml.composer.ComposerError(None, None, f"nested deeper than {MAX_DEPTH} levels", event.start_mark)
        self._depth += 1
        try:
            node = super().compose_node(parent, index)  # type: ignore[arg-type]  # the stubs' index type is too narrow
        finally:
            self._depth -= 1
        if node is not None:  # a node's two marks (each holding the buffer) cost more than the node: not kept
            node.start_mark = node.end_mark = None
        return node

    def construct_yaml_int(self, node: yaml.ScalarNode) -> int:
        """An integer no longer than Python reads from text: a longer one is refused before reading,
        since a sexagesimal one (1:1:1:…) takes time quadratic in its length."""
        if len(node.value) > MAX_NUMBER_CHARACTERS:
            raise yaml.constructor.ConstructorError(
                None,
                None,
                f"a number of {len(node.value):,} characters; more than {MAX_NUMBER_CHARACTERS:,} are not read",
                node.start_mark,
            )
        value: int = super().construct_yaml_int(node)
        return value


_BoundedLoader.add_constructor("tag:yaml.org,2002:int", _BoundedLoader.construct_yaml_int)


# libyaml's safe loader where PyYAML was built with it (about 10x the pure-Python one's speed), else that one.
_TABLE_LOADER: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def table_yaml(data: bytes | str, source: str) -> Any:
    """A table's YAML, read with libyaml's safe loader: a ConfigError naming `source` if it is not YAML."""
    try:
        return yaml.load(data, Loader=_TABLE_LOADER)  # noqa: S506  # a safe loader, libyaml's
    except yaml.YAMLError as problem:
        raise ConfigError(f"{source}: not valid YAML ({clipped(str(problem))})") from problem


def shipped_table(package: str, name: str) -> Any:
    """One of the YAML tables the package ships, as it ships. Its JSON Schema is checked by the tests
    (tests/test_shipped_tables.py), once, rather than each time a command starts; a table given as
    data is checked as it is read (`load_table`)."""
    return table_yaml(resources.files(package).joinpath(name).read_bytes(), name)


def load_table(data: bytes, source: str, package: str, schema: str) -> Any:
    """One of the project's YAML tables given as data (an edit of a shipped one), checked by the JSON
    Schema `schema` of `package`: a bad edit is a ConfigError naming the table and the place in it.
    Read with libyaml's safe loader, without the bounds a document someone else wrote gets
    (`load_yaml`): these are the project's own tables."""
    document = table_yaml(data, source)
    errors = schema_errors(json.loads(resources.files(package).joinpath(schema).read_text("utf-8")), document)
    if errors:
        where = "/".join(str(part) for part in errors[0].absolute_path) or "(top level)"
        raise ConfigError(f"{source}: {where}: {schema_message(errors[0])}")
    return document
