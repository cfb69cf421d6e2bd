"""`evidence-gate summary` as users run it: files, stdin, several sources, exit codes."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from evidence_gate.verbs.xcresult_bundle import summarise_bundle

from .conftest import CliResult

LOGS = Path(__file__).parent / "fixtures" / "stack-logs"


def test_a_mixed_run_reads_its_counts_into_the_documented_document(cli: Callable[..., CliResult]) -> None:
    result = cli("summary", LOGS / "pytest" / "mixed.log", "--json")
    assert result.code == 1
    document = json.loads(result.out)
    assert {key: document[key] for key in ("executed", "passed", "failed", "skipped", "parser", "status")} == {
        "executed": 7,
        "passed": 4,
        "failed": 3,
        "skipped": 3,
        "parser": "pytest",
        "status": "failed",
    }
    assert document["source"].endswith("mixed.log")


@pytest.mark.parametrize(
    ("fixture", "code"),
    [("pytest/success.log", 0), ("pytest/failure.log", 1), ("pytest/zero-tests.log", 3), ("go-test/success.log", 4)],
)
def test_exit_codes_follow_the_status(cli: Callable[..., CliResult], fixture: str, code: int) -> None:
    assert cli("summary", LOGS / fixture).code == code


def test_a_file_is_read_whatever_its_name_says(tmp_path: Path, cli: Callable[..., CliResult]) -> None:
    disguised = tmp_path / "report.xml"
    shutil.copy(LOGS / "pytest" / "success.log", disguised)
    assert json.loads(cli("summary", disguised, "--json").out)["parser"] == "pytest"


def test_stdin_is_read_with_a_dash() -> None:
    log = (LOGS / "go-test" / "mixed.json.log").read_bytes()
    result = subprocess.run(
        [sys.executable, "-m", "evidence_gate", "summary", "-", "--json"], input=log, capture_output=True, check=False
    )
    document = json.loads(result.stdout)
    assert (document["parser"], document["source"], result.returncode) == ("go-test-json", "-", 1)


def test_several_sources_add_up_and_are_listed(cli: Callable[..., CliResult]) -> None:
    reports = sorted((LOGS / "maven").glob("success.*.junit.xml"))
    args = [arg for report in reports for arg in ("--junit", report)]
    document = json.loads(cli("summary", *args, "--json").out)
    assert (document["executed"], document["passed"], document["status"]) == (8, 8, "passed")
    assert len(document["sources"]) == 4


def test_one_unreadable_source_makes_the_total_unparsed(tmp_path: Path, cli: Callable[..., CliResult]) -> None:
    empty = tmp_path / "empty.log"
    empty.write_bytes(b"")
    result = cli("summary", LOGS / "pytest" / "success.log", empty, "--json")
    document = json.loads(result.out)
    assert (result.code, document["status"], document["executed"]) == (4, "unparsed", None)
    assert document["reason"] == f"{empty}: empty input"


def test_a_stack_narrows_the_parsers(cli: Callable[..., CliResult]) -> None:
    result = cli("summary", LOGS / "pytest" / "success.log", "--stack", "go", "--json")
    document = json.loads(result.out)
    assert (result.code, document["status"]) == (4, "unparsed")
    assert document["reason"] == "no parser recognised this output (tried: go-test-json, go-test, junit)"


def test_a_misspelt_stack_or_parser_is_a_usage_error(cli: Callable[..., CliResult]) -> None:
    stack = cli("summary", LOGS / "pytest" / "success.log", "--stack", "pyton")
    parser = cli("summary", LOGS / "pytest" / "success.log", "--parser", "pytset")
    assert (stack.code, parser.code) == (2, 2)
    assert stack.err.startswith("evidence-gate: error: unknown stack 'pyton'")
    assert parser.err.startswith("evidence-gate: error: --parser: unknown parser 'pytset'")


def test_no_input_is_a_usage_error(cli: Callable[..., CliResult]) -> None:
    result = cli("summary")
    assert (result.code, result.err) == (
        2,
        "evidence-gate: error: summary: give at least one input (a file, '-' for standard input, --junit or"
        " --xcresult)\n",
    )


def test_an_xcresult_bundle_without_xcrun_is_unparsed_with_the_reason(
    tmp_path: Path, cli: Callable[..., CliResult]
) -> None:
    if shutil.which("xcrun"):
        pytest.skip("this machine has xcrun")
    bundle = tmp_path / "Tests.xcresult"
    bundle.mkdir()
    result = cli("summary", "--xcresult", bundle, "--json")
    assert result.code == 4
    assert "xcresulttool is not available on this machine" in json.loads(result.out)["reason"]


def _fake_xcrun(tmp_path: Path, script: str) -> dict[str, str]:
    """A PATH whose `xcrun` is a script: what `xcrun xcresulttool` prints on a Mac, played back."""
    tools = tmp_path / "bin"
    tools.mkdir()
    xcrun = tools / "xcrun"
    xcrun.write_text("#!/bin/sh\n" + script, encoding="utf-8")
    xcrun.chmod(0o755)
    return {"PATH": f"{tools}:/usr/bin:/bin"}


def test_an_xcresult_bundle_is_read_through_xcresulttool_when_the_machine_has_it(tmp_path: Path) -> None:
    captured = LOGS / "xcresult" / "failure.summary.json"
    environ = _fake_xcrun(tmp_path, f'[ "$1 $2 $3" = "xcresulttool get test-results" ] && cat "{captured}"\n')
    bundle = tmp_path / "Tests.xcresult"
    bundle.mkdir()
    summary = summarise_bundle(bundle, environ)
    assert (summary.parser, summary.source) == ("xcresult", str(bundle))
    assert summary.counts is not None and summary.counts.failed > 0


def test_xcresulttool_failing_is_unparsed_with_its_first_words(tmp_path: Path) -> None:
    environ = _fake_xcrun(tmp_path, "echo 'Error: the bundle is from a newer Xcode' >&2\nexit 65\n")
    bundle = tmp_path / "Tests.xcresult"
    bundle.mkdir()
    summary = summarise_bundle(bundle, environ)
    assert summary.counts is None
    assert summary.reason == "xcresulttool exited 65: Error: the bundle is from a newer Xcode"


def test_xcresult_json_captured_on_a_mac_is_read(cli: Callable[..., CliResult]) -> None:
    result = cli("summary", "--xcresult-json", LOGS / "xcresult" / "failure.summary.json", "--json")
    assert (result.code, json.loads(result.out)["parser"]) == (1, "xcresult")


def test_text_output_is_one_line_per_source(cli: Callable[..., CliResult]) -> None:
    result = cli("summary", LOGS / "cargo-test" / "success.log")
    assert result.out.startswith("passed: ")
    assert "(cargo-test)" in result.out


HOSTILE_REPORTS = {
    "external-file-entity": b'<?xml version="1.0"?><!DOCTYPE t [<!ENTITY x SYSTEM "file:///etc/passwd">]>'
    b'<testsuite><testcase name="&x;"/></testsuite>',
    "external-http-entity": b'<?xml version="1.0"?><!DOCTYPE t [<!ENTITY x SYSTEM "http://127.0.0.1:9/">]>'
    b'<testsuite><testcase name="&x;"/></testsuite>',
    "entity-bomb": b'<?xml version="1.0"?><!DOCTYPE b [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;">'
    b'<!ENTITY c "&b;&b;&b;&b;&b;&b;">]><testsuite><testcase name="&c;"/></testsuite>',
    "truncated": b'<?xml version="1.0"?><testsuite tests="2"><testcase name="a"/><testca',
    "invalid-utf8": b'<?xml version="1.0" encoding="UTF-8"?><testsuite><testcase name="\xff\xfe"/></testsuite>',
    "empty": b"",
    "binary": bytes(range(256)) * 4,
}


@pytest.mark.parametrize("kind", sorted(HOSTILE_REPORTS))
@pytest.mark.parametrize("as_junit", [True, False], ids=["--junit", "file"])
def test_hostile_or_broken_input_is_unparsed_with_exit_4(
    tmp_path: Path, cli: Callable[..., CliResult], kind: str, as_junit: bool
) -> None:
    path = tmp_path / "report.xml"
    path.write_bytes(HOSTILE_REPORTS[kind])
    result = cli("summary", *(["--junit", path] if as_junit else [path]), "--json")
    document = json.loads(result.out)
    assert (result.code, document["status"]) == (4, "unparsed")
    assert document["reason"]
    assert "root:" not in result.out  # nothing of /etc/passwd came through an entity


def test_a_log_and_the_junit_report_of_the_same_run_are_counted_once(cli: Callable[..., CliResult]) -> None:
    result = cli("summary", LOGS / "pytest" / "success.log", "--junit", LOGS / "pytest" / "success.junit.xml", "--json")
    document = json.loads(result.out)
    assert (result.code, document["executed"], document["parser"]) == (0, 7, "junit")
    assert (
        "the log and the reports describe one run: 7 executed, 0 failed, 0 skipped, counted once" in document["notes"]
    )


@pytest.mark.parametrize("as_junit", [True, False], ids=["--junit", "file"])
def test_a_utf16_report_with_a_failure_fails(tmp_path: Path, cli: Callable[..., CliResult], as_junit: bool) -> None:
    path = tmp_path / "report.xml"
    report = '<?xml version="1.0" encoding="UTF-16"?><testsuite><testcase name="a"><failure/></testcase></testsuite>'
    path.write_bytes(report.encode("utf-16"))
    result = cli("summary", *(["--junit", path] if as_junit else [path]), "--json")
    assert (result.code, json.loads(result.out)["failed"]) == (1, 1)


def test_checks_tap_log_beside_its_console_log_is_counted_once(cli: Callable[..., CliResult]) -> None:
    check = LOGS / "check"
    document = json.loads(cli("summary", check / "mixed.files.log", check / "mixed.tap.log", "--json").out)
    assert (document["executed"], document["failed"]) == (11, 6)
    counted_once = "the log and the reports describe one run: 11 executed, 6 failed, 0 skipped, counted once"
    assert counted_once in document["notes"]


def test_checks_tap_log_of_its_last_runner_only_does_not_outvote_the_console(cli: Callable[..., CliResult]) -> None:
    # Each Check runner opens the TAP file anew: it holds the second of two runners' tests.
    check = LOGS / "check"
    document = json.loads(cli("summary", check / "runners.files.log", check / "runners.tap.log", "--json").out)
    assert (document["executed"], document["failed"], document["parser"]) == (6, 2, "check")


def test_cmockas_junit_file_beside_a_console_log_of_the_binary_is_counted_once(cli: Callable[..., CliResult]) -> None:
    cmocka = LOGS / "cmocka"
    result = cli("summary", cmocka / "mixed.log", "--junit", cmocka / "mixed.junit.xml", "--json")
    document = json.loads(result.out)
    # test_mul's failed teardown and its passed body are two test cases of one test, which failed
    assert (result.code, document["executed"], document["failed"], document["skipped"]) == (1, 5, 4, 1)


@pytest.mark.parametrize("case", ["load-error", "partial-load"])
def test_a_suite_that_failed_to_load_is_not_covered_by_a_report_that_leaves_it_out(
    cli: Callable[..., CliResult], case: str
) -> None:
    # jest-junit writes no test case for a suite that failed to load: read alone, its report passes.
    jest = LOGS / "jest"
    result = cli("summary", jest / f"{case}.log", "--junit", jest / f"{case}.junit.xml", "--json")
    document = json.loads(result.out)
    assert (result.code, document["status"], document["parser"]) == (1, "failed", "jest")
    assert "the log counts more failures: its counts stand" in document["notes"]
    assert any("failed to load before their tests ran" in note for note in document["notes"])


def test_a_log_that_prints_no_count_by_design_is_covered_by_its_report(cli: Callable[..., CliResult]) -> None:
    gradle = LOGS / "gradle"
    reports = [argument for report in sorted(gradle.glob("success.*.junit.xml")) for argument in ("--junit", report)]
    result = cli("summary", gradle / "success.log", *reports, "--json")
    document = json.loads(result.out)
    assert (result.code, document["status"]) == (0, "passed")


def test_the_document_lists_the_failed_tests_the_log_names(cli: Callable[..., CliResult]) -> None:
    document = json.loads(cli("summary", LOGS / "go-test" / "mixed.v.log", "--json").out)
    assert document["failed_tests"] == ["TestSub", "TestDiv", "TestDiv/by-zero", "TestCrash", "ExampleLower"]


def test_a_log_beside_its_report_names_the_failed_tests_the_log_printed(cli: Callable[..., CliResult]) -> None:
    result = cli(
        "summary", LOGS / "cargo-test" / "mixed.log", "--junit", LOGS / "cargo-test" / "mixed.junit.xml", "--json"
    )
    document = json.loads(result.out)
    assert (document["parser"], document["failed_tests"]) == (
        "junit",
        ["api_div_by_one_panics", "api_div_rounding", "api_parse"],
    )
