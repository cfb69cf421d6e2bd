"""The settings table (settings.yaml) is the one place a setting is declared: action.yml's inputs,
docs/usage.md's inputs table, the config file's schema, the Settings dataclass and the verbs' flags
say what it says, in its order, and nothing in them is missing from it."""

from __future__ import annotations

import argparse
import dataclasses
import tomllib
import typing
from fnmatch import fnmatch
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml

from evidence_gate.errors import ConfigError
from evidence_gate.settings import KEYS, ROWS, Settings, config_schema, inputs_from_environment, resolve
from evidence_gate.settings_table import input_default, load_rows, rewritten, spelled_default
from evidence_gate.verbs import quality, run

ROOT = Path(__file__).resolve().parent.parent
TABLE = ROOT / "src" / "evidence_gate" / "settings.yaml"
DERIVED = {"repo", "reports_may_leave", "gates_off_by", "notes"}  # fields of Settings the run derives
INPUTS_HEADER = "| Input | Default | Description |"


def test_action_yml_and_docs_usage_are_as_the_script_writes_them_from_the_table() -> None:
    action, usage = (ROOT / "action.yml").read_text("utf-8"), (ROOT / "docs" / "usage.md").read_text("utf-8")
    assert rewritten(action, usage) == (action, usage), "run python3 scripts/write-settings.py"


def test_action_yml_has_exactly_the_tables_inputs_in_its_order() -> None:
    inputs: dict[str, Any] = yaml.safe_load((ROOT / "action.yml").read_text("utf-8"))["inputs"]
    assert list(inputs) == [row.key for row in ROWS if row.input]
    for row in ROWS:
        if row.input:
            spec = inputs[row.key]
            assert " ".join(spec["description"].split()) == row.description, row.key
            assert spec.get("default", "") == input_default(row), row.key
            assert spec.get("required") is False, row.key


def test_docs_usage_lists_the_tables_inputs_in_its_order() -> None:
    lines = (ROOT / "docs" / "usage.md").read_text("utf-8").splitlines()
    start = lines.index(INPUTS_HEADER) + 2
    end = next(n for n in range(start, len(lines)) if not lines[n].startswith("|"))
    # The Default cell names what an input left empty comes to: the setting's default.
    shown = {row.key: input_default(row) or spelled_default(row) for row in ROWS}
    expected = [
        f"| `{row.key}` | {f'`{shown[row.key]}`' if shown[row.key] else '(empty)'} | {row.description} |"
        for row in ROWS
        if row.input
    ]
    assert [line.replace("\\|", "|") for line in lines[start:end]] == expected


def test_the_config_files_schema_has_exactly_the_keys_the_table_lets_it_set() -> None:
    schema = config_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    assert list(schema["properties"]) == list(KEYS) == [row.key for row in ROWS if row.config]
    validator = jsonschema.Draft202012Validator(schema)
    for row in ROWS:
        assert schema["properties"].get(row.key, {}).get("description") == (row.description if row.config else None)
        if row.config and row.default is not None:
            default = list(row.default) if isinstance(row.default, tuple) else row.default
            assert validator.is_valid({row.key: default}), f"{row.key}: its default breaks its own schema"


def test_settings_has_a_field_per_row_whose_default_is_the_rows() -> None:
    fields = {field.name: field for field in dataclasses.fields(Settings)}
    assert set(fields) - DERIVED == {row.name for row in ROWS if row.in_settings}
    for row in ROWS:
        if row.in_settings:
            field = fields[row.name]
            factory = field.default_factory
            default = field.default if factory is dataclasses.MISSING else factory()
            assert default is not dataclasses.MISSING, f"{row.name} has no default"
            assert default == row.default, row.key


def test_a_choice_lists_the_values_of_its_fields_enum() -> None:
    hints = typing.get_type_hints(Settings)
    choices = [row for row in ROWS if row.kind == "choice"]
    assert choices
    for row in choices:
        assert row.schema["enum"] == [str(member) for member in hints[row.name]], row.key


@pytest.mark.parametrize("verb", [run, quality])
def test_the_verbs_flags_are_the_tables(verb: Any) -> None:
    parser = argparse.ArgumentParser()
    verb.configure(parser)
    options = {option.removeprefix("--") for action in parser._actions for option in action.option_strings}
    name = verb.__name__.rpartition(".")[2]
    assert options & {row.key for row in ROWS} == {row.key for row in ROWS if name in row.flags}
    if verb is run:
        given = set(run.flags(parser.parse_args([])))
        assert given == {row.key for row in ROWS if "run" in row.flags} - {"config"}


def test_the_package_ships_the_table_and_its_schema() -> None:
    patterns = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["tool"]["setuptools"]["package-data"]
    for name in ("settings.yaml", "settings.schema.json"):
        assert any(fnmatch(name, pattern) for pattern in patterns["evidence_gate"]), name


