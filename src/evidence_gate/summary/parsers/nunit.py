"""NUnit XML: NUnit 3's `<test-run>` (the console runner's `TestResult.xml`, the NUnit3TestAdapter's
`--logger nunit`), a bare NUnit 3 `<test-suite>` written without its run, and NUnit 2's
`<test-results>`.

Counting: each `<test-case>` is one test; the `<test-suite>` elements around them (assemblies,
fixtures, a parameterised method's or a theory's cases, a generic method's) are never counted, so a
parameterised test counts each of its cases. A case's outcome is its `result`:

- NUnit 3: `Passed` is passed; `Warning` (a test that passed and issued a warning, which NUnit does
  not count as a failure) is passed; `Failed` is failed whatever its `label` (`Error`, `Invalid`
  for a test NUnit cannot run, `Cancelled`); `Skipped` is skipped whatever its label (`Ignored`,
  `Explicit`, and `Invalid` as early NUnit 3 wrote a test it could not run); `Inconclusive` is
  skipped: it neither passed nor failed, and NUnit does not fail the run for it.
- NUnit 2: `Success` is passed; `Failure`, `Error` and `Cancelled` are failed; `NotRunnable` (a
  test NUnit cannot run: a bad signature or arguments) is failed, as NUnit 2's console counts it in
  its failing exit code; `Ignored`, `Skipped` and `Inconclusive` are skipped. NUnit 2.2 and earlier
  write no `result`: `executed="False"` is skipped, else `success` (`True` or `False`, in any case)
  says passed or failed; where even that is missing (the schema makes it optional), a `<failure>`
  child says failed and its absence passed.

A word NUnit does not define makes the report unparsed, with the word: guessing it could pass a run.

A run the report marks failed with no failed test case counts one failed test: a `<test-run>` (or a
bare root `<test-suite>`) whose `result` is `Failed`, or an assembly suite directly under the run
(NUnit 2: its root suite) whose `result` is `Failed`, `Failure`, `Error`, `Cancelled` or
`NotRunnable`, or whose `success` is `False`: a one-time tear-down that threw, a fixture that could
not be set up and listed no case. (A one-time set-up failure marks each case of the fixture failed,
and those are counted.)

The declared totals are only compared with the test cases, and a disagreement is noted (the test
cases win): NUnit 3's `total` and `failed`; NUnit 2's `total` plus `not-run` (its `total` counts
the tests run) and `errors` plus `failures` plus `invalid`.

A case is named by its `name` and, in NUnit 3, its `classname` (NUnit 2 writes the full name as the
`name`); a failed case carries its `<failure><message>`. Read as every XML report is read (see
`xml_documents`): hardened, streamed, a DOCTYPE refused, UTF-16 and UTF-32 transcoded.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar

from lxml import etree

from evidence_gate.summary.base import CaseResult, clip
from evidence_gate.summary.xml_documents import capped, local_name, release, whole_number
from evidence_gate.summary.xml_reports import CaseReportParser, CaseScan, outcome_of

_OUTCOMES = {
    "Passed": "passed",
    "Warning": "passed",
    "Failed": "failed",
    "Skipped": "skipped",
    "Inconclusive": "skipped",
    "Success": "passed",
    "Failure": "failed",
    "Error": "failed",
    "Cancelled": "failed",
    "NotRunnable": "failed",
    "Ignored": "skipped",
}
_SUCCESS = {"true": "passed", "false": "failed"}  # NUnit 2.2 and earlier; some writers spell it in lower case
_FAILED_SUITE = frozenset({"Failure", "Error", "Cancelled", "NotRunnable"})  # NUnit 2's; NUnit 3's begin `Failed`
_RUNS = frozenset({"test-run", "test-results"})


@dataclass
class _Scan(CaseScan):
    run_failure: tuple[str, str] | None = None  # the first suite of this run marked failed, and how

    def document_starts(self, head: bytes) -> None:
        super().document_starts(head)
        self.run_failure = None

    def element(self, element: etree._Element) -> None:
        local = local_name(element.tag)
        parent = element.getparent()
        if local == "test-case":
            self._case(element)
        elif self.run_failure is None and local == "test-suite" and _failing(element) and _outermost(parent):
            self.run_failure = (f"suite {capped(element.get('name') or '(unnamed)')!r}", _marked(element))
        if parent is not None:
            release(element)
        elif local != "test-case":
            self._document_ends(element, local)

    def _case(self, element: etree._Element) -> None:
        name = capped(element.get("name") or "")
        result = element.get("result")
        if result is not None:
            outcome = outcome_of(result, _OUTCOMES, f"test case {name!r}")
        elif (element.get("executed") or "").lower() == "false":
            outcome = "skipped"
        elif (success := element.get("success")) is not None:
            outcome = outcome_of(success.lower(), _SUCCESS, f"test case {name!r}")
        else:
            outcome = "failed" if element.find("failure") is not None else "passed"
        classname = capped(element.get("classname") or "")
        self.count(element, outcome, name, classname=classname, message_at="failure/message")

    def _document_ends(self, root: etree._Element, local: str) -> None:
        """The run's declared totals checked, and a run marked failed without a failed case counted."""
        self.tally.saw_report = True
        where = f"the <{local}>"
        if local == "test-results":
            tests = whole_number(root.get("total"))
            not_run = whole_number(root.get("not-run")) or 0
            failures = [whole_number(root.get(key)) for key in ("errors", "failures", "invalid") if root.get(key)]
            failed = sum(number or 0 for number in failures) if failures else None
            self.tally.check_declared(where, self.start, tests + not_run if tests is not None else None, failed)
        else:
            tests, failed = whole_number(root.get("total")), whole_number(root.get("failed"))
            self.tally.check_declared(where, self.start, tests, failed)
            if _failing(root):
                self.run_failure = (where, _marked(root))
        if self.run_failure is not None:
            suite, said = self.run_failure
            self.tally.run_failed(suite, self.start, said)


def _outermost(parent: etree._Element | None) -> bool:
    """Whether a suite under `parent` is the run's own: its root, or an assembly directly under the run."""
    return parent is None or local_name(parent.tag) in _RUNS


def _failing(suite: etree._Element) -> bool:
    result = suite.get("result")
    if result is None:
        return (suite.get("success") or "").lower() == "false"
    return result.startswith("Failed") or result in _FAILED_SUITE


def _marked(suite: etree._Element) -> str:
    """How a suite says it failed: `is marked 'Failed' (TearDown)`."""
    result, site = suite.get("result"), suite.get("site")
    said = f"is marked {clip(result, 100)!r}" if result else "is marked success='False'"
    return said + (f" ({clip(site, 100)})" if site and site != "Child" else "")


class NUnitParser(CaseReportParser):
    name: ClassVar[str] = "nunit"
    trusts: ClassVar[str] = (
        "each <test-case> by its `result` (NUnit 2.2: `executed`/`success`); a run marked failed without a failed"
        " case as one failed test; the declared totals only cross-check"
    )
    roots: ClassVar[frozenset[bytes]] = frozenset({b"test-run", b"test-results", b"test-suite"})
    tags: ClassVar[tuple[str, ...]] = ("test-run", "test-results", "test-suite", "test-case")
    missing: ClassVar[str] = "not an NUnit report (no <test-run>, <test-results> or <test-suite> root)"

    def scan(self, on_case: Callable[[CaseResult], None] | None) -> CaseScan:
        return _Scan(on_case)


PARSER = NUnitParser()
