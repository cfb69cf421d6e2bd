"""The files GitHub reads after a step: step outputs (`GITHUB_OUTPUT`) and the job summary
(`GITHUB_STEP_SUMMARY`). They are written before any API call, so a failed call never loses the
result."""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from pathlib import Path

JOB_SUMMARY_LIMIT = 1024 * 1024
OUTPUT_VALUE_LIMIT = 64 * 1024


def write_outputs(path: str | None, outputs: Mapping[str, str]) -> None:
    """Append `name<<DELIMITER` blocks, the form that is safe for any value (newlines included)."""
    if not path:
        return
    with Path(path).open("a", encoding="utf-8") as handle:
        for name, value in outputs.items():
            text = value[:OUTPUT_VALUE_LIMIT]
            delimiter = f"EOF_{secrets.token_hex(8)}"
            handle.write(f"{name}<<{delimiter}\n{text}\n{delimiter}\n")


def write_job_summary(path: str | None, markdown: str) -> None:
    if not path:
        return
    encoded = markdown.encode("utf-8")
    if len(encoded) > JOB_SUMMARY_LIMIT:
        raise ValueError("the job summary must be rendered within GitHub's 1 MiB limit")
    with Path(path).open("a", encoding="utf-8") as handle:
        handle.write(markdown)
