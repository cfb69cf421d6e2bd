"""Checks 1 and 2 judge a tool's located diagnostics: without a baseline the base's debt does not
block and a new diagnostic does; one with no place is new; a failure with nothing counted or
located keeps its verdict; with a baseline, the counts compare as before."""

from __future__ import annotations

import jsonschema

from evidence_gate.gates.type_check import judge_tool
from evidence_gate.ledger.model import GateResult, GateVerdict
from evidence_gate.ledger.payload import read, schema, write
from evidence_gate.ledger.payloads.tools import Diagnostic, Located, ToolData, ToolRun
from evidence_gate.model import ToolRow, ToolStatus

ROW = ToolRow(check=2, tool="linter", status=ToolStatus.DETECTED, command="ruff check .")


def judge_lint(data: ToolData) -> GateResult:
    return judge_tool("lint", "Linter", data, allow_baseline=True)


def judge_type_check(data: ToolData) -> GateResult:
    return judge_tool("type-check", "Type checker", data, allow_baseline=False)


OLD = Diagnostic(where="shop/legacy.py:3", message="F401 `os.path` imported but unused")


def lint(located: Located | None, *, count: int | None, baseline: int | None = None) -> ToolData:
    run = ToolRun(
        command="ruff check .", source="ran", exit_code=1, output="…", count=count, first_error="F401", located=located
    )
    return ToolData(row=ROW, runs=(run,), baseline_count=baseline, counted="warnings")


def test_only_the_bases_warnings_pass_without_a_baseline() -> None:
    result = judge_lint(lint(Located(pre_existing=60, new=0, unlocated=0, pre_existing_shown=(OLD,)), count=60))
    assert result.verdict is GateVerdict.PASS
    assert result.headline.startswith("exit code 1: 60 pre-existing, 0 new")


def test_a_diagnostic_with_no_place_is_new_and_said_so() -> None:
    located = Located(pre_existing=2, new=1, unlocated=1, new_shown=(Diagnostic(where=None, message="warning: x"),))
    result = judge_lint(lint(located, count=3))
    assert result.verdict is GateVerdict.FAIL
    assert result.headline == (
        "exit code 1: 2 pre-existing, 1 new (1 with no file and line, counted as new); first new: warning: x"
    )


def test_a_failure_with_nothing_counted_or_located_still_fails() -> None:
    result = judge_lint(lint(Located(pre_existing=0, new=0, unlocated=0), count=None))
    assert result.verdict is GateVerdict.FAIL
    assert result.headline == "exit code 1: its output could not be counted; no baseline to compare with"


def test_with_a_baseline_the_counts_compare_as_before() -> None:
    located = Located(pre_existing=0, new=2, unlocated=0)
    assert judge_lint(lint(located, count=2, baseline=5)).verdict is GateVerdict.PASS
    assert judge_lint(lint(located, count=6, baseline=5)).verdict is GateVerdict.FAIL


def test_a_type_error_on_an_untouched_line_is_the_bases() -> None:
    data = lint(Located(pre_existing=1, new=0, unlocated=0), count=1)
    assert judge_type_check(data).verdict is GateVerdict.PASS


def test_the_located_diagnostics_round_trip_and_an_older_ledgers_run_reads_without_them() -> None:
    data = lint(Located(pre_existing=60, new=1, unlocated=0, new_shown=(OLD,), pre_existing_shown=(OLD,)), count=61)
    document = write(data)
    jsonschema.validate(document, schema(ToolData))
    assert read(ToolData, document) == data
    runs = document["runs"]
    assert isinstance(runs, list)
    del runs[0]["located"]
    jsonschema.validate(document, schema(ToolData))
    assert read(ToolData, document).located is None


def test_the_report_shows_the_exit_code_once_under_the_output_that_echoed_it() -> None:
    def run(output: str, code: int | None) -> ToolRun:
        return ToolRun(command="smoke", source="ran", exit_code=code, output=output, count=None, first_error=None)

    assert run("0\nEXIT_CODE=0\n", 0).shown_output == "0"
    assert run("EXIT_CODE=0", 0).shown_output == ""
    assert run("0\nEXIT_CODE=1\n", 0).shown_output == "0\nEXIT_CODE=1\n"  # another code: the log's own, kept
    assert run("EXIT_CODE=0\nlater\n", 0).shown_output == "EXIT_CODE=0\nlater\n"
    assert run("0\nEXIT_CODE=0", None).shown_output == "0\nEXIT_CODE=0"
