"""One survey of a change's gate edits: the inventory, the frozen tests against the head, and the
summary both the `inventory` verb and the gate-integrity gate show."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from evidence_gate.git import Git
from evidence_gate.integrity.configs import Read
from evidence_gate.integrity.frozen import FROZEN_CHANGED, FrozenCheck, check_frozen
from evidence_gate.integrity.idioms import Idioms
from evidence_gate.integrity.report import Summary, fingerprint, summarise
from evidence_gate.integrity.tagger import Inventory, inventory, mark, resolve_unpaired
from evidence_gate.model import Change


@dataclass(frozen=True, kw_only=True)
class Survey:
    inventory: Inventory
    frozen: FrozenCheck
    summary: Summary


CONFIG_CAP = 1 << 20  # bytes of a configuration file read whole


def reader(git: Git) -> Read:
    """A file's text at a revision (the work tree's, for `WORKTREE`), for the configs read whole."""

    def read(revision: str, path: str) -> str | None:
        content = git.read_at(revision, path, CONFIG_CAP)
        return None if content is None else content.decode("utf-8", errors="replace")

    return read


def survey(
    git: Git,
    change: Change,
    idioms: Idioms,
    read_cap: int,
    executed: Mapping[str, tuple[frozenset[int], frozenset[int]]] | None = None,
) -> Survey:
    """The inventory, frozen tests checked; with `executed` (coverage's measured and executed lines
    per production file), the unpaired production hunks settled (`resolve_unpaired`)."""
    found = inventory(change, idioms, reader(git))
    if executed is not None:
        found = resolve_unpaired(found, executed)
    frozen = check_frozen(git, change.base, change.head)
    if frozen.changed:
        found = mark(found, set(frozen.changed), FROZEN_CHANGED)
    languages = {idioms.language(hunk.path) for hunk in found.hunks}
    coverage = tuple(sorted(language for language in languages if language is not None))
    return Survey(
        inventory=found,
        frozen=frozen,
        summary=summarise(found, coverage, fingerprint(change), read_cap),
    )
