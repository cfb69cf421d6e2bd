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
own (two passing test cases of one name are two tests). Only
failed test cases are remembered for this, at most `_MAX_TRACKED` of the open suites at once (past
that, a note says reruns are no longer merged), so a report without failures costs nothing more.

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

import hashlib
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from lxml import etree

from evidence_gate.model import Counts
from evidence_gate.summary.base import CaseResult, DocumentParser, Reading
from evidence_gate.summary.xml_documents import (
    DOCTYPE_REFUSAL,
    UnsafeReport,
    capped,
    capped_notes,
    hardened_target_parser,
    one_line,
    refuse_doctype,
    utf8_documents,
    whole_number,
)
from evidence_gate.workspace import Refused, open_resolved

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
# pytest's root elements (`junit_suite_name` renames only the inner suite), in the document's first bytes.
_PYTEST_ROOT = re.compile(rb'<testsuites\s+name="pytest tests"|<testsuite\s+name="pytest"\s')
_ROOT_BYTES = 4096
_MARKERS = frozenset({"failure", "error", "skipped"})
# Surefire's record of a test's other runs (rerunFailingTestsCount): a flaky test's failed runs, and the
# reruns of a test that failed every run.
_FLAKY = frozenset({"flakyFailure", "flakyError"})
_RERUNS = frozenset({"rerunFailure", "rerunError"})
# Failed test cases remembered at once (those of the open suites), to merge the reruns written as test cases.
_MAX_TRACKED = 200_000
_MAX_NAMED = 5  # flaky tests named in a note
# A failure's or an error's text is kept up to this many characters (and the rest counted): a hostile report may
# hold a gigabyte of it, where a kept message is cut at MAX_FIELD_CHARS and a note's at 200.
_MAX_TEXT_CHARS = 1024 * 1024
# libxml2 refuses a tree deeper than this (without its huge-tree mode), but a parser target builds no
# tree, so the reader refuses it itself: a report of nothing but opening tags would grow its stack.
MAX_DEPTH = 256


@dataclass(eq=False)
class _Suite:
    """What one <testsuite> declares (its attributes), and what its test cases (nested suites' included) showed."""

    attrib: Mapping[str, str]
    cases: int = 0
    failed: int = 0
    skipped: int = 0
    suite_errors: int = 0
    nested: bool = False
    repeats: int = 0  # test cases that repeated a failed one of this suite (a rerun), counted with it
    taken_back: int = 0  # of those, the failed runs counted in place of the failed one before them
    # The test cases of this suite whose last run failed, by `_key`, and whether each ran more than once.
    runs: dict[bytes, bool] = field(default_factory=dict)


@dataclass(eq=False)
class _Marker:
    """A <failure>, <error> or <skipped>: its local name, its attributes, and (read by a `_TextReader`)
    the text before its first child, kept up to `_MAX_TEXT_CHARS` characters with the count of the rest."""

    local: str
    attrib: Mapping[str, str]
    read_text: bool = False
    parts: list[str] = field(default_factory=list)
    kept: int = 0
    more: int = 0

    def add(self, text: str) -> None:
        if self.kept < _MAX_TEXT_CHARS:
            self.parts.append(text)
            self.kept += len(text)
        else:
            self.more += len(text)

    def message(self) -> tuple[str, int] | None:
        """Its `message=`, else its text, with the count of characters not kept; None when it has neither."""
        message = self.attrib.get("message")
        if message:
            return message, 0
        if not self.read_text:
            raise _TextNeeded
        text = "".join(self.parts)
        return (text, self.more) if text else None


class _TextNeeded(Exception):
    """A failure's text is needed (it has no `message=`) and the reader did not read text."""


