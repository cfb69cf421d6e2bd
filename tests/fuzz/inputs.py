"""What the fuzz targets feed the readers: random bytes and text, and the real fixtures mutated the way
hostile or damaged input is (bytes flipped, cut short, lines of one runner spliced into another's log,
ANSI escapes and carriage-return redraws, byte order marks and UTF-16, huge numbers, deep nesting,
XML with a DOCTYPE and entities), so the examples reach past the readers' first checks."""

from __future__ import annotations

import copy
import json
import re
import tracemalloc
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from typing import Any

from hypothesis import settings
from hypothesis import strategies as st

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
# The loaded profile's examples per target (see conftest.py), and as many large inputs as a memory
# bound needs: one in the quick run, three in a long one.
EXAMPLES: int = settings().max_examples
LARGE_EXAMPLES = 1 if EXAMPLES <= 20 else 3


def examples(share: float) -> int:
    """A share of the profile's examples, for a target whose examples cost far more than most."""
    return max(10, round(EXAMPLES * share))


_NUMBER = re.compile(rb"\d+")
HUGE_NUMBERS = (
    b"0",
    b"-1",
    b"2147483648",
    b"18446744073709551616",
    b"9" * 40,
    b"1" * 5_000,  # past Python's 4,300 digits for int(str)
    b"1e999",
    b"NaN",
    b"\xd9\xa3",  # ARABIC-INDIC DIGIT THREE: str.isdigit() and \d say yes
    b"\xc2\xb2",  # SUPERSCRIPT TWO: str.isdigit() says yes, int() says no
)
ANSI = (b"\x1b[31m", b"\x1b[0m", b"\x1b[2K", b"\x1b[1A", b"\x1b]0;title\x07", b"\x1b(B", b"\x1b[?2026h", b"\x1b")
TEXT_WRAPS = ("utf-8", "utf-8-sig", "utf-16", "utf-16-le", "utf-16-be", "utf-32")
DOCTYPES = (
    b'<!DOCTYPE r [<!ENTITY a "LOLLOLLOL"><!ENTITY b "&a;&a;&a;&a;&a;&a;">]>',
    b'<!DOCTYPE r SYSTEM "file:///etc/passwd">',
    b'<!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/hostname">]>',
    b"<!DOCTYPE r PUBLIC '-//x//' 'http://127.0.0.1:9/x.dtd'>",
    b"<!DOCTYPE",
)


def fixture_files(folder: str, *suffixes: str) -> tuple[bytes, ...]:
    """The contents of the fixtures under `folder` whose names end with one of `suffixes`, in a fixed order."""
    return _fixture_files(folder, suffixes)


@cache
def _fixture_files(folder: str, suffixes: tuple[str, ...]) -> tuple[bytes, ...]:
    paths = sorted(path for path in (FIXTURES / folder).rglob("*") if path.is_file() and path.name.endswith(suffixes))
    if not paths:
        raise AssertionError(f"no fixture under {folder} ending with {suffixes}: the fuzz target would read nothing")
    return tuple(path.read_bytes() for path in paths)


def _lines(data: bytes) -> list[bytes]:
    return data.split(b"\n")


# What a mutated input may grow to. Mutations compound: a line made 1 MiB long, then repeated 300
# times, is 300 MiB, and one such example outlasts any deadline (and the large-input targets multiply
# it again). Each mutation's result is cut to this, and a repeat draws no more copies than fit in it.
MUTATED_MAX_BYTES = 4 * 1024 * 1024
# The piece the large-input targets repeat a hundred times or more: some megabytes in all.
LARGE_PIECE_BYTES = 64 * 1024


@st.composite
def mutated(
    draw: st.DrawFn,
    corpus: tuple[bytes, ...],
    *,
    xml: bool = False,
    json: bool = False,
    max_bytes: int = MUTATED_MAX_BYTES,
) -> bytes:
    """A fixture from `corpus`, changed by one to four mutations (another fixture of the corpus is the
    donor of spliced lines); `xml` and `json` add the mutations of those formats. The result is at
    most `max_bytes` long, however the mutations compound."""
    data = draw(st.sampled_from(corpus))
    mutations = [_flip, _cut, _splice, _drop_lines, _repeat_line, _ansi, _redraw, _huge_number, _long_line]
    if xml:
        mutations += [_doctype, _deep_xml]
    if json:
        mutations += [_deep_json]
    chosen = [*draw(st.lists(st.sampled_from(mutations), min_size=1, max_size=4))]
    return mutate(draw, data, corpus, [*chosen, draw(st.sampled_from((_as_is, _as_is, _as_is, _rewrapped)))], max_bytes)


def mutate(draw: st.DrawFn, data: bytes, corpus: tuple[bytes, ...], mutations: list[Mutation], max_bytes: int) -> bytes:
    """`data` changed by each of `mutations` in turn, each result cut to `max_bytes`."""
    for mutation in mutations:
        data = mutation(draw, data, corpus)[:max_bytes]
    return data


