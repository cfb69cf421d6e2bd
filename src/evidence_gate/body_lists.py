"""The lists a pull request's body declares under a label line (`Scope:`, `Smoke:`): the items of
the list that follows the label, or the comma-separated values on the label's own line. The body is
the author's text: each item is returned as plain text, at most `most` of them, for the checks to
judge (scope) or to show (smoke), never to run."""

from __future__ import annotations

import re

_ITEM = re.compile(r"^\s*[-*+]\s+`?(?P<item>[^`\s][^`]*?)`?\s*$")


def label_line(name: str) -> re.Pattern[str]:
    """`Scope:`, `**Scope:**` or `## Scope`, any case, with what follows it on the line as `inline`."""
    return re.compile(rf"^\s*(?:#{{1,6}}\s*)?\**{name}(?:\**:\**\s*(?P<inline>.*)|\**\s*)$", re.IGNORECASE)


def listed_under(body: str, label: re.Pattern[str], most: int, *, inline: bool = True) -> tuple[str, ...]:
    """The items the body lists under `label`; with `inline`, also the values on the label's line."""
    found: list[str] = []
    inside = False
    for line in body.splitlines():
        heading = label.match(line)
        if heading:
            values = (heading["inline"] or "").strip().strip("`") if inline else ""
            found.extend(part.strip().strip("`") for part in values.split(",") if part.strip())
            inside = not values
            continue
        item = _ITEM.match(line) if inside else None
        if item:
            found.append(item["item"])
        elif inside and line.strip():
            inside = False
    return tuple(found[:most])