def test_an_input_is_split_as_its_rows_type_says() -> None:
    environ = {
        "INPUT_SCOPE": "src/**, docs/**\n# not a glob\ntests/**",  # list: one a line, commas too
        "INPUT_SMOKE": "curl -fsS a,b\n\n./smoke.sh",  # lines: one a line, commas kept
        "INPUT_LOGS": "lint: logs/ruff.log\n",  # map: `name: value` a line
        "INPUT_STRENGTH-JOBS": " 4 ",  # anything else: the text
        "INPUT_LEDGER": "ledger.json",  # the action's own input, no setting
    }
    assert inputs_from_environment(environ) == {
        "scope": ["src/**", "docs/**", "tests/**"],
        "smoke": ["curl -fsS a,b", "./smoke.sh"],
        "logs": {"lint": "logs/ruff.log"},
        "strength-jobs": "4",
    }


NEW_ROW = """
  - key: retry-limit
    type: whole
    default: 3
    input: true
    config: true
    schema: {minimum: 0, maximum: 9}
    description: How often to retry.
"""


def test_a_new_row_is_a_key_of_the_config_files_schema_with_its_types_rule() -> None:
    rows = load_rows(TABLE.read_bytes() + NEW_ROW.encode(), "settings.yaml")
    schema = config_schema(rows)
    assert schema["properties"]["retry-limit"] == {
        "description": "How often to retry.",
        "type": "integer",
        "minimum": 0,
        "maximum": 9,
    }
    assert jsonschema.Draft202012Validator(schema).is_valid({"retry-limit": 9})
    assert not jsonschema.Draft202012Validator(schema).is_valid({"retry-limit": 10})


@pytest.mark.parametrize(
    ("row", "message"),
    [
        (NEW_ROW.replace("    default: 3\n", ""), r"settings\.yaml: settings/\d+: 'default' is a required property"),
        (NEW_ROW.replace("schema: {minimum: 0, maximum: 9}", "schema: {}"), r"'minimum' is a required property"),
        (NEW_ROW.replace("type: whole", "type: number"), r"settings/\d+/type: 'number' is not one of"),
        (NEW_ROW.replace("retry-limit", "check-name"), r"a key is in more than one row: \['check-name'\]"),
    ],
)
def test_a_bad_row_is_an_error_naming_it(row: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        load_rows(TABLE.read_bytes() + row.encode(), "settings.yaml")


def _as_github_passes_them() -> dict[str, str]:
    """The environment GitHub gives a Docker action: every input, an unset one at its action.yml
    default, as INPUT_<NAME>."""
    action = yaml.safe_load((ROOT / "action.yml").read_text("utf-8"))
    return {f"INPUT_{name.upper()}": str(spec.get("default", "")) for name, spec in action["inputs"].items()}


def test_no_input_the_config_file_may_set_has_a_default_in_action_yml() -> None:
    """A default there reaches the run as a set input and would outvote the config file."""
    environ = _as_github_passes_them()
    assert [row.key for row in ROWS if row.input and row.config and environ[f"INPUT_{row.key.upper()}"]] == []


def test_the_config_file_applies_in_the_action_whose_inputs_github_passes_at_their_defaults(tmp_path: Path) -> None:
    config = tmp_path / ".github" / "evidence-gate.yml"
    config.parent.mkdir()
    config.write_text(
        "comment-mode: failures\ncheck-name: Gate\ncheck-run: false\npr-body: false\njob-summary: false\n"
        "fail-on: never\napi-wait-seconds: 5\ncoverage-minimum: 10\ncoverage-target: 20\n"
        "coverage-fail-on: never\ncoverage-value-weighting: false\n",
        encoding="utf-8",
    )
    settings = resolve(tmp_path, {}, _as_github_passes_them(), None)
    assert (settings.comment_mode, settings.check_name, settings.check_run, settings.pr_body) == (
        "failures",
        "Gate",
        False,
        False,
    )
    assert (settings.job_summary, settings.fail_on, settings.api_wait_seconds) == (False, "never", 5)
    assert (settings.coverage_minimum, settings.coverage_target, settings.coverage_fail_on) == (10, 20, "never")
    assert settings.coverage_value_weighting is False


def test_without_a_config_file_the_action_runs_with_the_tables_defaults(tmp_path: Path) -> None:
    settings = resolve(tmp_path, {}, _as_github_passes_them(), None)
    for row in ROWS:
        if row.input and row.config and not row.own and row.default is not None:
            assert getattr(settings, row.name) == row.default, row.key


def test_the_runner_steps_inputs_leave_the_config_files_settings_to_it() -> None:
    """The runner step passes its inputs on as INPUT_<NAME> too: a default there would outvote the
    config file, and a check name the container step takes from the config file would then differ
    from the ledger's. `ledger-out` is the step's own: it names the file its `ledger` output gives."""
    document = yaml.safe_load((ROOT / "run" / "action.yml").read_text("utf-8"))
    settings = {row.key for row in ROWS if row.config}
    defaulted = [key for key, spec in document["inputs"].items() if key in settings and spec.get("default")]
    assert defaulted == ["ledger-out"]
