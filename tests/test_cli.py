"""The command line as users run it: the installed script and `python -m`, in real processes."""

from __future__ import annotations

import argparse
import importlib
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from evidence_gate.cli import build_parser
from evidence_gate.verbs import VERBS


def run(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "evidence_gate", *args], cwd=cwd, capture_output=True, text=True, check=False
    )


def test_help_lists_the_verbs() -> None:
    result = run("--help")
    assert result.returncode == 0
    for verb in (
        "detect",
        "changes",
        "inventory",
        "summary",
        "evidence",
        "criteria",
        "freeze",
        "run",
        "merge",
        "publish",
        "demo",
    ):
        assert re.search(rf"^    {verb}\b", result.stdout, re.MULTILINE), verb
    assert "Exit codes: 0 ok, 1 the check failed, 2 usage or configuration error" in " ".join(result.stdout.split())


def test_the_installed_console_script_runs(tmp_path: Path) -> None:
    script = Path(sys.executable).with_name("evidence-gate")
    if not script.exists():
        pytest.skip("the package is not installed as a console script in this environment")
    result = subprocess.run([str(script), "detect", str(tmp_path), "--json"], capture_output=True, text=True)
    assert result.returncode == 0
    assert '"primary": "unknown"' in result.stdout


@pytest.mark.parametrize(
    "verb",
    ["detect", "changes", "inventory", "summary", "evidence", "criteria", "freeze", "run", "merge", "publish", "demo"],
)
def test_every_verb_documents_json_and_its_exit_codes(verb: str) -> None:
    result = run(verb, "--help")
    assert result.returncode == 0
    assert "--json" in result.stdout
    assert "Exit codes:" in result.stdout


@pytest.mark.parametrize(
    "args",
    [
        ("detect", "/nonexistent/path"),
        ("changes", "--base", "main", "--repo", "/nonexistent/path"),
        ("changes", "--base", "main"),  # run in a directory that is not a git repository
        ("changes", "--base=-x"),
        ("detect", ".", "--adapters", "/nonexistent/adapters.yaml"),
    ],
)
def test_bad_input_is_one_line_on_stderr_never_a_traceback(tmp_path: Path, args: tuple[str, ...]) -> None:
    result = run(*args, cwd=tmp_path)
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert result.stderr.count("\n") == 1
    assert result.stderr.startswith("evidence-gate: error: ")


def test_a_broken_adapter_table_is_a_config_error_naming_the_field(tmp_path: Path) -> None:
    table = tmp_path / "adapters.yaml"
    table.write_text("version: 1\ncommon: {}\nadapters: [{id: go}]\n", encoding="utf-8")
    result = run("detect", str(tmp_path), "--adapters", str(table))
    assert result.returncode == 2
    expected = f"evidence-gate: error: {table}: adapter 'go': (the adapter): 'title' is a required property\n"
    assert result.stderr == expected


def test_an_unknown_verb_is_a_usage_error() -> None:
    result = run("summarise")
    assert result.returncode == 2
    assert "invalid choice: 'summarise'" in result.stderr


def _options_without_help(parser: argparse.ArgumentParser, name: str) -> Iterator[str]:
    """Every argument of `parser` and of its sub-parsers, by name, that `--help` shows without a line."""
    for action in parser._actions:  # argparse lists a parser's arguments (and its sub-parsers) only here
        if isinstance(action, argparse._SubParsersAction):
            for verb, sub in action.choices.items():
                yield from _options_without_help(sub, f"{name} {verb}")
        elif action.help is None or not action.help.strip():
            yield f"{name} {'/'.join(action.option_strings) or action.dest}"


def test_every_option_of_every_verb_has_a_help_line() -> None:
    assert list(_options_without_help(build_parser(), "evidence-gate")) == []


def _loaded_after(*args: str) -> list[str]:
    """The package's modules a real process has loaded once `main(args)` returned."""
    probe = (
        "import contextlib, io, sys\n"
        "from evidence_gate.cli import main\n"
        "with contextlib.suppress(SystemExit), contextlib.redirect_stdout(io.StringIO()):\n"
        f"    main({list(args)!r})\n"
        "print('\\n'.join(sorted(m for m in sys.modules if m.startswith('evidence_gate.'))))\n"
    )
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    return result.stdout.split()


@pytest.mark.parametrize("args", [("--version",), ("--help",)])
def test_the_version_and_the_help_import_no_verb(args: tuple[str, ...]) -> None:
    loaded = _loaded_after(*args)
    assert "evidence_gate.verbs" in loaded  # the verbs' table, which --help lists
    assert [module for module in loaded if module.startswith(("evidence_gate.verbs.", "evidence_gate.gates"))] == []


def test_a_verb_imports_its_own_module_and_no_other_verb(tmp_path: Path) -> None:
    loaded = _loaded_after("detect", str(tmp_path), "--json")
    assert [module for module in loaded if module.startswith("evidence_gate.verbs.")] == [
        "evidence_gate.verbs.common",
        "evidence_gate.verbs.detect",
    ]
    assert not [module for module in loaded if module.startswith(("evidence_gate.gates", "evidence_gate.strength"))]


def test_every_verb_of_the_table_has_a_module_with_its_parts() -> None:
    for verb in VERBS:
        module = importlib.import_module(f"evidence_gate.verbs.{verb}")
        assert callable(module.configure), verb
        assert callable(module.run), verb
        assert "Exit codes" in module.EPILOG or "exit" in module.EPILOG.lower(), verb
