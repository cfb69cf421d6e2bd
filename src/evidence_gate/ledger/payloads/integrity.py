"""The gate-integrity gate's payload: the inventory of the change's gate edits, the tagged hunks a
reviewer reads, and the suppressions the ignore-comment audit (check 7) judges."""

from __future__ import annotations

from dataclasses import dataclass, field

from evidence_gate.ledger.payload import count_of, spec
from evidence_gate.wording import plural

MAX_SUPPRESSIONS = 1_000  # listed in the payload; every one is counted (`suppressions_total`)
TAG_NAMES = {
    "RH-1": "test-skipped",
    "RH-2": "test-focused",
    "RH-3": "test-removed",
    "RH-4": "assertion-removed",
    "RH-5": "expectation-changed",
    "RH-6": "suppression-added",
    "RH-7": "coverage-exclusion",
    "RH-8": "threshold-lowered",
    "RH-9": "ci-nonblocking",
    "RH-10": "ci-step-removed",
    "RH-11": "snapshot-rewritten",
    "RH-12": "test-excluded",
    "RH-13": "timeout-or-retry",
    "RH-14": "frozen-test-changed",
    "RH-15": "unpaired",
}
_TAGS = spec(items={"pattern": "^RH-(1[0-5]|[1-9])[?]?$"})
_COUNT = spec(schema={"minimum": 0})


@dataclass(frozen=True, kw_only=True)
class HunkRead:
    """A tagged hunk as reviewers read it."""

    id: str
    path: str
    header: str
    tags: tuple[str, ...] = field(metadata=_TAGS)
    failing: bool
    excerpt: str  # the hunk's lines, `+` and `-`, the first lines of them (gates/integrity.py: EXCERPT_LINES)

    @property
    def tag_names(self) -> str:
        return ", ".join(f"{tag} {TAG_NAMES[tag.rstrip('?')]}" for tag in self.tags)


@dataclass(frozen=True, kw_only=True)
class HunkGroup:
    """Tagged hunks of one folder with the same tags, read as one line: `RH-3 x312 under tests/unit/`."""

    tags: tuple[str, ...] = field(metadata=_TAGS)
    folder: str  # `tests/data/`; `.` for the top
    count: int = field(metadata=spec(schema={"minimum": 1}))
    files: int = field(metadata=spec(schema={"minimum": 1}))

    @property
    def tag_names(self) -> str:
        return ", ".join(f"{tag} {TAG_NAMES[tag.rstrip('?')]}" for tag in self.tags)

    @property
    def line(self) -> str:
        where = "at the top" if self.folder == "." else f"under {self.folder}"
        files = f" ({plural(self.files, 'file')})" if self.files != self.count else ""
        return f"{','.join(self.tags)} \N{MULTIPLICATION SIGN}{self.count} {where}{files}"


@dataclass(frozen=True, kw_only=True)
class Suppression:
    """A suppression or coverage exclusion the change adds (RH-6, RH-7): check 7 audits it."""

    path: str
    line: int = field(metadata=spec(schema={"minimum": 1}))
    text: str
    justified: bool  # a reason follows it on its line; a rule code alone is not one
    # unjustified: the line's directive with its reason's place (`<directive>  # <why>`); unwritten when none
    fix: str = field(default="", metadata=spec(omit_default=True))


def unjustified(item: Suppression) -> bool:
    return not item.justified


@dataclass(frozen=True, kw_only=True)
class IntegrityData:
    """The inventory. A ledger written before the totals were kept counted only what it listed."""

    summary_line: str  # GATE_SUMMARY: …
    listed: int = field(metadata=_COUNT)
    eligible: int = field(metadata=_COUNT)
    inspected: int = field(metadata=_COUNT)
    unread: int = field(metadata=_COUNT)
    tagged: dict[str, int] = field(metadata=spec(items={"minimum": 0}, keys={"pattern": "^RH-[0-9]{1,2}[?]?$"}))
    languages_unlisted: tuple[str, ...]
    hunks: tuple[HunkRead, ...]  # the tagged hunks read
    failures: tuple[str, ...]
    parked: tuple[str, ...]  # `[S-1#2]: why`, criteria the freeze could not prove red
    # the first MAX_SUPPRESSIONS, each unjustified one first
    suppressions: tuple[Suppression, ...] = field(
        default=(), metadata=spec(schema={"maxItems": MAX_SUPPRESSIONS}, required=True)
    )
    groups: tuple[HunkGroup, ...] = ()  # tagged hunks read as one line each group (not in `hunks`)
    # every suppression the change adds, listed or not
    suppressions_total: int = field(default=0, metadata=spec(schema={"minimum": 0}, missing=count_of("suppressions")))
    # of those, the ones without a reason, listed or not
    unjustified_total: int = field(
        default=0, metadata=spec(schema={"minimum": 0}, missing=count_of("suppressions", unjustified))
    )

    @property
    def partial(self) -> bool:
        return self.unread > 0
