"""JaCoCo XML (`jacoco:report`, Gradle's `jacocoTestReport`, `jacococli report --xml`).

`<report>` holds `<package name="com/example/shop">` elements whose `<sourcefile name="Cart.java">`
list `<line nr="N" mi="missed" ci="covered" .../>`: a line is measured when listed, executed when
`ci` (covered instructions) is above zero. A file is named `package/name`; the source roots it sits
under (`src/main/java`, `src/main/kotlin`, ...) are found when the paths are mapped. JaCoCo writes
a DOCTYPE naming its external `report.dtd`: allowed, never loaded.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from evidence_gate.coverage.model import Event, Events, FileHits, Keep, UnreadableReport
from evidence_gate.coverage.readers.base import Reader, local, root_tag, target_events, whole_number


def recognises(head: bytes) -> bool:
    return root_tag(head) == b"report" and (b"JACOCO" in head or b"<sessioninfo" in head)


class _Target:
    def __init__(self, keep: Keep) -> None:
        self.keep = keep
        self.keeping = False
        self.events: list[Event] = []
        self.package: str | None = None
        self.file: FileHits | None = None
        self.files = 0

    def start(self, tag: str, attrib: Mapping[str, str]) -> None:
        tag = local(tag)
        if tag == "line" and self.file is not None and self.keeping:
            self.file.add(whole_number(attrib.get("nr"), "a line's nr"), whole_number(attrib.get("ci"), "a line's ci"))
        elif tag == "package":
            self.package = attrib.get("name", "")
        elif tag == "sourcefile":
            name = attrib.get("name")
            if not name or self.package is None:
                raise UnreadableReport("a <sourcefile> has no name, or no <package> around it")
            full = f"{self.package}/{name}" if self.package else name
            self.file = FileHits(name=full, sieve=self.keep(full))
            self.keeping = self.file.sieve is not None

    def end(self, tag: str) -> None:
        tag = local(tag)
        if tag == "sourcefile" and self.file is not None:
            self.events.append(self.file)
            self.file = None
            self.files += 1
        elif tag == "package":
            self.package = None

    def close(self) -> None:
        return None


def read(path: Path, keep: Keep) -> Events:
    return target_events(path, _Target(keep), "a JaCoCo report with no <sourcefile> element: it measured no file")


READER = Reader(name="jacoco", title="JaCoCo XML", recognises=recognises, read=read)
