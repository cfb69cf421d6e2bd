"""JUnit XML, as written by Surefire, Gradle, pytest, jest-junit, vitest, mocha's xunit reporter,
node's junit reporter, ctest, PHPUnit, cargo-nextest, libtest, TAP::Formatter::JUnit and others.

Counting: each `<testcase>` is one test. A `<failure>` or `<error>` child makes it failed, even
beside a `<skipped>`: a test that failed was run. Two exceptions: node's failing todo test, which
node marks as a todo with `<skipped type="todo">` beside its `<failure>` and keeps out of pass/fail
(it does not fail the run), is skipped, as node counts it; and TAP::Formatter::JUnit's TODO test
that passed (prove's "unexpectedly succeeded"), an `<error type="TodoTestSucceeded">`, is passed, as
prove counts it. Otherwise a `<skipped>` child makes it skipped, except ctest's "Unable to find
executable" (a test that failed to build), "Fixture dependency failed" and "Required Files Missing"
(tests ctest did not run, `***Not Run` on its console), which are failed; a `status` of `notrun`,
`disabled` or `skipped` (ctest) is skipped, and anything else passed. A test case with an `<error>`
that repeats the one just before it (same suite, class and name) is that test's error, not a test:
pytest writes a failing test's teardown error so.
A `<failure>` or `<error>` of a suite itself (a test file that crashed, a bad TAP plan) counts as
one failed test unless one of its test cases already failed. Suite attributes (`tests=`,
`failures=`, ...) are never summed: nested suites would count twice, and a report may claim tests
it does not hold. They are compared with the test cases instead, and a disagreement is reported as
a note while the test cases win. The one use of them: a leaf suite that lists test cases and
declares exactly as many more tests as more skipped ones (libtest lists its ignored tests in
`tests=` and `skipped=` only) has those counted as skipped. A suite that lists no test case at all
gives no number: whatever its header claims is noted, not counted.

Reruns. Maven Surefire with `rerunFailingTestsCount` keeps one `<testcase>` per test and records its
other runs inside it, as its documentation for that option ("Rerun Failing Tests") says: a test that
failed and then passed on a rerun is a flaky test, counted by Surefire as passed ("Flakes: N", the
build succeeds), and holds a `<flakyFailure>` or `<flakyError>` per failed run and no `<failure>`;
a test that failed on every run is one failed test, a `<failure>` or `<error>` for its first run and
a `<rerunFailure>` or `<rerunError>` for each rerun. So a flaky test is passed and a test that failed
every run is one failed test, and notes name the flaky tests and count the reruns. Tools that retry
a test and write one `<testcase>` per run (gotestsum's `--rerun-fails`) repeat the test case under
the same suite, class and name after each failed run: a test case that repeats a failed one is
that test run again, so the test counts once, failed if any of its runs failed. A pass after failed
runs is named in a note, but does not clear the failure: nothing in such a report tells a retry
from another run of the name (cmocka writes a test whose teardown failed as a failed test case,
then a passed one), and a failure is never folded into a pass without the report saying so. Only
a failed test is rerun, so after a pass or a skip a test case of the same name stays a test of its
own (two passing test cases of one name are two tests). Only failed test cases are remembered for
this, at most `junit_reruns._MAX_TRACKED` of the open suites at once (past that, a note says reruns
are no longer merged), so a report without failures costs nothing more.

Reports in UTF-16 or UTF-32 (told by a byte order mark or by the `<?xml` declaration's own bytes)
are transcoded to UTF-8 as they stream. A name, class name, file or message kept for a caller is cut
at 1000 characters ("… N more characters"): a report may hold megabyte names.

Safety: the report is untrusted input. It is parsed by libxml2 through lxml with no network, no DTD
loading and no entity resolution, and a document that declares a DOCTYPE at all is refused (no test
report needs one; every XML entity attack needs one). It is streamed through lxml's parser target
interface: no tree is built, each element is one call as it starts and one as it ends, and only the
open elements and a failure's text (up to 1 Mi characters) are kept, so a report of any size is
summarised in bounded memory, faster than a bare `iterparse` that builds and clears a tree (see
bench/summary_bench.py). As no tree is built, libxml2's 10 MB limit on one text node of a tree does
not apply: a test's long <system-out> is read, not refused. Several documents concatenated in one
file (libtest writes one per test binary) are read one after another (see `xml_documents`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path

from lxml import etree

from evidence_gate.model import Counts
from evidence_gate.summary.base import CaseResult, DocumentParser, Reading
from evidence_gate.summary.junit_reader import NotJUnit, Reader, TextReader, TooDeep
from evidence_gate.summary.junit_reruns import rerun_notes
from evidence_gate.summary.junit_tally import Scan, TextNeeded
from evidence_gate.summary.xml_documents import (
    UnsafeReport,
    capped_notes,
    hardened_target_parser,
    one_line,
    refuse_doctype,
    utf8_documents,
)
from evidence_gate.workspace import Refused, open_resolved

# pytest's root elements (`junit_suite_name` renames only the inner suite), in the document's first bytes.
_PYTEST_ROOT = re.compile(rb'<testsuites\s+name="pytest tests"|<testsuite\s+name="pytest"\s')
_ROOT_BYTES = 4096


def scan_junit(path: Path, on_case: Callable[[CaseResult], None] | None = None) -> Reading:
    """Read one JUnit file: counts from its test cases, or the reason it cannot be read.

    It is read without text first; when a message must come from a failure's text, it is read again
    from the start with it, and the test cases already handed to `on_case` are not handed again (the
    second reading meets them in the same order)."""
    scan = Scan()
    try:
        return _scan_file(path, scan, on_case, Reader)
    except TextNeeded:
        return _scan_file(path, Scan(), _after(scan.delivered, on_case), TextReader)


def _after(delivered: int, on_case: Callable[[CaseResult], None] | None) -> Callable[[CaseResult], None] | None:
    """`on_case`, from the test case after the first `delivered` on."""
    if on_case is None:
        return None
    left = delivered

    def deliver(case: CaseResult) -> None:
        nonlocal left
        if left:
            left -= 1
        else:
            on_case(case)

    return deliver


def _scan_file(path: Path, scan: Scan, on_case: Callable[[CaseResult], None] | None, reader: type[Reader]) -> Reading:
    try:
        with open_resolved(path) as handle:
            for document in utf8_documents(handle):
                _scan_document(document, reader(scan, on_case))
    except (UnsafeReport, TooDeep, NotJUnit, Refused) as refusal:
        return Reading(parser=PARSER.name, counts=None, reason=str(refusal))
    except etree.XMLSyntaxError as error:
        return Reading(parser=PARSER.name, counts=None, reason=f"malformed XML ({one_line(str(error))})")
    except OSError as error:
        return Reading(parser=PARSER.name, counts=None, reason=f"cannot read ({error.strerror or error})")
    if scan.repeated:
        scan.notes.append(
            f"{scan.repeated} test cases with an <error> repeat the one before them (same suite, class and "
            "name: a teardown error); each counted with that test, as failed"
        )
    scan.notes.extend(rerun_notes(scan))
    if not scan.saw_report:
        return Reading(
            parser=PARSER.name, counts=None, reason="not a JUnit report (no <testsuites> or <testsuite> element)"
        )
    notes = capped_notes(scan.notes)
    counts = Counts(passed=scan.passed, failed=scan.failed, skipped=scan.skipped)
    return Reading(parser=PARSER.name, counts=counts, notes=notes)


def _scan_document(pieces: Iterator[bytes], reader: Reader) -> None:
    parser = hardened_target_parser(reader)
    fed = False
    for piece in pieces:
        if not fed:
            if not piece.strip():
                continue
            refuse_doctype(piece)
            reader.scan.zero_based_lines = _PYTEST_ROOT.search(piece[:_ROOT_BYTES]) is not None
            fed = True
        parser.feed(piece)
    if fed:
        parser.close()


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
