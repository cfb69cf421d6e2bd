"""The `## Test Coverage` section of a pull request body, between two markers that carry the check
name, so two configurations in one repository (two check names) keep two sections.

The author's text is theirs: everything outside the first pair of markers is kept byte for byte,
line endings included. Without the markers, the section is appended. A body written by an earlier
release holds unkeyed markers: the first run of any check name takes that section over (the old
markers do not say whose it was, and the run rewrites its content anyway); a second check name then
appends its own.
"""

from __future__ import annotations

from dataclasses import dataclass

from evidence_gate.escaping import escape_markdown
from evidence_gate.render.context import check_slug
from evidence_gate.settings import DEFAULT_CHECK_NAME

UNKEYED_START = "<!-- evidence-gate:coverage:start -->"
UNKEYED_END = "<!-- evidence-gate:coverage:end -->"
HEADING = "## Test Coverage"
BODY_LIMIT = 65_536


@dataclass(frozen=True, kw_only=True)
class SectionMarkers:
    """One check name's markers, and the heading written above them when the section is appended."""

    start: str
    end: str
    heading: str


def section_markers(check_name: str) -> SectionMarkers:
    slug = check_slug(check_name)
    named = escape_markdown(" ".join(check_name.split()))
    return SectionMarkers(
        start=f"<!-- evidence-gate:coverage:{slug}:start -->",
        end=f"<!-- evidence-gate:coverage:{slug}:end -->",
        heading=HEADING if check_name == DEFAULT_CHECK_NAME else f"{HEADING}: {named}",
    )


def room_for_section(body: str, check_name: str) -> int:
    """How many characters the section's content may take so the body stays within GitHub's limit."""
    markers = section_markers(check_name)
    start, end = _section(body, markers)
    kept = len(body) - (end - start) if start != -1 else len(body) + len(markers.heading) + 4
    return max(0, BODY_LIMIT - kept - len(markers.start) - len(markers.end) - 8)


def replace_section(body: str, section: str, check_name: str) -> str:
    markers = section_markers(check_name)
    newline = "\r\n" if "\r\n" in body else "\n"
    block = f"{markers.start}{newline}{section.strip().replace(chr(10), newline)}{newline}{markers.end}"
    start, end = _section(body, markers)
    if start != -1:
        return body[:start] + block + body[end:]
    if not body:
        separator = ""
    elif body.endswith(newline):
        separator = newline
    else:
        separator = newline * 2
    return f"{body}{separator}{markers.heading}{newline}{block}{newline}"


def _section(body: str, markers: SectionMarkers) -> tuple[int, int]:
    """Where the check name's section is (start of its first start marker, end of the first end
    marker after it), else where an earlier release's unkeyed section is, else (-1, -1)."""
    found = _between(body, markers.start, markers.end)
    return found if found[0] != -1 else _between(body, UNKEYED_START, UNKEYED_END)


def _between(body: str, start_marker: str, end_marker: str) -> tuple[int, int]:
    start = body.find(start_marker)
    if start == -1:
        return -1, -1
    end = body.find(end_marker, start + len(start_marker))
    return (start, end + len(end_marker)) if end != -1 else (-1, -1)
