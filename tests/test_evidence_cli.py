"""`evidence-gate evidence` on real runner output: the claims that markers alone would wave through."""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from .conftest import CliResult, Repo

LOGS = Path(__file__).parent / "fixtures" / "stack-logs"


@pytest.fixture
def fresh(tmp_path: Path) -> Callable[[str], Path]:
    """A fixture copied to a temp dir: untracked, and written now."""

    def copy(name: str) -> Path:
        target = tmp_path / name.replace("/", "-")
        shutil.copy(LOGS / name, target)
        return target

    return copy


def evidence(cli: Callable[..., CliResult], *args: object) -> tuple[int, dict[str, Any]]:
    result = cli("evidence", *args, "--since", "0", "--json")
    return result.code, json.loads(result.out) if result.out else {}


def test_gradle_build_successful_is_not_a_test_count(
    cli: Callable[..., CliResult], fresh: Callable[[str], Path]
) -> None:
    code, verdict = evidence(cli, "--claim", "test", "--stack", "jvm", fresh("gradle/success.log"))
    assert code == 1
    assert str(verdict["reason"]).startswith("no test count could be read (")


def test_the_gradle_reports_of_the_same_run_supply_the_count(
    cli: Callable[..., CliResult], fresh: Callable[[str], Path]
) -> None:
    reports = [fresh(f"gradle/{path.name}") for path in sorted((LOGS / "gradle").glob("success.*.junit.xml"))]
    args = [arg for report in reports for arg in ("--junit", report)]
    code, verdict = evidence(cli, "--claim", "test", "--stack", "jvm", fresh("gradle/success.log"), *args)
    assert code == 0, verdict
    assert verdict["counts"]["source"].startswith("junit")


def test_a_build_claim_is_backed_by_the_build_marker(
    cli: Callable[..., CliResult], fresh: Callable[[str], Path]
) -> None:
    code, verdict = evidence(cli, "--claim", "build", "--stack", "jvm", fresh("gradle/success.log"))
    assert code == 0
    assert verdict["markers"][0]["text"].startswith("BUILD SUCCESSFUL in ")


def test_xcode_test_succeeded_with_zero_tests_fails(
    cli: Callable[..., CliResult], fresh: Callable[[str], Path]
) -> None:
    code, verdict = evidence(cli, "--claim", "test", "--stack", "ios", fresh("xcodebuild/zero-tests.log"))
    assert (code, verdict["reason"]) == (1, "no tests executed (0 skipped)")


def test_go_ok_without_counts_fails_unattended(cli: Callable[..., CliResult], fresh: Callable[[str], Path]) -> None:
    code, verdict = evidence(cli, "--claim", "test", "--stack", "go", fresh("go-test/success.log"))
    assert code == 1
    assert "markers alone do not say how many tests ran" in str(verdict["reason"])


def test_go_verbose_output_holds_the_claim(cli: Callable[..., CliResult], fresh: Callable[[str], Path]) -> None:
    code, verdict = evidence(cli, "--claim", "test", "--stack", "go", fresh("go-test/success.v.log"))
    assert (code, verdict["reason"]) == (0, "6 tests executed, all passed (0 skipped)")


def test_a_failing_run_fails_on_its_marker(cli: Callable[..., CliResult], fresh: Callable[[str], Path]) -> None:
    code, verdict = evidence(cli, "--claim", "test", "--stack", "python", fresh("pytest/failure.log"))
    assert (code, verdict["reason"]) == (1, "2 of 5 tests failed")
    assert any(str(detail).startswith("the log reports a failure at line ") for detail in verdict["details"])


def test_a_committed_junit_report_is_stale(
    repo: Repo, cli: Callable[..., CliResult], fresh: Callable[[str], Path]
) -> None:
    report = repo.path / "junit.xml"
    shutil.copy(LOGS / "pytest" / "success.junit.xml", report)
    repo.commit("commit a report")
    log = fresh("go-test/success.log")
    code, verdict = evidence(cli, "--claim", "test", "--stack", "go", log, "--junit", report, "--repo", repo.path)
    assert code == 1
    assert verdict["stale"] == [f"{report} is committed to git, not produced by this run"]


def test_a_report_older_than_the_run_is_stale(cli: Callable[..., CliResult], fresh: Callable[[str], Path]) -> None:
    report = fresh("pytest/success.junit.xml")
    os.utime(report, (1_000_000_000, 1_000_000_000))
    log = fresh("go-test/success.log")
    result = cli(
        "evidence", "--claim", "test", "--stack", "go", log, "--junit", report, "--since", "2026-01-01T00:00:00Z"
    )
    assert result.code == 1
    assert "was written at 2001-09-09" in result.out
    assert "before this run started" in result.out


def test_a_misspelt_stack_is_a_usage_error_not_a_silent_default(
    cli: Callable[..., CliResult], fresh: Callable[[str], Path]
) -> None:
    result = cli("evidence", "--claim", "test", "--stack", "jvmm", fresh("gradle/success.log"))
    assert result.code == 2
    assert result.err.startswith("evidence-gate: error: unknown stack 'jvmm'")


def test_a_caller_pattern_replaces_the_markers(cli: Callable[..., CliResult], fresh: Callable[[str], Path]) -> None:
    code, verdict = evidence(
        cli, "--claim", "build", "--stack", "jvm", fresh("gradle/success.log"), "--failure-pattern", r"^BUILD SUCC"
    )
    assert code == 1
    assert str(verdict["reason"]).startswith("the log reports a failure at line ")


def test_a_bad_caller_pattern_is_a_usage_error(cli: Callable[..., CliResult], fresh: Callable[[str], Path]) -> None:
    result = cli("evidence", "--claim", "build", fresh("gradle/success.log"), "--success-pattern", "(")
    assert result.code == 2
    assert result.err.startswith("evidence-gate: error: --success-pattern '(': not a valid regular expression")