@dataclass
class _Scan:
    """The tallies and notes of a whole file (all its documents)."""

    passed: int = 0
    failed: int = 0
    skipped: int = 0
    saw_report: bool = False
    previous: tuple[_Suite | None, Mapping[str, str]] | None = None  # the last test case counted: suite, attributes
    previous_outcome: str = ""
    repeated: int = 0
    tracked: int = 0  # failed test cases remembered in the open suites' `runs`, at most `_MAX_TRACKED`
    untracked: bool = False  # more test cases than that: repeats no longer merged
    reran: int = 0  # tests written as repeated test cases, each counted once
    flaky: list[str] = field(default_factory=list)  # tests that failed and then passed on a rerun
    flaky_count: int = 0
    rerun_flaky: list[str] = field(default_factory=list)  # tests whose failed test case a passing one repeats
    rerun_flaky_count: int = 0
    surefire_failed_reruns: int = 0  # Surefire's tests that failed every rerun (a <rerunFailure> or <rerunError>)
    zero_based_lines: bool = False  # the document is pytest's, whose `line=` counts from 0 (and names node ids)
    delivered: int = 0  # test cases handed to `on_case`
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


class TooDeep(Exception):
    """Elements nested deeper than MAX_DEPTH: no test report is, and its reader would keep every level."""


class NotJUnit(Exception):
    """A report of another format whose root is also named <testsuites> (Check's own XML)."""


class _Reader:
    """The parser target of one document: lxml calls `start` and `end` for every element and builds no
    tree. The reader keeps the local names of the open elements (an element's parent is the one before
    it), the attributes of the open test cases and markers, and the open suites' tallies.

    It has no `data` method, so lxml hands it no text: text is a call per piece (the whitespace between
    elements, every <system-out>), a fifth of the time of a large report, and is needed only for the
    message of a <failure> or <error> that has no `message=` attribute. When one is, the file is read
    again by a `_TextReader` (see `scan_junit`)."""

    def __init__(self, scan: _Scan, on_case: Callable[[CaseResult], None] | None) -> None:
        self.scan = scan
        self.on_case = on_case
        self.open: list[str] = []
        self.cases: list[Mapping[str, str]] = []
        self.suites: list[_Suite] = []
        self.markers: list[_Marker] = []
        self.case_failure: _Marker | None = None  # the first <failure> or <error> of the next test case to end
        self.case_skip: _Marker | None = None  # its first <skipped>
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
            self.suites.append(_Suite(attrib))
        elif local in _MARKERS:
            self.markers.append(_Marker(local, attrib))

    def end(self, tag: str) -> None:
        opened = self.open
        local = opened.pop()
        if local == "testcase":
            _count_case(self.cases.pop(), self.suites[-1] if opened and opened[-1] == "testsuite" else None, self)
        elif local == "testsuite":
            self.scan.saw_report = True
            suite = self.suites.pop()
            _reruns_done(suite.runs, self.scan)
            _close_suite(suite, self.suites[-1] if opened and opened[-1] == "testsuite" else None, self.scan)
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
                _suite_error(marker, self.suites[-1], self.scan)
        elif local in _FLAKY and opened and opened[-1] == "testcase":
            self.case_flaky = True
        elif local in _RERUNS and opened and opened[-1] == "testcase":
            self.case_reruns = True

    def close(self) -> None:
        """The document ended: what it showed is in the scan already, but for the runs of test cases outside
        any suite."""
        _reruns_done(self.root_runs, self.scan)


class _TextReader(_Reader):
    """A `_Reader` that also reads the text of each <failure> and <error> until its first child starts."""

    def __init__(self, scan: _Scan, on_case: Callable[[CaseResult], None] | None) -> None:
        super().__init__(scan, on_case)
        self.capture: _Marker | None = None

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


def scan_junit(path: Path, on_case: Callable[[CaseResult], None] | None = None) -> Reading:
    """Read one JUnit file: counts from its test cases, or the reason it cannot be read.

    It is read without text first; when a message must come from a failure's text, it is read again
    from the start with it, and the test cases already handed to `on_case` are not handed again (the
    second reading meets them in the same order)."""
    scan = _Scan()
    try:
        return _scan_file(path, scan, on_case, _Reader)
    except _TextNeeded:
        return _scan_file(path, _Scan(), _after(scan.delivered, on_case), _TextReader)


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


def _scan_file(path: Path, scan: _Scan, on_case: Callable[[CaseResult], None] | None, reader: type[_Reader]) -> Reading:
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
    scan.notes.extend(_rerun_notes(scan))
    if not scan.saw_report:
        return Reading(
            parser=PARSER.name, counts=None, reason="not a JUnit report (no <testsuites> or <testsuite> element)"
        )
    notes = capped_notes(scan.notes)
    counts = Counts(passed=scan.passed, failed=scan.failed, skipped=scan.skipped)
    return Reading(parser=PARSER.name, counts=counts, notes=notes)


