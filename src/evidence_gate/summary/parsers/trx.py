"""TRX, the Visual Studio test results file: `dotnet test --logger trx`, `vstest.console /logger:trx`,
Microsoft.Testing.Platform's TRX report, and Visual Studio itself (`<TestRun>` in the
`http://microsoft.com/schemas/VisualStudio/TeamTest/2010` namespace), whatever framework ran the
tests (MSTest, xUnit.net, NUnit).

Counting: each result under `<Results>` is one test, by its `outcome` (the `TestOutcome` words of
the TRX schema):

- passed: `Passed`; `PassedButRunAborted` (the test passed; the run's own outcome says it was
  aborted); `Warning` (passed with a warning);
- failed: `Failed`, `Error`, `Timeout`, `Aborted`, `NotRunnable` (a test the adapter cannot run),
  `Disconnected` (the test host went away) and `InProgress` (the run ended while it ran);
- skipped: `NotExecuted` (skipped or ignored), `Inconclusive`, `Pending` (never started) and
  `Completed` (the schema's "ran, with no verdict": not a pass).

A result that holds `<InnerResults>` (an MSTest data-driven test's rows, an ordered test's tests) is
not a test itself: each of its inner results is, at any depth, so a data-driven test counts each row.
When the outer result says it failed and none of its inner results did, it counts as one failed test.
A word the schema does not define, or a result element this reader does not know, makes the report
unparsed, with the reason: guessing it could pass a run.

A run whose `<ResultSummary outcome>` says it failed (`Failed`, `Error`, `Aborted`, `Timeout`, ...:
a test host that crashed, a clean-up that threw outside any test) with no failed test counts one
failed test; its first `<RunInfo>` text is quoted in the note. The `<Counters>` are only compared with
the results (`total`; `failed` with `error`, `timeout`, `aborted`, `notRunnable`, `disconnected` and
`inProgress`), and a disagreement is noted: the results win (vstest writes `notExecuted="0"` beside
a skipped result, for one).

A result is named by its `testName` as the run wrote it (the console prints the same name); its
class is only in `<TestDefinitions>`, which comes after the results and would have to be held whole,
so no class is given. A failed result carries its `<Output><ErrorInfo><Message>`. Read as every XML
report is read (see `xml_documents`): hardened, streamed, a DOCTYPE refused, the UTF-8 byte order
mark Windows writes skipped, UTF-16 and UTF-32 transcoded.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import ClassVar

from lxml import etree

from evidence_gate.summary.base import CaseResult, clip
from evidence_gate.summary.xml_documents import UnreadableReport, capped, local_name, one_line, release, whole_number
from evidence_gate.summary.xml_reports import CaseReportParser, CaseScan, outcome_of

_RESULTS = frozenset(
    {"UnitTestResult", "TestResultAggregation", "GenericTestResult", "ManualTestResult", "WebTestResult"}
)
_HOLDERS = frozenset({"Results", "InnerResults"})
_OUTCOMES = {
    "Passed": "passed",
    "PassedButRunAborted": "passed",
    "Warning": "passed",
    "Failed": "failed",
    "Error": "failed",
    "Timeout": "failed",
    "Aborted": "failed",
    "NotRunnable": "failed",
    "Disconnected": "failed",
    "InProgress": "failed",
    "NotExecuted": "skipped",
    "Inconclusive": "skipped",
    "Pending": "skipped",
    "Completed": "skipped",
}
_FAILED_RUN = frozenset(word for word, outcome in _OUTCOMES.items() if outcome == "failed")
_FAILED_COUNTERS = ("failed", "error", "timeout", "aborted", "notRunnable", "disconnected", "inProgress")


@dataclass
class _Scan(CaseScan):
    # Failed tests counted inside each outer result still open (its element kept, so it stays one key).
    inner_failed: dict[etree._Element, int] = field(default_factory=dict)
    summary: etree._Element | None = None  # the document's <ResultSummary>, once read

    def document_starts(self, head: bytes) -> None:
        super().document_starts(head)
        self.summary = None

    def element(self, element: etree._Element) -> None:
        local = local_name(element.tag)
        if local in _RESULTS:
            self._result(element)
            _release_result(element)
        elif local in _HOLDERS:
            _known_results_only(element)
        elif local == "ResultSummary":
            self.summary = element
        elif local == "TestRun" and element.getparent() is None:
            self._run_ends()

    def _result(self, element: etree._Element) -> None:
        name = capped(element.get("testName") or "")
        outcome = outcome_of(element.get("outcome"), _OUTCOMES, f"result {name!r}")
        inner = element.find("{*}InnerResults")
        failed = outcome == "failed"
        if inner is not None and len(inner):
            failed_within = self.inner_failed.pop(element, 0)
            if not failed or failed_within:
                self._hand_up(element, failed_within)
                return
            self.tally.notes.append(
                f"result {name!r} is marked {clip(element.get('outcome') or '', 100)!r} but none of its inner results"
                " failed; counted as one failed test"
            )
        self._hand_up(element, int(failed))
        self.count(element, outcome, name, message_at="{*}Output/{*}ErrorInfo/{*}Message")

    def _hand_up(self, element: etree._Element, failed: int) -> None:
        """Add a result's failed tests to the outer result holding it, if any."""
        holder = element.getparent()
        outer = holder.getparent() if holder is not None and local_name(holder.tag) == "InnerResults" else None
        if outer is not None and failed:
            self.inner_failed[outer] = self.inner_failed.get(outer, 0) + failed

    def _run_ends(self) -> None:
        """The counters checked against the results, and a run marked failed without a failed test counted."""
        self.tally.saw_report = True
        summary = self.summary
        if summary is None:
            return
        counters = summary.find("{*}Counters")
        if counters is not None:
            present = [whole_number(counters.get(key)) for key in _FAILED_COUNTERS if counters.get(key) is not None]
            failed = sum(number or 0 for number in present) if present else None
            self.tally.check_declared("the <Counters>", self.start, whole_number(counters.get("total")), failed)
        outcome = summary.get("outcome")
        if outcome in _FAILED_RUN:
            info = one_line(summary.findtext("{*}RunInfos/{*}RunInfo/{*}Text") or "")
            said = f"is marked {outcome!r}" + (f" ({clip(info, 200)})" if info else "")
            self.tally.run_failed("the run", self.start, said)


