"""How many errors a type checker printed, or warnings a linter did: from the summary line the tool
prints when it has one (mypy, pyright, tsc, ruff, eslint, flake8's count, golangci-lint, clippy,
swiftlint, rubocop, phpstan …), else one per diagnostic line in the `path:line[:col]: message` shape
every compiler and linter shares. None when the output has neither: the count is unknown, never 0.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

# Each: a summary line and the group holding the count. The first that matches, from the end, wins.
_SUMMARIES = (
    re.compile(r"^Found (?P<n>\d+) errors? in \d+ files?"),  # mypy
    re.compile(r"^Success: no issues found"),  # mypy, 0
    re.compile(r"^(?P<n>\d+) errors?, \d+ warnings?, \d+ (?:informations?|notes?)"),  # pyright
    re.compile(r"^0 errors?, 0 warnings?"),  # pyright, 0
    re.compile(r"^Found (?P<n>\d+) errors?\b"),  # tsc, ruff
    re.compile(r"^All checks passed!"),  # ruff, 0
    re.compile(r"^✖ (?P<n>\d+) problems? \("),  # eslint
    re.compile(r"^(?P<n>\d+) issues?(?: found)?[.:]?\s*$"),  # golangci-lint, flake8 --count
    re.compile(r"^Done linting! Found (?P<n>\d+) violations?"),  # swiftlint
    re.compile(r"^\d+ files? inspected, (?P<n>\d+) offenses? detected"),  # rubocop
    re.compile(r"^\s*\[ERROR\] Found (?P<n>\d+) errors?"),  # phpstan
    re.compile(r"^\s*\[OK\] No errors"),  # phpstan, 0
    re.compile(r"^(?:warning|error): .* generated (?P<n>\d+) (?:warnings?|errors?)"),  # cargo, clippy
)
_DIAGNOSTIC = re.compile(r"^\s*(?!-->)[^\s:][^:]*:\d+(?::\d+)?:\s+\S")  # `path:line[:col]: message`
_RUST_DIAGNOSTIC = re.compile(r"^(?:error|warning)(?:\[\w+\])?: (?!.*generated \d+)")


_RULE_CODE = re.compile(
    r"^(?:[A-Z]{1,4}\d{2,5}|[a-z]+(?:-[a-z]+)+)\b.*\S"
)  # ruff's `F401 …`, eslint's `no-unused-vars`


def is_summary(line: str) -> bool:
    """A tool's closing count (`Found 2 errors.`): the same whatever the errors were."""
    return any(summary.match(line.strip()) for summary in _SUMMARIES)


def is_diagnostic(line: str) -> bool:
    """A line naming one error: `path:line:col: …`, `error[E0308]: …`, or a rule code first."""
    return bool(_DIAGNOSTIC.match(line) or _RUST_DIAGNOSTIC.match(line) or _RULE_CODE.match(line.strip()))


def count(lines: Sequence[str], exit_code: int | None) -> int | None:
    """The errors or warnings `lines` report; 0 for a silent run that exited 0 (a type check that
    prints nothing on success); None when the output cannot say."""
    for line in reversed(lines):
        for summary in _SUMMARIES:
            found = summary.match(line.strip())
            if found:
                return int(found.group("n")) if "n" in summary.groupindex else 0
    diagnostics = sum(1 for line in lines if _DIAGNOSTIC.match(line) or _RUST_DIAGNOSTIC.match(line))
    if diagnostics:
        return diagnostics
    if exit_code == 0:
        return 0
    return None
