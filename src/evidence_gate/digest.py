"""The baseline digest: a compact copy of a run's counts, test identities and as many test names as
fit, embedded (gzip, base64, in an HTML comment) in the check run the action leaves on each commit.
A PR's run reads the base commit's check run back, shows deltas and names the tests it lost; no
artifact store is needed. Names are what gives way when the digest would not fit: the most that
fit are kept (halving until they do), the identities always.

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
from dataclasses import dataclass, field

from evidence_gate.ledger import MAX_NAMED_TESTS, MAX_TEST_NAME, Ledger
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
    names: dict[str, str] = field(default_factory=dict)  # test id -> name, for those that fit


def encode(ledger: Ledger) -> str | None:
    """The digest as an HTML comment, or None when even the identities would not fit (the check run
    stays readable)."""
    counts = ledger.counts
    names = sorted((identity, name[:MAX_TEST_NAME]) for identity, name in ledger.test_names.items())
    keep = len(names)
    while True:
        document = {
            "c": None if counts is None else [counts.passed, counts.failed, counts.skipped],
            "t": "".join(f"{identity}{_OUTCOMES[outcome]}" for identity, outcome in sorted(ledger.tests.items())),
            "n": dict(names[:keep]),
        }
        packed = base64.b64encode(gzip.compress(json.dumps(document, separators=(",", ":")).encode(), mtime=0))
        if len(packed) <= MAX_ENCODED:
            return f"<!-- {MARKER}:v1:{packed.decode()} -->"
        if keep == 0:
            return None
        keep //= 2


def decode(text: str) -> Digest | None:
    """The digest found in a check run's summary, or None when there is none or it is unreadable."""
    found = _FOUND.search(text)
    if not found or len(found.group(1)) > MAX_ENCODED:
        return None
    try:
        raw = zlib.decompressobj(wbits=31).decompress(base64.b64decode(found.group(1), validate=True), MAX_DECODED)
        document = json.loads(raw)
    except (binascii.Error, zlib.error, ValueError, RecursionError):
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
    names = _names(document.get("n", {}))
    if names is None:
        return None
    if counts is None:
        return Digest(counts=None, tests=parsed, names=names)
    if not (isinstance(counts, list) and len(counts) == 3 and all(isinstance(n, int) and n >= 0 for n in counts)):
        return None
    return Digest(counts=Counts(passed=counts[0], failed=counts[1], skipped=counts[2]), tests=parsed, names=names)


def _names(value: object) -> dict[str, str] | None:
    """The digest's test names, or None when their shape is forged."""
    if not isinstance(value, dict) or len(value) > MAX_NAMED_TESTS:
        return None
    names: dict[str, str] = {}
    for identity, name in value.items():
        if not (isinstance(name, str) and len(name) <= MAX_TEST_NAME and re.fullmatch(r"[0-9a-f]{12}", identity)):
            return None
        names[identity] = name
    return names
