"""The truth-source readers fuzzed (`quality/truth_sources.py`'s `keys`): one file of each format it
reads, as the tools that own them write it, mutated (XML with a DOCTYPE and entities, JSON and YAML
nested deep, UTF-16, huge numbers), and garbage, each under every name it reads.

A file gives its keys or `Unreadable` with the reason, never a traceback; an XML entity is never
expanded into a key (no DTD is read, local or remote); and the work is bounded by the file's size."""

from __future__ import annotations

import contextlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evidence_gate.quality.truth_sources import Unreadable, keys

from .inputs import LARGE_PIECE_BYTES, examples, garbage, mutated, peak_memory

pytestmark = pytest.mark.fuzz

PLIST_DOCTYPE = '<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">'
SOURCES: dict[str, bytes] = {
    "en.lproj/Localizable.strings": '/* Greetings */\n"greeting" = "Hello";\n"cart.\\"empty\\"" = "Nothing";\n'.encode(
        "utf-16"
    ),
    "en.lproj/Localizable.stringsdict": (
        f'<?xml version="1.0" encoding="UTF-8"?>\n{PLIST_DOCTYPE}\n<plist version="1.0"><dict>'
        "<key>items.count</key><dict><key>NSStringLocalizedFormatKey</key><string>%#@items@</string></dict>"
        "</dict></plist>\n"
    ).encode(),
    "Localizable.xcstrings": b'{"sourceLanguage": "en", "strings": {"greeting": {"localizations": {}}}}',
    "res/values/strings.xml": (
        b'<?xml version="1.0" encoding="utf-8"?>\n<resources>\n  <string name="app_name">Shop</string>\n'
        b'  <plurals name="items"><item quantity="one">%d item</item></plurals>\n'
        b'  <string-array name="sizes"><item>S</item></string-array>\n</resources>\n'
    ),
    "Resources.resx": (
        b'<?xml version="1.0" encoding="utf-8"?><root><data name="Greeting" xml:space="preserve">'
        b"<value>Hello</value></data></root>"
    ),
    "messages.xlf": (
        b'<?xml version="1.0"?><xliff version="1.2"><file><body><trans-unit id="cart.total" resname="total">'
        b"<source>Total</source></trans-unit></body></file></xliff>"
    ),
    "locales/en/translation.json": b'{"home": {"title": "Welcome", "cta": "Shop now"}, "count": 3}',
    "lib/l10n/app_en.arb": b'{"@@locale": "en", "greeting": "Hello", "@greeting": {"description": "x"}}',
    "config/locales/en.yml": b"en:\n  cart:\n    empty: Nothing yet\n    total: Total\n",
    "locale/de/LC_MESSAGES/shop.po": b'msgid ""\nmsgstr ""\n\nmsgid "Cart"\nmsgstr "Warenkorb"\n',
    "lang/en/cart.php": b"<?php\nreturn [\n    'empty' => 'Nothing yet',\n    \"total\" => 'Total',\n];\n",
    "openapi.yaml": (
        b"openapi: 3.0.0\npaths:\n  /cart:\n    get:\n      operationId: getCart\n"
        b"components:\n  schemas:\n    Cart:\n      type: object\n"
    ),
}
NAMES = tuple(SOURCES)
CORPUS = tuple(SOURCES.values())
EXPANDED = ("LOLLOL", "root:", "localhost")  # what an entity or an external DTD would bring in

inputs = st.one_of(mutated(CORPUS, xml=True, json=True), garbage)


def test_each_source_gives_its_keys() -> None:
    """The corpus is read as its formats are: the fuzzing starts from files that give keys."""
    for name, content in SOURCES.items():
        assert keys(name, content), name


@given(name=st.sampled_from(NAMES), data=inputs)
def test_a_truth_source_gives_its_keys_or_says_it_is_unreadable(name: str, data: bytes) -> None:
    try:
        found = keys(name, data)
    except Unreadable as error:
        assert str(error) and "\n" not in str(error) and len(str(error)) <= 200
        return
    assert all(isinstance(key, str) for key in found)
    assert not any(word in key for key in found for word in EXPANDED if word.encode() not in data)


@settings(max_examples=examples(0.1), deadline=None)  # large inputs: the bound is what is tested
@given(
    name=st.sampled_from(NAMES),
    data=mutated(CORPUS, xml=True, json=True, max_bytes=LARGE_PIECE_BYTES),
    copies=st.integers(50, 200),
)
def test_a_large_truth_source_is_read_in_memory_bounded_by_its_size(name: str, data: bytes, copies: int) -> None:
    big = data * copies
    with peak_memory() as peak, contextlib.suppress(Unreadable):
        keys(name, big)
    bound = min(64 * len(big) + 4 * 1024 * 1024, 256 * 1024 * 1024)  # and never past what a reader may hold
    assert peak() < bound, f"{peak():,} bytes held reading {len(big):,}"
