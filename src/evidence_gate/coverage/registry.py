"""The coverage report readers, by name, and which one a file's first bytes are for. A new format is
one module under `readers/` (its `READER`) and one line here."""

from __future__ import annotations

from evidence_gate.coverage.readers import clover, cobertura, coveragepy_json, gocover, istanbul, jacoco, lcov
from evidence_gate.coverage.readers.base import Reader
from evidence_gate.summary.encoding import decoded_head, detect_encoding, is_wide

READERS: tuple[Reader, ...] = (
    cobertura.READER,
    clover.READER,
    jacoco.READER,
    lcov.READER,
    gocover.READER,
    coveragepy_json.READER,
    istanbul.READER,
)


def coverage_format(head: bytes) -> str | None:
    """The reader for content starting with `head`, judged from the content, never the file name."""
    encoding = detect_encoding(head)
    if is_wide(encoding):
        head = decoded_head(head, encoding).encode("utf-8", "replace")
    return next((reader.name for reader in READERS if reader.recognises(head)), None)


def reader(name: str) -> Reader:
    return next(reader for reader in READERS if reader.name == name)
