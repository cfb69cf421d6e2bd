"""A test file's strength verdict from its runs: at the head, without the production change (the
base run), and the head once more when the base run failed. Pure.

- red: fails on a test without the production change, so it covers the change;
- still-green: passes without it, so it does not exercise the change;
- unjudged: fails without it by not compiling or loading, or on a symbol the change adds before any
  assertion, so it never reached an assertion about behaviour;
- not-run: fails on the head, timed out, executed zero tests, is flaky, or there is no production
  change to revert.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from evidence_gate.ledger.payloads.strength import Verdict
from evidence_gate.strength.evidence import RunEvidence


@dataclass(frozen=True, kw_only=True)
class Judged:
    path: str
    verdict: Verdict
    reason: str
    scope: str | None = None  # what ran, where it is not the file alone
    loaded_from: Mapping[str, str] = field(default_factory=dict)  # module -> the worktree file it loaded
    head: RunEvidence | None = None
    base: RunEvidence | None = None
    rerun: RunEvidence | None = None
    head_skipped: str | None = None  # why no head run came first: `head` is the one made after the base run

    @property
    def runs(self) -> str:
        """The runs made, in order."""
        if self.head_skipped is not None:
            return f"base, then head ({self.head_skipped})" if self.head else f"base ({self.head_skipped})"
        made = [name for name, run in (("head", self.head), ("base", self.base), ("head again", self.rerun)) if run]
        return ", then ".join(made) or "none"


def judge_head(head: RunEvidence) -> str | None:
    """Why the head run cannot be the start of a judgement, or None when it passed."""
    if head.timed_out:
        return f"timed out at the head after {head.seconds:.0f} s"
    if head.exit_code != 0 and head.error_line is not None and _did_not_load(head):
        return f"does not load at the head (exit code {head.exit_code}): {head.error_line}"
    if head.counts is None:
        return f"no test count could be read at the head ({head.count_reason or 'no summary'})"
    if head.counts.executed == 0:
        return "executed zero tests at the head"
    if head.counts.failed or (head.exit_code != 0 and not head.passed_but_for_coverage):
        return f"fails at the head ({_outcome(head)}): only a passing test can be judged"
    return None


def judge_base(base: RunEvidence, rerun: RunEvidence | None, reverted: bool) -> tuple[Verdict, str]:
    """The verdict once the head run passed. `rerun` is the head run again, made when the base run
    failed; `reverted` says the base worktree's production files really differ from the head's."""
    if base.timed_out:
        return Verdict.NOT_RUN, f"timed out without the change after {base.seconds:.0f} s"
    if base.load_error is not None:
        new = f"; `{base.missing_symbol}` is a name the change adds" if base.missing_symbol else ""
        return Verdict.UNJUDGED, f"does not load without the change ({base.load_error.strip('_=- ')}{new})"
    if base.missing_symbol is not None:
        return Verdict.UNJUDGED, (
            f"fails without the change on `{base.missing_symbol}`, a name the change adds, before any assertion:"
            " it never reached one about behaviour"
        )
    if base.counts is None or (base.exit_code != 0 and not base.counts.failed and not base.passed_but_for_coverage):
        return Verdict.UNJUDGED, (
            "fails without the change but no failing test was counted"
            f" ({base.error_line or base.count_reason or _outcome(base)}):"
            " it did not get as far as an assertion"
        )
    if base.counts.executed == 0:
        return Verdict.UNJUDGED, "executed zero tests without the change (it no longer loads its tests)"
    if base.counts.failed:
        if rerun is not None and judge_head(rerun) is not None:
            return Verdict.NOT_RUN, f"flaky: it failed again at the head on a second run ({_outcome(rerun)})"
        return Verdict.RED, f"fails without the change ({_outcome(base)}) and passes with it"
    if not reverted:
        return Verdict.NOT_RUN, "the revert did not apply: the production files are the head's"
    return Verdict.STILL_GREEN, f"passes without the change ({_outcome(base)}): it does not exercise it"


def _did_not_load(run: RunEvidence) -> bool:
    """Nothing the run printed can be read as its tests' outcome (no count), or a load error stopped
    it before any test passed. A run that loaded and collected nothing is "executed zero tests"."""
    return run.counts is None or (run.load_error is not None and run.counts.passed == 0)


def _outcome(run: RunEvidence) -> str:
    if run.counts is None:
        return f"exit code {run.exit_code}"
    counts = run.counts
    return f"{counts.failed} failed, {counts.passed} passed, exit code {run.exit_code}"
