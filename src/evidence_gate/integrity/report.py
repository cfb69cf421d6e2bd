"""The inventory as reviewers and tools read it: the GATE_SUMMARY line, one line per hunk read, the
JSON artifact (every hunk with its text) and SARIF 2.1.0 for code-scanning alerts.

`listed` is every gate edit (the inventory's floor); `eligible`, the hunks that carry a tag or
remove lines; `inspected`, how many of those are shown (the read cap); `unread`, the rest;
`unmatched`, the listed hunks that carry no tag. `candidate` fingerprints the base, the head and
the diff, so a reading is tied to exactly this candidate.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from dataclasses import dataclass

from evidence_gate.console import line_safe
from evidence_gate.integrity.tagger import Inventory, TaggedHunk
from evidence_gate.ledger.payloads.integrity import TAG_NAMES
from evidence_gate.model import Change

DEFAULT_READ_CAP = 200


@dataclass(frozen=True, kw_only=True)
class Summary:
    listed: int
    eligible: int
    inspected: int
    unread: int
    tagged: dict[str, int]  # RH-n -> hunks carrying it, in number order
    unmatched: int
    coverage: tuple[str, ...]  # the languages whose idioms were applied
    languages_unlisted: tuple[str, ...]
    candidate: str

    def line(self, artifact: str) -> str:
        tagged = ",".join(f"{tag}:{count}" for tag, count in self.tagged.items())
        return (
            f"GATE_SUMMARY: listed={self.listed} eligible={self.eligible} inspected={self.inspected}"
            f" unread={self.unread} tagged={{{tagged}}} unmatched={self.unmatched}"
            f" coverage={','.join(self.coverage) or 'none'}"
            f" languages_unlisted={','.join(self.languages_unlisted) or 'none'}"
            f" candidate={self.candidate} artifact={line_safe(artifact)}"
        )

    def document(self) -> dict[str, object]:
        return {
            "listed": self.listed,
            "eligible": self.eligible,
            "inspected": self.inspected,
            "unread": self.unread,
            "tagged": dict(self.tagged),
            "unmatched": self.unmatched,
            "coverage": list(self.coverage),
            "languages_unlisted": list(self.languages_unlisted),
            "candidate": self.candidate,
        }


def fingerprint(change: Change) -> str:
    """16 hex digits of SHA-256 over the base, the head and every path, status and changed line (a
    counted file's by its blob)."""
    digest = hashlib.sha256(f"{change.base}\0{change.head}\0{change.merge_base}".encode())
    for changed in change.files:
        digest.update(f"\0{changed.path}\0{changed.old_path}\0{changed.status}".encode("utf-8", "surrogateescape"))
        if changed.counted is not None:  # its lines, not held, by the blob that holds them
            digest.update(f"\n+{changed.counted.added}-{changed.counted.removed}:{changed.counted.blob}".encode())
        for hunk in changed.hunks:
            for sign, lines in (("-", hunk.removed), ("+", hunk.added)):
                for line in lines:
                    digest.update(f"\n{sign}{line.number}:{line.text}".encode("utf-8", "surrogateescape"))
    return digest.hexdigest()[:16]


def eligible(found: Inventory) -> tuple[TaggedHunk, ...]:
    return tuple(hunk for hunk in found.hunks if hunk.tags or hunk.removed)


def summarise(found: Inventory, coverage: tuple[str, ...], candidate: str, read_cap: int) -> Summary:
    chosen = eligible(found)
    counts = Counter(tag for hunk in found.hunks for tag in hunk.tags)
    return Summary(
        listed=len(found.hunks),
        eligible=len(chosen),
        inspected=min(len(chosen), read_cap),
        unread=max(0, len(chosen) - read_cap),
        tagged=dict(sorted(counts.items(), key=lambda item: int(item[0][3:].rstrip("?")))),
        unmatched=sum(1 for hunk in found.hunks if not hunk.tags),
        coverage=coverage,
        languages_unlisted=found.languages_unlisted,
        candidate=candidate,
    )


def hunk_id(index: int) -> str:
    return f"H{index + 1}"


def text_lines(found: Inventory, summary: Summary, artifact: str) -> list[str]:
    """The summary line, then one line per hunk read: `[H3] RH-1,RH-4 tests/test_x.py @@@ -1,5 +1,6 @@`."""
    lines = [summary.line(artifact)]
    for index, hunk in enumerate(eligible(found)[: summary.inspected]):
        tags = ",".join(hunk.tags) or "untagged"
        lines.append(line_safe(f"[{hunk_id(index)}] {tags} {hunk.path} @{hunk.header}"))
    return lines


def artifact(found: Inventory, summary: Summary) -> dict[str, object]:
    return {
        "summary": summary.document(),
        "hunks": [
            {
                "id": hunk_id(index),
                "path": hunk.path,
                "kind": str(hunk.kind),
                "tags": list(hunk.tags),
                "header": hunk.header,
                "added": [{"line": line.number, "text": line.text} for line in hunk.added],
                "removed": [{"line": line.number, "text": line.text} for line in hunk.removed],
                "unjustified": list(hunk.unjustified),
            }
            for index, hunk in enumerate(found.hunks)
        ],
    }


def first_line(hunk: TaggedHunk) -> int:
    """Where a hunk's finding stands in the new file: its first added line, else where it was cut."""
    if hunk.added:
        return hunk.added[0].number
    if hunk.removed:
        return max(1, hunk.removed[0].number)
    return 1


def sarif(found: Inventory, version: str) -> dict[str, object]:
    """SARIF 2.1.0: one rule per tag, one result per tag a hunk carries (a warning, for review)."""
    tags = sorted({tag.rstrip("?") for hunk in found.hunks for tag in hunk.tags}, key=lambda tag: int(tag[3:]))
    return {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "evidence-gate",
                        "version": version,
                        "rules": [
                            {"id": tag, "name": TAG_NAMES[tag], "shortDescription": {"text": TAG_NAMES[tag]}}
                            for tag in tags
                        ],
                    }
                },
                "results": [
                    {
                        "ruleId": tag.rstrip("?"),
                        "level": "warning",
                        "message": {"text": f"{TAG_NAMES[tag.rstrip('?')]}: {hunk.path} {hunk.header}"},
                        "locations": [
                            {
                                "physicalLocation": {
                                    "artifactLocation": {"uri": hunk.path},
                                    "region": {"startLine": first_line(hunk)},
                                }
                            }
                        ],
                    }
                    for hunk in found.hunks
                    for tag in hunk.tags
                ],
            }
        ],
    }
