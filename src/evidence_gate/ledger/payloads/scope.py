"""The scope check's payload (check 5): the declared scope and the changed files outside it."""

from __future__ import annotations

from dataclasses import dataclass, field

from evidence_gate.ledger.payload import spec

MAX_LISTED = 200  # changed files outside the scope listed; all are counted
MAX_GLOBS = 1000


@dataclass(frozen=True, kw_only=True)
class ScopeData:
    source: str  # `the configuration's scope` or `the pull request's Scope: list`
    globs: tuple[str, ...] = field(metadata=spec(schema={"maxItems": MAX_GLOBS}))
    changed: int = field(metadata=spec(schema={"minimum": 0}))
    # the first MAX_LISTED changed files outside the scope
    outside: tuple[str, ...] = field(metadata=spec(schema={"maxItems": MAX_LISTED}))
    outside_total: int = field(metadata=spec(schema={"minimum": 0}))