def test_the_unknown_stack_passes_present_evidence_as_not_applicable(
    tmp_path: Path, cli: Callable[..., CliResult]
) -> None:
    log = tmp_path / "make.log"
    log.write_text("cc -o app main.c\nall done\n")
    code, verdict = evidence(cli, "--claim", "test", "--stack", "unknown", log)
    assert (code, verdict["ok"], verdict["notApplicable"]) == (0, True, True)


def test_a_missing_log_is_a_usage_error(tmp_path: Path, cli: Callable[..., CliResult]) -> None:
    result = cli("evidence", "--claim", "test", tmp_path / "nope.log")
    assert (result.code, result.err) == (2, f"evidence-gate: error: {tmp_path / 'nope.log'}: no such file\n")


def test_a_junit_report_listing_failures_is_not_outvoted_by_a_passing_log(
    cli: Callable[..., CliResult], fresh: Callable[[str], Path]
) -> None:
    log, report = fresh("pytest/success.log"), fresh("pytest/failure.junit.xml")
    code, verdict = evidence(cli, "--claim", "test", "--stack", "python", log, "--junit", report)
    assert (code, verdict["reason"]) == (1, "2 of 5 tests failed")
    assert any(detail.startswith("the log and the reports disagree: ") for detail in verdict["details"])


def test_a_utf16_report_beside_a_passing_log_is_read_and_its_failures_fail(
    cli: Callable[..., CliResult], fresh: Callable[[str], Path]
) -> None:
    report = fresh("pytest/failure.junit.xml")
    report.write_bytes(report.read_text(encoding="utf-8").encode("utf-16"))
    code, verdict = evidence(
        cli, "--claim", "test", "--stack", "python", fresh("pytest/success.log"), "--junit", report
    )
    assert (code, verdict["reason"]) == (1, "2 of 5 tests failed")


def test_a_truncated_report_beside_a_passing_log_fails_with_its_reason(
    cli: Callable[..., CliResult], fresh: Callable[[str], Path]
) -> None:
    report = fresh("pytest/success.junit.xml")
    report.write_bytes(report.read_bytes()[: len(report.read_bytes()) // 2])
    code, verdict = evidence(
        cli, "--claim", "test", "--stack", "python", fresh("pytest/success.log"), "--junit", report
    )
    assert code == 1
    assert str(verdict["reason"]).startswith(f"cannot read {report}: ")


def test_exit_code_1_echoed_after_a_passing_summary_fails_the_claim(
    cli: Callable[..., CliResult], fresh: Callable[[str], Path]
) -> None:
    log = fresh("pytest/success.log")
    lines = log.read_text(encoding="utf-8").count("\n")
    with log.open("a", encoding="utf-8") as handle:
        handle.write("EXIT_CODE=1\n")
    code, verdict = evidence(cli, "--claim", "test", "--stack", "python", log)
    assert (code, verdict["reason"]) == (1, "the command exited 1")
    assert f"{log}: exit code 1 read from the log (line {lines + 1}: EXIT_CODE=1)" in verdict["details"]


@pytest.mark.parametrize(
    ("fixture", "stack"),
    [
        ("go-test/noisy-green.v.log", None),
        ("go-test/noisy-green.v.log", "go"),
        ("go-test/noisy-green.json.log", None),
        ("go-test/noisy-green.json.log", "go"),
        ("cargo-test/noisy-green.nocapture.log", None),
        ("cargo-test/noisy-green.nocapture.log", "rust"),
    ],
)
def test_a_green_run_whose_tests_print_failure_text_holds_the_claim(
    cli: Callable[..., CliResult], fresh: Callable[[str], Path], fixture: str, stack: str | None
) -> None:
    code, verdict = evidence(cli, "--claim", "test", *(["--stack", stack] if stack else []), fresh(fixture))
    assert (code, verdict["ok"]) == (0, True), verdict["reason"]


@pytest.mark.parametrize(
    "fixture",
    [
        "go-test/failure.v.log",
        "go-test/failure.json.log",
        "go-test/load-error.log",
        "go-test/load-error.json.log",
        "cargo-test/failure.log",
        "cargo-test/load-error.log",
    ],
)
def test_real_failing_runs_still_fail_without_a_stack(
    cli: Callable[..., CliResult], fresh: Callable[[str], Path], fixture: str
) -> None:
    code, verdict = evidence(cli, "--claim", "test", fresh(fixture))
    assert (code, verdict["ok"]) == (1, False)


def test_a_tape_comment_that_looks_like_a_go_build_header_does_not_fail_a_green_run(
    tmp_path: Path, cli: Callable[..., CliResult]
) -> None:
    log = tmp_path / "tape.log"
    log.write_text(
        "TAP version 13\n# parse()\nok 1 parses an empty document\nok 2 should be equal\n"
        "\n1..2\n# tests 2\n# pass  2\n\n# ok\n"
    )
    code, verdict = evidence(cli, "--claim", "test", log)
    assert (code, verdict["reason"]) == (0, "2 tests executed, all passed (0 skipped)")


def test_an_exit_code_at_the_end_of_a_huge_single_line_is_still_read(
    cli: Callable[..., CliResult], fresh: Callable[[str], Path]
) -> None:
    log = fresh("pytest/success.log")
    with log.open("a") as handle:
        # No newline before the echo: the code ends a line of 8.5 million characters.
        handle.write("x" * (8 * 1024 * 1024 + 500_000) + "EXIT_CODE=1\n")
    code, verdict = evidence(cli, "--claim", "test", "--stack", "python", log)
    assert code == 1
    assert "exited 1" in str(verdict["reason"])
