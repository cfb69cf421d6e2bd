"""The XML documents of one file, streamed as UTF-8 in bounded memory, and the safety every XML
report reader shares (JUnit, NUnit, xUnit.net, TRX).

Several documents may be concatenated in one file (libtest writes one per test binary): they are
split at each XML declaration that does not open the current document. A file in UTF-16 or UTF-32
(see `encoding`) is transcoded as it is read, and each document's declaration then says UTF-8, so
the XML parser reads the bytes as what they now are.

A report is untrusted input. `stream_report` parses it with libxml2 through lxml with no network, no
DTD loading and no entity resolution, and refuses a document that declares a DOCTYPE at all (no
test report needs one; every XML entity attack needs one). Only the elements a reader asks for reach
Python, as each ends; the reader releases what it has read (`release`), so a report of any size is
read in bounded memory. Names and messages a reader keeps are cut (`capped`), and so are its notes.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO, Protocol, TypedDict, cast

from lxml import etree

if TYPE_CHECKING:
    from lxml.etree._parser import CustomTargetParser

from evidence_gate.summary.encoding import Utf8Stream, detect_encoding, is_wide
from evidence_gate.workspace import Refused, open_resolved

CHUNK_BYTES = 4 * 1024 * 1024  # fewer Python round trips per GB; still a bounded buffer
_DECLARATION = b"<?xml"
# A declaration that starts a document: `<?xml` then white space, not a processing instruction whose
# name starts so (`<?xml-stylesheet ...?>`, which Check writes after its declaration).
_NEXT_DECLARATION = re.compile(rb"<\?xml[ \t\r\n]")
_BOM = b"\xef\xbb\xbf"
_DECLARATION_END = b"?>"
_MAX_DECLARATION_BYTES = 1024
# The encoding pseudo-attribute of a transcoded document's declaration, which must then say UTF-8.
_DECLARED_ENCODING = re.compile(rb"""(<\?xml[^>]*?encoding\s*=\s*)(["'])[^"']*\2""")
_DOCTYPE = b"<!DOCTYPE"
DOCTYPE_REFUSAL = "the report declares a DOCTYPE; test reports never need one, so it is refused"
_ROOT_NAME = re.compile(rb"<([A-Za-z_][\w.:-]*)")
_SUBSET_END = re.compile(rb"\]\s*>")
MAX_FIELD_CHARS = 1000
MAX_NOTES = 20


class _Hardening(TypedDict):
    resolve_entities: bool
    no_network: bool
    load_dtd: bool
    dtd_validation: bool
    huge_tree: bool
    remove_comments: bool
    remove_pis: bool


_HARDENED = _Hardening(
    resolve_entities=False,
    no_network=True,
    load_dtd=False,
    dtd_validation=False,
    huge_tree=False,
    remove_comments=True,
    remove_pis=True,
)


def hardened_parser(tags: tuple[str, ...]) -> etree.XMLPullParser:
    """A streaming parser for untrusted reports: libxml2 with no network, no DTD loaded, no entity
    resolved, no huge-tree mode, comments and processing instructions dropped. Only the ends of
    elements of these local names (any namespace) reach Python: libxml2 skips the rest in C."""
    return etree.XMLPullParser(events=("end",), tag=[f"{{*}}{name}" for name in tags], **_HARDENED)


def hardened_target_parser(target: object) -> CustomTargetParser[None]:
    """The same hardening as `hardened_parser`, for a reader that takes each element's start, end and
    text as calls on `target` (lxml's parser target): no tree is built at all, so a report of any
    size costs the reader's own state, and a line element one call."""
    # lxml calls only the methods a target has; the stubs' protocol lists every one there is.
    return etree.XMLParser(target=cast("etree.ParserTarget[None]", target), **_HARDENED)


def utf8_documents(handle: BinaryIO) -> Iterator[Iterator[bytes]]:
    """Each document of the file, as UTF-8 bytes in pieces."""
    encoding = detect_encoding(handle.read(len(_DECLARATION) * 4))
    handle.seek(0)
    if not is_wide(encoding):
        yield from _Documents(handle)
        return
    for document in _Documents(Utf8Stream(handle, encoding)):
        yield _declared_utf8(document)


def _declared_utf8(pieces: Iterator[bytes]) -> Iterator[bytes]:
    """A transcoded document whose declaration, gathered whole first, says UTF-8."""
    head: bytes | None = b""
    for piece in pieces:
        if head is None:
            yield piece
            continue
        head += piece
        if _DECLARATION_END in head or len(head) > _MAX_DECLARATION_BYTES:
            yield _DECLARED_ENCODING.sub(rb"\1\2UTF-8\2", head, count=1)
            head = None
    if head:
        yield _DECLARED_ENCODING.sub(rb"\1\2UTF-8\2", head, count=1)


class _Readable(Protocol):
    def read(self, size: int, /) -> bytes: ...


class _Documents:
    """Splits a byte stream into XML documents at each XML declaration that does not open the
    current document, without holding more than a chunk in memory."""

    def __init__(self, handle: _Readable) -> None:
        self.handle = handle
        self.buffer = b""
        self.eof = False

    def _fill(self) -> None:
        if not self.eof:
            more = self.handle.read(CHUNK_BYTES)
            self.buffer += more
            self.eof = not more

    def __iter__(self) -> Iterator[Iterator[bytes]]:
        while True:
            while not self.eof and len(self.buffer.lstrip()) < len(_DECLARATION):
                self._fill()
            self.buffer = self.buffer.lstrip()
            if not self.buffer:
                return
            yield self._document()

    def _document(self) -> Iterator[bytes]:
        body = self.buffer[len(_BOM) :] if self.buffer.startswith(_BOM) else self.buffer
        search_from = len(self.buffer) - len(body) + (len(_DECLARATION) if body.startswith(_DECLARATION) else 0)
        keep = len(_DECLARATION)
        while True:
            found = _NEXT_DECLARATION.search(self.buffer, search_from)
            boundary = found.start() if found else -1
            if boundary != -1:
                piece, self.buffer = self.buffer[:boundary], self.buffer[boundary:]
                yield piece
                return
            if self.eof:
                piece, self.buffer = self.buffer, b""
                yield piece
                return
            cut = max(0, len(self.buffer) - keep)
            piece, self.buffer = self.buffer[:cut], self.buffer[cut:]
            search_from = max(0, search_from - cut)
            if piece:
                yield piece
            self._fill()


class UnreadableReport(Exception):
    """The report cannot be counted (its one-line reason is the message): a reader raises it from its
    element handler, and `stream_report` returns the reason."""


class UnsafeReport(UnreadableReport):
    """The report declares a DOCTYPE (and with it, possibly entities): refused before any use."""


def stream_report(
    path: Path,
    tags: tuple[str, ...],
    on_element: Callable[[etree._Element], None],
    on_document: Callable[[bytes], None] | None = None,
) -> str | None:
    """Read every document of the report at `path`: `on_document` is handed each document's first
    bytes before any of its elements, and `on_element` each element of `tags` (local names, any
    namespace) as it ends. The reason the report cannot be read, or None once it has been."""
    try:
        with open_resolved(path) as handle:
            for document in utf8_documents(handle):
                _stream_document(document, tags, on_element, on_document)
    except (UnreadableReport, Refused) as refusal:
        return str(refusal)
    except etree.XMLSyntaxError as error:
        return f"malformed XML ({one_line(str(error))})"
    except OSError as error:
        return f"cannot read ({error.strerror or error})"
    return None


def refuse_doctype(first_piece: bytes) -> None:
    """Refuse a document whose first piece declares a DOCTYPE before its root element."""
    if _DOCTYPE in first_piece[: first_piece.find(b"<", first_piece.find(b"?>") + 1) + len(_DOCTYPE) + 1]:
        raise UnsafeReport(DOCTYPE_REFUSAL)


def _stream_document(
    pieces: Iterator[bytes],
    tags: tuple[str, ...],
    on_element: Callable[[etree._Element], None],
    on_document: Callable[[bytes], None] | None,
) -> None:
    parser = hardened_parser(tags)
    checked = False
    fed = False
    for piece in pieces:
        if not fed:
            if not piece.strip():
                continue
            refuse_doctype(piece)
            if on_document is not None:
                on_document(piece)
            fed = True
        parser.feed(piece)
        checked = _hand_over(parser, on_element, checked)
    if fed:
        parser.close()
        _hand_over(parser, on_element, checked)


def _hand_over(parser: etree.XMLPullParser, on_element: Callable[[etree._Element], None], checked: bool) -> bool:
    """Each element parsed so far to `on_element`, once the document is known to declare no DOCTYPE."""
    for _, element in parser.read_events():
        if not checked:
            docinfo = element.getroottree().docinfo
            if docinfo.doctype or docinfo.internalDTD is not None:
                raise UnsafeReport(DOCTYPE_REFUSAL)
            checked = True
        on_element(element)
    return checked


def root_name(head: bytes) -> bytes | None:
    """The local name of the root element, from a document's first bytes (UTF-8): past a byte order
    mark, the XML declaration, comments, processing instructions and a DOCTYPE (which the reader
    then refuses, with the reason). None when the head holds no element start."""
    at = len(_BOM) if head.startswith(_BOM) else 0
    while True:
        while head[at : at + 1].isspace():
            at += 1
        if head.startswith(b"<?", at):
            end = head.find(b"?>", at)
            at = end + 2 if end != -1 else -1
        elif head.startswith(b"<!--", at):
            end = head.find(b"-->", at)
            at = end + 3 if end != -1 else -1
        elif head.startswith(_DOCTYPE, at):
            close, subset = head.find(b">", at), head.find(b"[", at)
            if subset != -1 and (close == -1 or subset < close):
                found = _SUBSET_END.search(head, subset)
                close = found.end() - 1 if found else -1
            at = close + 1 if close != -1 else -1
        else:
            break
        if at == -1:
            return None
    match = _ROOT_NAME.match(head, at)
    return match.group(1).rpartition(b":")[2] if match else None


def local_name(tag: object) -> str:
    """`{namespace}name` -> `name`; plain names (the common case) cost one comparison."""
    if not isinstance(tag, str):
        return ""
    return tag[tag.index("}") + 1 :] if tag[:1] == "{" else tag


def release(element: etree._Element) -> None:
    """Free what has been read: the element's content and the siblings before it."""
    element.clear(keep_tail=False)
    parent = element.getparent()
    if parent is not None:
        while element.getprevious() is not None:
            del parent[0]


def capped(text: str, more: int = 0) -> str:
    """`text`, cut at MAX_FIELD_CHARS with the number of characters left out (`more` of them
    already were): a report may hold megabyte names and messages."""
    if len(text) + more <= MAX_FIELD_CHARS:
        return text
    return f"{text[:MAX_FIELD_CHARS]}… {len(text) + more - MAX_FIELD_CHARS} more characters"


def whole_number(value: str | None) -> int | None:
    """An attribute as an integer; None when absent or not a number."""
    try:
        return int(value) if value is not None else None
    except ValueError:
        return None


def one_line(text: str) -> str:
    return " ".join(text.split())


def capped_notes(notes: list[str]) -> tuple[str, ...]:
    """At most MAX_NOTES notes, and how many more there were."""
    if len(notes) <= MAX_NOTES:
        return tuple(notes)
    return (*notes[:MAX_NOTES], f"... and {len(notes) - MAX_NOTES} more notes")
