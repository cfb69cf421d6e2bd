"""A strength run as JSON, as text lines, and as the verb's exit code."""

from __future__ import annotations

from collections import Counter
from typing import Any

from evidence_gate.console import line_safe, printable
from evidence_gate.errors import EXIT_CHECK_FAILED, EXIT_OK
from evidence_gate.ledger.payloads.strength import LIMIT, Verdict
from evidence_gate.strength.session import Outcome
from evidence_gate.strength.verdict import Judged

EXIT_UNDECIDED = 4


def counts(judged: tuple[Judged, ...]) -> dict[str, int]:
    found = Counter(item.verdict for item in judged)
    return {str(verdict): found.get(verdict, 0) for verdict in Verdict}


def exit_code(outcome: Outcome) -> int:
    """0 every judged file red; 1 any still-green; 4 anything else (nothing judged included)."""
    verdicts = {item.verdict for item in outcome.judged}
    if Verdict.STILL_GREEN in verdicts:
        return EXIT_CHECK_FAILED
    return EXIT_OK if verdicts == {Verdict.RED} else EXIT_UNDECIDED


def document(outcome: Outcome, shard: str | None) -> dict[str, Any]:
    return {
        "tests": [_test(item) for item in outcome.judged],
        "summary": {
            **counts(outcome.judged),
            "judged": len(outcome.judged),
            "changed_tests": outcome.changed_tests,
            "shard": shard,
            "note": outcome.note,
            "copied": list(outcome.copied),
            "limit": LIMIT if any(item.verdict is Verdict.UNJUDGED for item in outcome.judged) else None,
        },
    }


def _test(item: Judged) -> dict[str, Any]:
    return {
        "path": item.path,
        "verdict": str(item.verdict),
        "reason": item.reason,
        "scope": item.scope,
        "loaded_from": dict(item.loaded_from),
        "head": item.head.document() if item.head else None,
        "base": item.base.document() if item.base else None,
        "rerun": item.rerun.document() if item.rerun else None,
        "runs": item.runs,
    }


def progress_line(item: Judged, done: int, total: int, tally: dict[str, int]) -> str:
    running = ", ".join(f"{verdict} {number}" for verdict, number in tally.items())
    return line_safe(f"strength [{done}/{total}] {item.verdict}: {printable(item.path)} ({running})")


def text_lines(outcome: Outcome) -> list[str]:
    if not outcome.judged:
        return [f"strength: {outcome.note or 'nothing to judge'}"]
    lines = [f"{item.verdict:<12} {printable(item.path)}: {printable(item.reason)}" for item in outcome.judged]
    tally = counts(outcome.judged)
    lines.append("strength: " + ", ".join(f"{number} {verdict}" for verdict, number in tally.items()))
    if tally[str(Verdict.UNJUDGED)]:
        lines.append(f"note: {LIMIT}")
    return [line_safe(line) for line in lines]
