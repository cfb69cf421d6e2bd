"""A log line as a person saw it on the terminal: colours removed, carriage-return redraws resolved.

Runners colour their output and redraw progress lines with carriage returns; a parser must read the
words a person read, and a drawing erased by a later one can still hide a failure (see
`line_drawings`).
"""

from __future__ import annotations

import re

# CSI sequences (colours, cursor moves, private modes such as ?2026h), OSC sequences (titles,
# hyperlinks), escapes with intermediate bytes (ESC ( B, which libtest writes after every coloured
# word), and the two-character escapes.
_ANSI_PATTERN = r"\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b{line_end}]*(?:\x07|\x1b\\)?|[ -/]+[0-~]|[@-Z\\-_])"
_ANSI = re.compile(_ANSI_PATTERN.format(line_end=""))
# The same, for a block of whole lines at once (`line_scan`): an unterminated OSC sequence ends
# with its line, as it does when each line is cleaned alone. No other part can span a newline.
ANSI_IN_BLOCK = re.compile(_ANSI_PATTERN.format(line_end=r"\n"))

# Words any runner (or shell) prints where a line tells of a failure, a crash or an exit status,
# in lower case: a drawing erased by a later one is kept when it holds one of them.
_FAILURE_WORDS = ("fail", "error", "not ok", "exit", "panic", "bail out", "abort", "crash", "killed", "timed out")
_FAILURE_SIGNS = ("✖", "✕", "✗", "\u00d7")  # the last: multiplication sign
_FAILURE_PATTERN = re.compile("|".join(map(re.escape, _FAILURE_WORDS + _FAILURE_SIGNS)), re.IGNORECASE)
MAX_EARLIER_DRAWINGS = 256


def clean_line(raw: str) -> str:
    """A raw line without its line ending and terminal colours (carriage returns inside it are kept)."""
    return _ANSI.sub("", raw.rstrip("\n").rstrip("\r"))


def line_drawings(raw: str) -> list[str]:
    """A log line as a person saw it, colours removed; for a line redrawn with carriage returns
    (progress bars, spinners, a closing line drawn over another), its last drawing after every
    earlier drawing that holds a failure word or sign (`_FAILURE_WORDS`), each once; `[""]` when blank.

    A drawing erased by a later one was a passing state (a progress bar's step) unless it told of a
    failure: that is the evidence an erasure can hide (`=== 1 failed ===` drawn over by
    `=== 1 passed ===`), so those drawings reach the parsers and the marker scan, which judge them as
    lines of their own. The rest are left out, so a log of redraws costs what its last drawings cost.
    A line with more than `MAX_EARLIER_DRAWINGS` such drawings keeps the first and last half of them."""
    line = clean_line(raw)
    if "\r" not in line:
        return [line]
    last, last_start, stop = "", 0, len(line)
    while True:
        start = line.rfind("\r", 0, stop) + 1
        if line[start:stop].strip():
            last, last_start = line[start:stop], start
            break
        if not start:
            return [""]  # every drawing blank
        stop = start - 1
    earlier = line[:last_start].lower()  # a quick test first: most redraws are progress bars
    if not any(word in earlier for word in _FAILURE_WORDS + _FAILURE_SIGNS):
        return [last]
    first: dict[str, None] = {}
    later: dict[str, None] = {}  # the last ones, oldest first
    seen_start = -1
    for match in _FAILURE_PATTERN.finditer(line, 0, last_start):
        start = line.rfind("\r", 0, match.start()) + 1
        if start == seen_start:
            continue
        seen_start = start
        end = line.find("\r", match.end())
        drawing = line[start : end if end != -1 else len(line)]
        if drawing in first or drawing in later or drawing == last:
            continue
        if len(first) < MAX_EARLIER_DRAWINGS // 2:
            first[drawing] = None
            continue
        later[drawing] = None
        if len(later) > MAX_EARLIER_DRAWINGS // 2:
            del later[next(iter(later))]
    return [*first, *later, last]
