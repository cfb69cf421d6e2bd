"""What a coverage reader is, and the pieces the XML readers share."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from lxml import etree

from evidence_gate.coverage.model import Event, Events, Keep, UnreadableReport
from evidence_gate.summary.xml_documents import hardened_target_parser, utf8_documents
from evidence_gate.workspace import open_resolved

_QUOTED = r"""(?:"[^"]*"|'[^']*')"""
# A DOCTYPE that only names an external DTD (JaCoCo's `report.dtd`, old Cobertura's URL), which is never loaded.
_EXTERNAL_ONLY = re.compile(
    rf"<!DOCTYPE\s+[\w:.-]+(?:\s+(?:SYSTEM\s+{_QUOTED}|PUBLIC\s+{_QUOTED}\s+{_QUOTED}))?\s*>".encode()
)
_DOCTYPE = b"<!DOCTYPE"
_REFUSED = (
    "the report's DOCTYPE declares an internal subset (where entities are defined), or is not a plain "
    "external one; no coverage tool writes that, so it is refused"
)


@dataclass(frozen=True, kw_only=True)
class Reader:
    """A report format: how its first bytes look, and how its files stream out."""

    name: str
    title: str
    recognises: Callable[[bytes], bool]
    read: Callable[[Path, Keep], Events]


class Target(Protocol):
    """An XML reader's state, fed by the parser with each element's start (and, where the target has
    them, `end(tag)` and `data(text)`: lxml calls only the methods a target defines)."""

    events: list[Event]
    files: int  # files read so far

    def start(self, tag: str, attrib: Mapping[str, str]) -> None: ...

    def close(self) -> None: ...


def xml_events(path: Path, target: Target) -> Events:
    """The events `target` makes of the report, as the report streams through the hardened parser
    (one parser target call per element, no tree). A DOCTYPE that only names an external DTD is
    allowed and never loaded; any other DOCTYPE is refused before a byte is parsed."""
    try:
        with open_resolved(path) as handle:
            for document in utf8_documents(handle):
                parser = hardened_target_parser(target)
                prolog = True
                for piece in document:
                    if prolog and piece.strip():
                        check_doctype(piece)
                        prolog = False
                    parser.feed(piece)
                    yield from _drain(target)
                parser.close()
                yield from _drain(target)
    except etree.XMLSyntaxError as error:
        raise UnreadableReport(f"malformed XML ({str(error).splitlines()[0]})") from error
    except OSError as error:
        raise UnreadableReport(f"cannot read ({error.strerror or error})") from error


def target_events(path: Path, target: Target, empty: str) -> Events:
    """`xml_events`, and `empty` as the reason the report is unreadable when it names no file."""
    yield from xml_events(path, target)
    if not target.files:
        raise UnreadableReport(empty)


def _drain(target: Target) -> list[Event]:
    events, target.events = target.events, []
    return events


def check_doctype(head: bytes) -> None:
    """Refuse a DOCTYPE in a document's first bytes unless it only names an external DTD."""
    start = head.find(_DOCTYPE)
    if start == -1 or start > head.find(b"<", head.find(b"?>") + 1):
        return  # none, or (after the root element's start) text, not a declaration
    if _EXTERNAL_ONLY.match(head, start) is None:
        raise UnreadableReport(_REFUSED)


def local(tag: str) -> str:
    """`{namespace}name` -> `name`."""
    return tag[tag.index("}") + 1 :] if tag[:1] == "{" else tag


def whole_number(value: str | None, what: str) -> int:
    """An attribute that must hold a whole number; a report that breaks this is unreadable, never guessed."""
    try:
        number = int(value or "")
    except ValueError:
        raise UnreadableReport(f"{what} is not a whole number: {(value or '')[:40]!r}") from None
    if number < 0:
        raise UnreadableReport(f"{what} is negative: {number}")
    return number


def root_tag(head: bytes) -> bytes | None:
    """The name of the first element in an XML document's first bytes (after the declaration,
    comments and a DOCTYPE), or None when the bytes are not XML."""
    text = head.lstrip(b"\xef\xbb\xbf \t\r\n")
    if not text.startswith(b"<"):
        return None
    position = 0
    while True:
        start = text.find(b"<", position)
        if start == -1 or start + 1 >= len(text):
            return None
        following = text[start + 1 : start + 2]
        if following in (b"?", b"!"):
            comment = text.startswith(b"<!--", start)
            end = text.find(b"-->" if comment else b">", start) + (2 if comment else 0)
            if end < start:
                return None
            position = end + 1
            continue
        name = text[start + 1 :].split(None, 1)[0].split(b">", 1)[0].split(b"/", 1)[0]
        return name.rsplit(b":", 1)[-1]
