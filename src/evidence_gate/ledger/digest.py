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
from dataclasses import dataclass, field, replace

from evidence_gate.ledger.model import MAX_NAMED_TESTS, MAX_TEST_NAME, Ledger
from evidence_gate.ledger.quality_document import baseline_document, baseline_of, baseline_problem
from evidence_gate.ledger.quality_record import Baseline, SuiteFigures
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
    figures: Baseline | None = None  # the checks' figures (a baseline's), from a digest that has them
    signatures: dict[int, str] = field(default_factory=dict)  # the run's failed checks' signatures


def encode(ledger: Ledger) -> str | None:
    """The digest as an HTML comment, or None when even the identities would not fit (the check run
    stays readable). The checks' figures go in too (`q`), beside the failed checks' signatures
    (`g`): a later run's baseline and its history."""
    counts = ledger.counts
    names = sorted((identity, name[:MAX_TEST_NAME]) for identity, name in ledger.test_names.items())
    keep = len(names)
    while True:
        document = {
            "c": None if counts is None else [counts.passed, counts.failed, counts.skipped],
            "t": "".join(f"{identity}{_OUTCOMES[outcome]}" for identity, outcome in sorted(ledger.tests.items())),
            "n": dict(names[:keep]),
            "g": {str(number): mark for number, mark in sorted(ledger.quality.signatures.items())},
        }
        if ledger.quality.measured is not None:
            document["q"] = baseline_document(ledger.quality.measured, tests=False)
        packed = base64.b64encode(gzip.compress(json.dumps(document, separators=(",", ":")).encode(), mtime=0))
        if len(packed) <= MAX_ENCODED:
            return f"<!-- {MARKER}:v1:{packed.decode()} -->"
        if keep == 0:
            return None
        keep //= 2


def from_digest(digest: Digest) -> Baseline:
    """A base commit's run as a baseline: the checks' figures where its digest has them, else its
    test counts alone."""
    counts = digest.counts
    test = (
        None
        if counts is None
        else SuiteFigures(exit=None, passed=counts.passed, failed=counts.failed, skipped=counts.skipped)
    )
    found = digest.figures or Baseline()
    return replace(found, test=found.test or test, outcomes=digest.tests, names=digest.names)


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
    signatures = _signatures(document.get("g", {}))
    figures = document.get("q")
    if names is None or signatures is None or (figures is not None and baseline_problem(figures) is not None):
        return None
    read = baseline_of(figures) if figures is not None else None
    if counts is None:
        return Digest(counts=None, tests=parsed, names=names, figures=read, signatures=signatures)
    if not (isinstance(counts, list) and len(counts) == 3 and all(isinstance(n, int) and n >= 0 for n in counts)):
        return None
    total = Counts(passed=counts[0], failed=counts[1], skipped=counts[2])
    return Digest(counts=total, tests=parsed, names=names, figures=read, signatures=signatures)


def _signatures(value: object) -> dict[int, str] | None:
    """The failed checks' signatures, or None when their shape is forged."""
    if not isinstance(value, dict) or len(value) > 9:
        return None
    found: dict[int, str] = {}
    for number, mark in value.items():
        if not (re.fullmatch(r"[1-9]", str(number)) and isinstance(mark, str) and re.fullmatch(r"[0-9a-f]{12}", mark)):
            return None
        found[int(number)] = mark
    return found


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
