"""Command rendering: slots checked and quoted, package scripts through the repo's package manager."""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from evidence_gate.errors import ConfigError, UnsafeSlotValue, UsageError
from evidence_gate.stacks.commands import parse_template
from evidence_gate.stacks.detect import command_for
from evidence_gate.stacks.table import default_table
from tests.tools import needs_tools

from .conftest import CliResult, write_tree

HOSTILE = {
    "double quote": 'Test"; rm -rf ~; echo "',
    "single quote": "it's",
    "command substitution": "$(touch pwned)",
    "variable": "$HOME",
    "backticks": "`touch pwned`",
    "newline": "TestA\ntouch pwned",
    "carriage return": "TestA\rTestB",
    "nul": "Test\x00A",
    "leading dash": "--upload-pack=touch pwned",
    "backslash": "Test\\",
}


@pytest.mark.parametrize("kind", sorted(HOSTILE))
@pytest.mark.parametrize(("adapter_id", "files"), [("go", {"go.mod": "module x\n"}), ("python", {"setup.py": ""})])
def test_hostile_slot_values_are_refused(tmp_path: Path, kind: str, adapter_id: str, files: dict[str, str]) -> None:
    write_tree(tmp_path, files)
    with pytest.raises(UnsafeSlotValue, match=r"^\{(name|file)\}: "):
        command_for(
            default_table(),
            adapter_id,
            "test_file",
            tmp_path,
            slots={"name": HOSTILE[kind], "file": HOSTILE[kind], "package": "./..."},
        )


def test_a_quoted_slot_is_inserted_inside_its_quotes(tmp_path: Path) -> None:
    write_tree(tmp_path, {"go.mod": "module x\n"})
    command = command_for(
        default_table(),
        "go",
        "test_file",
        tmp_path,
        slots={"name": "TestParse/with spaces", "package": "./parser"},
    )
    assert command == 'go test -v -count=1 -run "^TestParse/with spaces$" ./parser'


def test_a_bare_slot_is_shell_quoted(tmp_path: Path) -> None:
    write_tree(tmp_path, {"pyproject.toml": ""})
    command = command_for(default_table(), "python", "test_file", tmp_path, slots={"file": "tests/test a;b&c|d.py"})
    assert command == "python -m pytest -rA 'tests/test a;b&c|d.py'"
    assert shlex.split(command)[-1] == "tests/test a;b&c|d.py"


def test_a_rendered_command_runs_with_the_value_intact(tmp_path: Path) -> None:
    template = parse_template("printf '%s|' {files} \"{name}\"", "test")
    command = template.render({"files": ["a b.py", "c;d.py", "*.py"], "name": "x y"})
    output = subprocess.run(["sh", "-c", command], cwd=tmp_path, capture_output=True, text=True, check=True)
    assert output.stdout == "a b.py|c;d.py|*.py|x y|"


def test_a_missing_slot_value_is_an_error(tmp_path: Path) -> None:
    write_tree(tmp_path, {"go.mod": "module x\n"})
    with pytest.raises(UnsafeSlotValue, match=r"needs a value for \{name\}"):
        command_for(default_table(), "go", "test_file", tmp_path, slots={"package": "./..."})


@pytest.mark.parametrize(
    ("lockfile", "expected"),
    [
        ("package-lock.json", "npm run test -- src/a.test.ts"),
        ("pnpm-lock.yaml", "pnpm run test src/a.test.ts"),
        ("yarn.lock", "yarn run test src/a.test.ts"),
        ("bun.lockb", "bun run test src/a.test.ts"),
        (None, "npm run test -- src/a.test.ts"),
    ],
)
def test_package_scripts_run_through_the_lockfiles_package_manager(
    tmp_path: Path, lockfile: str | None, expected: str
) -> None:
    manifest = {
        "name": "api",
        "main": "index.js",
        "scripts": {"test": "node --test"},
        "devDependencies": {"jasmine": "5"},
    }
    write_tree(tmp_path, {"package.json": json.dumps(manifest)} | ({lockfile: ""} if lockfile else {}))
    adapter_and_command = ("backend-node", "test_file")
    # backend-node's test_file falls back to `node --test` unless a known runner is a dependency;
    # jasmine is one, with no per-file command of its own, so the package script is used.
    command = command_for(default_table(), *adapter_and_command, tmp_path, slots={"file": "src/a.test.ts"})
    assert command == expected


def test_the_lockfile_of_a_monorepo_root_applies_to_its_packages(tmp_path: Path) -> None:
    manifest = {"name": "site", "scripts": {"build": "vite build"}, "dependencies": {"react": "18"}}
    write_tree(tmp_path, {"pnpm-lock.yaml": "", "package.json": "{}", "apps/site/package.json": json.dumps(manifest)})
    assert (
        command_for(default_table(), "web", "build", tmp_path, root="apps/site")
        == 'pnpm run build 2>&1; echo "EXIT_CODE=$?"'
    )


def test_a_command_the_stack_lacks_here_is_a_usage_error(tmp_path: Path) -> None:
    write_tree(tmp_path, {"package.json": json.dumps({"name": "api", "main": "index.js"})})
    with pytest.raises(UsageError, match=r"stack 'backend-node' has no 'build' command here \(available: "):
        command_for(default_table(), "backend-node", "build", tmp_path)


