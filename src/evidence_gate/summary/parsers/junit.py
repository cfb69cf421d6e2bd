"""JUnit XML, as written by Surefire, Gradle, pytest, jest-junit, vitest, mocha's xunit reporter,
node's junit reporter, ctest, PHPUnit, cargo-nextest, libtest, TAP::Formatter::JUnit and others.

Counting: each `<testcase>` is one test. A `<failure>` or `<error>` child makes it failed, even
beside a `<skipped>`: a test that failed was run. The one exception is node's failing todo test,
which node marks as a todo with `<skipped type="todo">` beside its `<failure>` and keeps out of
pass/fail (it does not fail the run): it is skipped, as node counts it. Otherwise a `<skipped>`
child makes it skipped, except ctest's "Unable to find executable" (a test that failed to build),
which is failed; a `status` of `notrun`, `disabled` or `skipped` (ctest) is skipped, and anything
else passed. A test case with an `<error>` that repeats the one just before it (same suite, class
and name) is that test's error, not a test: pytest writes a failing test's teardown error so.
A `<failure>` or `<error>` of a suite itself (a test file that crashed, a bad TAP plan) counts as
one failed test unless one of its test cases already failed. Suite attributes (`tests=`,
`failures=`, ...) are never summed: nested suites would count twice, and a report may claim tests
it does not hold. They are compared with the test cases instead, and a disagreement is reported as
a note while the test cases win. The one use of them: a leaf suite that lists test cases and
declares exactly as many more tests as more skipped ones (libtest lists its ignored tests in
`tests=` and `skipped=` only) has those counted as skipped. A suite that lists no test case at all
gives no number: whatever its header claims is noted, not counted.

Reports in UTF-16 or UTF-32 (told by a byte order mark or by the `<?xml` declaration's own bytes)
are transcoded to UTF-8 as they stream. A name, class name, file or message kept for a caller is cut
at 1000 characters ("… N more characters"): a report may hold megabyte names.

Safety: the report is untrusted input, read as `xml_documents.stream_report` reads every XML report
(no network, no DTD, no entity, a DOCTYPE refused, each element cleared once read: bounded memory on
a report of any size). Several documents concatenated in one file (libtest writes one per test
binary) are read one after another.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from lxml import etree

from evidence_gate.model import Counts
from evidence_gate.summary.base import CaseResult, DocumentParser, Reading
from evidence_gate.summary.xml_documents import (
    capped,
    capped_notes,
    local_name,
    one_line,
    release,
    stream_report,
    whole_number,
)

_SKIPPED_STATUSES = frozenset({"notrun", "disabled", "skipped", "skip"})
# Skip messages that mean the test could not even be started: ctest writes a test whose executable
# failed to build as status="notrun" with this message, and its console counts it as failed.
_NOT_BUILT = frozenset({"Unable to find executable"})
_TODO = "todo"  # node's <skipped type="todo">
# Only end events, and only of these elements: libxml2 skips everything else (system-out,
# properties) without a Python call, and a passing test case costs one event.
# pytest's root elements (`junit_suite_name` renames only the inner suite), in the document's first bytes.
_PYTEST_ROOT = re.compile(rb'<testsuites\s+name="pytest tests"|<testsuite\s+name="pytest"\s')
_ROOT_BYTES = 4096
_EVENT_TAGS = ("testsuites", "testsuite", "testcase", "failure", "error", "skipped")


@dataclass(eq=False)
class _Suite:
    """What one <testsuite> declares, and what its test cases (nested suites' included) showed."""

    element: etree._Element
    cases: int = 0
    failed: int = 0
    skipped: int = 0
    suite_errors: int = 0
    nested: bool = False


@dataclass
class _Scan:
    passed: int = 0
    failed: int = 0
    skipped: int = 0
    saw_report: bool = False
    suites: dict[int, _Suite] = field(default_factory=dict)
    current: _Suite | None = None
    case_failure: etree._Element | None = None
    case_skip: etree._Element | None = None
    previous: tuple[_Suite | None, str, str, str] | None = None  # the last test case's suite, class and name
    previous_outcome: str = ""
    repeated: int = 0
    zero_based_lines: bool = False  # the document is pytest's, whose `line=` counts from 0 (and names node ids)
    notes: list[str] = field(default_factory=list)

    def untally(self, outcome: str, suite: _Suite | None) -> None:
        """Take back a test case counted by `tally` (a repeated case is one test)."""
        if outcome == "passed":
            self.passed -= 1
        elif outcome == "failed":
            self.failed -= 1
        else:
            self.skipped -= 1
        if suite is not None:
            suite.cases -= 1
            suite.failed -= outcome == "failed"
            suite.skipped -= outcome == "skipped"

    def tally(self, outcome: str, suite: _Suite | None) -> None:
        if outcome == "passed":
            self.passed += 1
            if suite is not None:
                suite.cases += 1
            return
        if outcome == "failed":
            self.failed += 1
        else:
            self.skipped += 1
        if suite is not None:
            suite.cases += 1
            suite.failed += outcome == "failed"
            suite.skipped += outcome == "skipped"

    def suite_of(self, element: etree._Element | None) -> _Suite | None:
        """The tally of `element` when it is a <testsuite>. The suite's element is kept alive, so
        lxml hands back the same proxy for it and the common case is one identity check."""
        current = self.current
        if element is None or (current is not None and current.element is element):
            return current if element is not None else None
        if local_name(element.tag) != "testsuite":
            return None
        suite = self.suites.get(id(element))
        if suite is None:
            suite = self.suites[id(element)] = _Suite(element=element)
        self.current = suite
        return suite


def scan_junit(path: Path, on_case: Callable[[CaseResult], None] | None = None) -> Reading:
    """Read one JUnit file: counts from its test cases, or the reason it cannot be read."""
    scan = _Scan()

    def document_starts(head: bytes) -> None:
        scan.zero_based_lines = _PYTEST_ROOT.search(head[:_ROOT_BYTES]) is not None

    unread = stream_report(path, _EVENT_TAGS, lambda element: _handle(element, scan, on_case), document_starts)
    if unread:
        return Reading(parser=PARSER.name, counts=None, reason=unread)
    if scan.repeated:
        scan.notes.append(
            f"{scan.repeated} test cases with an <error> repeat the one before them (same suite, class and "
            "name: a teardown error); each counted with that test, as failed"
        )
    if not scan.saw_report:
        return Reading(
            parser=PARSER.name, counts=None, reason="not a JUnit report (no <testsuites> or <testsuite> element)"
        )
    counts = Counts(passed=scan.passed, failed=scan.failed, skipped=scan.skipped)
    return Reading(parser=PARSER.name, counts=counts, notes=capped_notes(scan.notes))


def _handle(element: etree._Element, scan: _Scan, on_case: Callable[[CaseResult], None] | None) -> None:
    tag = element.tag
    local = tag if isinstance(tag, str) and tag[:1] != "{" else local_name(tag)
    if local == "testcase":
        parent = element.getparent()
        _count_case(element, scan.suite_of(parent), scan, on_case)
        element.clear(keep_tail=False)
        if parent is not None:
            while element.getprevious() is not None:
                del parent[0]
    elif local == "testsuite":
        scan.saw_report = True
        _close_suite(element, scan)
        release(element)
    elif local == "testsuites":
        scan.saw_report = True
    else:
        parent = element.getparent()
        parent_tag = local_name(parent.tag) if parent is not None else ""
        if parent_tag == "testcase":
            if local == "skipped":
                scan.case_skip = scan.case_skip if scan.case_skip is not None else element
            elif scan.case_failure is None:
                scan.case_failure = element
        elif parent is not None and parent_tag == "testsuite" and local != "skipped":
            _suite_error(element, parent, scan)


def _count_case(
    element: etree._Element, suite: _Suite | None, scan: _Scan, on_case: Callable[[CaseResult], None] | None
) -> None:
    failure, skip = scan.case_failure, scan.case_skip
    scan.case_failure = scan.case_skip = None
    if failure is not None:
        outcome = "skipped" if skip is not None and skip.get("type") == _TODO else "failed"
    elif skip is not None:
        outcome = "failed" if skip.get("message") in _NOT_BUILT else "skipped"
    elif element.get("status") in _SKIPPED_STATUSES:
        outcome = "skipped"
    else:
        outcome = "passed"
    name, classname = capped(element.get("name") or ""), capped(element.get("classname") or "")
    identity = (suite, classname, name, element.get("file") or "")
    if identity == scan.previous and failure is not None and local_name(failure.tag) == "error":
        scan.repeated += 1  # the error of the test case just before: pytest's teardown error of a failed test
        if scan.previous_outcome == "failed":
            return
        scan.untally(scan.previous_outcome, suite)
    scan.previous, scan.previous_outcome = identity, outcome
    scan.tally(outcome, suite)
    if on_case is not None:
        reported = failure if failure is not None else skip
        message = (reported.get("message") or reported.text) if reported is not None else None
        file = element.get("file")
        on_case(
            CaseResult(
                name=name,
                classname=classname,
                file=capped(file) if file is not None else None,
                line=_line_number(element.get("line"), scan.zero_based_lines),
                outcome=outcome,
                message=capped(message) if message is not None and outcome == "failed" else None,
                from_pytest=scan.zero_based_lines,
            )
        )


def _suite_error(element: etree._Element, suite_element: etree._Element, scan: _Scan) -> None:
    """A <failure> or <error> of a suite itself (a crashed test file, a bad plan, an exit status).

    When no test case of the suite failed, it counts as one failed test: something failed that no
    test case shows. When one did, it is that failure seen again, and only noted.
    """
    suite = scan.suite_of(suite_element)
    message = one_line(element.get("message") or element.text or element.get("type") or "")[:200]
    name = capped(suite_element.get("name") or "(unnamed)")
    if suite is not None and suite.failed:
        scan.notes.append(f"suite {name!r} also reports a failure of its own: {message}")
        return
    scan.notes.append(f"suite {name!r} reports a failure outside any test case, counted as one failed test: {message}")
    scan.tally("failed", suite)
    if suite is not None:
        suite.suite_errors += 1


def _close_suite(element: etree._Element, scan: _Scan) -> None:
    """Compare what the suite declares with its test cases, and hand its tally to its parent."""
    suite = scan.suites.pop(id(element), None) or _Suite(element=element)
    if scan.current is suite:
        scan.current = None
    name = capped(element.get("name") or "(unnamed)")
    declared_tests = whole_number(element.get("tests"))
    declared_skipped = whole_number(element.get("skipped"))
    declared_failed = _sum_ints(element.get("failures"), element.get("errors"))
    listed = suite.cases - suite.suite_errors
    unlisted_skips = (declared_skipped or 0) - suite.skipped
    if not suite.nested and listed and unlisted_skips > 0 and unlisted_skips == (declared_tests or 0) - listed:
        # libtest declares its ignored tests in tests= and skipped= but lists no test case for them.
        scan.skipped += unlisted_skips
        suite.cases += unlisted_skips
        suite.skipped += unlisted_skips
        scan.notes.append(
            f"suite {name!r} declares {unlisted_skips} skipped tests it does not list; counted as skipped"
        )
    elif declared_tests is not None and declared_tests != listed:
        scan.notes.append(
            f"suite {name!r} declares tests={declared_tests} but holds {listed} test cases; the test cases were counted"
        )
    elif declared_failed is not None and declared_failed != suite.failed:
        scan.notes.append(
            f"suite {name!r} declares {declared_failed} failures and errors but {suite.failed} test cases failed;"
            " the test cases were counted"
        )
    outer = scan.suite_of(element.getparent())
    if outer is not None:
        outer.nested = True
        outer.cases += suite.cases
        outer.failed += suite.failed
        outer.skipped += suite.skipped


def _line_number(value: str | None, zero_based: bool) -> int | None:
    """A `line=` attribute as a line number from 1: pytest writes the 0-based line of the `def`
    (`zero_based`), every other writer a 1-based one; a negative number, or 0 from a 1-based
    writer, or not a number is no line."""
    number = whole_number(value)
    if number is not None and zero_based:
        number += 1
    return number if number is not None and number > 0 else None


def _sum_ints(*values: str | None) -> int | None:
    numbers = [whole_number(value) for value in values if value is not None]
    if not numbers or any(number is None for number in numbers):
        return None
    return sum(number for number in numbers if number is not None)


class JUnitParser(DocumentParser):
    name = "junit"
    names_cases = True
    reads_wide = True
    trusts = (
        "the <testcase> elements and their <failure>, <error> and <skipped> children; suite totals only cross-check"
    )

    def recognises(self, head: bytes) -> bool:
        text = head.lstrip(b"\xef\xbb\xbf \t\r\n")
        return text.startswith(b"<") and (b"<testsuite" in head or b"<testsuites" in head)

    def parse(self, path: Path, on_case: Callable[[CaseResult], None] | None = None) -> Reading:
        return scan_junit(path, on_case)


PARSER = JUnitParser()
