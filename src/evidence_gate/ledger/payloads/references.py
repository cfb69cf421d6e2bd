"""The references check's payload (check 9): the truth sources read and the references the change
adds, each found or dangling, with the totals that decide."""

from __future__ import annotations

from dataclasses import dataclass, field

from evidence_gate.ledger.payload import count_of, spec

MAX_REFERENCES = 5_000  # listed in the payload; every one is judged and counted


@dataclass(frozen=True, kw_only=True)
class Reference:
    path: str
    line: int = field(metadata=spec(schema={"minimum": 1}))
    key: str
    found: bool


def dangling(reference: Reference) -> bool:
    return not reference.found


@dataclass(frozen=True, kw_only=True)
class ReferencesData:
    """A ledger written before the totals were kept counted only what it listed."""

    sources: tuple[str, ...]  # the truth-source files read at head
    unreadable: tuple[str, ...]  # `path: why`
    # the first MAX_REFERENCES, each dangling one first
    references: tuple[Reference, ...] = field(metadata=spec(schema={"maxItems": MAX_REFERENCES}))
    # every reference the change adds, listed or not
    total: int = field(metadata=spec(schema={"minimum": 0}, required=False, missing=count_of("references")))
    # of those, the ones no truth source defines, listed or not
    dangling_total: int = field(
        metadata=spec(schema={"minimum": 0}, required=False, missing=count_of("references", dangling))
    )

    @property
    def dangling(self) -> tuple[Reference, ...]:
        """The dangling references listed; `dangling_total` counts them all."""
        return tuple(reference for reference in self.references if not reference.found)
