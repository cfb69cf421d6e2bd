"""Loading a JSON report whole, within bounds: JSON has no streaming reader in the standard library,
so a report past `MAX_JSON_BYTES` is refused with the reason rather than read into memory."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from evidence_gate.coverage.model import UnreadableReport
from evidence_gate.summary.encoding import detect_encoding
from evidence_gate.workspace import open_resolved, read_at_most

MAX_JSON_BYTES = 256 * 1024 * 1024


def load_object(path: Path) -> dict[str, Any]:
    try:
        with open_resolved(path) as handle:
            raw = read_at_most(handle, MAX_JSON_BYTES + 1)
    except OSError as error:
        raise UnreadableReport(f"cannot read ({error.strerror or error})") from error
    if len(raw) > MAX_JSON_BYTES:
        raise UnreadableReport(f"a JSON report over {MAX_JSON_BYTES // 2**20} MiB; use the XML or LCOV form")
    try:
        loaded = json.loads(raw.decode(detect_encoding(raw[:4]), errors="replace"))
    except (ValueError, RecursionError) as error:
        raise UnreadableReport(f"malformed JSON ({str(error)[:200] or 'nested too deep'})") from None
    if not isinstance(loaded, dict):
        raise UnreadableReport("the JSON report is not an object")
    return loaded


def mapping(value: object, what: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise UnreadableReport(f"{what} is not an object")
    return value


def line_number(value: object, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise UnreadableReport(f"{what} is not a line number: {str(value)[:40]!r}")
    return value
