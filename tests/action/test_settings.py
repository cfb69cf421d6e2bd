"""Settings: CLI flags over INPUT_* over .github/evidence-gate.yml over defaults."""

from __future__ import annotations

from pathlib import Path

import pytest

from evidence_gate.errors import ConfigError, UsageError
from evidence_gate.settings import CommentMode, FailOn, inputs_from_environment, resolve


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


@pytest.mark.parametrize("value", ["0", "3601", "soon", "1.5", "9" * 5000])
def test_api_wait_seconds_outside_1_to_3600_is_a_usage_error(tmp_path: Path, value: str) -> None:
    with pytest.raises(UsageError, match=r"^api-wait-seconds: .* is not a whole number of seconds from 1 to 3600$"):
        resolve(tmp_path, {}, {"INPUT_API-WAIT-SECONDS": value}, None)


def test_api_wait_seconds_comes_from_the_config_file_too(tmp_path: Path) -> None:
    config(tmp_path, "api-wait-seconds: 5\n")
    assert resolve(tmp_path, {}, {}, None).api_wait_seconds == 5
