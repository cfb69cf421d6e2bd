"""JaCoCo XML (`jacoco:report`, Gradle's `jacocoTestReport`, `jacococli report --xml`).

`<report>` holds `<package name="com/example/shop">` elements whose `<sourcefile name="Cart.java">`
list `<line nr="N" mi="missed" ci="covered" .../>`: a line is measured when listed, executed when
`ci` (covered instructions) is above zero. A file is named `package/name`; the source roots it sits
under (`src/main/java`, `src/main/kotlin`, ...) are found when the paths are mapped. JaCoCo writes
a DOCTYPE naming its external `report.dtd`: allowed, never loaded.
"""

from __future__ import annotations

from pathlib import Path

from evidence_gate.coverage.model import Events, FileHits, UnreadableReport
from evidence_gate.coverage.readers.base import Reader, release, root_tag, whole_number, xml_elements

_TAGS = ("line", "sourcefile", "package")


def recognises(head: bytes) -> bool:
    return root_tag(head) == b"report" and (b"JACOCO" in head or b"<sessioninfo" in head)


def read(path: Path) -> Events:
    current = FileHits(name="")
    package = None
    for element in xml_elements(path, _TAGS):
        tag = str(element.tag).rsplit("}", 1)[-1]
        if tag == "line":
            current.add(whole_number(element.get("nr"), "a line's nr"), whole_number(element.get("ci"), "a line's ci"))
            element.clear(keep_tail=False)
        elif tag == "sourcefile":
            parent = element.getparent()
            package = parent.get("name") if parent is not None else None
            name = element.get("name")
            if not name or package is None:
                raise UnreadableReport("a <sourcefile> has no name, or no <package> around it")
            current.name = f"{package}/{name}" if package else name
            yield current
            current = FileHits(name="")
            element.clear(keep_tail=False)
        else:
            release(element)
    if package is None:
        raise UnreadableReport("a JaCoCo report with no <sourcefile> element: it measured no file")


READER = Reader(name="jacoco", title="JaCoCo XML", recognises=recognises, read=read)
