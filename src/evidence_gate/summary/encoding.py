"""Which text encoding a runner's output or report is in, told from its first bytes, and reading it
as UTF-8 in bounded memory.

Windows tools (PowerShell's `>` and `Out-File`, .NET loggers) write UTF-16 with a byte order mark;
XML may also be UTF-16 or UTF-32 without one, which its first characters (`<?xml`) then show (XML
1.0, appendix F). Anything else is read as UTF-8, as runners on every other platform write it.
"""

from __future__ import annotations

import codecs
import io
from typing import BinaryIO

# Longest first: the UTF-32 little-endian mark begins with the UTF-16 one.
_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)
_XML_WITHOUT_BOM = tuple(("<?xml".encode(name), name) for name in ("utf-32-le", "utf-32-be", "utf-16-le", "utf-16-be"))
UTF8 = "utf-8"


def detect_encoding(head: bytes) -> str:
    """The codec to read content starting with `head` with: one that strips a byte order mark, a
    fixed-order UTF-16/32 codec for XML without one, else UTF-8."""
    for bom, name in _BOMS:
        if head.startswith(bom):
            return name
    for start, name in _XML_WITHOUT_BOM:
        if head.startswith(start):
            return name
    return UTF8


def is_wide(encoding: str) -> bool:
    """Whether the encoding is UTF-16 or UTF-32 (a NUL byte is then part of the text, not binary)."""
    return encoding.startswith(("utf-16", "utf-32"))


def wide_name(encoding: str) -> str:
    """How a reason names the encoding: `UTF-16` or `UTF-32`."""
    return encoding[:6].upper()


def decoded_head(head: bytes, encoding: str) -> str:
    """The first bytes as text; a character cut at the end of `head` is dropped, not replaced."""
    return codecs.getincrementaldecoder(encoding)(errors="replace").decode(head, final=False)


def text_reader(handle: BinaryIO, encoding: str) -> io.TextIOWrapper:
    """`handle` as text: undecodable bytes replaced, line endings kept as they are (a bare carriage
    return is a redraw, not a line end)."""
    return io.TextIOWrapper(handle, encoding=encoding, errors="replace", newline="\n")


class Utf8Stream:
    """A file in a wide encoding, read as UTF-8 bytes in pieces of at most `size` characters, for
    readers that take bytes (the XML parser)."""

    def __init__(self, handle: BinaryIO, encoding: str) -> None:
        self._text = text_reader(handle, encoding)

    def read(self, size: int) -> bytes:
        return self._text.read(size).encode(UTF8)
