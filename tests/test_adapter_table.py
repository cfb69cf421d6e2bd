"""The adapter table is validated and compiled at load; errors name the adapter and the field."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from evidence_gate.errors import ConfigError, UsageError
from evidence_gate.stacks.table import AdapterTable, default_table, load_table, load_table_text

SHIPPED = Path(__file__).parent.parent / "src" / "evidence_gate" / "stacks" / "adapters.yaml"
REQUIRED = {"ios", "android", "web", "backend-node", "python", "go", "rust", "jvm", "unknown"}


def edited(edit: object) -> str:
    """The shipped table with one edit applied (a function taking the parsed document)."""
    document = yaml.safe_load(SHIPPED.read_text(encoding="utf-8"))
    assert callable(edit)
    edit(document)
    return yaml.safe_dump(document)


def adapter(document: Any, adapter_id: str) -> Any:
    return next(entry for entry in document["adapters"] if entry["id"] == adapter_id)


def test_the_shipped_table_loads_with_every_required_adapter() -> None:
    table = default_table()
    assert set(table.adapters) >= REQUIRED


@pytest.mark.parametrize("adapter_id", sorted(set(default_table().adapters) - {"unknown"}))
def test_every_adapter_carries_detection_commands_and_markers(adapter_id: str) -> None:
    entry = default_table().get(adapter_id)
    assert entry.detect
    assert {"build", "test", "test_file"} <= set(entry.commands)
    assert entry.markers.test_success
    assert entry.markers.test_failure
    assert entry.markers.load_error
    assert entry.parsers


def test_an_unknown_stack_id_is_a_usage_error_listing_the_known_ones() -> None:
    with pytest.raises(UsageError, match=r"unknown stack 'pyhton' \(known: android, backend-node, "):
        default_table().get("pyhton")


def test_a_schema_violation_names_the_adapter_and_the_field() -> None:
    def break_it(document: Any) -> None:
        adapter(document, "go")["markers"]["test"]["success"] = "^ok"

    with pytest.raises(ConfigError, match=r"^t\.yaml: adapter 'go': markers\.test\.success: '\^ok' is not of type"):
        load_table_text(edited(break_it), "t.yaml")


def test_an_unknown_key_is_refused() -> None:
    def break_it(document: Any) -> None:
        adapter(document, "rust")["parser"] = ["cargo-test"]

    with pytest.raises(ConfigError, match=r"adapter 'rust': \(the adapter\): Additional properties .*'parser'"):
        load_table_text(edited(break_it), "t.yaml")


def test_a_bad_regex_fails_at_load_not_at_use() -> None:
    def break_it(document: Any) -> None:
        adapter(document, "python")["markers"]["load_error"].append("(unclosed")

    with pytest.raises(ConfigError, match=r"adapter 'python': markers\.load_error\[\d+\]: bad regex '\(unclosed'"):
        load_table_text(edited(break_it), "t.yaml")


def test_a_reference_pattern_needs_its_ref_group() -> None:
    def break_it(document: Any) -> None:
        adapter(document, "android")["truth_sources"]["references"] = [r"R\.string\.(\w+)"]

    with pytest.raises(
        ConfigError, match=r"adapter 'android': truth_sources\.references\[0\]: .* lacks the named group"
    ):
        load_table_text(edited(break_it), "t.yaml")


def test_a_detection_regex_is_compiled_at_load() -> None:
    def break_it(document: Any) -> None:
        adapter(document, "flutter")["detect"] = [{"file": "pubspec.yaml", "contains": "[flutter"}]

    with pytest.raises(ConfigError, match=r"adapter 'flutter': detect\[0\]\.contains: bad regex"):
        load_table_text(edited(break_it), "t.yaml")


def test_a_command_with_an_unknown_slot_fails_at_load() -> None:
    def break_it(document: Any) -> None:
        adapter(document, "go")["commands"]["test_file"] = "go test -run {test}"

    with pytest.raises(ConfigError, match=r"adapter 'go': commands\.test_file: unknown slot \{test\}"):
        load_table_text(edited(break_it), "t.yaml")


def test_a_list_slot_inside_quotes_fails_at_load() -> None:
    def break_it(document: Any) -> None:
        adapter(document, "go")["commands"]["lint"] = 'golint "{files}"'

    with pytest.raises(ConfigError, match=r"commands\.lint: the list slot \{files\} cannot stand inside quotes"):
        load_table_text(edited(break_it), "t.yaml")


def test_supersedes_must_name_an_adapter() -> None:
    def break_it(document: Any) -> None:
        adapter(document, "android")["supersedes"] = ["java"]

    with pytest.raises(ConfigError, match=r"adapter 'android': supersedes: no adapter 'java'"):
        load_table_text(edited(break_it), "t.yaml")


def test_invalid_yaml_is_a_one_line_config_error(tmp_path: Path) -> None:
    path = tmp_path / "adapters.yaml"
    path.write_text("adapters: [\n", encoding="utf-8")
    with pytest.raises(ConfigError) as raised:
        load_table(path)
    assert raised.value.one_line().startswith(f"{path}: not valid YAML (")
    assert "\n" not in raised.value.one_line()


def test_a_user_table_replaces_the_shipped_one(tmp_path: Path) -> None:
    path = tmp_path / "adapters.yaml"
    path.write_text(SHIPPED.read_text(encoding="utf-8"), encoding="utf-8")
    assert isinstance(load_table(path), AdapterTable)


def test_a_glob_is_allowed_only_in_the_last_part_of_a_rule_path() -> None:
    def break_it(document: Any) -> None:
        adapter(document, "go")["detect"] = [{"file": "cmd/*/go.mod"}]

    with pytest.raises(ConfigError, match=r"adapter 'go': detect\[0\]\.file: 'cmd/\*/go\.mod': only the last part"):
        load_table_text(edited(break_it), "t.yaml")


def test_a_rule_reads_either_text_or_json_not_both() -> None:
    def break_it(document: Any) -> None:
        rule = {"file": "package.json", "contains": "x", "json_value": {"at": "scripts.test", "match": "x"}}
        adapter(document, "backend-node")["detect"] = [rule]

    with pytest.raises(ConfigError, match=r"adapter 'backend-node': detect\[0\]: "):
        load_table_text(edited(break_it), "t.yaml")


@pytest.mark.parametrize(
    "path", ["src/parser/tests.rs", "crates/core/src/lexer/tests.rs", "src/parser/tests/mod.rs", "tests/cli.rs"]
)
def test_rust_unit_test_modules_are_test_files(path: str) -> None:
    assert default_table().get("rust").paths.test.match_file(path)


def test_rust_sources_beside_a_tests_module_are_not_test_files() -> None:
    assert not default_table().get("rust").paths.test.match_file("src/parser/mod.rs")
