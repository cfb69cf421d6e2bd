"""A log's excerpt for reviewers: its first and last lines, read in bounded memory."""

from __future__ import annotations

import functools
import itertools
import os
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

from evidence_gate.ledger.model import OUTPUT_HEAD_LINES, OUTPUT_TAIL_LINES
from evidence_gate.workspace import open_regular

EXCERPT_TAIL_BYTES = 64 * 1024
EXCERPT_LINE_BYTES = 2_000


def excerpt(path: Path) -> str:
    """A log's first 50 and last 10 lines, read in bounded memory: a line longer than 2,000 bytes
    is cut, saying how much was left out, so a 200 MB single-line log costs no more than a short one."""
    keep = OUTPUT_HEAD_LINES + OUTPUT_TAIL_LINES
    with open_regular(path) as handle:
        head = list(itertools.islice(_bounded_lines(handle), keep + 1))
        if len(head) <= keep:
            return "\n".join(head)
        rest = sum(chunk.count(b"\n") for chunk in iter(functools.partial(handle.read, 1 << 20), b""))
        handle.seek(max(0, os.fstat(handle.fileno()).st_size - EXCERPT_TAIL_BYTES))
        tail = [_cut(line) for line in handle.read().splitlines()[-OUTPUT_TAIL_LINES:]]
    left_out = len(head) + rest - keep
    return "\n".join([*head[:OUTPUT_HEAD_LINES], f"... {left_out} lines truncated ...", *tail])


def _bounded_lines(handle: BinaryIO) -> Iterator[str]:
    while piece := handle.readline(EXCERPT_LINE_BYTES):
        if piece.endswith(b"\n") or len(piece) < EXCERPT_LINE_BYTES:
            yield _text(piece)
            continue
        left_out = 0
        while more := handle.readline(1 << 20):
            left_out += len(more.rstrip(b"\r\n"))
            if more.endswith(b"\n"):
                break
        yield f"{_text(piece)} … {left_out:,} more bytes" if left_out else _text(piece)


def _cut(line: bytes) -> str:
    if len(line) <= EXCERPT_LINE_BYTES:
        return _text(line)
    return f"{_text(line[:EXCERPT_LINE_BYTES])} … {len(line) - EXCERPT_LINE_BYTES:,} more bytes"


def _text(line: bytes) -> str:
    return line.decode("utf-8", "replace").rstrip("\r\n")
