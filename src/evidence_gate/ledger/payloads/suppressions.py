"""The ignore-comment audit's payload (check 7): the suppressions the change adds, as the
gate-integrity inventory listed them, and the totals that decide."""

from __future__ import annotations

from dataclasses import dataclass, field

from evidence_gate.ledger.payload import count_of, spec
from evidence_gate.ledger.payloads.integrity import MAX_SUPPRESSIONS, Suppression, unjustified


@dataclass(frozen=True, kw_only=True)
class AuditData:
    """A ledger written before the totals were kept counted only what it listed."""

    # the suppressions and exclusions listed, each unjustified one first
    lines: tuple[Suppression, ...] = field(metadata=spec(schema={"maxItems": MAX_SUPPRESSIONS}))
    # every one the change adds, listed or not
    total: int = field(metadata=spec(schema={"minimum": 0}, required=False, missing=count_of("lines")))
    # of those, the ones without a reason
    unjustified: int = field(
        metadata=spec(schema={"minimum": 0}, required=False, missing=count_of("lines", unjustified))
    )
