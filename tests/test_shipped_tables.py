"""The YAML tables the package ships are checked by their JSON Schemas here, once, rather than each
time a command starts (documents.shipped_table); a table given as data (`--adapters`, a test's edit)
is still checked as it is read."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

import jsonschema
import pytest
import yaml

from evidence_gate.documents import load_table, shipped_table
from evidence_gate.errors import ConfigError

PACKAGE = Path(str(resources.files("evidence_gate")))
TABLES = sorted(path.relative_to(PACKAGE).as_posix() for path in PACKAGE.rglob("*.yaml"))


def test_every_shipped_table_is_listed_here() -> None:
    assert TABLES == [
        "integrity/idioms.yaml",
        "quality/locations.yaml",
        "quality/recognisers.yaml",
        "render/remedies.yaml",
        "settings.yaml",
        "stacks/adapters.yaml",
        "strength/runtime_errors.yaml",
    ]


def where(table: str) -> tuple[str, str, str]:
    """The table's package, file name and schema's file name."""
    folder, _, name = table.rpartition("/")
    package = "evidence_gate" + (f".{folder.replace('/', '.')}" if folder else "")
    return package, name, name.removesuffix(".yaml") + ".schema.json"


@pytest.mark.parametrize("table", TABLES)
def test_each_shipped_table_meets_its_schema_and_reads_the_same_either_way(table: str) -> None:
    package, name, schema_name = where(table)
    data = resources.files(package).joinpath(name).read_bytes()
    schema = json.loads(resources.files(package).joinpath(schema_name).read_text("utf-8"))
    document = shipped_table(package, name)
    assert document == yaml.safe_load(data)
    errors = [error.message for error in jsonschema.Draft202012Validator(schema).iter_errors(document)]
    assert errors == []
    assert load_table(data, name, package, schema_name) == document


def test_a_table_given_as_data_is_still_checked() -> None:
    package, _, schema_name = where("render/remedies.yaml")
    with pytest.raises(ConfigError, match=r"^t\.yaml: \(top level\): 'version' is a required property"):
        load_table(b"{}\n", "t.yaml", package, schema_name)