def test_an_unbalanced_quote_in_a_template_fails_at_load() -> None:
    with pytest.raises(ConfigError, match=r"unbalanced \""):
        parse_template('go test -run "{name}', "adapter 'go': commands.test_file")


EXIT_MARKER = '2>&1; echo "EXIT_CODE=$?"'
SILENT_ON_SUCCESS = [
    ("go", "build", {"go.mod": "module x\n"}),
    ("go", "lint", {"go.mod": "module x\n"}),
    ("go", "typecheck", {"go.mod": "module x\n"}),
    ("web", "typecheck", {"package.json": json.dumps({"dependencies": {"react": "18"}}), "tsconfig.json": "{}"}),
    ("backend-node", "typecheck", {"package.json": json.dumps({"main": "index.js"}), "tsconfig.json": "{}"}),
    ("backend-node", "build", {"package.json": json.dumps({"main": "index.js", "scripts": {"build": "tsc"}})}),
    ("web", "lint", {"package.json": json.dumps({"dependencies": {"react": "18"}, "scripts": {"lint": "eslint ."}})}),
    ("python", "build", {"pyproject.toml": ""}),
    ("jvm", "build", {"pom.xml": "<project/>"}),
    ("php", "lint", {"composer.json": "{}"}),
    ("dotnet", "lint", {"App.csproj": "<Project/>"}),
]


@pytest.mark.parametrize(("adapter_id", "name", "files"), SILENT_ON_SUCCESS)
def test_a_tool_silent_on_success_echoes_its_exit_code(
    tmp_path: Path, adapter_id: str, name: str, files: dict[str, str]
) -> None:
    write_tree(tmp_path, files)
    command = command_for(default_table(), adapter_id, name, tmp_path)
    assert command.endswith(f" {EXIT_MARKER}")


def test_the_exit_marker_follows_a_rendered_slot_intact(tmp_path: Path) -> None:
    template = parse_template(f"printf '%s|' {{files}} {EXIT_MARKER}", "test")
    command = template.render({"files": ["a b.go", "c;d.go"]})
    output = subprocess.run(["sh", "-c", command], cwd=tmp_path, capture_output=True, text=True, check=True)
    assert output.stdout == "a b.go|c;d.go|EXIT_CODE=0\n"


GO_MAIN = 'package main\n\nimport "fmt"\n\nfunc main() { fmt.Println("hi") }\n'


def build_claim(
    tmp_path: Path, cli: Callable[..., CliResult], stack: str, files: dict[str, str], env: dict[str, str]
) -> CliResult:
    """Run a stack's build command for real on a project, and judge its log as a build claim."""
    project = write_tree(tmp_path / "project", files)
    command = command_for(default_table(), stack, "build", project)
    environ = {**os.environ, "HOME": str(tmp_path), **env}
    run = subprocess.run(["sh", "-c", command], cwd=project, env=environ, capture_output=True, text=True, check=True)
    log = tmp_path / "build.log"
    log.write_text(run.stdout, encoding="utf-8")
    return cli("evidence", "--claim", "build", "--stack", stack, log)


def go_build_claim(tmp_path: Path, cli: Callable[..., CliResult], main_go: str, cache: Path) -> CliResult:
    files = {"go.mod": "module example.com/hello\n\ngo 1.19\n", "main.go": main_go}
    return build_claim(tmp_path, cli, "go", files, {"GOCACHE": str(cache)})


@needs_tools("go", hint="Go is installed by scripts/test.sh as root")
def test_a_silent_green_go_build_passes_the_build_claim(
    tmp_path: Path, cli: Callable[..., CliResult], go_build_cache: Path
) -> None:
    result = go_build_claim(tmp_path, cli, GO_MAIN, go_build_cache)
    assert result.code == 0, result.out
    assert "the build command exited 0 (exit marker)" in result.out


@needs_tools("go", hint="Go is installed by scripts/test.sh as root")
def test_a_failing_go_build_fails_the_build_claim(
    tmp_path: Path, cli: Callable[..., CliResult], go_build_cache: Path
) -> None:
    result = go_build_claim(tmp_path, cli, GO_MAIN.replace("fmt.Println", "fmt.Printn"), go_build_cache)
    assert result.code == 1, result.out
    # go build exits 2 on a compile error up to Go 1.25 and 1 from then on: non-zero either way
    assert re.search(r"exit code [1-9]\d* read from the log", result.out), result.out


def npm_build_claim(tmp_path: Path, cli: Callable[..., CliResult], build: str) -> CliResult:
    package = {"name": "shop", "version": "1.0.0", "main": "index.js", "scripts": {"build": build}}
    files = {"package.json": json.dumps(package)}
    return build_claim(tmp_path, cli, "backend-node", files, {"npm_config_cache": str(tmp_path / "npm-cache")})


@needs_tools("npm")
def test_a_silent_green_npm_build_passes_the_build_claim(tmp_path: Path, cli: Callable[..., CliResult]) -> None:
    """`tsc` prints nothing when the build is green: the exit marker is the evidence."""
    result = npm_build_claim(tmp_path, cli, "node -e 0")
    assert result.code == 0, result.out
    assert "the build command exited 0 (exit marker)" in result.out


@needs_tools("npm")
def test_a_failing_npm_build_fails_the_build_claim(tmp_path: Path, cli: Callable[..., CliResult]) -> None:
    result = npm_build_claim(tmp_path, cli, "node -e process.exit(2)")
    assert result.code == 1, result.out
    assert "read from the log" in result.out
