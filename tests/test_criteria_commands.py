"""Per-criterion evidence by filtered test commands: one argument vector a criterion, no shell,
the tag as a JavaScript-safe regex where asked."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path

import pytest

from evidence_gate.effects import effects_for
from evidence_gate.gates.criteria import regex_escaped, tag_of
from evidence_gate.ledger.payloads.criteria import Criterion, CriterionStatus
from evidence_gate.runner import CommandRun
from evidence_gate.verbs.criteria import command_arguments, results_from_commands
from tests.tools import needs_tools

from .conftest import CliResult, Repo, local_environment
from .test_criteria import criteria

NODE_SUITE = """\
const test = require('node:test');
const assert = require('node:assert');
test('[SHOP-9#1] adds an item', () => { assert.strictEqual(1 + 1, 2); });
test('[SHOP-9#2] totals the cart', () => { assert.strictEqual(2 + 2, 5); });
test('unrelated', () => {});
"""

needs_node = needs_tools("node")


@needs_node
def test_criteria_by_filtered_runs_of_a_real_runner(repo: Repo, cli: Callable[..., CliResult]) -> None:
    repo.commit("tests", {"cart.test.js": NODE_SUITE})
    code, document = criteria(
        cli,
        "--story",
        "SHOP-9",
        "--count",
        "3",
        "--command",
        'node --test --test-reporter=tap --test-name-pattern="{tagRegex}" cart.test.js',
        "--repo",
        repo.path,
    )
    assert code == 1
    assert [item["status"] for item in document["criteria"]] == ["green", "red", "missing"]
    assert document["criteria"][0]["reason"].endswith("exited 0: 1 test passed")
    assert "'--test-name-pattern=\\[SHOP-9#1\\]'" in document["criteria"][0]["reason"]


@needs_node
def test_a_tag_regex_runs_in_a_unicode_javascript_regex_of_a_real_runner(
    repo: Repo, cli: Callable[..., CliResult]
) -> None:
    # node reads a /pattern/flags filter as a RegExp with those flags; under `u`, `\-` and `\#` are errors.
    repo.commit("tests", {"cart.test.js": NODE_SUITE})
    code, document = criteria(
        cli,
        "--story",
        "SHOP-9",
        "--count",
        "2",
        "--command",
        "node --test --test-reporter=tap --test-name-pattern=/{tagRegex}/u cart.test.js",
        "--repo",
        repo.path,
    )
    assert code == 1
    assert [item["status"] for item in document["criteria"]] == ["green", "red"]
    assert document["criteria"][0]["reason"].endswith("exited 0: 1 test passed")


@needs_node
def test_a_tag_regex_compiles_with_the_unicode_flag_and_matches_only_its_tag() -> None:
    cases = [
        (tag_of("SHOP-12", 3), "[SHOP-12#3]"),
        (tag_of("a.b_c-9", 12), "[a.b_c-9#12]"),
        (tag_of("a.b_c-9", 12), "[axb_c-9#12]"),
        (tag_of("X", 1), "X"),
    ]
    script = """
const cases = JSON.parse(process.argv[1]);
console.log(JSON.stringify(cases.map(([pattern, text]) => new RegExp(`^${pattern}$`, 'u').test(text))));
"""
    pairs = json.dumps([[regex_escaped(tag), text] for tag, text in cases])
    result = subprocess.run(["node", "-e", script, pairs], capture_output=True, text=True, check=True)
    assert json.loads(result.stdout) == [True, True, False, False]


def test_the_command_runs_without_a_shell_so_a_tag_is_no_glob(
    tmp_path: Path, repo: Repo, cli: Callable[..., CliResult]
) -> None:
    repo.commit("files a shell glob [S-1#1] would match", {"1": "", "S": ""})
    record = tmp_path / "argv.json"
    script = f"import json, sys; open({str(record)!r}, 'w').write(json.dumps(sys.argv[1:]))"
    template = f"{shlex.join([sys.executable, '-c', script])} {{tag}} $HOME;"
    criteria(cli, "--story", "S-1", "--count", "1", "--command", template, "--repo", repo.path)
    assert json.loads(record.read_text()) == ["[S-1#1]", "$HOME;"]


@pytest.mark.parametrize(
    ("template", "message"),
    [
        ("npx jest --ci", "--command 'npx jest --ci': has neither {tag} nor {tagRegex}, so every criterion"),
        ("npx jest -t '{tag}", '--command "npx jest -t \'{tag}": cannot be split into arguments (No closing'),
    ],
)
def test_a_command_that_cannot_be_filtered_per_criterion_is_a_usage_error(
    template: str, message: str, cli: Callable[..., CliResult]
) -> None:
    result = cli("criteria", "--story", "S-1", "--count", "2", "--command", template)
    assert result.code == 2
    assert result.err.startswith(f"evidence-gate: error: {message}")
    assert result.err.count("\n") == 1


def test_a_story_id_that_could_break_a_command_is_refused(cli: Callable[..., CliResult]) -> None:
    result = cli("criteria", "--story", "X$(touch pwned)", "--count", "1", "--command", "echo {tag}")
    assert result.code == 2
    assert result.err.startswith("evidence-gate: error: --story 'X$(touch pwned)': use letters, digits")


def test_a_command_whose_program_is_not_found_is_a_usage_error(repo: Repo, cli: Callable[..., CliResult]) -> None:
    result = cli("criteria", "--story", "S-1", "--count", "2", "--command", "no-such-runner {tag}", "--repo", repo.path)
    assert result.code == 2
    assert result.err == "evidence-gate: error: cannot run `no-such-runner '[S-1#1]'` (No such file or directory)\n"


def test_the_commands_run_through_the_effects_passed_in_one_argument_vector_a_criterion(repo: Repo) -> None:
    """A recording runner around the real one: each criterion's command is one argv with its tag in
    place, run in the repository; the outcome is judged from what really ran."""
    repo.commit("base", {"README.md": "shop\n"})
    effects = effects_for(repo.path, local_environment())
    ran: list[list[str]] = []

    def recording(
        argv: Sequence[str], cwd: Path, output: Path, timeout: float, *, extra: Mapping[str, str] | None = None
    ) -> CommandRun:
        ran.append([*argv, str(cwd)])
        return effects.commands(argv, cwd, output, timeout, extra=extra)

    script = "import sys; print(sys.argv[1]); print('1 passed in 0.01s')"
    arguments = command_arguments(f"{shlex.join([sys.executable, '-c', script])} {{tagRegex}}")
    checklist = (Criterion(number=1, text="refunds"), Criterion(number=2, text=None))
    results = results_from_commands("S-1", checklist, arguments, replace(effects, commands=recording), 60)
    assert ran == [
        [sys.executable, "-c", script, r"\[S-1#1\]", str(repo.path)],
        [sys.executable, "-c", script, r"\[S-1#2\]", str(repo.path)],
    ]
    assert [result.status for result in results] == [CriterionStatus.GREEN, CriterionStatus.GREEN]
