"""The baseline digest: a compact copy of a run's counts and test identities, embedded (gzip,
base64, in an HTML comment) in the check run the action leaves on each commit. A PR's run reads
the base commit's check run back and shows deltas; no artifact store is needed.

The digest is read from a check run that anyone with write access could have edited, so it is
decoded defensively: bounded size, validated shape, and any problem means "no baseline".
"""

from __future__ import annotations

import base64
import binascii
import gzip
import json
import re
import zlib
from dataclasses import dataclass

from evidence_gate.ledger import Ledger
from evidence_gate.model import Counts

MARKER = "evidence-gate:digest"
MAX_ENCODED = 48_000  # leaves room in a 65,535-byte check-run summary
MAX_DECODED = 8 * 1024 * 1024
_FOUND = re.compile(r"<!-- " + re.escape(MARKER) + r":v1:([A-Za-z0-9+/=]+) -->")
_OUTCOMES = {"passed": "p", "failed": "f", "skipped": "s"}
_NAMES = {short: name for name, short in _OUTCOMES.items()}


@dataclass(frozen=True, kw_only=True)
class Digest:
    counts: Counts | None
    tests: dict[str, str]


def encode(ledger: Ledger) -> str | None:
    """The digest as an HTML comment, or None when it would not fit (the check run stays readable)."""
    counts = ledger.counts
    document = {
        "c": None if counts is None else [counts.passed, counts.failed, counts.skipped],
        "t": "".join(f"{identity}{_OUTCOMES[outcome]}" for identity, outcome in sorted(ledger.tests.items())),
    }
    packed = base64.b64encode(gzip.compress(json.dumps(document, separators=(",", ":")).encode(), mtime=0))
    if len(packed) > MAX_ENCODED:
        return None
    return f"<!-- {MARKER}:v1:{packed.decode()} -->"


def decode(text: str) -> Digest | None:
    """The digest found in a check run's summary, or None when there is none or it is unreadable."""
    found = _FOUND.search(text)
    if not found or len(found.group(1)) > MAX_ENCODED:
        return None
    try:
        raw = zlib.decompressobj(wbits=31).decompress(base64.b64decode(found.group(1), validate=True), MAX_DECODED)
        document = json.loads(raw)
    except (binascii.Error, zlib.error, ValueError):
        return None
    if not isinstance(document, dict):
        return None
    counts, tests = document.get("c"), document.get("t")
    if not isinstance(tests, str) or len(tests) % 13:
        return None
    parsed: dict[str, str] = {}
    for start in range(0, len(tests), 13):
        identity, short = tests[start : start + 12], tests[start + 12]
        if short not in _NAMES or not re.fullmatch(r"[0-9a-f]{12}", identity):
            return None
        parsed[identity] = _NAMES[short]
    if counts is None:
        return Digest(counts=None, tests=parsed)
    if not (isinstance(counts, list) and len(counts) == 3 and all(isinstance(n, int) and n >= 0 for n in counts)):
        return None
    return Digest(counts=Counts(passed=counts[0], failed=counts[1], skipped=counts[2]), tests=parsed)
