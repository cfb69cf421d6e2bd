"""Where a source file holds its own tests: Rust's unit tests live in the file whose code they test,
in a `#[cfg(test)] mod tests { … }` block or a `#[test] fn`. Pure: the file's text in, the numbers
of the lines its test items span out.

The text is read token by token, as far as finding items needs: comments (block comments nest),
string literals (raw ones with their hashes, byte and C strings), character literals told from
lifetimes, and brackets balanced. An item under an attribute the adapter table names (`cfg(test)`,
`test`, `tokio::test`) spans from its first attribute to the `}` that closes its body (a function,
module, impl, struct, enum, trait, a brace macro), or to the `;` or `,` that ends it (a `use`, a
`const`, a field), or to just before the bracket that closes what holds it. An inner `#![cfg(test)]`
at the top makes the whole file tests.

The text is the pull request's, so nothing here trusts it: anything the reader cannot follow (a
comment, string or bracket left open, a closing bracket of another kind, an attribute with no item)
makes the answer unknown (None), and the caller reads the file as it did without this: production
code, every line of it.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass

MAX_CHARS = 1_000_000  # a longer text is not read: unknown
_OPEN = {"(": ")", "[": "]", "{": "}"}
_CLOSE = frozenset(_OPEN.values())
# The items (and statements) whose body is a `{ … }` group: they end where it closes, or at a `;`
# (`mod tests;`); an `if`'s `else` after it is left out, never a line too many.
_BRACED = frozenset(
    {"fn", "mod", "impl", "struct", "enum", "trait", "union", "macro_rules", "match", "loop", "while", "for", "if"}
)
_MODIFIERS = frozenset({"pub", "unsafe", "async", "extern", "default", "const"})
_SPACE = re.compile(r"\s+")
_COMMENT_MARK = re.compile(r"/\*|\*/")  # a block comment's opening or closing, left to right


class _Unreadable(Exception):
    """The text is not Rust the reader can follow."""


@dataclass(frozen=True, kw_only=True)
class _Token:
    text: str  # one character for punctuation and brackets; a whole word, literal or lifetime otherwise
    start: int
    end: int
    kind: str  # "word", "literal", "lifetime", "punct", "open", "close"


def rust_test_lines(text: str, attributes: Sequence[re.Pattern[str]]) -> frozenset[int] | None:
    """The 1-based numbers of the lines that test items of `text` span, items under an attribute
    one of `attributes` matches in full (its text inside `#[…]`, white space removed); None when
    the text cannot be read."""
    if len(text) > MAX_CHARS:
        return None
    try:
        tokens = list(_tokens(text))
        partner, depth = _pairs(tokens)
        return frozenset(_test_lines(text, tokens, partner, depth, attributes))
    except _Unreadable:
        return None


def rust_test_names(text: str, functions: Sequence[re.Pattern[str]]) -> tuple[str, ...] | None:
    """The names the test runner gives the test functions of `text` (`tests::parses`: the inline
    modules around each, then its own name), functions under an attribute one of `functions`
    matches in full; None when the text cannot be read."""
    if len(text) > MAX_CHARS:
        return None
    try:
        tokens = list(_tokens(text))
        partner, _ = _pairs(tokens)
    except _Unreadable:
        return None
    names: list[str] = []
    modules: list[tuple[str, int]] = []  # the inline modules around, each with its closing brace's index
    marked = False  # an attribute before the next item marks a test function
    index = 0
    while index < len(tokens):
        while modules and index > modules[-1][1]:
            modules.pop()
        token = tokens[index]
        attribute = _attribute(tokens, index, partner)
        if attribute is not None:
            inner, opening, closing = attribute
            body = _SPACE.sub("", text[tokens[opening].end : tokens[closing].start])
            marked = marked or (not inner and any(pattern.fullmatch(body) for pattern in functions))
            index = closing + 1
            continue
        following = tokens[index + 1 : index + 3]
        if token.text == "mod" and len(following) == 2 and following[0].kind == "word" and following[1].text == "{":
            modules.append((following[0].text, partner[index + 2]))
            index += 3
            marked = False
            continue
        if token.text == "fn" and following and following[0].kind == "word":
            if marked:
                names.append("::".join([*(name for name, _ in modules), following[0].text]))
            marked = False
        elif token.text not in _MODIFIERS and token.kind != "literal":
            marked = False
        index += 1
    return tuple(dict.fromkeys(names))


def _test_lines(
    text: str,
    tokens: list[_Token],
    partner: dict[int, int],
    depth: list[int],
    attributes: Sequence[re.Pattern[str]],
) -> Iterator[int]:
    newlines = [index for index, char in enumerate(text) if char == "\n"]

    def line(offset: int) -> int:
        return bisect.bisect_left(newlines, offset) + 1

    pending: int | None = None  # the first token of a run of outer attributes
    marked = False  # one of them marks a test item
    index = 0
    while index < len(tokens):
        attribute = _attribute(tokens, index, partner)
        if attribute is not None:
            inner, opening, closing = attribute
            body = _SPACE.sub("", text[tokens[opening].end : tokens[closing].start])
            matches = any(pattern.fullmatch(body) for pattern in attributes)
            if inner:
                if matches and depth[index] == 0:  # `#![cfg(test)]`: the whole file
                    yield from range(1, len(newlines) + 2)
                    return
            else:
                pending = index if pending is None else pending
                marked = marked or matches
            index = closing + 1
            continue
        if pending is not None and marked:
            end = _item_end(tokens, index, partner)
            yield from range(line(tokens[pending].start), line(tokens[end].end - 1) + 1)
            index = end + 1
        else:
            index += 1
        pending, marked = None, False
    if pending is not None and marked:
        raise _Unreadable("a test attribute with no item after it")


def _attribute(tokens: list[_Token], index: int, partner: dict[int, int]) -> tuple[bool, int, int] | None:
    """`#[…]` or `#![…]` starting at `index`: whether it is inner, and its brackets' token indexes."""
    if tokens[index].text != "#" or tokens[index].kind != "punct":
        return None
    inner = index + 1 < len(tokens) and tokens[index + 1].text == "!"
    opening = index + 2 if inner else index + 1
    if opening >= len(tokens) or tokens[opening].text != "[" or tokens[opening].kind != "open":
        return None
    return inner, opening, partner[opening]


