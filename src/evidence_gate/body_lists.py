"""The lists a pull request's body declares under a label line (`Scope:`, `Smoke:`): the items of
the list that follows the label, or the comma-separated values on the label's own line. The body is
the author's text: each item is returned as plain text, at most `most` of them, for the checks to
judge (scope) or to show (smoke), never to run."""

from __future__ import annotations

import re

_BULLET = re.compile(r"\s*[-*+]\s+")


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
        item = _item(line) if inside else None
        if item:
            found.append(item)
        elif inside and line.strip():
            inside = False
    return tuple(found[:most])


def _item(line: str) -> str | None:
    """A list item's text, without its bullet and the backticks around it (`- src/**`, ``- `make smoke` ``),
    or None when the line is not an item (or its text holds a backtick). Read with `partition`, not a
    pattern: a lazy one over the text and the trailing spaces took quadratic time on a line of
    many spaces that does not end as an item does."""
    bullet = _BULLET.match(line)
    if bullet is None:
        return None
    text, tick, after = line[bullet.end() :].removeprefix("`").partition("`")
    if not text or text[0].isspace() or after.strip():
        return None
    return text if tick else text.rstrip()
