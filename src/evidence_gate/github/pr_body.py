"""The `## Test Coverage` section of a pull request body, between our two markers.

The author's text is theirs: everything outside the first pair of markers is kept byte for byte,
line endings included. Without the markers, the section is appended.
"""

from __future__ import annotations

START = "<!-- evidence-gate:coverage:start -->"
END = "<!-- evidence-gate:coverage:end -->"
HEADING = "## Test Coverage"
BODY_LIMIT = 65_536


def room_for_section(body: str) -> int:
    """How many characters the section's content may take so the body stays within GitHub's limit."""
    start, end = _markers(body)
    kept = len(body) - (end - start) if start != -1 else len(body) + len(HEADING) + 4
    return max(0, BODY_LIMIT - kept - len(START) - len(END) - 8)


def replace_section(body: str, section: str) -> str:
    newline = "\r\n" if "\r\n" in body else "\n"
    block = f"{START}{newline}{section.strip().replace(chr(10), newline)}{newline}{END}"
    start, end = _markers(body)
    if start != -1:
        return body[:start] + block + body[end:]
    if not body:
        separator = ""
    elif body.endswith(newline):
        separator = newline
    else:
        separator = newline * 2
    return f"{body}{separator}{HEADING}{newline}{block}{newline}"


def _markers(body: str) -> tuple[int, int]:
    """(start of the first start marker, end of the first end marker after it), or (-1, -1)."""
    start = body.find(START)
    if start == -1:
        return -1, -1
    end = body.find(END, start + len(START))
    return (start, end + len(END)) if end != -1 else (-1, -1)
