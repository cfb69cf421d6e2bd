"""The keys a truth-source file defines, by its format: Apple `.strings`, `.stringsdict` and
`.xcstrings`; Android resources (`<string name=…>`, `<plurals>`, `<string-array>`) and .NET `.resx`
(`<data name=…>`); i18n JSON and Flutter `.arb` (nested keys joined with dots); Rails YAML (with and
without the locale's own top key); gettext `.po`/`.pot` (`msgid`); XLIFF (`id`, `resname`); Laravel
PHP arrays (`file.key`); and OpenAPI documents (`operationId`, schema names).

Each file is the pull request's, so it is read as hostile: bounded, XML through the hardened
parser with any internal DTD refused, YAML through the bounded loader, JSON streamed through the
checked events of `summary/json_stream.py` (nesting past 64 levels and a number of more than 4,300
digits refused), its keys gathered as they pass, never a document built. Given the keys the
change refers to (`wanted`), only those are kept, so a file of any size up to `MAX_SOURCE_BYTES`
costs the memory of the change's references, not of every key it defines. A file that cannot be
read raises `Unreadable`, with the reason, and is never taken as defining nothing.
"""

from __future__ import annotations

import io
import re
import sys
from collections.abc import Collection, Iterable, Iterator
from dataclasses import dataclass
from pathlib import PurePosixPath

from lxml import etree

from evidence_gate.coverage.model import UnreadableReport
from evidence_gate.coverage.readers.base import check_doctype, local
from evidence_gate.documents import load_yaml
from evidence_gate.errors import EvidenceGateError, UsageError
from evidence_gate.summary.json_stream import Malformed, json_events, skip
from evidence_gate.summary.xml_documents import hardened_parser

MAX_SOURCE_BYTES = 32 * 1024 * 1024
# YAML is built whole by the bounded loader, its nodes some fifty times the text (3 MB took 168 MiB):
# one past this would take more than the 256 MB a reader may, so it is refused, unread, with the reason.
MAX_YAML_SOURCE_BYTES = 4 * 1024 * 1024
_STRINGS_KEY = re.compile(r'^\s*"((?:[^"\\]|\\.)*)"\s*=', re.MULTILINE)
_PO_ID = re.compile(r'^msgid\s+"((?:[^"\\]|\\.)*)"', re.MULTILINE)
_PHP_KEY = re.compile(r"""['"]([\w.-]+)['"]\s*=>""")
_XML_NAMED = {"string", "plurals", "string-array", "integer-array", "array", "data"}
_MAX_KEY_DEPTH = 32  # keys are gathered from objects nested this deep at most (the document's is 0)
_OPENS = frozenset({"start_map", "start_array"})


class Unreadable(Exception):
    """A truth source that could not be read; its message says why."""


def keys(path: str, content: bytes, wanted: Collection[str] | None = None) -> frozenset[str]:
    """Every key `content` (the file at `path`) defines; of them only those in `wanted`, if given."""
    if len(content) > MAX_SOURCE_BYTES:
        raise Unreadable(f"larger than {MAX_SOURCE_BYTES:,} bytes")
    name = PurePosixPath(path)
    suffix, stem = name.suffix.lower(), name.stem

    # No key longer than the longest wanted is built: a dotted path of a long key's every child
    # would otherwise cost its length once per child.
    longest = sys.maxsize if wanted is None else max(map(len, wanted), default=0)

    def kept(found: Iterable[str]) -> frozenset[str]:
        return frozenset(found if wanted is None else (key for key in found if key in wanted))

    try:
        if suffix == ".strings":
            return kept(_unescape(key) for key in _STRINGS_KEY.findall(_text(content)))
        if suffix in {".po", ".pot"}:
            return kept(_unescape(key) for key in _PO_ID.findall(_text(content)) if key)
        if suffix == ".php":
            return kept(f"{stem}.{key}" for key in _PHP_KEY.findall(_text(content)))
        if suffix in {".xml", ".resx", ".xlf", ".xliff"}:
            return kept(_xml_keys(content))
        if suffix == ".stringsdict":
            return kept(_plist_keys(content))
        if suffix == ".xcstrings":
            return kept(_json_keys(_utf8(content), longest, strings_only=True))
        if suffix in {".json", ".arb"}:
            return kept(_named(_json_keys(_utf8(content), longest), suffix, stem))
        if suffix in {".yml", ".yaml"}:
            if len(content) > MAX_YAML_SOURCE_BYTES:
                raise Unreadable(f"larger than {MAX_YAML_SOURCE_BYTES:,} bytes, the most of YAML read")
            return kept(_named(_structured(load_yaml(content, path, UsageError), suffix), suffix, stem))
    except Malformed as error:
        raise Unreadable(f"{path}: {error}") from error
    except (ValueError, UnreadableReport, etree.XMLSyntaxError, EvidenceGateError) as error:
        raise Unreadable(str(error).splitlines()[0][:200] if str(error) else type(error).__name__) from error
    raise Unreadable(f"no reader for {suffix or name.name} files")


def _text(content: bytes) -> str:
    """`.strings` files are often UTF-16, with their byte-order mark."""
    if content.startswith((b"\xff\xfe", b"\xfe\xff")):
        return content.decode("utf-16")
    return content.decode("utf-8-sig")


def _utf8(content: bytes) -> bytes:
    """JSON as UTF-8, as it is streamed: a file in UTF-16, with its byte-order mark, transcoded."""
    if content.startswith((b"\xff\xfe", b"\xfe\xff")):
        return content.decode("utf-16").encode("utf-8")
    return content


