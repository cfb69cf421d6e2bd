"""The evidence capture protocol: a check's command runs as `<command> 2>&1; echo "EXIT_CODE=$?"`,
and what it printed is recorded as the exact command, the output (first 50 and last 10 lines, the
count left out between them) and the exit code read from the `EXIT_CODE=` line. A log a job's step
wrote the same way (the action's `logs`) is read with the same rules, so both modes give one record.

The command runs through the effects' command runner: tokens removed from its environment, a
process group killed at its timeout, output to a file read in bounded memory.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from evidence_gate.effects import Effects
from evidence_gate.quality.diagnostics import is_diagnostic, is_summary, is_warning
from evidence_gate.stacks.commands import CAPTURE
from evidence_gate.summary.excerpt import excerpt
from evidence_gate.summary.read import numbered_lines
from evidence_gate.summary.terminal import clean_line

# The protocol's own marker and the older `[evidence-gate] exit code N` (adapters.yaml, `exit_marker`).
EXIT_MARKER = re.compile(r"(?:^\[evidence-gate\] exit code |EXIT_CODE=)(?P<code>-?\d+)\s*$")
_ERROR_WORD = re.compile(r"\b(error|errors|failed|failure|fatal|exception|panic|traceback)\b|✖|✘", re.IGNORECASE)
MAX_FIRST_ERROR = 300


@dataclass(frozen=True, kw_only=True)
class Captured:
    """One command's evidence, as the report shows it."""

    command: str  # as it ran (or the log it was read from), copy-pasteable
    source: str  # `ran` or the log's name as reviewers read it
    exit_code: int | None  # from the `EXIT_CODE=` line; None when the output holds none
    output: str  # first 50 and last 10 lines
    lines: tuple[str, ...]  # every cleaned line up to the cap, for the counting rules (diagnostics.py)
    first_error: str | None  # the first diagnostic (else error) line: what the failure's signature is made of


MAX_KEPT_LINES = 20_000  # the counting rules read this many lines; a longer log is counted by its summary line
MAX_KEPT_CHARS = 500  # of each: a diagnostic's location and code are at its start


def with_exit_marker(command: str) -> str:
    """The command in the protocol's form, unless it already echoes its own exit marker. It runs in
    a subshell, so a command that calls `exit` still leaves the marker behind it."""
    return command if "EXIT_CODE=$?" in command else f"( {command}\n){CAPTURE}"


def run_captured(
    effects: Effects,
    command: str,
    cwd: Path,
    output: Path,
    timeout: float,
    extra: Mapping[str, str],
    *,
    errors_only: bool = False,
) -> Captured:
    """Run `command` in a shell in `cwd` under the capture protocol and read its record."""
    shell = with_exit_marker(command)
    run = effects.commands(["sh", "-c", shell], cwd, output, timeout, extra=extra)
    captured = read_captured(run.output, command, "ran", errors_only=errors_only)
    if run.timed_out:
        return Captured(
            command=command,
            source="ran",
            exit_code=124,
            output=captured.output,
            lines=captured.lines,
            first_error=f"timed out after {timeout:.0f} s",
        )
    return captured


def read_captured(path: Path, command: str, source: str, *, errors_only: bool = False) -> Captured:
    """A log written under the protocol, in one bounded pass: the last exit marker is the command's.
    A type checker's (`errors_only`) first error is never a warning (diagnostics.py)."""
    exit_code: int | None = None
    first_error: str | None = None
    first_diagnostic: str | None = None
    kept: list[str] = []
    for _, raw in numbered_lines(path):
        line = clean_line(raw)
        found = EXIT_MARKER.search(line)
        if found:
            exit_code = int(found.group("code"))
            continue
        if first_diagnostic is None and is_diagnostic(line) and not (errors_only and is_warning(line)):
            first_diagnostic = line.strip()[:MAX_FIRST_ERROR]
        if (
            first_error is None
            and _ERROR_WORD.search(line)
            and not is_summary(line)
            and not (errors_only and is_warning(line))
        ):
            first_error = line.strip()[:MAX_FIRST_ERROR]
        if len(kept) < MAX_KEPT_LINES:
            kept.append(line[:MAX_KEPT_CHARS])
        else:
            kept[-1] = line[:MAX_KEPT_CHARS]  # the last line (a summary) is always kept
    first_error = first_diagnostic or first_error
    if first_error is None and exit_code not in (None, 0):
        first_error = next((line.strip()[:MAX_FIRST_ERROR] for line in kept if line.strip()), None)
    return Captured(
        command=command,
        source=source,
        exit_code=exit_code,
        output=excerpt(path),
        lines=tuple(kept),
        first_error=first_error,
    )