def _item_end(tokens: list[_Token], start: int, partner: dict[int, int]) -> int:
    """The index of the item's last token, the item starting at `start` (after its attributes)."""
    index = start
    while index < len(tokens) and tokens[index].text in _MODIFIERS:
        index += 1
        if index < len(tokens) and tokens[index].text == "(" and tokens[index - 1].text == "pub":
            index = partner[index] + 1  # pub(crate)
        elif index < len(tokens) and tokens[index].kind == "literal":
            index += 1  # extern "C"
    if index >= len(tokens):
        raise _Unreadable("an item that ends before it starts")
    braced = tokens[index].text in _BRACED or tokens[index].text == "{"
    while index < len(tokens):
        token = tokens[index]
        if token.kind == "close":
            if index == start:
                raise _Unreadable("an attribute on nothing")
            return index - 1  # the last field of a struct, the last arm of a match
        if token.kind == "open":
            close = partner[index]
            if token.text == "{" and (braced or _ends_at_braces(tokens, index)):
                return close
            index = close + 1
            continue
        if token.text in (";", ",") and token.kind == "punct":
            return index
        index += 1
    raise _Unreadable("an item with no end")


def _ends_at_braces(tokens: list[_Token], index: int) -> bool:
    """Whether the `{` at `index` is the last part of an item that is no braced item: a brace
    macro's call (`name! { … }`) or a match arm's block (`Pattern => { … }`)."""
    before, arrow = tokens[index - 1], tokens[index - 2] if index > 1 else None
    if before.text == "!":
        return True
    return before.text == ">" and arrow is not None and arrow.text == "=" and arrow.end == before.start


