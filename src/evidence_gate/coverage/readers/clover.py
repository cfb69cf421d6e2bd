"""Clover XML, as written by PHPUnit (`--coverage-clover`), nyc and c8 (`clover` reporter),
OpenClover and others.

`<coverage>` holds a `<project>` whose `<file>` elements (in `<package>`s or not) list `<line
num="N" type="stmt|cond|method" count="C"/>`; every listed line is measured, executed when its
count (a condition's `truecount` or `falsecount`) is above zero. A file is named by its `path`, else
its `name` (nyc writes the base name in `name` and the full path in `path`).
"""

from __future__ import annotations

from pathlib import Path

from lxml import etree

from evidence_gate.coverage.model import Events, FileHits, UnreadableReport
from evidence_gate.coverage.readers.base import Reader, release, root_tag, whole_number, xml_elements

_TAGS = ("line", "file")


def recognises(head: bytes) -> bool:
    return root_tag(head) == b"coverage" and b"<project" in head


def read(path: Path) -> Events:
    current = FileHits(name="")
    seen_file = False
    for element in xml_elements(path, _TAGS):
        if element.tag == "line" or str(element.tag).endswith("}line"):
            count = max(_count(element, "count"), _count(element, "truecount"), _count(element, "falsecount"))
            current.add(whole_number(element.get("num"), "a line's num"), count)
            element.clear(keep_tail=False)
            continue
        name = element.get("path") or element.get("name")
        if not name:
            raise UnreadableReport("a <file> has neither a path nor a name")
        current.name = name
        seen_file = True
        yield current
        current = FileHits(name="")
        release(element)
    if not seen_file:
        raise UnreadableReport("a Clover report with no <file> element: it measured no file")


def _count(element: etree._Element, attribute: str) -> int:
    value = element.get(attribute)
    return 0 if value is None else whole_number(value, f"a line's {attribute}")


READER = Reader(name="clover", title="Clover XML", recognises=recognises, read=read)
