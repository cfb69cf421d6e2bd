"""What the tool prints where GitHub Actions reads workflow commands.

The runner reads every line a step prints: a line that starts with `::` (after leading spaces) is a
command (`::error`, `::add-mask::`, `::stop-commands::`), and so is `##[command]` anywhere in a line
(the legacy form). The tool prints untrusted text (test names, failure messages, file names, the PR
body's criteria), so a pull request could forge an annotation, mask a word or switch commands off.
In Actions, human output is therefore printed between `::stop-commands::<random token>` and
`::<token>::`, which GitHub documents for exactly this; JSON output and the one-line messages on
standard error are escaped instead, so they stay valid and readable.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from typing import TextIO

from evidence_gate.escaping import reveal_invisible

_LEGACY = "##["


def in_actions(environ: Mapping[str, str]) -> bool:
    return environ.get("GITHUB_ACTIONS") == "true"


def mask_secrets(stream: TextIO, secrets: Iterable[str]) -> None:
    """Register the run's credentials with the runner, so GitHub masks them wherever they appear in
    the log; printed before any command is stopped (a stopped `::add-mask::` would be ignored)."""
    for secret in secrets:
        stream.write(f"::add-mask::{secret.replace('%', '%25').replace(chr(13), '%0D').replace(chr(10), '%0A')}\n")
    stream.flush()


@contextmanager
def commands_stopped(stream: TextIO, enabled: bool) -> Iterator[None]:
    """While the block prints, the runner treats no line of `stream` as a command."""
    if not enabled:
        yield
        return
    token = secrets.token_hex(16)
    stream.write(f"::stop-commands::{token}\n")
    stream.flush()
    try:
        yield
    finally:
        stream.write(f"\n::{token}::\n")
        stream.flush()


def json_safe(text: str) -> str:
    """Serialised JSON that holds no legacy command: `#` is written as its escape, same value."""
    return text.replace(_LEGACY, "#\\u0023[")


def line_safe(text: str) -> str:
    """One line of human text that is no command: a `::` at its start and `##[` anywhere are
    broken with a space."""
    stripped = text.lstrip()
    if stripped.startswith("::"):
        text = text[: len(text) - len(stripped)] + ": :" + stripped[2:]
    return text.replace(_LEGACY, "## [")


def _escape(text: str) -> str:
    """Workflow-command data escaping, so a message cannot inject another command, with invisible
    characters shown."""
    return reveal_invisible(text).replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def notice(log: TextIO, message: str) -> None:
    log.write(f"::notice title=Evidence Gate::{_escape(message)}\n")


def warning(log: TextIO, message: str) -> None:
    log.write(f"::warning title=Evidence Gate::{_escape(message)}\n")


def error(log: TextIO, message: str) -> None:
    log.write(f"::error title=Evidence Gate::{_escape(message)}\n")


def printable(text: str) -> str:
    """Text on one terminal line: control characters shown as escapes, the rest as it is."""
    return "".join(char if char.isprintable() or char == " " else repr(char)[1:-1] for char in text)
