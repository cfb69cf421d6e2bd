"""The XML documents of one file, streamed as UTF-8 in bounded memory.

Several documents may be concatenated in one file (libtest writes one per test binary): they are
split at each XML declaration that does not open the current document. A file in UTF-16 or UTF-32
(see `encoding`) is transcoded as it is read, and each document's declaration then says UTF-8, so
the XML parser reads the bytes as what they now are.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import TYPE_CHECKING, BinaryIO, Protocol, TypedDict, cast

from lxml import etree

if TYPE_CHECKING:
    from lxml.etree._parser import CustomTargetParser

from evidence_gate.summary.encoding import Utf8Stream, detect_encoding, is_wide

CHUNK_BYTES = 4 * 1024 * 1024  # fewer Python round trips per GB; still a bounded buffer
_DECLARATION = b"<?xml"
_BOM = b"\xef\xbb\xbf"
_DECLARATION_END = b"?>"
_MAX_DECLARATION_BYTES = 1024
# The encoding pseudo-attribute of a transcoded document's declaration, which must then say UTF-8.
_DECLARED_ENCODING = re.compile(rb"""(<\?xml[^>]*?encoding\s*=\s*)(["'])[^"']*\2""")


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
        keep = len(_DECLARATION) - 1
        while True:
            boundary = self.buffer.find(_DECLARATION, search_from)
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