def _known_results_only(holder: etree._Element) -> None:
    """A <Results> or <InnerResults> holds results of the kinds this reader counts, and nothing else."""
    for child in holder:
        _known_result(child, holder)


def _known_result(child: etree._Element, holder: etree._Element) -> None:
    if local_name(child.tag) not in _RESULTS:
        what = clip(local_name(child.tag), 100)
        raise UnreadableReport(f"<{local_name(holder.tag)}> holds a <{what}>, not a result this reader knows")


def _release_result(element: etree._Element) -> None:
    """Free a result once counted, with what came before it in its holder: results, already counted
    (anything else there is a kind of result this reader does not know)."""
    holder = element.getparent()
    if holder is None or local_name(holder.tag) not in _HOLDERS:
        raise UnreadableReport(f"a <{local_name(element.tag)}> outside <Results>")
    for previous in element.itersiblings(preceding=True):
        _known_result(previous, holder)
    release(element)


class TrxParser(CaseReportParser):
    name: ClassVar[str] = "trx"
    trusts: ClassVar[str] = (
        "each result under <Results> (the inner results of a data-driven or ordered test, not the outer one) by"
        " its `outcome`; a run marked failed without a failed test as one failed test; <Counters> only cross-check"
    )
    roots: ClassVar[frozenset[bytes]] = frozenset({b"TestRun"})
    tags: ClassVar[tuple[str, ...]] = ("TestRun", "ResultSummary", *sorted(_RESULTS), *sorted(_HOLDERS))
    missing: ClassVar[str] = "not a TRX report (no <TestRun> root)"

    def scan(self, on_case: Callable[[CaseResult], None] | None) -> CaseScan:
        return _Scan(on_case)


PARSER = TrxParser()