def _scan_document(pieces: Iterator[bytes], reader: _Reader) -> None:
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


def _local(tag: str) -> str:
    """`{namespace}name` -> `name`."""
    return tag[tag.index("}") + 1 :] if tag[:1] == "{" else tag


def _identity(suite: _Suite | None, attrib: Mapping[str, str]) -> tuple[_Suite | None, str, str, str]:
    """A test case's suite, class name, name and file, as two cases are told apart."""
    name, classname = capped(attrib.get("name") or ""), capped(attrib.get("classname") or "")
    return suite, classname, name, attrib.get("file") or ""


def _count_case(attrib: Mapping[str, str], suite: _Suite | None, reader: _Reader) -> None:
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
            and _identity(suite, attrib) == _identity(*previous)
        ):
            scan.repeated += 1  # the error of the test case just before: pytest's teardown error of a failed test
            teardown = True
            if scan.previous_outcome == "failed":
                return
            scan.untally(scan.previous_outcome, suite)
    if outcome == "passed" and flaky:
        _name_flaky(scan.flaky, scan, _identity(suite, attrib))
    elif outcome == "failed" and reruns:
        scan.surefire_failed_reruns += 1
    scan.previous, scan.previous_outcome = (suite, attrib), outcome
    rerun = not teardown and (outcome == "failed" or bool(suite.runs if suite is not None else reader.root_runs))
    if rerun and not _rerun_of(_identity(suite, attrib), outcome, suite, reader):  # only a failed test case is rerun
        return
    scan.tally(outcome, suite)
    if reader.on_case is not None:
        reported = failure if failure is not None else skip
        message = reported.message() if reported is not None and outcome == "failed" else None
        _, classname, name, _ = _identity(suite, attrib)
        file = attrib.get("file")
        scan.delivered += 1
        reader.on_case(
            CaseResult(
                name=name,
                classname=classname,
                file=capped(file) if file is not None else None,
                line=_line_number(attrib.get("line"), scan.zero_based_lines),
                outcome=outcome,
                message=capped(*message) if message is not None else None,
                from_pytest=scan.zero_based_lines,
            )
        )


def _runs(reader: _Reader, suite: _Suite | None) -> dict[bytes, bool]:
    return suite.runs if suite is not None else reader.root_runs


def _key(identity: tuple[_Suite | None, str, str, str]) -> bytes:
    """A test case's class, name and file as remembered: a digest, so a megabyte name costs no more than a short one."""
    _, classname, name, file = identity
    return hashlib.blake2b(f"{classname}\0{name}\0{file}".encode(errors="replace"), digest_size=16).digest()


def _rerun_of(
    identity: tuple[_Suite | None, str, str, str], outcome: str, suite: _Suite | None, reader: _Reader
) -> bool:
    """Whether this test case counts. One that repeats a failed one of its suite (same class, name and
    file) is that test run again, written as a test case per run, and the test counts once: a failed
    run again counts in place of the earlier one; a pass or a skip after it is not counted, and the
    failure stands (a pass is named flaky). No attribute tells a retry from another run of the name
    (cmocka writes a test whose teardown failed as a failed test case, then a passed one), so a
    passing run never clears a failure. After a pass or a skip, a test case of the same name stays a
    test of its own."""
    scan = reader.scan
    runs = _runs(reader, suite)
    if not runs and outcome != "failed":
        return True  # no failed test case in this suite yet: this one reruns nothing
    key = _key(identity)
    repeated = runs.get(key)
    if repeated is None:
        if outcome != "failed":
            return True
        if scan.tracked < _MAX_TRACKED:
            runs[key] = False
            scan.tracked += 1
        else:
            scan.untracked = True
        return True
    if suite is not None:
        suite.repeats += 1
    if not repeated:
        scan.reran += 1
    if outcome == "failed":
        scan.untally("failed", suite)  # the earlier failed run is taken back: this one counts for the test
        if suite is not None:
            suite.taken_back += 1
        runs[key] = True
        return True
    del runs[key]  # its last run did not fail: a later test case of this name is another test
    scan.tracked -= 1
    if outcome == "passed":
        _name_flaky(scan.rerun_flaky, scan, identity)
    return False  # the failure stands: nothing in a repeated test case says it was a retry (cmocka's teardown)


