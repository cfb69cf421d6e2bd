"""A truth source of JSON (i18n JSON, Flutter's .arb, Apple's .xcstrings) is the pull request's: it is
streamed through the checked JSON events, so hostile nesting is unreadable with the reason, and of
its keys only those a change refers to are kept."""

from __future__ import annotations

import json
import tracemalloc

import pytest

from evidence_gate.documents import MAX_DEPTH
from evidence_gate.quality.truth_sources import MAX_YAML_SOURCE_BYTES, Unreadable, keys
from tests.fuzz.inputs import peak_memory


@pytest.mark.parametrize("name", ["locales/en.json", "lib/l10n/app_en.arb", "Localizable.xcstrings"])
def test_json_nested_past_the_cap_is_unreadable_not_a_recursion_error(name: str) -> None:
    """100,000 brackets made json.loads raise RecursionError, which the reader did not catch."""
    with pytest.raises(Unreadable, match=f"nested deeper than {MAX_DEPTH} levels"):
        keys(name, b"[" * 100_000 + b"]" * 100_000)


def test_json_keys_are_read_nested_and_with_a_byte_order_mark() -> None:
    content = '{"home": {"title": "Welcome"}}'.encode("utf-16")
    assert keys("locales/translation.json", content) >= {"home", "home.title", "translation:home.title"}


def _openapi(resources: int) -> bytes:
    """An OpenAPI document of `resources` paths, three operations each, and a schema each."""
    operation = {
        "summary": "Do something with the resource",
        "parameters": [{"name": "id", "in": "path", "required": True, "schema": {"type": "string"}}],
        "responses": {"200": {"description": "ok"}, "404": {"description": "not found"}},
    }
    paths = {
        f"/resource{n}/{{id}}": {
            method: {"operationId": f"{method}Resource{n}", **operation} for method in ("get", "put")
        }
        for n in range(resources)
    }
    schemas = {
        f"Resource{n}": {"type": "object", "properties": {f"field{k}": {"type": "string"} for k in range(8)}}
        for n in range(resources)
    }
    return json.dumps({"openapi": "3.0.0", "paths": paths, "components": {"schemas": schemas}}).encode()


def test_an_openapi_json_keeps_only_the_keys_referred_to_in_bounded_memory() -> None:
    """Four times the document, the same memory: it is streamed, and of its keys only those the
    change refers to are kept (the attack of issue 24: a 33 MB openapi.json peaked near 1 GB, the
    document built whole, then every dotted path of it)."""
    referred = {"getResource7", "Resource9", "paths./resource3/{id}.put", "openapi:getResource5", "undefined"}
    small, large = _openapi(1_000), _openapi(4_000)

    def peak(content: bytes) -> int:
        with peak_memory() as held:
            found = keys("openapi.json", content, referred)
        assert found == referred - {"undefined"}
        return held()

    ratio = peak(large) / peak(small)
    assert ratio < 1.5, f"four times the document cost {ratio:.1f} times the memory"
    assert peak(large) < 8 * 2**20  # the events of one 256 KiB read, built at once by ijson
    assert keys("openapi.json", small, referred) == keys("openapi.json", small) & referred


def test_json_keys_are_those_of_the_whole_document() -> None:
    """Dotted paths through objects up to 32 deep (not through lists), each `operationId` up to 32
    deep, the schemas, each with its namespace; an .arb file's `@` entries are none."""
    nested: dict[str, object] = {"operationId": "deepest"}
    for depth in reversed(range(34)):
        nested = {f"k{depth}": nested, "operationId": f"op{depth}"}
    document = {
        "@@locale": "en",
        "list": [{"inside": 1, "operationId": "listed"}],
        "components": {"schemas": {"Cart": {"type": "object"}}},
        "nested": nested,
    }
    found = keys("api/common.json", json.dumps(document).encode())
    dotted = "nested." + ".".join(f"k{depth}" for depth in range(32))
    assert {"@@locale", "list", "components.schemas.Cart", "Cart", "listed", "op31", dotted} <= found
    assert {"common:Cart", "common:op0", "common:listed"} <= found
    assert not {"list.inside", f"{dotted}.k32", "op32", "op33", "deepest"} & found
    assert "@@locale" not in keys("lib/l10n/app_en.arb", json.dumps(document).encode())
    assert keys("Localizable.xcstrings", b'{"strings": {"a": {"b": {}}, "c": 1}, "d": 2}') == {"a", "c"}


def test_a_long_key_over_many_children_costs_no_path_longer_than_a_reference() -> None:
    """A 256 KiB key over 40,000 children made 40,000 paths of 256 KiB each (10 GB copied); no key
    longer than the longest referred to is built."""
    content = json.dumps({"k" * 256 * 1024: {f"c{n}": 1 for n in range(40_000)}, "short": 1}).encode()
    with peak_memory() as held:
        assert keys("locales/en.json", content, {"short", "en:short"}) == {"short", "en:short"}
    assert held() < 16 * 2**20


@pytest.mark.parametrize("name", ["openapi.yaml", "config/locales/en.yml"])
def test_a_yaml_truth_source_past_4_mib_is_refused_unread(name: str) -> None:
    """YAML is built whole, its nodes some fifty times its text: a 32 MiB one would take more than
    a gigabyte. Past 4 MiB it is unreadable with the reason, in no more memory than its text."""
    big = b"en:\n" + b"".join(b"  key_%d: value\n" % n for n in range(300_000))
    assert len(big) > MAX_YAML_SOURCE_BYTES
    with peak_memory() as peak, pytest.raises(Unreadable, match=r"larger than 4,194,304 bytes, the most of YAML read"):
        keys(name, big, {"en.key_1"})
    assert peak() < 1024 * 1024
    assert keys(name, b"en:\n  key_1: value\n", {"en.key_1"}) == {"en.key_1"}


def test_a_yaml_truth_source_of_many_small_keys_is_held_within_64_times_its_size() -> None:
    """The shape the fuzz target found: a short key per line. PyYAML's two marks per node, each holding
    the buffer, cost more than the node; they are not kept, so what is held stays within the bound."""
    piece = b"openapi: 3.0.0\npaths:\n  /cart:\n" + b"    get:\n" * 300 + b"      operationId: getCart\n"
    big = piece * 138
    tracemalloc.start()
    try:
        keys("openapi.yaml", big)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 64 * len(big) + 4 * 1024 * 1024, f"{peak:,} bytes held reading {len(big):,}"