Mutation = Callable[[st.DrawFn, bytes, tuple[bytes, ...]], bytes]


def _position(draw: st.DrawFn, data: bytes) -> int:
    return draw(st.integers(0, len(data)))


def _flip(draw: st.DrawFn, data: bytes, _corpus: tuple[bytes, ...]) -> bytes:
    if not data:
        return data
    changed = bytearray(data)
    for _ in range(draw(st.integers(1, 8))):
        changed[draw(st.integers(0, len(data) - 1))] = draw(st.integers(0, 255))
    return bytes(changed)


def _cut(draw: st.DrawFn, data: bytes, _corpus: tuple[bytes, ...]) -> bytes:
    return data[: _position(draw, data)]


def _splice(draw: st.DrawFn, data: bytes, corpus: tuple[bytes, ...]) -> bytes:
    donor = _lines(draw(st.sampled_from(corpus)))
    start = draw(st.integers(0, len(donor) - 1))
    taken = donor[start : start + draw(st.integers(1, 40))]
    lines = _lines(data)
    at = draw(st.integers(0, len(lines)))
    return b"\n".join([*lines[:at], *taken, *lines[at:]])


def _drop_lines(draw: st.DrawFn, data: bytes, _corpus: tuple[bytes, ...]) -> bytes:
    lines = _lines(data)
    start = draw(st.integers(0, len(lines)))
    return b"\n".join(lines[:start] + lines[start + draw(st.integers(1, 20)) :])


