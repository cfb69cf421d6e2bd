"""Acceptance criteria from a pull request body: the checklist under an "Acceptance criteria" heading.

The body is untrusted text. It is read, never rendered or executed here; only the checklist items'
order (criterion 1, 2, ...) and their text are kept.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

from evidence_gate.errors import UsageError
from evidence_gate.git import Git

_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_ITEM = re.compile(r"^\s{0,3}(?:[-*+]|\d{1,9}[.)])\s+\[[ xX]\]\s+(?P<text>.*\S)\s*$")
_TITLE = "acceptance criteria"
MAX_CRITERIA = 200


@dataclass(frozen=True, kw_only=True)
class Criterion:
    number: int
    text: str | None


def criteria_from_count(count: int) -> tuple[Criterion, ...]:
    if not 1 <= count <= MAX_CRITERIA:
        raise UsageError(f"--count {count}: give a number from 1 to {MAX_CRITERIA}")
    return tuple(Criterion(number=number, text=None) for number in range(1, count + 1))


def read_body(path: Path) -> str:
    """The PR body from a GitHub event payload (`pull_request.body`), or the file's text as it is."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise UsageError(f"--from-pr-body {path}: cannot read ({error})") from error
    if text.lstrip().startswith("{"):
        try:
            event = json.loads(text)
        except json.JSONDecodeError as error:
            raise UsageError(f"--from-pr-body {path}: not valid JSON ({error})") from error
        pull_request = event.get("pull_request") if isinstance(event, dict) else None
        body = pull_request.get("body") if isinstance(pull_request, dict) else None
        if pull_request is None:
            raise UsageError(f"--from-pr-body {path}: a JSON file, but not a pull_request event payload")
        return body if isinstance(body, str) else ""
    return text


def criteria_from_body(body: str, source: str) -> tuple[Criterion, ...]:
    """The checklist items under the first "Acceptance criteria" heading, up to the next heading of
    the same or a higher level."""
    level: int | None = None
    found: list[Criterion] = []
    fence: str | None = None
    for line in body.replace("\r\n", "\n").split("\n"):
        stripped = line.strip()
        if stripped.startswith(("```", "~~~")):
            marker = stripped[:3]
            fence = None if fence == marker else (fence or marker)
            continue
        if fence:
            continue
        heading = _HEADING.match(line)
        if heading:
            if level is not None and len(heading.group(1)) <= level:
                break
            if level is None and heading.group(2).strip().rstrip(":").lower() == _TITLE:
                level = len(heading.group(1))
            continue
        if level is not None:
            item = _ITEM.match(line)
            if item:
                found.append(Criterion(number=len(found) + 1, text=item.group("text")))
    if level is None:
        raise UsageError(f"{source}: no '## Acceptance criteria' heading in the pull request body")
    if not found:
        raise UsageError(f"{source}: no checklist items ('- [ ] ...') under '## Acceptance criteria'")
    if len(found) > MAX_CRITERIA:
        raise UsageError(f"{source}: {len(found)} criteria; at most {MAX_CRITERIA} are read")
    return tuple(found)


def tagged_sources(story: str, criteria: tuple[Criterion, ...], git: Git | None) -> dict[str, list[str]]:
    """Where each tag stands (`path:line`) in the checkout's tracked files; nothing without a checkout."""
    if git is None:
        return {}
    lines = git.grep_fixed(f"[{story}#")
    found: dict[str, list[str]] = {}
    for criterion in criteria:
        tag = f"[{story}#{criterion.number}]"
        places = [f"{path}:{number}" for path, number, text in lines if tag in text]
        if places:
            found[tag] = places
    return found
