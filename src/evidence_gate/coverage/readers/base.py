"""What a coverage reader is, and the pieces the XML readers share."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from lxml import etree

from evidence_gate.coverage.model import Events, UnreadableReport
from evidence_gate.summary.xml_documents import hardened_parser, utf8_documents
from evidence_gate.workspace import open_resolved

_INTERNAL_SUBSET = (
    "the report's DOCTYPE declares an internal subset (where entities are defined); "
    "no coverage tool writes one, so it is refused"
)


@dataclass(frozen=True, kw_only=True)
class Reader:
    """A report format: how its first bytes look, and how its files stream out."""

    name: str
    title: str
    recognises: Callable[[bytes], bool]
    read: Callable[[Path], Events]


def xml_elements(path: Path, tags: tuple[str, ...]) -> Iterator[etree._Element]:
    """The end of each element of these names, streamed through the hardened parser; the caller
    clears what it has read (`release`). A DOCTYPE naming an external DTD (JaCoCo's, old
    Cobertura's) is allowed, never loaded; one with an internal subset is refused."""
    try:
        with open_resolved(path) as handle:
            for document in utf8_documents(handle):
                parser = hardened_parser(tags)
                checked = False
                for piece in document:
                    parser.feed(piece)
                    for _, element in parser.read_events():
                        if not checked:
                            _check_doctype(element)
                            checked = True
                        yield element
                parser.close()
                for _, element in parser.read_events():
                    yield element
    except etree.XMLSyntaxError as error:
        raise UnreadableReport(f"malformed XML ({str(error).splitlines()[0]})") from error
    except OSError as error:
        raise UnreadableReport(f"cannot read ({error.strerror or error})") from error


def _check_doctype(element: etree._Element) -> None:
    """libxml2 keeps an external-only DOCTYPE as an empty internal DTD: refused only if it declares anything."""
    subset = element.getroottree().docinfo.internalDTD
    if subset is not None and (any(True for _ in subset.iterentities()) or subset.elements()):
        raise UnreadableReport(_INTERNAL_SUBSET)


def release(element: etree._Element) -> None:
    """Free an element read, and the siblings read before it."""
    element.clear(keep_tail=False)
    parent = element.getparent()
    if parent is not None:
        while element.getprevious() is not None:
            del parent[0]


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
