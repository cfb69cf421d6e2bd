"""Which test commands detection picks: the runner a project really uses, read from its manifests,
its CI workflows and its tox or nox configuration."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from evidence_gate.stacks.detect import command_for, detect
from evidence_gate.stacks.table import default_table

from .conftest import write_tree

PYPROJECT_WITH_PYTEST = """\
[project]
name = "textkit"
version = "0.3.0"

[tool.pytest.ini_options]
testpaths = ["tests"]
"""


def package_json(**fields: object) -> str:
    return json.dumps({"name": "example", "version": "1.0.0", **fields}, indent=2)


UNITTEST_WORKFLOW = """\
name: tests
on: [push, pull_request]
jobs:
  test:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-python@v5
      - run: python -m unittest discover -v
"""
UNITTEST_CASE = "import unittest\n\n\nclass Parse(unittest.TestCase):\n    def test_empty(self):\n        pass\n"
PLAIN_PYPROJECT = '[project]\nname = "textkit"\nversion = "0.3.0"\n'


def test_a_project_whose_ci_runs_unittest_gets_unittests_commands(tmp_path: Path) -> None:
    write_tree(tmp_path, {"pyproject.toml": PLAIN_PYPROJECT, ".github/workflows/tests.yaml": UNITTEST_WORKFLOW})
    commands = detect(tmp_path, default_table()).primary.commands
    assert (commands["test"], commands["test_file"]) == ("python -m unittest -v", "python -m unittest -v {file}")


def test_a_sub_project_reads_the_ci_workflows_at_the_top_of_the_tree(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {"services/api/pyproject.toml": PLAIN_PYPROJECT, ".github/workflows/api.yml": UNITTEST_WORKFLOW},
    )
    (match,) = detect(tmp_path, default_table()).matches
    assert (match.root, match.commands["test"]) == ("services/api", "python -m unittest -v")
    command = command_for(default_table(), "python", "test", tmp_path, root="services/api")
    assert command == "python -m unittest -v"


@pytest.mark.parametrize(
    ("name", "config"),
    [
        ("tox.ini", "[tox]\nenv_list = py312\n\n[testenv]\ncommands = python -m unittest discover -s tests\n"),
        (
            "noxfile.py",
            'import nox\n\n\n@nox.session\ndef tests(session):\n    session.run("python", "-m", "unittest")\n',
        ),
    ],
)
def test_a_tox_or_nox_config_running_unittest_gets_unittests_command(tmp_path: Path, name: str, config: str) -> None:
    write_tree(tmp_path, {"setup.py": "from setuptools import setup\nsetup()\n", name: config})
    assert detect(tmp_path, default_table()).primary.commands["test"] == "python -m unittest -v"


@pytest.mark.parametrize(
    "pytest_config",
    [
        {"pytest.ini": "[pytest]\n"},
        {"tests/conftest.py": "import pytest\n"},
        {"pyproject.toml": PYPROJECT_WITH_PYTEST},
        {"setup.cfg": "[tool:pytest]\ntestpaths = tests\n"},
    ],
)
def test_a_pytest_configuration_keeps_pytest_when_ci_also_runs_unittest(
    tmp_path: Path, pytest_config: dict[str, str]
) -> None:
    write_tree(tmp_path, {"pyproject.toml": PLAIN_PYPROJECT, ".github/workflows/ci.yml": UNITTEST_WORKFLOW})
    write_tree(tmp_path, pytest_config)
    assert detect(tmp_path, default_table()).primary.commands["test"] == "python -m pytest -rA"


def test_a_symlinked_workflows_folder_is_not_read_for_the_test_command(tmp_path: Path) -> None:
    outside = write_tree(tmp_path / "outside", {"workflows/ci.yml": UNITTEST_WORKFLOW})
    project = write_tree(tmp_path / "project", {"pyproject.toml": PLAIN_PYPROJECT, ".github/": ""})
    (project / ".github" / "workflows").symlink_to(outside / "workflows", target_is_directory=True)
    detection = detect(project, default_table())
    assert detection.primary.commands["test"] == "python -m pytest -rA"
    assert detection.warnings == ()


def test_the_unittest_file_command_runs_that_file(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {
            "pyproject.toml": PLAIN_PYPROJECT,
            ".github/workflows/ci.yml": UNITTEST_WORKFLOW,
            "tests/test_parse.py": UNITTEST_CASE,
            "tests/test_other.py": UNITTEST_CASE.replace("Parse", "Other"),
        },
    )
    command = command_for(default_table(), "python", "test_file", tmp_path, slots={"file": "tests/test_parse.py"})
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    run = subprocess.run(["sh", "-c", command], cwd=tmp_path, env=env, capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stderr
    assert "test_empty (tests.test_parse.Parse" in run.stderr
    assert "\nRan 1 test in " in run.stderr


@pytest.mark.parametrize(
    ("runner", "per_file"),
    [("tape", "npx --no-install tape {file}"), ("ava", "npx --no-install ava {file}"), ("uvu", "node {file}")],
)
def test_a_tape_ava_or_uvu_project_gets_its_runners_per_file_command(
    tmp_path: Path, runner: str, per_file: str
) -> None:
    manifest = package_json(
        main="index.js", scripts={"test": "npm run lint && run-tests"}, devDependencies={runner: "1"}
    )
    write_tree(tmp_path, {"package.json": manifest})
    assert detect(tmp_path, default_table()).primary.commands["test_file"] == per_file


@pytest.mark.parametrize(
    ("script", "per_file"),
    [
        ("tape test/*.js | tap-spec", "npx --no-install tape {file}"),
        ("ava --verbose", "npx --no-install ava {file}"),
        ("uvu -r tsm tests", "node {file}"),
    ],
)
def test_a_test_script_naming_tape_ava_or_uvu_picks_that_runner(tmp_path: Path, script: str, per_file: str) -> None:
    write_tree(tmp_path, {"package.json": package_json(main="index.js", scripts={"test": script})})
    assert detect(tmp_path, default_table()).primary.commands["test_file"] == per_file


def test_a_package_with_only_an_exports_map_and_a_test_script_is_a_node_project(tmp_path: Path) -> None:
    manifest = package_json(type="module", exports={".": "./index.js"}, scripts={"test": "node --test"})
    write_tree(tmp_path, {"package.json": manifest, "index.js": "export const x = 1\n"})
    detection = detect(tmp_path, default_table())
    assert (detection.primary.adapter_id, detection.primary.stack_class) == ("backend-node", "backend")
    assert detection.primary.commands["test"] == "npm run test"
