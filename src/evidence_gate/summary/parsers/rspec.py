"""RSpec's console output (progress, documentation or any formatter that prints RSpec's summary).

The counts come from the line RSpec prints right after `Finished in <t> seconds (files took <t>
seconds to load)`:

    9 examples, 3 failures, 4 pending, 1 error occurred outside of examples

(`1 example`, `1 failure`, `1 error occurred ...` in the singular; the pending and error parts only
when non-zero). `examples` includes pending ones.

Mapping: failures are failed, and so is every error outside of examples (a spec file that does not
load, a failing `before(:suite)`/`after(:suite)` hook): RSpec has no separate error count for
examples, an exception in one is a failure, and a `pending` example whose body passes is reported
`FIXED` and counted in failures by RSpec itself. Pending examples (`skip`, `xit`, examples without a
block, `pending` examples whose body still fails) are skipped. passed = examples - failures -
pending. Several runs in one log add up.

The summary line is trusted only straight after its `Finished in` line, so another tool's total
(parallel_tests' combined line) is not added on top. Not trusted, so the reading has no counts: a
`Finished in` line without its summary line (a truncated log), and a run interrupted with Ctrl-C
(`RSpec is shutting down ...`) whose summary shows no failure, since it counts only the examples
run before the interrupt.
"""

from __future__ import annotations

import re
from typing import ClassVar

from evidence_gate.model import Counts
from evidence_gate.summary.base import LineFilter, LineParser, Reading, RunTotals

# RSpec 3's wording; minitest's `Finished in 0.002041s, ...` and other runners' lines do not match.
_FINISHED = re.compile(r"^Finished in \d.* seconds? \(files took \d.* seconds? to load\)$")
_SUMMARY = re.compile(
    r"^(?P<examples>\d+) examples?, (?P<failures>\d+) failures?"
    r"(?:, (?P<pending>\d+) pending)?(?:, (?P<errors>\d+) errors? occurred outside of examples)?$"
)
_INTERRUPTED = "RSpec is shutting down and will print the summary report"


class RspecParser(LineParser):
    """Adds up the summary line that follows each run's `Finished in` line."""

    name: ClassVar[str] = "rspec"
    trusts: ClassVar[str] = (
        "The line right after each run's 'Finished in ...' ('9 examples, 3 failures, 4 pending, "
        "1 error occurred outside of examples'), added up over runs."
    )
    reads: ClassVar[LineFilter] = LineFilter(starts="F", pattern="Finished in ", holds=(_INTERRUPTED,))

    def __init__(self) -> None:
        self._runs = RunTotals("RSpec runs")
        self._after_finished = False
        self._interrupted = False
        self._unread: str | None = None

    @property
    def wants_every_line(self) -> bool:
        return self._after_finished  # the summary line right after `Finished in`

    def feed(self, line: str) -> None:
        if self._after_finished:
            self._after_finished = False
            match = _SUMMARY.match(line)
            if match:
                self._summary(match)
                return
            self._unread = self._unread or "RSpec's 'Finished in' line is not followed by its summary line"
        if line.startswith("Finished in "):
            self._after_finished = _FINISHED.match(line) is not None
        elif _INTERRUPTED in line:
            self._interrupted = True

    def _summary(self, match: re.Match[str]) -> None:
        examples, failures = int(match["examples"]), int(match["failures"])
        pending, errors = int(match["pending"] or 0), int(match["errors"] or 0)
        passed = examples - failures - pending
        if passed < 0:
            self._unread = self._unread or f"RSpec's summary '{match[0]}' counts more failed and pending than examples"
            return
        counts = Counts(passed=passed, failed=failures + errors, skipped=pending)
        if errors:
            self._runs.notes.append(
                f"{errors} error(s) outside of examples (a spec file that did not load, a hook) counted as failed"
            )
        if self._interrupted:
            if not counts.failed:
                self._unread = self._unread or (
                    "RSpec was interrupted ('RSpec is shutting down'); its summary counts only the examples run "
                    "before the interrupt"
                )
            else:
                self._runs.notes.append("RSpec was interrupted; the counts cover the examples run before it")
            self._interrupted = False
        self._runs.add(counts)

    def finish(self) -> Reading | None:
        if self._after_finished:
            return self.reading(None, "the output ends after RSpec's 'Finished in' line, before its summary line")
        reading = self._runs.finish(self, self._unread)
        if reading is None and self._interrupted:
            return self.reading(None, "RSpec was interrupted ('RSpec is shutting down') before its summary line")
        return reading


PARSER = RspecParser
