"""What the tool writes never carries a credential, nor text GitHub or a UTF-8 file cannot hold.

Workspace confinement (workspace.py) keeps the tool from reading the runner's secrets on a pull
request's behalf; this is the second line of defence, for a secret that reached a log by other means
(a test that printed its environment, a clone URL with a token in it). Every string of a ledger is
passed through it before the ledger is written, rendered or published: the workflow's token values,
GitHub token shapes, `x-access-token:` credentials and `Authorization:` header values become `***`.
Lone surrogates (bytes of a file name that are not UTF-8) become U+FFFD.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable, Mapping
from enum import Enum
from typing import TypeVar, cast

from evidence_gate.child_env import SECRET_VARIABLES
from evidence_gate.credentials import SHAPES

MASK = "***"
MIN_SECRET_LENGTH = 8
# The header's value, whatever the scheme (`basic <base64>` in actions/checkout's extraheader).
_HEADER = r"(?P<header>(?i:\b(?:proxy-)?authorization)\s*[:=]\s*)[^\r\n]+"
_SURROGATE = re.compile(r"[\ud800-\udfff]")
T = TypeVar("T")


class Scrubber:
    """Masks credentials in text: the values given (the run's tokens) and the shapes above."""

    def __init__(self, secrets: Iterable[str] = ()) -> None:
        values = sorted({value for value in secrets if len(value) >= MIN_SECRET_LENGTH}, key=len, reverse=True)
        alternatives = [*(re.escape(value) for value in values), *SHAPES, _HEADER]
        self._pattern = re.compile("|".join(f"(?:{alternative})" for alternative in alternatives))

    def text(self, text: str) -> str:
        masked = self._pattern.sub(self._mask, text)
        return _SURROGATE.sub("\ufffd", masked)

    @staticmethod
    def _mask(match: re.Match[str]) -> str:
        """The credential masked; the name before it (`Authorization:`, `x-access-token:`) kept."""
        return f"{match.group('header') or match.group('user') or ''}{MASK}"

    def value(self, value: T) -> T:
        """`value` with every string in it scrubbed: dataclasses, tuples, lists and dicts are walked;
        enums and numbers are kept as they are."""
        return cast(T, self._walk(value))

    def _walk(self, value: object) -> object:
        if isinstance(value, Enum) or value is None or isinstance(value, bool | int | float):
            return value
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, tuple):
            return tuple(self._walk(item) for item in value)
        if isinstance(value, list):
            return [self._walk(item) for item in value]
        if isinstance(value, dict):
            return {self._walk(key): self._walk(item) for key, item in value.items()}
        if dataclasses.is_dataclass(value) and not isinstance(value, type):
            changes = {field.name: self._walk(getattr(value, field.name)) for field in dataclasses.fields(value)}
            return dataclasses.replace(value, **changes)
        return value


def run_secrets(environ: Mapping[str, str], *extra: str) -> tuple[str, ...]:
    """The credentials of this run: the secret variables' values and any token given directly."""
    values = (*(environ.get(name, "") for name in sorted(SECRET_VARIABLES)), *extra)
    return tuple(dict.fromkeys(value for value in values if value))
