"""Escaping untrusted text for GitHub Markdown. Escaping is explicit, through four template filters:
`md` (inline Markdown, table cells included), `html` (text inside an HTML block, such as a
`<summary>`), `fence` (a fenced code block) and `mermaid` (a quoted label in a Mermaid diagram).
Untrusted values reach templates wrapped (`_Untrusted`), and a template that prints one without a
filter is an error, not a leak. Each filter also shows invisible characters (`reveal_invisible`), so
a name reads as what it is.
"""

from __future__ import annotations

import html
import re

ZERO_WIDTH_SPACE = "\u200b"


class _Untrusted(str):
    """Text from the ledger. The finalizer refuses to print it, so a forgotten filter is an error.
    A guard against forgetting, not a wall: `~` or another filter gives back plain text."""

    __slots__ = ()


# Characters a reader cannot see that change what the text around them reads as: bidirectional
# embeddings, overrides and isolates (U+202A-U+202E, U+2066-U+2069), the Arabic letter mark
# (U+061C), zero-width spaces, joiners and marks (U+200B-U+200F), the word joiner and invisible
# operators (U+2060-U+2064), the byte-order mark (U+FEFF) and the tag characters (U+E0000-U+E007F).
_INVISIBLE = re.compile("[\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff\U000e0000-\U000e007f]")
# Everything that is not a tab, a newline or printable: terminal colours, NUL, C1 controls.
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
# GitHub links these on github.com after Markdown is rendered, in any text node: mentions (`@user`,
# `@org/team`, `owner/repo@sha`), references (`#1`, `owner/repo#1`, `GH-1`) and, through cmark-gfm's
# autolink extension, bare URLs (an issue URL cross-links too). A zero-width space after the
# character that starts each of them breaks every pattern, whatever precedes or follows.
_LINKISH = re.compile(r"[@#]|(?i:gh-)(?=\d)|:(?=//)|(?i:www)(?=\.)")
_MD_CHARS = {"&": "&amp;", "<": "&lt;", ">": "&gt;"} | {c: "\\" + c for c in "\\`*_[]|~$"}
_MD_SPECIAL = re.compile(r"[&<>\\`*_\[\]|~$]")
# At the start of a block, these open a heading, a list, a setext underline or an ordered list.
_MD_LINE_START = re.compile(r"^(?:[#+=-]|\d{1,9}(?=[.)]))")
_BACKTICKS = re.compile(r"`+")
# A code span as prose writes one: single backticks around 1-200 characters without a backtick,
# neither starting nor ending with a space or a backslash (which would escape the closing one).
_CODE_SPAN = re.compile(r"(?<![`\\])`([^`\s\\](?:[^`]{0,198}[^`\s\\])?)`(?!`)")
_COMMENT_OPEN = re.compile(r"<!--")
_COMMENT_CLOSE = re.compile(r"-->")
# What a quoted Mermaid label keeps as it is; every other character becomes Mermaid's `#code;`.
_MERMAID_UNSAFE = re.compile(r"[^A-Za-z0-9 ./_,()+=:-]")


def reveal_invisible(text: str) -> str:
    """Each invisible character as its code point in sight (`<U+202E>`), so `test_refund` followed
    by a right-to-left override cannot be made to read as another name. For plain-text outputs
    too: annotations and workflow-command lines."""
    return _INVISIBLE.sub(lambda match: f"<U+{ord(match.group(0)):04X}>", text)


def _fold(text: str) -> str:
    """One line, invisible characters shown: every run of whitespace (newlines included) becomes
    one space, controls go."""
    return " ".join(word for word in (_CONTROL.sub("", word) for word in reveal_invisible(text).split()) if word)


def escape_markdown(text: str) -> str:
    """Untrusted text as inline Markdown, safe in a paragraph, a list item and a table cell: no HTML
    (`<`, `>`, `&` become entities, so no `<!--` marker either), no emphasis, link, strike, math or
    cell break (backslash escapes), no block opened at its start, one line, and nothing GitHub would
    turn into a mention, a reference or a link. A pair of single backticks around text without one
    (`mypy`) stays a code span, as its writer meant, its inside literal: a `|` escaped for a table
    cell and a comment's `<!--` or `-->` broken, as in a code block."""
    folded = _fold(text)
    parts: list[str] = []
    last = 0
    for match in _CODE_SPAN.finditer(folded):
        parts.append(_escape_prose(folded[last : match.start()]))
        parts.append(_code_span(match.group(1)))
        last = match.end()
    parts.append(_escape_prose(folded[last:]))
    escaped = "".join(parts)
    return _MD_LINE_START.sub(_escape_line_start, escaped)


def _escape_prose(text: str) -> str:
    neutral = _LINKISH.sub(lambda match: match.group(0) + ZERO_WIDTH_SPACE, text)
    escaped = _MD_SPECIAL.sub(lambda match: _MD_CHARS[match.group(0)], neutral)
    return escaped.replace(ZERO_WIDTH_SPACE, "&#8203;")


def _code_span(inside: str) -> str:
    """A code span: GitHub neither links nor parses what it holds, but the raw text still holds no
    comment opener or closer, and a `|` would end a table cell."""
    body = _COMMENT_CLOSE.sub("--" + ZERO_WIDTH_SPACE + ">", _COMMENT_OPEN.sub("<!" + ZERO_WIDTH_SPACE + "--", inside))
    return "`" + body.replace("|", "\\|") + "`"


def _escape_line_start(match: re.Match[str]) -> str:
    """`#` -> `\\#`; the number of `1.` keeps its digits and escapes what follows them."""
    start = match.group(0)
    return start + "\\" if start[0].isdigit() else "\\" + start


def escape_html(text: str) -> str:
    """Untrusted text inside an HTML block (a `<summary>`), where Markdown is not parsed: entities
    for `<`, `>`, `&`, one line (a blank line would end the HTML block), and no mention, reference
    or link."""
    neutral = _LINKISH.sub(lambda match: match.group(0) + ZERO_WIDTH_SPACE, _fold(text))
    return html.escape(neutral, quote=False).replace(ZERO_WIDTH_SPACE, "&#8203;")


def code_block(text: str) -> str:
    """Untrusted text as a fenced code block it cannot close: the fence is longer than any backtick
    run in it. Entities are not decoded in code, so an HTML comment opener or closer is broken with
    a literal zero-width space instead: the raw Markdown then holds no marker but ours. GitHub does
    not link mentions or references in code."""
    body = _CONTROL.sub("", reveal_invisible(text).replace("\r\n", "\n").replace("\r", "\n")).rstrip("\n")
    body = _COMMENT_CLOSE.sub("--" + ZERO_WIDTH_SPACE + ">", _COMMENT_OPEN.sub("<!" + ZERO_WIDTH_SPACE + "--", body))
    longest = max((len(run) for run in _BACKTICKS.findall(body)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}\n{body}\n{fence}"


def mermaid_label(text: str) -> str:
    """Untrusted text as the inside of a quoted Mermaid label (`A["..."]`): one line, invisible
    characters shown, and every character but letters, digits, spaces and `./_,()+=:-` written as
    Mermaid's entity code (`#35;`), so no quote, bracket, backtick or HTML can end the label, the
    node or the code block, or open a marker."""
    return _MERMAID_UNSAFE.sub(lambda match: f"#{ord(match.group(0))};", _fold(text))