def _reruns_done(runs: dict[bytes, bool], scan: _Scan) -> None:
    """A suite (or a document) ended: its failed test cases are no longer remembered."""
    scan.tracked -= len(runs)
    runs.clear()


def _name_flaky(named: list[str], scan: _Scan, identity: tuple[_Suite | None, str, str, str]) -> None:
    """Count a flaky test, and name it in `named` (Surefire's, counted passed, or a repeated test
    case's, counted failed) while it holds fewer than `_MAX_NAMED`."""
    if named is scan.flaky:
        scan.flaky_count += 1
    else:
        scan.rerun_flaky_count += 1
    if len(named) < _MAX_NAMED:
        _, classname, name, _ = identity
        classname, name = classname.strip(), name.strip()
        named.append(one_line(f"{classname}::{name}" if classname and classname != name else name)[:200])


def _rerun_notes(scan: _Scan) -> list[str]:
    notes = []
    if scan.surefire_failed_reruns:
        notes.append(
            f"{scan.surefire_failed_reruns} failed test(s) failed on every rerun too (Surefire's <rerunFailure> or "
            "<rerunError>): each counted once, as failed"
        )
    if scan.reran:
        notes.append(
            f"{scan.reran} test(s) appear as a test case per run (a rerun): each counted once, failed if any run failed"
        )
    if scan.flaky_count:
        more = f" (and {scan.flaky_count - len(scan.flaky)} more)" if scan.flaky_count > len(scan.flaky) else ""
        notes.append(
            f"{scan.flaky_count} flaky test(s) failed and then passed on a rerun, counted as passed: "
            + ", ".join(scan.flaky)
            + more
        )
    if scan.rerun_flaky_count:
        count, named = scan.rerun_flaky_count, scan.rerun_flaky
        more = f" (and {count - len(named)} more)" if count > len(named) else ""
        notes.append(
            f"{count} test(s) failed and then passed in a later test case of the same name, counted as failed"
            " (a report that writes a test case per run says nothing that makes the pass a retry's): "
            + ", ".join(named)
            + more
        )
    if scan.untracked:
        notes.append(
            f"more than {_MAX_TRACKED:,} failed test cases at once: past those, a test case that repeats a failed "
            "one is counted as a test of its own"
        )
    return notes


def _suite_error(marker: _Marker, suite: _Suite, scan: _Scan) -> None:
    """A <failure> or <error> of a suite itself (a crashed test file, a bad plan, an exit status).

    When no test case of the suite failed, it counts as one failed test: something failed that no
    test case shows. When one did, it is that failure seen again, and only noted.
    """
    text = marker.message()
    message = one_line(text[0] if text is not None else marker.attrib.get("type") or "")[:200]
    name = capped(suite.attrib.get("name") or "(unnamed)")
    if suite.failed:
        scan.notes.append(f"suite {name!r} also reports a failure of its own: {message}")
        return
    scan.notes.append(f"suite {name!r} reports a failure outside any test case, counted as one failed test: {message}")
    scan.tally("failed", suite)
    suite.suite_errors += 1


def _close_suite(suite: _Suite, outer: _Suite | None, scan: _Scan) -> None:
    """Compare what the suite declares with its test cases, and hand its tally to the suite around it."""
    attrib = suite.attrib
    name = capped(attrib.get("name") or "(unnamed)")
    declared_tests = whole_number(attrib.get("tests"))
    declared_skipped = whole_number(attrib.get("skipped"))
    declared_failed = _sum_ints(attrib.get("failures"), attrib.get("errors"))
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
    elif declared_tests is not None and declared_tests not in (listed, listed + suite.repeats):
        scan.notes.append(
            f"suite {name!r} declares tests={declared_tests} but holds {listed} test cases; the test cases were counted"
        )
    elif declared_failed is not None and declared_failed not in (suite.failed, suite.failed + suite.taken_back):
        scan.notes.append(
            f"suite {name!r} declares {declared_failed} failures and errors but {suite.failed} test cases failed;"
            " the test cases were counted"
        )
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