def _pairs(tokens: list[_Token]) -> tuple[dict[int, int], list[int]]:
    """Each bracket's partner, both ways, and each token's bracket depth."""
    partner: dict[int, int] = {}
    depth: list[int] = []
    stack: list[int] = []
    for index, token in enumerate(tokens):
        if token.kind == "close":
            if not stack or _OPEN[tokens[stack[-1]].text] != token.text:
                raise _Unreadable("a closing bracket that closes nothing open")
            opening = stack.pop()
            partner[opening], partner[index] = index, opening
        depth.append(len(stack))
        if token.kind == "open":
            stack.append(index)
    if stack:
        raise _Unreadable("a bracket left open")
    return partner, depth


def _is_word(char: str) -> bool:
    return char.isalnum() or char == "_"


def _tokens(text: str) -> Iterator[_Token]:
    index, size = 0, len(text)
    while index < size:
        char = text[index]
        if char.isspace():
            index += 1
        elif text.startswith("//", index):
            newline = text.find("\n", index)
            index = size if newline < 0 else newline + 1
        elif text.startswith("/*", index):
            index = _block_comment_end(text, index)
        elif char == '"':
            end = _string_end(text, index + 1)
            yield _Token(text=text[index:end], start=index, end=end, kind="literal")
            index = end
        elif char == "'":
            end, kind = _quote_end(text, index)
            yield _Token(text=text[index:end], start=index, end=end, kind=kind)
            index = end
        elif _is_word(char):
            end = index
            while end < size and _is_word(text[end]):
                end += 1
            raw = _raw_string_end(text, index, end)
            if raw is not None:
                yield _Token(text=text[index:raw], start=index, end=raw, kind="literal")
                index = raw
                continue
            if end < size and text[end] in "\"'" and text[index:end] in ("b", "c"):
                index = end  # b"…", c"…", b'…': the literal follows as one token
                continue
            yield _Token(text=text[index:end], start=index, end=end, kind="word")
            index = end
        else:
            kind = "open" if char in _OPEN else "close" if char in _CLOSE else "punct"
            yield _Token(text=char, start=index, end=index + 1, kind=kind)
            index += 1


def _block_comment_end(text: str, index: int) -> int:
    """The index after the block comment opened at `index`; block comments nest."""
    level = 0
    for mark in _COMMENT_MARK.finditer(text, index):
        level += 1 if mark.group() == "/*" else -1
        if level == 0:
            return mark.end()
    raise _Unreadable("a block comment left open")


def _string_end(text: str, index: int) -> int:
    """The index after the string whose body starts at `index` (after its `"`), escapes skipped."""
    while index < len(text):
        char = text[index]
        if char == "\\":
            index += 2
        elif char == '"':
            return index + 1
        else:
            index += 1
    raise _Unreadable("a string left open")


def _raw_string_end(text: str, start: int, word_end: int) -> int | None:
    """The index after a raw string `r"…"`, `r#"…"#`, `br"…"`, `cr#"…"#` whose prefix is the word
    at `start`, or None when the word is no raw string's prefix (`r#type` is a raw identifier)."""
    if text[start:word_end] not in ("r", "br", "cr"):
        return None
    index = word_end
    while index < len(text) and text[index] == "#":
        index += 1
    if index >= len(text) or text[index] != '"':
        return None
    closing = '"' + "#" * (index - word_end)
    end = text.find(closing, index + 1)
    if end < 0:
        raise _Unreadable("a raw string left open")
    return end + len(closing)


def _quote_end(text: str, index: int) -> tuple[int, str]:
    """A character literal (`'a'`, `'\\''`, `'{'`) or a lifetime or label (`'a`, `'static`) at `index`."""
    if text.startswith("\\", index + 1):
        end = text.find("'", index + 3)
        if end < 0:
            raise _Unreadable("a character literal left open")
        return end + 1, "literal"
    if index + 2 < len(text) and text[index + 2] == "'":
        return index + 3, "literal"
    end = index + 1
    while end < len(text) and _is_word(text[end]):
        end += 1
    return end, "lifetime"


Reader = Callable[[str, Sequence[re.Pattern[str]]], frozenset[int] | None]
Namer = Callable[[str, Sequence[re.Pattern[str]]], tuple[str, ...] | None]
# by the adapter table's `inline_tests.reader`: the lines a file's tests span, and their names
READERS: Mapping[str, Reader] = {"rust": rust_test_lines}
NAMERS: Mapping[str, Namer] = {"rust": rust_test_names}
