"""Where a Python source's multi-line statements start, read the way coverage.py reads them.

coverage.py (and so pytest-cov's Cobertura, its JSON and its LCOV) measures a statement on its first
line only: the continuation lines of `if (\\n    a\\n    and b\\n):` or of a call over several lines
are no lines of the report. It finds a statement's lines from the tokens: a logical line runs from
its first code token to the NEWLINE token that ends it, so a simple statement spans its whole
extent and a compound one (`if`, `def`, `with`, `except`, …) only its header, from the keyword to
the `:`, never its body. This reads them the same way, so a changed line is judged by the very
line the report measures its statement on.

Only the lines of a statement that hold code are its continuation lines: a comment, or a blank
line between the brackets, is not. A source that Python cannot parse (or that is over
`MAX_SOURCE_BYTES`) has none: its changed lines are judged as the report has them, never guessed.
"""

from __future__ import annotations

import ast
import io
import tokenize
from collections.abc import Iterable

MAX_SOURCE_BYTES = 1024 * 1024  # parsing costs ~150 bytes of memory per byte of source
_NO_CODE = frozenset(
    {
        tokenize.COMMENT,
        tokenize.NL,
        tokenize.NEWLINE,
        tokenize.INDENT,
        tokenize.DEDENT,
        tokenize.ENCODING,
        tokenize.ENDMARKER,
    }
)


def statement_lines(source: bytes) -> dict[int, int] | None:
    """Each continuation line of a multi-line statement (one that holds code) -> the statement's
    first line; None when the source is too large or is not Python that parses."""
    if len(source) > MAX_SOURCE_BYTES:
        return None
    try:
        ast.parse(source)
        return _logical_lines(tokenize.tokenize(io.BytesIO(source).readline))
    # MemoryError: CPython's parser raises it for a source nested too deep to parse (`- - - … 1`).
    except (SyntaxError, ValueError, RecursionError, MemoryError, tokenize.TokenError):
        return None


def _logical_lines(tokens: Iterable[tokenize.TokenInfo]) -> dict[int, int]:
    first = 0  # the line of the logical line's first code token; 0 between logical lines
    code: set[int] = set()  # the lines its code tokens cover (a string over lines covers each)
    continued: dict[int, int] = {}
    for token in tokens:
        if token.type == tokenize.NEWLINE:
            continued.update((line, first) for line in code if line != first)
            first, code = 0, set()
        elif token.type not in _NO_CODE and token.string.strip():
            first = first or token.start[0]
            code.update(range(token.start[0], token.end[0] + 1))
    return continued