def _repeat_line(draw: st.DrawFn, data: bytes, _corpus: tuple[bytes, ...]) -> bytes:
    lines = _lines(data)
    at = draw(st.integers(0, len(lines) - 1))
    copies = draw(st.integers(2, max(2, min(300, MUTATED_MAX_BYTES // (len(lines[at]) + 1)))))
    return b"\n".join([*lines[:at], *[lines[at]] * copies, *lines[at + 1 :]])


def _ansi(draw: st.DrawFn, data: bytes, _corpus: tuple[bytes, ...]) -> bytes:
    for _ in range(draw(st.integers(1, 6))):
        at = _position(draw, data)
        data = data[:at] + draw(st.sampled_from(ANSI)) + data[at:]
    return data


def _redraw(draw: st.DrawFn, data: bytes, corpus: tuple[bytes, ...]) -> bytes:
    """A line drawn over another with a carriage return, either way round, or a stray CR."""
    lines = _lines(data)
    at = draw(st.integers(0, len(lines) - 1))
    other = draw(st.sampled_from(_lines(draw(st.sampled_from(corpus)))))
    lines[at] = draw(st.sampled_from((other + b"\r" + lines[at], lines[at] + b"\r" + other, lines[at] + b"\r")))
    return b"\n".join(lines)


def _huge_number(draw: st.DrawFn, data: bytes, _corpus: tuple[bytes, ...]) -> bytes:
    """One to three numbers replaced by huge, negative, non-ASCII or not-quite numbers."""
    for _ in range(draw(st.integers(1, 3))):
        numbers = list(_NUMBER.finditer(data))
        if not numbers:
            return data
        number = draw(st.sampled_from(numbers))
        data = data[: number.start()] + draw(st.sampled_from(HUGE_NUMBERS)) + data[number.end() :]
    return data


def _long_line(draw: st.DrawFn, data: bytes, _corpus: tuple[bytes, ...]) -> bytes:
    lines = _lines(data)
    at = draw(st.integers(0, len(lines) - 1))
    lines[at] = lines[at] + lines[at][-16:] * draw(st.integers(1_000, 70_000))
    return b"\n".join(lines)


def _doctype(draw: st.DrawFn, data: bytes, _corpus: tuple[bytes, ...]) -> bytes:
    """A DOCTYPE before the root element (after the declaration, where there is one), and entity references."""
    end = data.find(b"?>") + 2 if data.lstrip().startswith(b"<?xml") else 0
    data = data[:end] + draw(st.sampled_from(DOCTYPES)) + data[end:]
    at = data.find(b">", data.find(b"<", data.rfind(b"]>") + 2)) + 1
    return data[:at] + b"&b;&x;" + data[at:] if at else data


def _deep_xml(draw: st.DrawFn, data: bytes, _corpus: tuple[bytes, ...]) -> bytes:
    depth = draw(st.integers(100, 20_000))
    at = data.find(b">", data.find(b"<", data.find(b"?>") + 1)) + 1
    return data[:at] + b"<a>" * depth + b"</a>" * depth + data[at:]


def _deep_json(draw: st.DrawFn, data: bytes, _corpus: tuple[bytes, ...]) -> bytes:
    depth = draw(st.integers(60, 20_000))
    at = data.find(b":") + 1
    return data[:at] + b"[" * depth + b"]" * depth + b"," + data[at:] if at else b"[" * depth + b"]" * depth


def _as_is(_draw: st.DrawFn, data: bytes, _corpus: tuple[bytes, ...]) -> bytes:
    return data


def _rewrapped(draw: st.DrawFn, data: bytes, _corpus: tuple[bytes, ...]) -> bytes:
    """The content re-encoded, with a byte order mark or without (UTF-16 as Windows tools write it)."""
    return data.decode("utf-8", "replace").encode(draw(st.sampled_from(TEXT_WRAPS)))


# Random input: raw bytes, printable text with line breaks, and text made of the words runners print.
RUNNER_WORDS = (
    *("passed", "failed", "skipped", "error", "ok", "not ok", "PASS", "FAIL", "Tests:", "Test Suites:"),
    *("test result:", "tests ran in", "===", "---", "1..3", "# pass", "# fail", "examples,", "failures"),
    *("Tests run:", "Failures:", "Errors:", "BUILD SUCCESSFUL", "BUILD FAILED", "ok  \tpkg", "0.01s", "100%"),
    *("\u2713", "\u2714", "\u2716", "\u00d7", "\u2139", "tests passed,", "OK (1 test, 1 assertion)", "[PASS]"),
    *('{"Action":"pass"}', '<testsuite tests="1">', "<?xml"),
)
random_bytes = st.binary(max_size=4_096)
random_text = st.text(st.characters(codec="utf-8"), max_size=2_000).map(lambda text: text.encode("utf-8"))
runner_words = st.lists(
    st.one_of(st.sampled_from(RUNNER_WORDS), st.integers(0, 10**6).map(str), st.sampled_from(["\n", " ", "\r", ":"])),
    max_size=200,
).map(lambda words: " ".join(words).encode("utf-8"))
garbage = st.one_of(random_bytes, random_text, runner_words)


@contextmanager
def peak_memory() -> Iterator[Callable[[], int]]:
    """The largest number of bytes Python held at once inside the block, above what it held before."""
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        before, _ = tracemalloc.get_traced_memory()
        peak = [0]
        yield lambda: peak[0]
        peak[0] = tracemalloc.get_traced_memory()[1] - before
    finally:
        tracemalloc.stop()


# JSON values, for documents mutated where they nest: a field replaced by another type, removed, or added.
json_values = st.recursive(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(-(2**70), 2**70),
        st.floats(allow_nan=False, allow_infinity=False),
        st.text(max_size=50),
        st.sampled_from(["pass", "fail", "PASS", "BLOCKED", "passed", "", "a/b", "0" * 40]),
    ),
    lambda children: st.one_of(
        st.lists(children, max_size=4), st.dictionaries(st.text(max_size=12), children, max_size=4)
    ),
    max_leaves=12,
)


# Keys where a reader may expect a number (coverage.py's context lines) or a name: numbers as text.
odd_keys = st.one_of(st.sampled_from([number.decode("utf-8") for number in HUGE_NUMBERS]), st.text(max_size=12))


def _containers(document: object, path: tuple[object, ...] = ()) -> Iterator[tuple[object, ...]]:
    """The path of every object and list inside `document`, itself first."""
    if isinstance(document, dict):
        yield path
        for key, value in document.items():
            yield from _containers(value, (*path, key))
    elif isinstance(document, list):
        yield path
        for index, value in enumerate(document):
            yield from _containers(value, (*path, index))


@st.composite
def json_mutated(draw: st.DrawFn, documents: tuple[object, ...]) -> object:
    """A copy of one of `documents` with one to four of its fields replaced, removed, added or renamed."""
    document = copy.deepcopy(draw(st.sampled_from(documents)))
    for _ in range(draw(st.integers(1, 4))):
        container: Any = document
        for step in draw(st.sampled_from(list(_containers(document)))):
            container = container[step]
        keys = list(container) if isinstance(container, dict) else list(range(len(container)))
        action = draw(st.sampled_from(("replace", "replace", "remove", "add", "rename")))
        if action == "rename" and isinstance(container, dict) and keys:
            container[draw(odd_keys)] = container.pop(draw(st.sampled_from(keys)))
        elif action == "add" or not keys:
            if isinstance(container, dict):
                container[draw(st.text(max_size=12))] = draw(json_values)
            else:
                container.append(draw(json_values))
        elif action == "remove":
            del container[draw(st.sampled_from(keys))]
        else:
            container[draw(st.sampled_from(keys))] = draw(json_values)
    return document


@st.composite
def json_texts(draw: st.DrawFn, documents: tuple[object, ...]) -> bytes:
    """One of `documents`, mutated where it nests (`json_mutated`), as JSON text; half of them with
    numbers replaced by huge or not-quite ones, which only text can hold (Python writes no int of
    5,000 digits)."""
    text = json.dumps(draw(json_mutated(documents)), indent=draw(st.sampled_from((None, 2)))).encode("utf-8")
    return _huge_number(draw, text, ()) if draw(st.booleans()) else text
