"""Reading a text report line by line, in bounded memory, whatever its encoding."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

from evidence_gate.coverage.model import UnreadableReport
from evidence_gate.summary.encoding import detect_encoding, text_reader
from evidence_gate.workspace import open_resolved

MAX_LINE_CHARS = 64 * 1024  # no coverage format writes longer lines; a longer one is not a report


def text_lines(path: Path, max_bytes: int | None = None) -> Iterator[tuple[int, str]]:
    """Each line (numbered from 1) without its line ending; a line past `MAX_LINE_CHARS` is refused,
    and so is a file of more than `max_bytes`, before a line is read."""
    try:
        with open_resolved(path) as handle:
            if max_bytes is not None and os.fstat(handle.fileno()).st_size > max_bytes:
                raise UnreadableReport(f"a report over {max_bytes // 2**20} MiB")
            encoding = detect_encoding(handle.read(16))
            handle.seek(0)
            reader = text_reader(handle, encoding)
            for number, line in enumerate(iter(lambda: reader.readline(MAX_LINE_CHARS + 1), ""), start=1):
                if len(line) > MAX_LINE_CHARS:
                    raise UnreadableReport(f"line {number} is longer than {MAX_LINE_CHARS} characters")
                yield number, line.rstrip("\r\n")
    except OSError as error:
        raise UnreadableReport(f"cannot read ({error.strerror or error})") from error
