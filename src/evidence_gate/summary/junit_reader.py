"""The element reader of a JUnit document, an lxml parser target that builds no tree: it walks the
elements as they start and end and decides what each test case counts as, handing the tallies to
`junit_tally` and the merging of reruns to `junit_reruns`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from evidence_gate.summary.base import CaseResult
from evidence_gate.summary.junit_reruns import name_flaky, rerun_of, reruns_done
from evidence_gate.summary.junit_tally import Marker, Scan, Suite, case_identity, close_suite, line_number, suite_error
from evidence_gate.summary.xml_documents import DOCTYPE_REFUSAL, UnsafeReport, capped

_SKIPPED_STATUSES = frozenset({"notrun", "disabled", "skipped", "skip"})
# Skip messages that mean the test could not even be started: ctest writes a test whose executable
# failed to build, whose fixture's setup test failed, or whose REQUIRED_FILES are missing as
# status="notrun" with one of these messages, and its console counts it as failed (`***Not Run`).
_NOT_BUILT = frozenset({"Unable to find executable", "Fixture dependency failed", "Required Files Missing"})
_TODO = "todo"  # node's <skipped type="todo">
# TAP::Formatter::JUnit writes a TODO test that passed (prove's "unexpectedly succeeded") as an <error>
# of this type: the test passed, as prove counts it.
_TODO_PASSED = "TodoTestSucceeded"
# Check (libcheck) names its own XML report's root <testsuites> too, in its namespace: it holds <suite>
# and <test result="..."> elements, no JUnit test case, and read as JUnit it would be a run of no tests.
_CHECK_ROOT = "{http://check.sourceforge.net/ns}testsuites"
_CHECK_XML = (
    "Check's own XML report (CK_XML_LOG_FILE_NAME, namespace http://check.sourceforge.net/ns), not JUnit: "
    "its <test> elements are not read here; read the runner's console log or its TAP log (CK_TAP_LOG_FILE_NAME)"
)
_MARKERS = frozenset({"failure", "error", "skipped"})
# Surefire's record of a test's other runs (rerunFailingTestsCount): a flaky test's failed runs, and the
# reruns of a test that failed every run.
_FLAKY = frozenset({"flakyFailure", "flakyError"})
_RERUNS = frozenset({"rerunFailure", "rerunError"})
# libxml2 refuses a tree deeper than this (without its huge-tree mode), but a parser target builds no
# tree, so the reader refuses it itself: a report of nothing but opening tags would grow its stack.
MAX_DEPTH = 256


class TooDeep(Exception):
    """Elements nested deeper than MAX_DEPTH: no test report is, and its reader would keep every level."""


class NotJUnit(Exception):
    """A report of another format whose root is also named <testsuites> (Check's own XML)."""


class Reader:
    """The parser target of one document: lxml calls `start` and `end` for every element and builds no
    tree. The reader keeps the local names of the open elements (an element's parent is the one before
    it), the attributes of the open test cases and markers, and the open suites' tallies.

    It has no `data` method, so lxml hands it no text: text is a call per piece (the whitespace between
    elements, every <system-out>), a fifth of the time of a large report, and is needed only for the
    message of a <failure> or <error> that has no `message=` attribute. When one is, the file is read
    again by a `TextReader` (see `parsers/junit.scan_junit`)."""

    def __init__(self, scan: Scan, on_case: Callable[[CaseResult], None] | None) -> None:
        self.scan = scan
        self.on_case = on_case
        self.open: list[str] = []
        self.cases: list[Mapping[str, str]] = []
        self.suites: list[Suite] = []
        self.markers: list[Marker] = []
        self.case_failure: Marker | None = None  # the first <failure> or <error> of the next test case to end
        self.case_skip: Marker | None = None  # its first <skipped>
        self.case_flaky = False  # Surefire: a <flakyFailure> or <flakyError> in the next test case to end
        self.case_reruns = False  # Surefire: a <rerunFailure> or <rerunError> in it
        self.root_runs: dict[bytes, bool] = {}  # the failed test cases outside any suite

    def doctype(self, name: str | None, pubid: str | None, system: str | None) -> None:
        """Any DOCTYPE, wherever it stands: refused before a declaration in it is read."""
        raise UnsafeReport(DOCTYPE_REFUSAL)

    def start(self, tag: str, attrib: Mapping[str, str]) -> None:
        local = tag if tag[0] != "{" else _local(tag)
        self.open.append(local)
        if len(self.open) > MAX_DEPTH:
            raise TooDeep(f"malformed XML (elements nested deeper than {MAX_DEPTH} levels)")
        if local == "testcase":
            self.cases.append(attrib)
        elif tag == _CHECK_ROOT:
            raise NotJUnit(_CHECK_XML)
        elif local == "testsuite":
            self.suites.append(Suite(attrib))
        elif local in _MARKERS:
            self.markers.append(Marker(local, attrib))

    def end(self, tag: str) -> None:
        opened = self.open
        local = opened.pop()
        if local == "testcase":
            _count_case(self.cases.pop(), self.suites[-1] if opened and opened[-1] == "testsuite" else None, self)
        elif local == "testsuite":
            self.scan.saw_report = True
            suite = self.suites.pop()
            reruns_done(suite.runs, self.scan)
            close_suite(suite, self.suites[-1] if opened and opened[-1] == "testsuite" else None, self.scan)
        elif local == "testsuites":
            self.scan.saw_report = True
        elif local in _MARKERS:
            marker = self.markers.pop()
            parent = opened[-1] if opened else ""
            if parent == "testcase":
                if local == "skipped":
                    self.case_skip = self.case_skip or marker
                elif self.case_failure is None:
                    self.case_failure = marker
            elif parent == "testsuite" and local != "skipped":
                suite_error(marker, self.suites[-1], self.scan)
        elif local in _FLAKY and opened and opened[-1] == "testcase":
            self.case_flaky = True
        elif local in _RERUNS and opened and opened[-1] == "testcase":
            self.case_reruns = True

    def close(self) -> None:
        """The document ended: what it showed is in the scan already, but for the runs of test cases outside
        any suite."""
        reruns_done(self.root_runs, self.scan)


class TextReader(Reader):
    """A `Reader` that also reads the text of each <failure> and <error> until its first child starts."""

    def __init__(self, scan: Scan, on_case: Callable[[CaseResult], None] | None) -> None:
        super().__init__(scan, on_case)
        self.capture: Marker | None = None

    def start(self, tag: str, attrib: Mapping[str, str]) -> None:
        super().start(tag, attrib)
        self.capture = None
        if self.open[-1] in _MARKERS:
            marker = self.markers[-1]
            marker.read_text = True
            if marker.local != "skipped":
                self.capture = marker

    def data(self, text: str) -> None:
        if self.capture is not None:
            self.capture.add(text)

    def end(self, tag: str) -> None:
        self.capture = None
        super().end(tag)


def _local(tag: str) -> str:
    """`{namespace}name` -> `name`."""
    return tag[tag.index("}") + 1 :] if tag[:1] == "{" else tag


def _count_case(attrib: Mapping[str, str], suite: Suite | None, reader: Reader) -> None:
    scan = reader.scan
    failure, skip = reader.case_failure, reader.case_skip
    flaky, reruns = reader.case_flaky, reader.case_reruns
    reader.case_flaky = reader.case_reruns = False
    teardown = False
    if failure is None and skip is None:
        outcome = "skipped" if attrib.get("status") in _SKIPPED_STATUSES else "passed"
    else:
        reader.case_failure = reader.case_skip = None
        if failure is not None and failure.local == "error" and failure.attrib.get("type") == _TODO_PASSED:
            outcome = "passed"
        elif failure is not None:
            outcome = "skipped" if skip is not None and skip.attrib.get("type") == _TODO else "failed"
        else:
            outcome = "failed" if skip is not None and skip.attrib.get("message") in _NOT_BUILT else "skipped"
        previous = scan.previous
        if (
            failure is not None
            and failure.local == "error"
            and previous is not None
            and case_identity(suite, attrib) == case_identity(*previous)
        ):
            scan.repeated += 1  # the error of the test case just before: pytest's teardown error of a failed test
            teardown = True
            if scan.previous_outcome == "failed":
                return
            scan.untally(scan.previous_outcome, suite)
    if outcome == "passed" and flaky:
        name_flaky(scan.flaky, scan, case_identity(suite, attrib))
    elif outcome == "failed" and reruns:
        scan.surefire_failed_reruns += 1
    scan.previous, scan.previous_outcome = (suite, attrib), outcome
    runs = suite.runs if suite is not None else reader.root_runs
    rerun = not teardown and (outcome == "failed" or bool(runs))
    if rerun and not rerun_of(
        case_identity(suite, attrib), outcome, suite, runs, scan
    ):  # only a failed test case is rerun
        return
    scan.tally(outcome, suite)
    if reader.on_case is not None:
        reported = failure if failure is not None else skip
        message = reported.message() if reported is not None and outcome == "failed" else None
        _, classname, name, _ = case_identity(suite, attrib)
        file = attrib.get("file")
        scan.delivered += 1
        reader.on_case(
            CaseResult(
                name=name,
                classname=classname,
                file=capped(file) if file is not None else None,
                line=line_number(attrib.get("line"), scan.zero_based_lines),
                outcome=outcome,
                message=capped(*message) if message is not None else None,
                from_pytest=scan.zero_based_lines,
            )
        )
