"""The tallies of a JUnit file, kept apart from the reader that walks its elements: a test case's
failure, error or skip (`Marker`), what a suite declares beside what its test cases showed (`Suite`,
`close_suite`), and the counts and notes of the whole file (`Scan`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from evidence_gate.summary.xml_documents import capped, one_line, whole_number

# A failure's or an error's text is kept up to this many characters (and the rest counted): a hostile report may
# hold a gigabyte of it, where a kept message is cut at MAX_FIELD_CHARS and a note's at 200.
_MAX_TEXT_CHARS = 1024 * 1024


@dataclass(eq=False)
class Suite:
    """What one <testsuite> declares (its attributes), and what its test cases (nested suites' included) showed."""

    attrib: Mapping[str, str]
    cases: int = 0
    failed: int = 0
    skipped: int = 0
    suite_errors: int = 0
    nested: bool = False
    repeats: int = 0  # test cases that repeated a failed one of this suite (a rerun), counted with it
    taken_back: int = 0  # of those, the failed runs counted in place of the failed one before them
    # The test cases of this suite whose last run failed, by `junit_reruns._key`, and whether each ran more than once.
    runs: dict[bytes, bool] = field(default_factory=dict)


@dataclass(eq=False)
class Marker:
    """A <failure>, <error> or <skipped>: its local name, its attributes, and (read by a `TextReader`)
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
            raise TextNeeded
        text = "".join(self.parts)
        return (text, self.more) if text else None


class TextNeeded(Exception):
    """A failure's text is needed (it has no `message=`) and the reader did not read text."""


@dataclass
class Scan:
    """The tallies and notes of a whole file (all its documents)."""

    passed: int = 0
    failed: int = 0
    skipped: int = 0
    saw_report: bool = False
    previous: tuple[Suite | None, Mapping[str, str]] | None = None  # the last test case counted: suite, attributes
    previous_outcome: str = ""
    repeated: int = 0
    tracked: int = 0  # failed test cases remembered in the open suites' `runs`, at most `junit_reruns._MAX_TRACKED`
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

    def untally(self, outcome: str, suite: Suite | None) -> None:
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

    def tally(self, outcome: str, suite: Suite | None) -> None:
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


def case_identity(suite: Suite | None, attrib: Mapping[str, str]) -> tuple[Suite | None, str, str, str]:
    """A test case's suite, class name, name and file, as two cases are told apart."""
    name, classname = capped(attrib.get("name") or ""), capped(attrib.get("classname") or "")
    return suite, classname, name, attrib.get("file") or ""


def suite_error(marker: Marker, suite: Suite, scan: Scan) -> None:
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


def close_suite(suite: Suite, outer: Suite | None, scan: Scan) -> None:
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


def line_number(value: str | None, zero_based: bool) -> int | None:
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
