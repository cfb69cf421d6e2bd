"""Clover XML, as written by PHPUnit (`--coverage-clover`), nyc and c8 (`clover` reporter),
OpenClover and others.

`<coverage>` holds a `<project>` whose `<file>` elements (in `<package>`s or not) list `<line
num="N" type="stmt|cond|method" count="C"/>`; every listed line is measured, executed when its
count (a condition's `truecount` or `falsecount`) is above zero. A file is named by its `path`, else
its `name` (nyc writes the base name in `name` and the full path in `path`).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from evidence_gate.coverage.model import Event, Events, FileHits, Keep, UnreadableReport
from evidence_gate.coverage.readers.base import Reader, local, root_tag, target_events, whole_number


def recognises(head: bytes) -> bool:
    return root_tag(head) == b"coverage" and b"<project" in head


class _Target:
    def __init__(self, keep: Keep) -> None:
        self.keep = keep
        self.keeping = False
        self.events: list[Event] = []
        self.file: FileHits | None = None
        self.files = 0

    def start(self, tag: str, attrib: Mapping[str, str]) -> None:
        tag = local(tag)
        if tag == "line" and self.file is not None and self.keeping:
            count = max(_count(attrib, "count"), _count(attrib, "truecount"), _count(attrib, "falsecount"))
            self.file.add(whole_number(attrib.get("num"), "a line's num"), count)
        elif tag == "file":
            name = attrib.get("path") or attrib.get("name")
            if not name:
                raise UnreadableReport("a <file> has neither a path nor a name")
            self.file = FileHits(name=name, sieve=self.keep(name))
            self.keeping = self.file.sieve is not None

    def end(self, tag: str) -> None:
        if local(tag) == "file" and self.file is not None:
            self.events.append(self.file)
            self.file = None
            self.files += 1

    def close(self) -> None:
        return None


def read(path: Path, keep: Keep) -> Events:
    return target_events(path, _Target(keep), "a Clover report with no <file> element: it measured no file")


def _count(attrib: Mapping[str, str], name: str) -> int:
    value = attrib.get(name)
    return 0 if value is None else whole_number(value, f"a line's {name}")


READER = Reader(name="clover", title="Clover XML", recognises=recognises, read=read)
