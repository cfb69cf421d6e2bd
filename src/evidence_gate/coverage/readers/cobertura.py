"""Cobertura XML, as written by coverage.py (`coverage xml`), c8 and nyc (`cobertura` reporter),
PHPUnit (`--coverage-cobertura`), gcovr, ReportGenerator, cobertura itself and others.

`<coverage>` holds `<sources><source>` (the roots file names are relative to) and `<class
filename="...">` elements whose `<line number="N" hits="H"/>` are the measured lines; a line listed
under a `<method>` and again under its class counts once, executed if either says so. Recognised by
its root element `<coverage>` with Cobertura's `line-rate`, `<sources>` or `<packages>`; Clover also
uses `<coverage>`, but with a `<project>` inside.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from lxml import etree

from evidence_gate.coverage.model import Event, Events, FileHits, Keep, Sieve, SourceRoots, UnreadableReport
from evidence_gate.coverage.readers.base import Reader, check_doctype, local, root_tag, target_events, whole_number
from evidence_gate.summary.xml_documents import hardened_parser
from evidence_gate.workspace import open_resolved

_SOURCES_BYTES = 1024 * 1024


def recognises(head: bytes) -> bool:
    if root_tag(head) != b"coverage":
        return False
    return b"<project" not in head and any(sign in head for sign in (b"line-rate", b"<sources", b"<packages"))


class _Target:
    """Only element starts reach Python (no end, no text): a file is complete when the next class
    starts, or the document ends. The roots come from `<sources>`, read apart (`_roots`)."""

    def __init__(self, keep: Keep) -> None:
        self.keep = keep
        self.keeping = False
        self.sieve: Sieve | None = None
        self.events: list[Event] = []
        self.hits: dict[int, int] = {}
        self.name: str | None = None
        self.files = 0

    def start(self, tag: str, attrib: Mapping[str, str]) -> None:
        if tag == "line":  # the hot path, once per line of the report
            if not self.keeping:
                return
            try:
                line, hit = int(attrib["number"]), int(attrib["hits"])
            except (KeyError, ValueError):
                line, hit = whole_number(attrib.get("number"), "a line's number"), _hits(attrib.get("hits"))
            if line < 0 or hit < 0:
                line, hit = whole_number(str(line), "a line's number"), _hits(str(hit))
            hits = self.hits
            if hit > hits.get(line, -1) and (self.sieve is None or self.sieve.admit(line, hits)):
                hits[line] = hit
            return
        tag = local(tag)
        if tag == "line":
            self.start(tag, attrib)
        elif tag == "class":
            self._flush()
            self.name = attrib.get("filename")
            if not self.name:
                raise UnreadableReport("a <class> has no filename")
            self.sieve = self.keep(self.name)
            self.keeping = self.sieve is not None

    def _flush(self) -> None:
        if self.name:
            self.events.append(FileHits(name=self.name, hits=self.hits))
            self.hits, self.name = {}, None
            self.files += 1

    def close(self) -> None:
        self._flush()


def read(path: Path, keep: Keep) -> Events:
    yield SourceRoots(roots=_roots(path))
    yield from target_events(path, _Target(keep), "a Cobertura report with no <class> element: it measured no file")


def _roots(path: Path) -> tuple[str, ...]:
    """The `<source>` roots. Cobertura writes `<sources>` before any package, so they are read from
    the report's first bytes alone, through the hardened parser."""
    try:
        with open_resolved(path) as handle:
            head = handle.read(_SOURCES_BYTES)
    except OSError as error:
        raise UnreadableReport(f"cannot read ({error.strerror or error})") from error
    check_doctype(head)
    start, end = head.find(b"<sources"), head.find(b"</sources>")
    if start == -1 or end < start:
        return ()
    parser = hardened_parser(("source",))
    try:
        parser.feed(head[start : end + len(b"</sources>")])
        parser.close()
    except etree.XMLSyntaxError as error:
        raise UnreadableReport(f"malformed XML in <sources> ({str(error).splitlines()[0]})") from error
    return tuple(text for _, element in parser.read_events() if (text := (element.text or "").strip()))


def _hits(value: str | None) -> int:
    """A line's hits; some writers print large counts in exponent form ("1.2E+4")."""
    try:
        return whole_number(value, "a line's hits")
    except UnreadableReport:
        try:
            number = float(value or "")
        except ValueError:
            raise UnreadableReport(f"a line's hits is not a number: {(value or '')[:40]!r}") from None
        if not number >= 0:
            raise UnreadableReport(f"a line's hits is not a count: {(value or '')[:40]!r}") from None
        return int(number) if number < 2**62 else 2**62


READER = Reader(name="cobertura", title="Cobertura XML", recognises=recognises, read=read)
