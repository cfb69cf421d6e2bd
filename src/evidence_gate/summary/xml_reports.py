"""What the .NET report readers (NUnit, xUnit.net, TRX) share: how they count, and how a reader is
put together.

They count alike (`Tally`): each test case once, by the outcome its report gives it, and a word the
format does not define makes the report unparsed rather than guessed at (`outcome_of`); a report's
declared totals are only cross-checked, with a note when they disagree (the test cases win); and a
run the report marks failed with no failed test case counts as one failed test, since something
failed that no test case shows.

A reader is a `CaseReportParser` naming the root elements it recognises and the elements it reads,
and a `CaseScan` that takes each of those elements as it ends (see `xml_documents.stream_report`).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar

from lxml import etree

from evidence_gate.model import Counts
from evidence_gate.summary.base import CaseResult, DocumentParser, Reading, clip
from evidence_gate.summary.xml_documents import UnreadableReport, capped, capped_notes, root_name, stream_report


@dataclass
class Tally:
    """What a reader has counted so far: test cases by outcome, and notes."""

    passed: int = 0
    failed: int = 0
    skipped: int = 0
    saw_report: bool = False  # the format's root element was read
    notes: list[str] = field(default_factory=list)

    def add(self, outcome: str) -> None:
        if outcome == "passed":
            self.passed += 1
        elif outcome == "failed":
            self.failed += 1
        else:
            self.skipped += 1

    def mark(self) -> tuple[int, int]:
        """Test cases and failed test cases so far: where a scope (a document, an assembly) starts."""
        return self.passed + self.failed + self.skipped, self.failed

    def check_declared(self, where: str, start: tuple[int, int], tests: int | None, failed: int | None) -> None:
        """Note where the tests and failures a scope declares differ from its test cases since `start`."""
        cases, failures = (now - then for now, then in zip(self.mark(), start, strict=True))
        if tests is not None and tests != cases:
            self.notes.append(
                f"{where} declares {tests} tests but holds {cases} test cases; the test cases were counted"
            )
        elif failed is not None and failed != failures:
            self.notes.append(
                f"{where} declares {failed} failed tests but {failures} test cases failed; the test cases were counted"
            )

    def run_failed(self, where: str, start: tuple[int, int], said: str) -> None:
        """A scope the report marks failed (`said`): one failed test when none of its cases since
        `start` failed, since something failed that no test case shows."""
        if self.failed == start[1]:
            self.failed += 1
            self.notes.append(f"{where} {said} but no test case failed; counted as one failed test")

    def reading(self, parser: str, missing: str) -> Reading:
        """The counts, or `missing` as the reason when the format's root element never came."""
        if not self.saw_report:
            return Reading(parser=parser, counts=None, reason=missing)
        counts = Counts(passed=self.passed, failed=self.failed, skipped=self.skipped)
        return Reading(parser=parser, counts=counts, notes=capped_notes(self.notes))


def outcome_of(value: str | None, outcomes: dict[str, str], what: str) -> str:
    """The outcome (passed, failed, skipped) a report's word maps to; a word the format does not
    define makes the report unreadable rather than guessed at."""
    outcome = outcomes.get(value or "")
    if outcome is None:
        word = clip(value or "(none)", 100)
        raise UnreadableReport(f"{what} has the outcome {word!r}, which the format does not define")
    return outcome


@dataclass
class CaseScan(ABC):
    """One reading of a report: the tally, where the current document began, and who takes each case."""

    on_case: Callable[[CaseResult], None] | None
    tally: Tally = field(default_factory=Tally)
    start: tuple[int, int] = (0, 0)

    def document_starts(self, head: bytes) -> None:
        """A document of the file begins (`head`: its first bytes); a reader that keeps a run's state
        forgets the previous document's here too."""
        self.start = self.tally.mark()

    @abstractmethod
    def element(self, element: etree._Element) -> None:
        """One of the reader's elements, as it ends."""

    def count(
        self,
        case: etree._Element,
        outcome: str,
        name: str,
        *,
        classname: str = "",
        message_at: str,
        file: str | None = None,
        line: int | None = None,
        shown_as: str | None = None,
    ) -> None:
        """Count a test case and hand it on, a failed one with its message (the text at `message_at`
        under the case, looked up only when someone takes it)."""
        self.tally.add(outcome)
        if self.on_case is None:
            return
        message = case.findtext(message_at) if outcome == "failed" else None
        self.on_case(
            CaseResult(
                name=name,
                classname=classname,
                file=file,
                line=line,
                outcome=outcome,
                message=capped(message.strip()) if message else None,
                shown_as=shown_as,
            )
        )


class CaseReportParser(DocumentParser):
    """A report format recognised by its root element and read test case by test case."""

    names_cases: ClassVar[bool] = True
    reads_wide: ClassVar[bool] = True
    roots: ClassVar[frozenset[bytes]]  # the root elements' local names
    tags: ClassVar[tuple[str, ...]]  # the elements the scan takes, as each ends
    missing: ClassVar[str]  # the reason when no root element of the format was read

    @abstractmethod
    def scan(self, on_case: Callable[[CaseResult], None] | None) -> CaseScan:
        """A fresh scan of one report."""

    def recognises(self, head: bytes) -> bool:
        return root_name(head) in self.roots

    def parse(self, path: Path, on_case: Callable[[CaseResult], None] | None = None) -> Reading:
        scan = self.scan(on_case)
        unread = stream_report(path, self.tags, scan.element, scan.document_starts)
        if unread:
            return Reading(parser=self.name, counts=None, reason=unread)
        return scan.tally.reading(self.name, self.missing)
