"""The ignore-comment audit's one rule, for every language (check 7 judges what it finds): a
suppression (RH-6) or coverage exclusion (RH-7) carries a reason on its line, after the directive
and its codes, or inside the directive where its syntax has a place for one. The rule and how each
language writes a reason are data (`idioms.yaml`, `audit`); the directive's extent, its codes
included, is the RH-6 or RH-7 idiom's match. Pure functions over a line's text."""

from __future__ import annotations

import re
from dataclasses import dataclass

from evidence_gate.integrity.idioms import AuditRules, Patterns

# The comment opener just before a directive (`// ` before `eslint-disable`), and a block's closer.
_OPENER = re.compile(r"(//+|/\*+|#|--|<!--)[ \t]*$")
_CLOSERS = ("*/", "-->")
_WORD = re.compile(r"[^\W\d_]")


@dataclass(frozen=True, kw_only=True)
class Audited:
    justified: bool  # a reason stands after the directive and its codes, or inside it
    fix: str  # the directive with its reason's place, in the language's syntax (`<directive>  # <why>`)


def audit_line(text: str, patterns: Patterns, language: str | None, rules: AuditRules) -> Audited | None:
    """The first suppression or exclusion of `patterns` on the line, judged; None without one."""
    ahead = _Ahead(text, patterns)
    match = ahead.first(0)
    if match is None:
        return None
    while (after := ahead.first(match.end())) is not None and not _WORD.search(text, match.end(), after.start()):
        match = after  # directives side by side (a type ignore, then a noqa): the reason follows the last
    directive = match.group(0).rstrip()
    rest = text[match.end() :]
    justified = rules.reason.match(rest) is not None or any(pattern.search(directive) for pattern in rules.within)
    opener = _OPENER.search(text, 0, match.start())
    head = text[opener.start() : match.start()] if opener and not directive.startswith(opener.group(1)) else ""
    closer = rest.strip() if rest.strip() in _CLOSERS else ""
    fix = f"{head}{directive}{rules.write(directive, language)}{' ' + closer if closer else ''}"
    return Audited(justified=justified, fix=fix)


class _Ahead:
    """The earliest directive at or after a position, each pattern searched again only once the
    position passes its last match (one that found nothing finds nothing further on): a line of
    many directives is read in time linear in it."""

    def __init__(self, text: str, patterns: Patterns) -> None:
        self._text = text
        self._patterns = patterns
        self._next: dict[re.Pattern[str], re.Match[str] | None] = {}  # a pattern's last search, from where it was

    def first(self, start: int) -> re.Match[str] | None:
        found = []
        for pattern in self._patterns:
            match = self._next.get(pattern)
            if pattern not in self._next or (match is not None and match.start() < start):
                match = self._next[pattern] = pattern.search(self._text, start)
            if match is not None:
                found.append(match)
        return min(found, key=lambda match: match.start(), default=None)
