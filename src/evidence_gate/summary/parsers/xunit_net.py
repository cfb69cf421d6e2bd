"""xUnit.net XML: the v2 format (`<assemblies><assembly><collection><test>`), written by
`xunit.console -xml`, `dotnet test --logger xunit` (XunitXml.TestLogger), xUnit.net v3 and Fixie;
xUnit.net 1's `<assembly><class><test>` is read alike.

Counting: each `<test>` is one test, by its `result`: `Pass` is passed, `Fail` failed, `Skip`
skipped, and `NotRun` (v3: an explicit test left out of the run) skipped. A theory's data rows are
each a `<test>` of their own, so a parameterised test counts each row. A word xUnit.net does not
define makes the report unparsed, with the word: guessing it could pass a run.

Errors count as failed: an assembly's `<errors>` list the failures outside any test (a test class's
or collection's clean-up that threw, a fixture that could not be built, a fatal error of the
runner), and xUnit.net fails the run for them. An assembly with such an error, or (xUnit.net 1) a
`<class>` with a `<failure>` of its own, and no failed test counts one failed test: something failed
that no test shows.

Each assembly's declared `total` and `failed` are only compared with its tests, and a disagreement
is noted (the tests win).

A test is named by its `name` (the display name the runner prints, usually `Namespace.Class.Method`
with a theory's arguments), with its `type` as the class; `source-file` and `source-line` give its
place where the runner wrote them; a failed test carries its `<failure><message>`. Read as every
XML report is read (see `xml_documents`): hardened, streamed, a DOCTYPE refused, UTF-16 and UTF-32
transcoded.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar

from lxml import etree

from evidence_gate.summary.base import CaseResult, clip
from evidence_gate.summary.xml_documents import capped, local_name, one_line, release, whole_number
from evidence_gate.summary.xml_reports import CaseReportParser, CaseScan, outcome_of

_OUTCOMES = {"Pass": "passed", "Fail": "failed", "Skip": "skipped", "NotRun": "skipped"}


@dataclass
class _Scan(CaseScan):
    """`start` is where the current assembly began."""

    errors: int = 0  # failures outside any test in the current assembly
    first_error: str = ""

    def document_starts(self, head: bytes) -> None:
        super().document_starts(head)
        self.errors, self.first_error = 0, ""

    def element(self, element: etree._Element) -> None:
        local = local_name(element.tag)
        parent = element.getparent()
        parent_tag = local_name(parent.tag) if parent is not None else ""
        if local == "test":
            self._test(element)
        elif local == "assembly":
            self._assembly_ends(element)
        elif local == "assemblies":
            self.tally.saw_report = True
        elif (local == "error" and parent_tag == "errors") or (local == "failure" and parent_tag == "class"):
            self.errors += 1
            if not self.first_error:
                what = element.get("type") or element.get("exception-type") or local
                self.first_error = f"{clip(what, 100)}: {clip(one_line(element.findtext('.//message') or ''), 100)}"
        if local in ("test", "collection", "class"):
            release(element)

    def _test(self, element: etree._Element) -> None:
        name = capped(element.get("name") or "")
        outcome = outcome_of(element.get("result"), _OUTCOMES, f"test {name!r}")
        file, line = element.get("source-file"), whole_number(element.get("source-line"))
        self.count(
            element,
            outcome,
            name,
            classname=capped(element.get("type") or ""),
            message_at="failure/message",
            file=capped(file) if file else None,
            line=line if line and line > 0 else None,
            shown_as=name.strip() or None,
        )

    def _assembly_ends(self, element: etree._Element) -> None:
        """The assembly's declared totals checked, and its errors counted when no test of it failed."""
        self.tally.saw_report = True
        where = f"assembly {capped(element.get('name') or '(unnamed)')!r}"
        tests, failed = whole_number(element.get("total")), whole_number(element.get("failed"))
        self.tally.check_declared(where, self.start, tests, failed)
        if self.errors:
            errors = "an error" if self.errors == 1 else f"{self.errors} errors"
            said = f"reports {errors} outside its tests (the first: {self.first_error})"
            self.tally.run_failed(where, self.start, said)
        self.start, self.errors, self.first_error = self.tally.mark(), 0, ""
        if element.getparent() is not None:
            release(element)


class XunitNetParser(CaseReportParser):
    name: ClassVar[str] = "xunit-net"
    trusts: ClassVar[str] = (
        "each <test> by its `result`; an assembly's <errors> without a failed test as one failed test; the"
        " declared totals only cross-check"
    )
    roots: ClassVar[frozenset[bytes]] = frozenset({b"assemblies", b"assembly"})
    tags: ClassVar[tuple[str, ...]] = ("assemblies", "assembly", "collection", "class", "test", "error", "failure")
    missing: ClassVar[str] = "not an xUnit.net report (no <assemblies> or <assembly> root)"

    def scan(self, on_case: Callable[[CaseResult], None] | None) -> CaseScan:
        return _Scan(on_case)


PARSER = XunitNetParser()
