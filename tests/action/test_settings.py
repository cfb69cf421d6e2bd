"""Settings: CLI flags over INPUT_* over .github/evidence-gate.yml over defaults."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from evidence_gate.errors import ConfigError, UsageError
from evidence_gate.settings import BaseConfig, CommentMode, FailOn, inputs_from_environment, resolve

from ..conftest import CliResult, Repo


def config(repo: Path, text: str) -> None:
    (repo / ".github").mkdir(exist_ok=True)
    (repo / ".github" / "evidence-gate.yml").write_text(text)


def test_defaults(tmp_path: Path) -> None:
    settings = resolve(tmp_path, {}, {}, None)
    assert (settings.check_name, settings.comment_mode, settings.fail_on) == (
        "Evidence Gate",
        CommentMode.ALWAYS,
        FailOn.STAGNATION,
    )


def test_flags_win_over_inputs_which_win_over_the_config_file(tmp_path: Path) -> None:
    config(tmp_path, "check-name: From config\nstory: CFG-1\nfail-on: never\n")
    environ = {"INPUT_CHECK-NAME": "From input", "INPUT_STORY": "IN-2"}
    settings = resolve(tmp_path, {"check-name": "From flag"}, environ, None)
    assert (settings.check_name, settings.story, settings.fail_on) == ("From flag", "IN-2", FailOn.NEVER)


def test_hyphenated_inputs_are_read_as_github_passes_them() -> None:
    environ = {"INPUT_COMMENT-MODE": "failures", "INPUT_REPORTS": "build/*.xml\n# a comment\n\nlogs/*.log, more/*.log"}
    assert inputs_from_environment(environ) == {
        "comment-mode": "failures",
        "reports": ["build/*.xml", "logs/*.log", "more/*.log"],
    }


def test_an_empty_input_is_a_default_not_a_value(tmp_path: Path) -> None:
    config(tmp_path, "check-name: Configured\n")
    assert resolve(tmp_path, {}, {"INPUT_CHECK-NAME": ""}, None).check_name == "Configured"


def test_an_unknown_config_key_is_an_error_naming_it(tmp_path: Path) -> None:
    config(tmp_path, "check_name: typo\n")
    with pytest.raises(ConfigError, match=r"evidence-gate\.yml: unknown key 'check_name' \(known: reports, "):
        resolve(tmp_path, {}, {}, None)


def test_a_wrong_type_is_an_error_naming_the_key(tmp_path: Path) -> None:
    config(tmp_path, "reports: build/*.xml\n")
    with pytest.raises(ConfigError, match=r"evidence-gate\.yml: reports: 'build/\*\.xml' is not of type 'array'"):
        resolve(tmp_path, {}, {}, None)


def test_a_bad_enum_from_an_input_is_a_usage_error(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="'sometimes' is not a valid CommentMode"):
        resolve(tmp_path, {}, {"INPUT_COMMENT-MODE": "sometimes"}, None)


def test_a_named_config_file_must_exist(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="no such config file"):
        resolve(tmp_path, {}, {}, Path("other.yml"))


def test_the_token_is_never_in_the_repr(tmp_path: Path) -> None:
    settings = resolve(tmp_path, {}, {"INPUT_GITHUB-TOKEN": "ghs_secret123"}, None)
    assert settings.github_token == "ghs_secret123"
    assert "ghs_secret123" not in repr(settings)


def at_base(files: dict[str, str]) -> BaseConfig:
    """A base commit holding `files` (path relative to the repository -> content)."""
    return BaseConfig(
        commit="b" * 40,
        read=lambda relative: files[str(relative)].encode() if str(relative) in files else None,
    )


def test_in_a_pull_request_the_base_commits_config_applies_and_the_change_is_noted(tmp_path: Path) -> None:
    config(tmp_path, "fail-on: never\n")
    settings = resolve(tmp_path, {}, {}, None, at_base({".github/evidence-gate.yml": "fail-on: blocked\n"}))
    assert settings.fail_on is FailOn.BLOCKED
    assert settings.notes == ("the pull request changes .github/evidence-gate.yml: its settings apply once merged",)


def test_a_config_the_pull_request_adds_applies_once_merged(tmp_path: Path) -> None:
    config(tmp_path, "fail-on: never\nreports: [committed/pass.xml]\n")
    settings = resolve(tmp_path, {}, {}, None, at_base({}))
    assert (settings.fail_on, settings.reports) == (FailOn.STAGNATION, ())
    assert settings.notes == ("the pull request adds .github/evidence-gate.yml: its settings apply once merged",)


def test_a_config_the_pull_request_removes_still_applies(tmp_path: Path) -> None:
    settings = resolve(tmp_path, {}, {}, None, at_base({".github/evidence-gate.yml": "fail-on: blocked\n"}))
    assert settings.fail_on is FailOn.BLOCKED
    assert settings.notes == (
        "the pull request removes .github/evidence-gate.yml: the base commit's settings apply until it is merged",
    )


def test_an_unchanged_config_is_not_noted(tmp_path: Path) -> None:
    config(tmp_path, "story: SHOP-1\n")
    settings = resolve(tmp_path, {}, {}, None, at_base({".github/evidence-gate.yml": "story: SHOP-1\n"}))
    assert (settings.story, settings.notes) == ("SHOP-1", ())


def test_the_workflows_inputs_still_win_over_the_base_commits_config(tmp_path: Path) -> None:
    base = at_base({".github/evidence-gate.yml": "fail-on: blocked\n"})
    assert resolve(tmp_path, {}, {"INPUT_FAIL-ON": "never"}, None, base).fail_on is FailOn.NEVER


def test_a_named_config_is_read_at_the_base_commit_too(tmp_path: Path) -> None:
    (tmp_path / "gate.yml").write_text("fail-on: never\n")
    settings = resolve(tmp_path, {}, {}, Path("gate.yml"), at_base({"gate.yml": "fail-on: blocked\n"}))
    assert settings.fail_on is FailOn.BLOCKED


def test_a_named_config_in_neither_the_base_nor_the_work_tree_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="no such config file"):
        resolve(tmp_path, {}, {}, Path("gate.yml"), at_base({}))


def test_an_invalid_config_at_the_base_commit_names_the_commit(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"\.github/evidence-gate\.yml at the base commit bbbbbbbbbbbb: unknown key"):
        resolve(tmp_path, {}, {}, None, at_base({".github/evidence-gate.yml": "failon: never\n"}))


def run_json(cli: Callable[..., CliResult], repo: Repo) -> dict[str, Any]:
    result = cli("run", "--repo", repo.path, "--format", "json")
    assert result.err == ""
    document: dict[str, Any] = json.loads(result.out)
    return document


def test_outside_a_pull_request_the_work_trees_config_applies(
    repo: Repo, cli: Callable[..., CliResult], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("GITHUB_REPOSITORY", raising=False)
    repo.commit("base")
    config(repo.path, "check-name: On my laptop\n")
    assert run_json(cli, repo)["check_name"] == "On my laptop"


def test_the_run_verb_in_a_pull_requests_run_reads_the_config_at_its_base(
    repo: Repo, tmp_path: Path, cli: Callable[..., CliResult], monkeypatch: pytest.MonkeyPatch
) -> None:
    base = repo.commit("base", {".github/evidence-gate.yml": "check-name: Evidence Gate\n"})
    head = repo.commit("rename the check", {".github/evidence-gate.yml": "check-name: Another\n"})
    event = tmp_path / "event.json"
    pull = {"number": 7, "body": "", "base": {"sha": base}, "head": {"sha": head}}
    event.write_text(json.dumps({"pull_request": pull}))
    monkeypatch.setenv("GITHUB_REPOSITORY", "octo-org/shop")
    monkeypatch.setenv("GITHUB_EVENT_PATH", str(event))
    document = run_json(cli, repo)
    assert document["check_name"] == "Evidence Gate"
    (evidence,) = [gate for gate in document["gates"] if gate["id"] == "evidence"]
    assert "the pull request changes .github/evidence-gate.yml: its settings apply once merged" in evidence["details"]


def test_a_config_with_more_report_globs_than_the_schema_allows_is_an_error(tmp_path: Path) -> None:
    config(tmp_path, "reports:\n" + "  - build/*.xml\n" * 1001)
    with pytest.raises(ConfigError, match=r"reports: .* is too long"):
        resolve(tmp_path, {}, {}, None)


def test_a_huge_config_in_the_pull_request_is_noted_as_a_change_not_read(tmp_path: Path) -> None:
    config(tmp_path, "# padding\n" * 100_000)
    settings = resolve(tmp_path, {}, {}, None, at_base({".github/evidence-gate.yml": "fail-on: blocked\n"}))
    assert settings.fail_on is FailOn.BLOCKED
    assert settings.notes == ("the pull request changes .github/evidence-gate.yml: its settings apply once merged",)


@pytest.mark.parametrize("value", ["0", "3601", "soon", "1.5", "9" * 5000])
def test_api_wait_seconds_outside_1_to_3600_is_a_usage_error(tmp_path: Path, value: str) -> None:
    with pytest.raises(UsageError, match=r"^api-wait-seconds: .* is not a whole number of seconds from 1 to 3600$"):
        resolve(tmp_path, {}, {"INPUT_API-WAIT-SECONDS": value}, None)


def test_api_wait_seconds_comes_from_the_config_file_too(tmp_path: Path) -> None:
    config(tmp_path, "api-wait-seconds: 5\n")
    assert resolve(tmp_path, {}, {}, None).api_wait_seconds == 5


def test_every_surface_is_on_by_default(tmp_path: Path) -> None:
    settings = resolve(tmp_path, {}, {}, None)
    assert (settings.check_run, settings.pr_body, settings.job_summary) == (True, True, True)


def test_the_config_file_switches_a_surface_off_with_a_yaml_boolean(tmp_path: Path) -> None:
    config(tmp_path, "check-run: false\npr-body: true\njob-summary: false\n")
    settings = resolve(tmp_path, {}, {}, None)
    assert (settings.check_run, settings.pr_body, settings.job_summary) == (False, True, False)


def test_a_switch_in_the_config_file_must_be_a_boolean(tmp_path: Path) -> None:
    config(tmp_path, "pr-body: 'no'\n")
    with pytest.raises(ConfigError, match=r"evidence-gate\.yml: pr-body: 'no' is not of type 'boolean'"):
        resolve(tmp_path, {}, {}, None)


def test_a_switch_input_is_read_in_the_spellings_the_actions_toolkit_accepts(tmp_path: Path) -> None:
    config(tmp_path, "check-run: false\n")
    environ = {"INPUT_CHECK-RUN": "True", "INPUT_PR-BODY": "FALSE", "INPUT_JOB-SUMMARY": "false"}
    settings = resolve(tmp_path, {}, environ, None)
    assert (settings.check_run, settings.pr_body, settings.job_summary) == (True, False, False)


def test_coverage_thresholds_come_from_the_inputs_and_a_target_below_the_minimum_is_refused(tmp_path: Path) -> None:
    settings = resolve(tmp_path, {}, {"INPUT_COVERAGE-MINIMUM": "50", "INPUT_COVERAGE-FAIL-ON": "target"}, None)
    assert (settings.coverage_minimum, settings.coverage_target, settings.coverage_fail_on) == (50, 80, "target")
    with pytest.raises(UsageError, match=r"coverage-target \(40\) is below coverage-minimum \(60\)"):
        resolve(tmp_path, {}, {"INPUT_COVERAGE-TARGET": "40"}, None)
    with pytest.raises(UsageError, match="coverage-minimum: '101' is not a whole number from 0 to 100"):
        resolve(tmp_path, {}, {"INPUT_COVERAGE-MINIMUM": "101"}, None)
    with pytest.raises(UsageError, match="'sometimes' is not a valid CoverageFailOn"):
        resolve(tmp_path, {}, {"INPUT_COVERAGE-FAIL-ON": "sometimes"}, None)
