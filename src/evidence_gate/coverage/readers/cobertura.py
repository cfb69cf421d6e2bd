"""Cobertura XML, as written by coverage.py (`coverage xml`), c8 and nyc (`cobertura` reporter),
PHPUnit (`--coverage-cobertura`), gcovr, ReportGenerator, cobertura itself and others.

`<coverage>` holds `<sources><source>` (the roots file names are relative to) and `<class
filename="...">` elements whose `<line number="N" hits="H"/>` are the measured lines; a line listed
under a `<method>` and again under its class counts once, executed if either says so. Recognised by
its root element `<coverage>` with Cobertura's `line-rate`, `<sources>` or `<packages>`; Clover also
uses `<coverage>`, but with a `<project>` inside.
"""

from __future__ import annotations

from pathlib import Path

from evidence_gate.coverage.model import Events, FileHits, SourceRoots, UnreadableReport
from evidence_gate.coverage.readers.base import Reader, release, root_tag, whole_number, xml_elements

_TAGS = ("source", "sources", "line", "class")


def recognises(head: bytes) -> bool:
    if root_tag(head) != b"coverage":
        return False
    return b"<project" not in head and any(sign in head for sign in (b"line-rate", b"<sources", b"<packages"))


def read(path: Path) -> Events:
    roots: list[str] = []
    current = FileHits(name="")
    seen_class = False
    for element in xml_elements(path, _TAGS):
        tag = element.tag if isinstance(element.tag, str) else ""
        tag = tag.rsplit("}", 1)[-1]
        if tag == "line":
            current.add(whole_number(element.get("number"), "a line's number"), _hits(element.get("hits")))
            element.clear(keep_tail=False)
        elif tag == "class":
            name = element.get("filename")
            if not name:
                raise UnreadableReport("a <class> has no filename")
            current.name = name
            seen_class = True
            yield current
            current = FileHits(name="")
            release(element)
        elif tag == "source":
            if element.text and element.text.strip():
                roots.append(element.text.strip())
        elif tag == "sources":
            yield SourceRoots(roots=tuple(roots))
            release(element)
    if not seen_class:
        raise UnreadableReport("a Cobertura report with no <class> element: it measured no file")


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