def _unescape(key: str) -> str:
    return re.sub(r"\\(.)", r"\1", key)


def _events(content: bytes, tags: tuple[str, ...]) -> Iterator[etree._Element]:
    check_doctype(content[:4096])
    parser = hardened_parser(tags)
    parser.feed(content)
    parser.close()
    for _, element in parser.read_events():
        yield element


def _xml_keys(content: bytes) -> Iterator[str]:
    for element in _events(
        content, ("string", "plurals", "string-array", "integer-array", "array", "data", "trans-unit", "unit")
    ):
        tag = local(str(element.tag))
        if tag in _XML_NAMED and element.get("name"):
            yield str(element.get("name"))
        elif tag in {"trans-unit", "unit"}:
            yield from (str(value) for value in (element.get("id"), element.get("resname")) if value)


def _plist_keys(content: bytes) -> Iterator[str]:
    """A `.stringsdict`'s keys: the `<key>`s of the top dictionary, the plist's first `<dict>`."""
    for element in _events(content, ("key",)):
        parent = element.getparent()
        grand = parent.getparent() if parent is not None else None
        if grand is not None and local(str(grand.tag)) == "plist" and element.text:
            yield element.text


def _named(found: Iterable[str], suffix: str, stem: str) -> Iterator[str]:
    """Each key as it is referred to: itself, and with its file's namespace (i18next's
    `common:title`); an `.arb` file's `@` entries describe keys and are none."""
    for key in found:
        if suffix == ".arb" and key.startswith("@"):
            continue
        yield key
        yield f"{stem}:{key}"


def _structured(document: object, suffix: str) -> Iterator[str]:
    """A YAML document's keys: each object's key by its dotted path, each `operationId` and the
    schemas of an OpenAPI document, and a Rails file's keys under its locale's top key too."""
    found: set[str] = set()
    _flatten(document, "", found, 0)
    if isinstance(document, dict):
        operations = {str(value) for value in _values(document, "operationId", 0)}
        schemas = (
            document.get("components", {}).get("schemas", {}) if isinstance(document.get("components"), dict) else {}
        )
        found |= operations | ({str(name) for name in schemas} if isinstance(schemas, dict) else set())
        if suffix in {".yml", ".yaml"} and len(document) == 1:  # Rails: `en:` holds every key
            only = next(iter(document.values()))
            inner: set[str] = set()
            _flatten(only, "", inner, 0)
            found |= inner
    return iter(found)


@dataclass(slots=True)
class _Level:
    """An object or array the JSON walk is inside: how deep (the document is 0), the dotted path
    of its keys while a chain of objects leads to it (None past a list or `_MAX_KEY_DEPTH`), the
    current key of an object, and whether it is the document's `components` or its `schemas`."""

    depth: int
    prefix: str | None
    key: str | None = None
    components: bool = False
    schemas: bool = False


def _json_keys(data: bytes, longest: int, *, strings_only: bool = False) -> Iterator[str]:
    """The keys of the JSON document in `data` up to `longest` characters, as `_structured` finds
    them in a YAML one, gathered from its events; with `strings_only`, the keys of its `strings`
    object alone (`.xcstrings`). The whole document is read, so one cut short or followed by more
    is unreadable."""
    events = json_events(io.BytesIO(data))
    levels: list[_Level] = []
    for event, value in events:
        level = levels[-1] if levels else None
        if event == "map_key" and level is not None:  # yajl gives a key inside an object only
            level.key = key = str(value)
            if level.prefix is not None and not strings_only and len(level.prefix) + len(key) <= longest:
                yield level.prefix + key
            if level.schemas or (strings_only and level.depth == 1):
                yield key
        elif event in _OPENS:
            is_map = event == "start_map"
            if level is None and is_map:
                levels.append(_Level(0, ""))
                continue
            if level is None:  # an array: no keys, though the document is still read to its end
                skip(events)
                continue
            depth = level.depth + 1
            walked = not strings_only or (depth == 1 and level.key == "strings" and is_map)
            if depth > _MAX_KEY_DEPTH or not walked:
                skip(events)  # nothing inside gives a key
                continue
            prefix = None
            if is_map and level.prefix is not None and level.key is not None:
                prefix = f"{level.prefix}{level.key}." if len(level.prefix) + len(level.key) < longest else None
            levels.append(
                _Level(
                    depth,
                    prefix,
                    components=is_map and depth == 1 and level.key == "components",
                    schemas=is_map and level.components and level.key == "schemas",
                )
            )
        elif event in ("end_map", "end_array"):
            levels.pop()
        elif event == "string" and level is not None and level.key == "operationId" and not strings_only:
            yield str(value)


def _flatten(value: object, prefix: str, found: set[str], depth: int) -> None:
    if not isinstance(value, dict) or depth > 32:
        return
    for key, inner in value.items():
        dotted = f"{prefix}{key}"
        found.add(dotted)
        _flatten(inner, dotted + ".", found, depth + 1)


def _values(value: object, name: str, depth: int) -> Iterator[object]:
    if depth > 32:
        return
    if isinstance(value, dict):
        for key, inner in value.items():
            if key == name and isinstance(inner, str):
                yield inner
            else:
                yield from _values(inner, name, depth + 1)
    elif isinstance(value, list):
        for inner in value:
            yield from _values(inner, name, depth + 1)
