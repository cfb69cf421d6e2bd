"""The evidence gate's payload: each log and report as its parser read it, and the counts weighed."""

from __future__ import annotations

from dataclasses import dataclass, field

from evidence_gate.ledger.payload import spec
from evidence_gate.model import Counts
from evidence_gate.wording import failed_of, plural


@dataclass(frozen=True, kw_only=True)
class SourceRead:
    """One log or report, as its parser read it."""

    source: str
    parser: str | None
    # passed | failed | no-tests | unparsed (`SummaryStatus`)
    status: str = field(metadata=spec(schema={"enum": ["passed", "failed", "no-tests", "unparsed"]}))
    counts: Counts | None
    reason: str | None  # why it is unparsed
    exit_code: int | None  # the exit code a log records

    @property
    def read_by(self) -> str:
        return self.parser or "no parser"

    @property
    def result(self) -> str:
        """What it says, in a reviewer's words: "3 of 812 tests failed", "unparsed: <why>"."""
        counts = self.counts
        if counts is None:
            return f"unparsed: {self.reason or 'no count'}"
        skipped = f", {counts.skipped:,} skipped" if counts.skipped else ""
        if counts.failed:
            return failed_of(counts) + skipped
        if counts.executed == 0:
            return f"no test ran{skipped}"
        return f"{plural(counts.executed, 'test')} passed{skipped}"


@dataclass(frozen=True, kw_only=True)
class EvidenceData:
    first_error: str | None = None  # the first failed test and its message's first line: the failure's signature
    counts: Counts | None  # the run's, as weighed
    counts_source: str | None
    sources: tuple[SourceRead, ...]
    stale: tuple[str, ...]
    refused: tuple[str, ...]
    unmatched: tuple[str, ...]  # `reports` globs that matched no file
    fresh_after: str  # where the run's start came from
