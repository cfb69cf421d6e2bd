"""The repository's config file fuzzed (`.github/evidence-gate.yml`, `settings.parse_config` and
`settings.resolve`): YAML shaped by the config file's schema (`settings.config_schema`, derived from
settings.yaml: each key's own kind of value, or another), mutated, and garbage.

A config is settings or a one-line `ConfigError`/`UsageError`, never a traceback; what
`parse_config` returns validates against the schema (nothing of an invalid file is taken as a
setting); and random bytes are never read as settings other than none at all."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st

from evidence_gate.errors import ConfigError, EvidenceGateError
from evidence_gate.settings import KEYS, config_schema, parse_config, resolve

from .inputs import garbage, json_values, mutated, random_bytes, random_text

pytestmark = pytest.mark.fuzz

SCHEMA: dict[str, Any] = config_schema()
HOSTILE_STRINGS = [
    "../../etc/passwd",
    "/etc/passwd",
    "{file}",
    "{unknown}",
    "$(id)",
    "`id`",
    "**",
    "[",
    "\x00",
    "a" * 5000,
]


def valid_value(rule: dict[str, Any]) -> st.SearchStrategy[Any]:
    """A value of the kind `rule` (one property of the schema) asks for, near its bounds."""
    if "enum" in rule:
        return st.sampled_from(rule["enum"])
    kind = rule.get("type")
    if kind == "boolean":
        return st.booleans()
    if kind == "integer":
        return st.integers(rule.get("minimum", -10) - 2, rule.get("maximum", 10) + 2)
    if kind == "string":
        if "pattern" in rule:
            return st.from_regex(rule["pattern"], fullmatch=True)
        return st.one_of(st.text(min_size=1, max_size=40), st.sampled_from(HOSTILE_STRINGS))
    if kind == "array":
        return st.lists(valid_value(rule.get("items", {})), max_size=5)
    if kind == "object":
        return st.dictionaries(
            st.sampled_from(["type-check", "lint", "test", "smoke", "other"]), valid_value({"type": "string"})
        )
    return json_values


def config_value(key: str) -> st.SearchStrategy[Any]:
    return st.one_of(valid_value(SCHEMA["properties"][key]), valid_value(SCHEMA["properties"][key]), json_values)


configs = st.dictionaries(st.sampled_from(KEYS), st.just(None), max_size=8).flatmap(
    lambda chosen: st.fixed_dictionaries({key: config_value(key) for key in chosen})
)
yaml_configs = configs.map(lambda config: yaml.safe_dump(config, allow_unicode=True).encode("utf-8"))
CORPUS = (
    b"reports:\n  - build/test-results/**/*.xml\ncoverage-minimum: 70\ncoverage-target: 85\n",
    b"stack: python\nstory: SHOP-12\ngates-off: [strength]\nfail-on-tags: [RH-1, RH-15]\ncheck-run: false\n",
    b"logs:\n  type-check: logs/mypy.log\n  lint: logs/ruff.log\nsmoke:\n  - curl -fsS localhost:8080/health\n",
    b"strength-command: pytest -q {file}\nstrength-shard: 1/4\nstrength-jobs: 4\nscope:\n  - src/**\n",
)
inputs = st.one_of(yaml_configs, mutated(CORPUS), garbage)


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("repo")


@given(data=inputs)
def test_a_config_is_settings_or_a_one_line_error(repo: Path, data: bytes) -> None:
    config = repo / "evidence-gate.yml"
    config.write_bytes(data)
    try:
        settings = parse_config(data, "evidence-gate.yml")
    except ConfigError as error:
        assert "\n" not in error.one_line() and len(error.one_line()) < 1_000
    else:
        assert not list(jsonschema.Draft202012Validator(SCHEMA).iter_errors(settings)), "an invalid file was taken"
        assert set(settings) <= set(KEYS)
    try:
        resolve(repo, {}, {}, config)
    except EvidenceGateError as error:
        assert len(error.one_line()) < 1_000, error.one_line()


@given(data=st.one_of(random_bytes, random_text))
def test_random_bytes_are_never_settings(data: bytes) -> None:
    try:
        settings = parse_config(data, "evidence-gate.yml")
    except ConfigError:
        return
    assert settings == {}, "garbage read as settings"
