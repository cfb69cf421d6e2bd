"""The keys a truth-source file defines, by its format: Apple `.strings`, `.stringsdict` and
`.xcstrings`; Android resources (`<string name=…>`, `<plurals>`, `<string-array>`) and .NET `.resx`
(`<data name=…>`); i18n JSON and Flutter `.arb` (nested keys joined with dots); Rails YAML (with and
without the locale's own top key); gettext `.po`/`.pot` (`msgid`); XLIFF (`id`, `resname`); Laravel
PHP arrays (`file.key`); and OpenAPI documents (`operationId`, schema names).

Each file is the pull request's, so it is read as hostile: bounded, XML through the hardened
parser with any internal DTD refused, YAML and JSON through the bounded loaders. A file that cannot
be read raises `Unreadable`, with the reason, and is never taken as defining nothing.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import PurePosixPath

from lxml import etree

from evidence_gate.coverage.model import UnreadableReport
from evidence_gate.coverage.readers.base import check_doctype, local
from evidence_gate.documents import load_json, load_yaml
from evidence_gate.errors import EvidenceGateError, UsageError
from evidence_gate.summary.xml_documents import hardened_parser

MAX_SOURCE_BYTES = 32 * 1024 * 1024
_STRINGS_KEY = re.compile(r'^\s*"((?:[^"\\]|\\.)*)"\s*=', re.MULTILINE)
_PO_ID = re.compile(r'^msgid\s+"((?:[^"\\]|\\.)*)"', re.MULTILINE)
_PHP_KEY = re.compile(r"""['"]([\w.-]+)['"]\s*=>""")
_XML_NAMED = {"string", "plurals", "string-array", "integer-array", "array", "data"}


class Unreadable(Exception):
    """A truth source that could not be read; its message says why."""


def keys(path: str, content: bytes) -> frozenset[str]:
    """Every key `content` (the file at `path`) defines."""
    if len(content) > MAX_SOURCE_BYTES:
        raise Unreadable(f"larger than {MAX_SOURCE_BYTES:,} bytes")
    name = PurePosixPath(path)
    suffix, stem = name.suffix.lower(), name.stem
    try:
        if suffix == ".strings":
            return frozenset(_unescape(key) for key in _STRINGS_KEY.findall(_text(content)))
        if suffix in {".po", ".pot"}:
            return frozenset(_unescape(key) for key in _PO_ID.findall(_text(content)) if key)
        if suffix == ".php":
            return frozenset(f"{stem}.{key}" for key in _PHP_KEY.findall(_text(content)))
        if suffix in {".xml", ".resx", ".xlf", ".xliff"}:
            return frozenset(_xml_keys(content))
        if suffix == ".stringsdict":
            return frozenset(_plist_keys(content))
        if suffix in {".json", ".arb", ".xcstrings"}:
            return _structured(load_json(_text(content).encode("utf-8"), path, UsageError), suffix, stem)
        if suffix in {".yml", ".yaml"}:
            return _structured(load_yaml(content, path, UsageError), suffix, stem)
    except (ValueError, UnreadableReport, etree.XMLSyntaxError, EvidenceGateError) as error:
        raise Unreadable(str(error).splitlines()[0][:200] if str(error) else type(error).__name__) from error
    raise Unreadable(f"no reader for {suffix or name.name} files")


def _text(content: bytes) -> str:
    """`.strings` files are often UTF-16, with their byte-order mark."""
    if content.startswith((b"\xff\xfe", b"\xfe\xff")):
        return content.decode("utf-16")
    return content.decode("utf-8-sig")


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


def _structured(document: object, suffix: str, stem: str) -> frozenset[str]:
    if suffix == ".xcstrings":
        strings = document.get("strings") if isinstance(document, dict) else None
        return frozenset(str(key) for key in strings) if isinstance(strings, dict) else frozenset()
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
    if suffix == ".arb":
        found = {key for key in found if not key.startswith("@")}
    return frozenset(found | {f"{stem}:{key}" for key in found})  # i18next namespaces: `common:title`


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
