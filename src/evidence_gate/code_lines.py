"""Whether a change to a source file changes its code, or only its comments and blank lines.

A pull request that rewords a comment, or adds a `//nolint:…` reason after a statement, changes no
behaviour: reverting it (test strength) cannot make a test fail, and it is no production change
that wants a test (`RH-15?`). A line's code is the line without a comment that starts it or trails
it, with white space folded; a changed file's code is unchanged when, hunk by hunk, the removed
lines' code equals the added lines' code, in order, blank ones left out.

The comment syntax is read from the file's suffix alone: `#` for the hash-comment languages, `//`
and one-line `/* … */` for the C family. A trailing comment is cut only where the text before it
holds no quote, so a `#` or `//` inside a string literal is never taken for one. A line of a
multi-line block comment (`* …`) counts as code: reading it as a comment could let a real change
(`*counter += 1;`) pass for none, and a wrong "code changed" only keeps today's stricter reading.
A file whose hunks were not read (binary, over the diff's caps) changes its code.
"""

from __future__ import annotations

import re
from pathlib import PurePosixPath

from evidence_gate.model import ChangedFile, ChangedLine

_HASH = frozenset({".py", ".pyi", ".rb", ".sh", ".bash", ".pl", ".r", ".ex", ".exs", ".cr", ".nim", ".jl"})
_SLASH = frozenset(
    {
        ".js", ".jsx", ".mjs", ".cjs", ".ts", ".tsx", ".mts", ".cts", ".go", ".rs", ".java", ".kt", ".kts",
        ".scala", ".swift", ".c", ".h", ".cc", ".cpp", ".cxx", ".hpp", ".hh", ".cs", ".dart", ".m", ".mm",
        ".groovy", ".php",
    }
)  # fmt: skip
_SPACE = re.compile(r"\s+")
_BLOCK = re.compile(r"/\*[^*]*\*+(?:[^/*][^*]*\*+)*/")  # one /* … */ on one line, linear


def code_unchanged(changed: ChangedFile) -> bool:
    """Whether the file's change leaves its code as it was: comments and blank lines only."""
    if changed.binary or not changed.hunks or changed.counted is not None:  # counted: its lines unread
        return False
    return all(same_code(changed.path, hunk.removed, hunk.added) for hunk in changed.hunks)


def same_code(path: str, removed: tuple[ChangedLine, ...], added: tuple[ChangedLine, ...]) -> bool:
    """Whether one hunk's removed and added lines of the file at `path` hold the same code, in order."""
    suffix = PurePosixPath(path).suffix.lower()
    if suffix not in _HASH and suffix not in _SLASH:
        return False
    return _code(removed, suffix) == _code(added, suffix)


def line_code(path: str, text: str) -> str | None:
    """One line's code, read as above ("" for a comment or a blank line); None when the comment
    syntax of the file at `path` is not known here."""
    suffix = PurePosixPath(path).suffix.lower()
    if suffix not in _HASH and suffix not in _SLASH:
        return None
    return _code_of(text, suffix)


def _code(lines: tuple[ChangedLine, ...], suffix: str) -> list[str]:
    found = (_code_of(line.text, suffix) for line in lines)
    return [code for code in found if code]


def _code_of(text: str, suffix: str) -> str:
    if suffix in _HASH:
        cut = text.find("#")
        text = text if cut < 0 or _quoted(text[:cut]) else text[:cut]
    else:
        text = _BLOCK.sub(" ", text) if "/*" in text else text
        cut = text.find("//")
        text = text if cut < 0 or _quoted(text[:cut]) or text[cut - 1 : cut] == ":" else text[:cut]
    return _SPACE.sub(" ", text).strip()


def _quoted(before: str) -> bool:
    """Whether a string literal may be open or closed before the comment mark: then it is not cut."""
    return any(quote in before for quote in ("'", '"', "`"))
