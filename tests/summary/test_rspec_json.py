"""RSpec's JSON formatter beyond the fixtures' counts: errors outside of examples, the summary against
the examples, names, and reports that cannot be read."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from evidence_gate.model import Counts
from evidence_gate.summary.base import CaseResult, Reading
from evidence_gate.summary.parsers.rspec_json import PARSER

FIXTURES = Path(__file__).parent.parent / "fixtures" / "stack-logs" / "rspec-json"


def example(status: str, description: str = "works", **more: object) -> dict[str, object]:
    return {
        "id": "./spec/a_spec.rb[1:1]",
        "description": description,
        "full_description": f"Thing {description}",
        "status": status,
        "file_path": "./spec/a_spec.rb",
        "line_number": 3,
        **more,
    }


def report(*examples: object, **summary: object) -> dict[str, object]:
    counted = {"example_count": len(examples), "failure_count": 0, "pending_count": 0}
    return {
        "version": "3.13.0",
        "examples": list(examples),
        "summary": {**counted, "errors_outside_of_examples_count": 0, **summary},
        "summary_line": "",
    }


def read(tmp_path: Path, document: object, cases: list[CaseResult] | None = None) -> Reading:
    path = tmp_path / "rspec.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    return PARSER.parse(path, cases.append if cases is not None else None)


def test_a_load_error_outside_of_examples_is_a_failed_test_with_its_message_noted() -> None:
    reading = PARSER.parse(FIXTURES / "load-error.json")
    assert reading.counts == Counts(passed=0, failed=1, skipped=0)
    assert reading.notes[0].startswith(
        "errors outside of examples: 1, each counted as 1 failed test: "
        "An error occurred while loading ./spec/b_broken_spec.rb."
    )


def test_a_hook_error_after_passing_examples_fails_the_reading() -> None:
    reading = PARSER.parse(FIXTURES / "hook-error.json")
    assert reading.counts == Counts(passed=2, failed=1, skipped=0)
    assert "An error occurred in an `after(:context)` hook." in reading.notes[0]


def test_the_mixed_fixture_names_each_example() -> None:
    cases: list[CaseResult] = []
    PARSER.parse(FIXTURES / "mixed.json", cases.append)
    fixed = next(case for case in cases if case.name == "is pending but already fixed")
    assert (fixed.classname, fixed.outcome, fixed.file, fixed.line) == ("Mixed", "failed", "./spec/mixed_spec.rb", 33)
    assert fixed.message == "Expected example to fail since it is pending, but it passed."
    broken = next(case for case in cases if case.name == "is pending and still broken")
    assert broken.outcome == "skipped"
    assert [case.outcome for case in cases].count("passed") == 2


def test_a_failure_count_beyond_the_examples_counts(tmp_path: Path) -> None:
    reading = read(tmp_path, report(example("passed"), failure_count=2))
    assert reading.counts == Counts(passed=1, failed=2, skipped=0)
    assert "`summary.failure_count` is 2 but the examples show 0; the examples were counted" in reading.notes


def test_more_examples_than_declared_are_noted_and_counted(tmp_path: Path) -> None:
    reading = read(tmp_path, report(example("passed"), example("pending", "later"), example_count=1, pending_count=1))
    assert reading.counts == Counts(passed=1, failed=0, skipped=1)
    assert reading.notes == ("`summary.example_count` is 1 but the examples show 2; the examples were counted",)


@pytest.mark.parametrize(
    ("document", "reason"),
    [
        (report(example("flaky")), "has an unknown status 'flaky'"),
        (report({"description": "x"}), "the example 'x' has no `status`"),
        (report(failure_count="0"), "`summary.failure_count` is not a count of tests ('0')"),
        (report(errors_outside_of_examples_count=10**12), "`summary.errors_outside_of_examples_count` is not a count"),
        (report(pending_count=None), "`summary.pending_count` is not a count of tests (None)"),
        ({"version": "3.13.0", "examples": []}, "no `summary`"),
        ({"version": "3.13.0", "summary": {}}, "no `examples`"),
        ({"version": "3.13.0", "examples": {}, "summary": {}}, "`examples` is not an array"),
        ({"version": "3.13.0", "examples": [], "summary": 0}, "`summary` is not an object"),
        (report(7), "an `examples` entry is not an object"),
    ],
)
def test_a_malformed_report_is_unparsed_with_the_reason(tmp_path: Path, document: object, reason: str) -> None:
    reading = read(tmp_path, document)
    assert reading.counts is None
    assert reading.reason is not None and reason in reading.reason


def test_recognises_rspec_and_not_other_versioned_json() -> None:
    assert PARSER.recognises((FIXTURES / "load-error.json").read_bytes()[:65536])
    assert not PARSER.recognises(b'{"version": 2, "examples": []}')
    assert not PARSER.recognises(b'{"name": "pkg", "version": "1.0.0", "examples": []}')
    assert not PARSER.recognises(b'{"version": "1.0.0", "dependencies": {}}')
