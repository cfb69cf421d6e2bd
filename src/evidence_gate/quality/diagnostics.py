"""How many errors a type checker printed, or warnings a linter did: from the summary line the tool
prints when it has one (mypy, pyright, tsc, ruff, eslint, flake8's count, golangci-lint, clippy,
swiftlint, rubocop, phpstan …), else one per diagnostic line in the `path:line[:col]: message` shape
every compiler and linter shares. None when the output has neither: the count is unknown, never 0.

A type checker's unit is the error (`errors_only`): a `warning:` or `note:` line (cargo check prints
warnings, rustc's lints) and a summary that counts warnings are never an error. A linter's unit is
the warning: every diagnostic it prints counts, whatever its level.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

# Each: a summary line, the group holding the count, and what it counts: "errors" (a type checker's
# unit only), "warnings" (a linter's only) or "any". The first that matches, from the end, wins.
_SUMMARIES = (
    (re.compile(r"^Found (?P<n>\d+) errors? in \d+ files?"), "any"),  # mypy
    (re.compile(r"^Success: no issues found"), "any"),  # mypy, 0
    (re.compile(r"^(?P<n>\d+) errors?, \d+ warnings?, \d+ (?:informations?|notes?)"), "any"),  # pyright
    (re.compile(r"^0 errors?, 0 warnings?"), "any"),  # pyright, 0
    (re.compile(r"^Found (?P<n>\d+) errors?\b"), "any"),  # tsc, ruff
    (re.compile(r"^All checks passed!"), "any"),  # ruff, 0
    (re.compile(r"^✖ (?P<n>\d+) problems? \("), "any"),  # eslint
    (re.compile(r"^(?P<n>\d+) problems?$"), "any"),  # eslint's unix and compact formats
    (re.compile(r"^(?P<n>\d+) issues?(?: found)?[.:]?\s*$"), "any"),  # golangci-lint, flake8 --count
    (re.compile(r"^Done linting! Found (?P<n>\d+) violations?"), "any"),  # swiftlint
    (re.compile(r"^\d+ files? inspected, (?P<n>\d+) offenses? detected"), "any"),  # rubocop
    (re.compile(r"^\s*\[ERROR\] Found (?P<n>\d+) errors?"), "any"),  # phpstan
    (re.compile(r"^\s*\[OK\] No errors"), "any"),  # phpstan, 0
    # cargo, rustc: the errors that stopped the build (a type checker's count)
    (re.compile(r"^error: (?:could not compile .* )?(?:due to|aborting due to) (?P<n>\d+) previous errors?"), "errors"),
    (re.compile(r"^(?:warning|error): .* generated (?P<n>\d+) (?:warnings?|errors?)"), "warnings"),  # cargo, clippy
)
_DIAGNOSTIC = re.compile(r"^\s*(?!-->)[^\s:][^:]*:\d+(?::\d+)?:\s+\S")  # `path:line[:col]: message`
# cargo's and rustc's own closing lines name no diagnostic: a crate's count, the build stopping
_RUST_DIAGNOSTIC = re.compile(
    r"^(?:error|warning)(?:\[\w+\])?: (?!.*generated \d+|could not compile\b|aborting due to\b|build failed\b"
    r"|\d+ (?:warnings?|errors?) emitted)"
)
# A diagnostic that is not an error: cargo's and rustc's `warning: …`, `path:line: warning: …`, a note.
_NOT_ERROR = re.compile(
    r"^\s*(?:(?!-->)[^\s:][^:]*:\d+(?::\d+)?:\s+)?(?:warning|note|help)(?:\[[\w:-]+\])?:", re.IGNORECASE
)


_RULE_CODE = re.compile(
    r"^(?:[A-Z]{1,4}\d{2,5}|[a-z]+(?:-[a-z]+)+)\b.*\S"
)  # ruff's `F401 …`, eslint's `no-unused-vars`


def is_summary(line: str) -> bool:
    """A tool's closing count (`Found 2 errors.`): the same whatever the errors were."""
    return any(summary.match(line.strip()) for summary, _ in _SUMMARIES)


def is_warning(message: str) -> bool:
    """A diagnostic, or its message, that is no error: `warning: …`, `src/a.c:3:5: warning: …`, a note."""
    return bool(_NOT_ERROR.match(message))


def is_diagnostic(line: str) -> bool:
    """A line naming one error: `path:line:col: …`, `error[E0308]: …`, or a rule code first."""
    return bool(_DIAGNOSTIC.match(line) or _RUST_DIAGNOSTIC.match(line) or _RULE_CODE.match(line.strip()))


def count(lines: Sequence[str], exit_code: int | None, *, errors_only: bool = False) -> int | None:
    """The errors (`errors_only`: a type checker's) or warnings (a linter's) `lines` report; 0 for a
    silent run that exited 0 (a type check that prints nothing on success, or only warnings); None
    when the output cannot say."""
    skipped = "warnings" if errors_only else "errors"
    for line in reversed(lines):
        for summary, unit in _SUMMARIES:
            found = summary.match(line.strip()) if unit != skipped else None
            if found:
                return int(found.group("n")) if "n" in summary.groupindex else 0
    diagnostics = sum(
        1
        for line in lines
        if (_DIAGNOSTIC.match(line) or _RUST_DIAGNOSTIC.match(line)) and not (errors_only and is_warning(line))
    )
    if diagnostics:
        return diagnostics
    if exit_code == 0:
        return 0
    return None
