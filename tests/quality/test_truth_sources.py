"""A truth source of JSON (i18n JSON, Flutter's .arb, Apple's .xcstrings) is the pull request's: it is
read through the bounded JSON loader, so hostile nesting is unreadable with the reason."""

from __future__ import annotations

import pytest

from evidence_gate.documents import MAX_DEPTH
from evidence_gate.quality.truth_sources import Unreadable, keys


@pytest.mark.parametrize("name", ["locales/en.json", "lib/l10n/app_en.arb", "Localizable.xcstrings"])
def test_json_nested_past_the_cap_is_unreadable_not_a_recursion_error(name: str) -> None:
    """100,000 brackets made json.loads raise RecursionError, which the reader did not catch."""
    with pytest.raises(Unreadable, match=f"nested deeper than {MAX_DEPTH} levels"):
        keys(name, b"[" * 100_000 + b"]" * 100_000)


def test_json_keys_are_read_nested_and_with_a_byte_order_mark() -> None:
    content = '{"home": {"title": "Welcome"}}'.encode("utf-16")
    assert keys("locales/translation.json", content) >= {"home", "home.title", "translation:home.title"}
