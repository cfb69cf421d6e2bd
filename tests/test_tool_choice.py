"""Which type checker and linter the adapter table chooses for a project, from its own files: a
config file or section first, then a dev dependency, then a CI step that runs it; the reason names
the evidence. A language with no type checker for its sources is not applicable, saying why."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from evidence_gate.errors import ConfigError
from evidence_gate.model import ToolChoice
from evidence_gate.stacks.detect import command_for, detect
from evidence_gate.stacks.table import default_table, load_table_text

from .conftest import write_tree


def tools(tmp_path: Path, files: dict[str, str]) -> dict[str, ToolChoice]:
    write_tree(tmp_path, files)
    return detect(tmp_path, default_table()).primary.tools


PROJECT = "[project]\nname = 'shop'\n"


def test_a_flake8_project_gets_flake8_named_by_its_section(tmp_path: Path) -> None:
    chosen = tools(tmp_path, {"pyproject.toml": PROJECT, "setup.cfg": "[flake8]\nmax-line-length = 100\n"})
    lint = chosen["lint"]
    assert (lint.tool, lint.why) == ("flake8", "flake8: [flake8] in setup.cfg")
    assert lint.command == 'flake8 . 2>&1; echo "EXIT_CODE=$?"'
    assert command_for(default_table(), "python", "lint", tmp_path) == lint.command


def test_a_config_outranks_a_dev_dependency_which_outranks_a_ci_step(tmp_path: Path) -> None:
    workflow = "jobs:\n  lint:\n    steps:\n      - run: pylint src\n      - run: pyright\n"
    files = {
        "pyproject.toml": PROJECT + '[project.optional-dependencies]\ndev = ["ruff>=0.5", "pyright"]\n',
        ".github/workflows/ci.yml": workflow,
        ".flake8": "[flake8]\n",
    }
    chosen = tools(tmp_path, files)
    assert chosen["lint"].why == "flake8: .flake8"  # a config file, though ruff is a dev dependency
    assert chosen["typecheck"].why == "pyright: named as a dependency in pyproject.toml"
    (tmp_path / ".flake8").unlink()
    assert tools(tmp_path, {})["lint"].why == "ruff: named as a dependency in pyproject.toml"
    write_tree(tmp_path, {"pyproject.toml": PROJECT})
    chosen = tools(tmp_path, {})
    assert chosen["lint"].why == "pylint: a step of .github/workflows/ci.yml runs it"
    assert chosen["typecheck"].why == "pyright: a step of .github/workflows/ci.yml runs it"


def test_a_python_project_that_configures_no_type_checker_has_none(tmp_path: Path) -> None:
    chosen = tools(tmp_path, {"pyproject.toml": PROJECT, "requirements-dev.txt": "mypy-extensions\n"})
    assert chosen["typecheck"] == ToolChoice(
        tool=None,
        command=None,
        why="no mypy or pyright is configured: no config file, dev dependency or CI step names one",
    )
    assert chosen["lint"].tool is None


@pytest.mark.parametrize("name", [".golangci.yml", ".golangci.yaml", ".golangci.toml", ".golangci.json"])
def test_golangci_lint_is_chosen_by_its_config_and_go_vet_otherwise(tmp_path: Path, name: str) -> None:
    chosen = tools(tmp_path, {"go.mod": "module example.com/x\n"})
    assert (chosen["lint"].tool, chosen["lint"].why) == ("go vet", "go vet: the default, no other is configured")
    chosen = tools(tmp_path, {name: "linters:\n  enable: [errcheck]\n"})
    assert (chosen["lint"].tool, chosen["lint"].why) == ("golangci-lint", f"golangci-lint: {name}")
    assert chosen["lint"].command == 'golangci-lint run ./... 2>&1; echo "EXIT_CODE=$?"'
    assert chosen["typecheck"].tool == "go vet"


def test_rust_takes_clippy_and_cargo_check(tmp_path: Path) -> None:
    chosen = tools(tmp_path, {"Cargo.toml": "[package]\nname = 'x'\n", "clippy.toml": ""})
    assert (chosen["lint"].why, chosen["typecheck"].tool) == ("clippy: clippy.toml", "cargo check")


def test_plain_javascript_has_no_type_checker_and_typescript_gets_tsc(tmp_path: Path) -> None:
    manifest: dict[str, object] = {"name": "api", "main": "index.js", "scripts": {"test": "node --test"}}
    files = {"package.json": json.dumps(manifest), "index.js": "", "lib/cart.js": "", "node_modules/x/y.d.ts": ""}
    typecheck = tools(tmp_path, files)["typecheck"]
    assert (typecheck.applies, typecheck.command) == (False, None)
    assert typecheck.why == "plain JavaScript: no TypeScript sources and no tsconfig.json"
    assert "typecheck" not in detect(tmp_path, default_table()).primary.commands
    manifest["devDependencies"] = {"typescript": "5"}
    typecheck = tools(tmp_path, {"package.json": json.dumps(manifest), "src/deep/er/cart.mts": ""})["typecheck"]
    assert (typecheck.tool, typecheck.why) == ("tsc", "tsc: typescript in package.json's devDependencies")
    assert tools(tmp_path, {"tsconfig.json": "{}"})["typecheck"].why == "tsc: tsconfig.json"


def test_a_javascript_package_that_ships_its_type_declarations_is_still_plain_javascript(tmp_path: Path) -> None:
    """kleur and many others write index.js and hand-written index.d.ts for their TypeScript users:
    no TypeScript source is type-checked there, so there is no type checker to miss."""
    manifest = {"name": "colors", "main": "index.js", "types": "index.d.ts", "scripts": {"test": "uvu test"}}
    files = {"package.json": json.dumps(manifest), "index.js": "", "index.d.ts": "", "colors.d.mts": ""}
    typecheck = tools(tmp_path, files)["typecheck"]
    assert (typecheck.applies, typecheck.why) == (False, "plain JavaScript: no TypeScript sources and no tsconfig.json")
    assert tools(tmp_path, {"lib/extra.ts": ""})["typecheck"].applies


def test_javascript_lint_is_the_lint_script_else_eslint_by_its_config(tmp_path: Path) -> None:
    manifest: dict[str, object] = {"name": "api", "main": "index.js", "eslintConfig": {"root": True}}
    lint = tools(tmp_path, {"package.json": json.dumps(manifest)})["lint"]
    assert (lint.why, lint.command) == (
        "eslint: eslintConfig in package.json",
        'npx --no-install eslint . 2>&1; echo "EXIT_CODE=$?"',
    )
    manifest["scripts"] = {"lint": "eslint src"}
    lint = tools(tmp_path, {"package.json": json.dumps(manifest)})["lint"]
    assert (lint.why, lint.command) == (
        "lint script: scripts.lint in package.json",
        'npm run lint 2>&1; echo "EXIT_CODE=$?"',
    )


ESLINT_CONFIGS = [
    "eslint.config.js",
    "eslint.config.mjs",
    "eslint.config.cjs",
    "eslint.config.ts",
    ".eslintrc",
    ".eslintrc.json",
    ".eslintrc.js",
    ".eslintrc.yml",
]


@pytest.mark.parametrize("name", ESLINT_CONFIGS)
def test_an_eslint_config_without_a_lint_script_takes_eslint_and_a_lint_script_stays_the_choice(
    tmp_path: Path, name: str
) -> None:
    manifest: dict[str, object] = {"name": "api", "main": "index.js", "scripts": {"test": "node --test"}}
    lint = tools(tmp_path, {"package.json": json.dumps(manifest), "index.js": "", name: ""})["lint"]
    assert (lint.tool, lint.why) == ("eslint", f"eslint: {name}")
    assert lint.command == 'npx --no-install eslint . 2>&1; echo "EXIT_CODE=$?"'
    manifest["scripts"] = {"test": "node --test", "lint": "eslint src"}
    lint = tools(tmp_path, {"package.json": json.dumps(manifest)})["lint"]
    assert (lint.tool, lint.why) == ("lint script", "lint script: scripts.lint in package.json")
    assert tools(tmp_path, {"tsconfig.json": "{}", "src/cart.ts": ""})["lint"].tool == "lint script"


def test_ruby_without_sorbet_or_steep_has_no_type_checker_and_with_one_takes_it(tmp_path: Path) -> None:
    typecheck = tools(tmp_path, {"Gemfile": "source 'https://rubygems.org'\n"})["typecheck"]
    assert not typecheck.applies and typecheck.why.startswith("Ruby has no type checker of its own")
    assert tools(tmp_path, {"sorbet/config": "--dir=.\n"})["typecheck"].why == "sorbet: sorbet/config"


def test_a_tools_slot_and_a_command_of_the_same_name_are_refused_at_load() -> None:
    text = (Path(__file__).parents[1] / "src/evidence_gate/stacks/adapters.yaml").read_text()
    broken = text.replace(
        "      test_file: python -m pytest -rA {file}\n",
        "      test_file: python -m pytest -rA {file}\n      lint: ruff check .\n",
        1,
    )
    with pytest.raises(ConfigError, match=r"adapter 'python': tools\.lint: commands\.lint is given too"):
        load_table_text(broken, "adapters.yaml")
