"""How counts read in what reviewers see: "1 test", "3 of 812 tests failed", thousands separated."""

from __future__ import annotations

from evidence_gate.model import Counts


def plural(count: int, singular: str, plural_form: str | None = None) -> str:
    """`count` and its noun: "1 test", "2,048 tests"."""
    return f"{count:,} {singular if count == 1 else plural_form or singular + 's'}"


def failed_of(counts: Counts) -> str:
    """ "3 of 812 tests failed" """
    return f"{counts.failed:,} of {plural(counts.executed, 'test')} failed"
