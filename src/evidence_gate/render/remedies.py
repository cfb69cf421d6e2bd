"""What to do about a gate that blocks: one line per gate id and verdict, read from
`remedies.yaml` (checked by `remedies.schema.json`), with a line per verdict for any other gate;
and the plain words the comment's first screen names each thing by."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

from evidence_gate.documents import load_table, shipped_table
from evidence_gate.ledger.model import GateVerdict


@dataclass(frozen=True, kw_only=True)
class Remedies:
    default: dict[str, str]  # by verdict: fail, missing, unavailable
    gates: dict[str, dict[str, str]]  # by gate id, then verdict (or `review`, `uncovered`)
    default_words: dict[str, str]  # by verdict, `{title}` for the gate's title
    gate_words: dict[str, dict[str, str]]  # by gate id, then verdict (or `uncovered`)
    ids: dict[str, dict[str, str]]  # the tool's name for a gate without a number, by verdict
    tags: dict[str, str]  # gate integrity's tags in plain words

    def for_gate(self, gate_id: str, verdict: GateVerdict) -> str:
        return self.gates.get(gate_id, {}).get(str(verdict)) or self.default[str(verdict)]

    def todo(self, gate_id: str, key: str) -> str:
        """What to do about one of a gate's other findings (`review`, `uncovered`)."""
        return self.gates.get(gate_id, {}).get(key) or self.default["fail"]

    def words(self, gate_id: str, key: str, title: str = "") -> str:
        """The plain words for what a gate found (a verdict, or `uncovered`)."""
        found = self.gate_words.get(gate_id, {}).get(key)
        return found or self.default_words.get(key, self.default_words["fail"]).replace("{title}", title or "A check")

    def ident(self, gate_id: str, key: str) -> str:
        return self.ids.get(gate_id, {}).get(key) or gate_id

    def tag_words(self, tag: str) -> str:
        return self.tags.get(tag.rstrip("?"), tag)


@functools.cache
def default_remedies() -> Remedies:
    return _remedies(shipped_table("evidence_gate.render", "remedies.yaml"), "remedies.yaml")


def load_remedies(data: bytes, source: str) -> Remedies:
    return _remedies(load_table(data, source, "evidence_gate.render", "remedies.schema.json"), source)


def _remedies(document: Any, source: str) -> Remedies:
    return Remedies(
        default=dict(document["default"]),
        gates={key: dict(value) for key, value in document["gates"].items()},
        default_words=dict(document["words"]["default"]),
        gate_words={key: dict(value) for key, value in document["words"]["gates"].items()},
        ids={key: dict(value) for key, value in document["ids"].items()},
        tags=dict(document["tags"]),
    )
