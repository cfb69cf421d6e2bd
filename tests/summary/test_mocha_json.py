"""mocha's json reporter beyond the fixtures' counts: failing hooks, the declared totals against the
lists, names, and reports that cannot be read."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from evidence_gate.model import Counts
from evidence_gate.summary.base import CaseResult, Reading
from evidence_gate.summary.parsers.mocha_json import PARSER

FIXTURES = Path(__file__).parent.parent / "fixtures" / "stack-logs" / "mocha-json"


def entry(title: str, suite: str = "suite", message: str | None = None) -> dict[str, object]:
    err: dict[str, object] = {"message": message, "stack": f"Error: {message}"} if message else {}
    return {"title": title, "fullTitle": f"{suite} {title}", "file": "/src/test/a.spec.js", "err": err}


def report(passed: list[object], failed: list[object], pending: list[object], **stats: object) -> dict[str, object]:
    declared = {"tests": len(passed) + len(failed) + len(pending), "passes": len(passed)}
    return {
        "stats": {**declared, "pending": len(pending), "failures": len(failed), **stats},
        "tests": [*passed, *failed, *pending],
        "pending": pending,
        "failures": failed,
        "passes": passed,
    }


def read(tmp_path: Path, document: object, cases: list[CaseResult] | None = None) -> Reading:
    path = tmp_path / "report.json"
    path.write_text(json.dumps(document, indent=2), encoding="utf-8")
    return PARSER.parse(path, cases.append if cases is not None else None)


def test_a_failing_hook_counts_as_a_failed_test_and_is_named() -> None:
    cases: list[CaseResult] = []
    reading = PARSER.parse(FIXTURES / "mixed.json", cases.append)
    assert reading.counts == Counts(passed=3, failed=3, skipped=2)
    assert reading.notes == ("failing hooks among the failures: 1, each counted as 1 failed test",)
    hook = next(case for case in cases if "hook" in case.name)
    assert hook.display_name == 'with a broken hook::"before all" hook for "never runs because the hook failed"'
    assert hook.outcome == "failed"
    assert hook.message == "setup failed"


def test_each_list_gives_its_outcome_once_per_test(tmp_path: Path) -> None:
    cases: list[CaseResult] = []
    document = report([entry("ok")], [entry("bad", message="boom")], [entry("later")])
    assert read(tmp_path, document, cases).counts == Counts(passed=1, failed=1, skipped=1)
    assert [(case.display_name, case.outcome, case.message) for case in cases] == [
        ("suite::later", "skipped", None),
        ("suite::bad", "failed", "boom"),
        ("suite::ok", "passed", None),
    ]
    assert cases[0].file == "/src/test/a.spec.js"


def test_declared_failures_beyond_the_list_count(tmp_path: Path) -> None:
    reading = read(tmp_path, report([entry("ok")], [], [], failures=2))
    assert reading.counts == Counts(passed=1, failed=2, skipped=0)
    assert "`stats.failures` is 2 but the report lists 0; the list was counted" in reading.notes
    assert "`stats.failures` declares 2 failures the report does not list; counted as failed" in reading.notes


def test_a_tests_list_that_disagrees_is_noted(tmp_path: Path) -> None:
    document = report([entry("ok")], [], [])
    document["tests"] = []
    reading = read(tmp_path, document)
    assert reading.counts == Counts(passed=1, failed=0, skipped=0)
    assert any("`tests` lists 0 tests but passes, pending and failures" in note for note in reading.notes)


@pytest.mark.parametrize(
    ("document", "reason"),
    [
        ({"stats": {"passes": 1}, "tests": [], "passes": [], "failures": []}, "no `pending` list"),
        (report([], [], [], passes="1"), "`stats.passes` is not a count of tests ('1')"),
        (report([], [], [], failures=-3), "`stats.failures` is not a count of tests (-3)"),
        (report([], [], [], tests=2**70), "`stats.tests` is not a count of tests"),
        ({**report([], [], []), "failures": {"a": 1}}, "`failures` is not an array"),
        (report(["a string"], [], []), "a `passes` entry is not an object"),
        ({**report([], [], []), "stats": [1]}, "`stats` is not an object"),
    ],
)
def test_a_malformed_report_is_unparsed_with_the_reason(tmp_path: Path, document: object, reason: str) -> None:
    reading = read(tmp_path, document)
    assert reading.counts is None
    assert reading.reason is not None and reason in reading.reason


def test_recognises_the_reporter_and_not_mochawesome() -> None:
    assert PARSER.recognises((FIXTURES / "zero-tests.json").read_bytes())
    mochawesome = b'{\n  "stats": {\n    "suites": 1,\n    "tests": 1,\n    "passes": 1\n  },\n  "results": ['
    assert not PARSER.recognises(mochawesome)
    assert not PARSER.recognises(b'{"tests": [], "stats": {"passes": 1}}')
