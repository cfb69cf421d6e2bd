"""`go test -json` beyond the captured Go 1.19 fixtures: Go 1.24's build events, packages that fail
without a failing test, truncated streams, and JSON that is not test2json's."""

from __future__ import annotations

import json

from evidence_gate.model import Counts
from evidence_gate.summary.base import Reading
from evidence_gate.summary.parsers.go_test_json import GoTestJsonParser


def event(action: str, package: str | None = None, test: str | None = None, **extra: object) -> str:
    fields: dict[str, object] = {"Time": "2026-01-01T00:00:00Z", "Action": action}
    if package:
        fields["Package"] = package
    if test:
        fields["Test"] = test
    fields.update(extra)
    return json.dumps(fields, separators=(",", ":"))


def read(*lines: str) -> Reading | None:
    parser = GoTestJsonParser()
    for line in lines:
        parser.feed(line)
    return parser.finish()


def test_go_1_24_build_failure_events_count_one_failed() -> None:
    reading = read(
        '{"ImportPath":"example.com/fx/a [example.com/fx/a.test]","Action":"build-output","Output":"# oops\\n"}',
        '{"ImportPath":"example.com/fx/a [example.com/fx/a.test]","Action":"build-fail"}',
        event("start", "example.com/fx/a"),
        event("output", "example.com/fx/a", Output="FAIL\texample.com/fx/a [build failed]\n"),
        event("fail", "example.com/fx/a", Elapsed=0, FailedBuild="example.com/fx/a [example.com/fx/a.test]"),
        event("run", "example.com/fx/b", "TestB"),
        event("pass", "example.com/fx/b", "TestB"),
        event("pass", "example.com/fx/b"),
    )
    assert reading is not None
    assert reading.counts == Counts(passed=1, failed=1, skipped=0)


def test_a_package_failing_without_a_failed_test_event_is_one_error_and_is_not_counted_twice() -> None:
    reading = read(
        event("run", "example.com/fx/slow", "TestSlow"),
        event("output", "example.com/fx/slow", "TestSlow", Output="panic: test timed out after 1s\n"),
        event("fail", "example.com/fx/slow"),
        "FAIL\texample.com/fx/gone [build failed]",
        event("run", "example.com/fx/ok", "TestOk"),
        event("fail", "example.com/fx/ok", "TestOk"),
        event("fail", "example.com/fx/ok"),
    )
    assert reading is not None
    assert reading.counts == Counts(passed=0, failed=3, skipped=0)


def test_a_stream_cut_before_a_package_result_is_unparsed() -> None:
    reading = read(
        event("run", "example.com/fx/a", "TestA"),
        event("pass", "example.com/fx/a", "TestA"),
        event("run", "example.com/fx/a", "TestB"),
    )
    assert reading is not None
    assert reading.counts is None
    assert reading.reason and "example.com/fx/a" in reading.reason


def test_a_package_without_test_files_is_not_a_skipped_test() -> None:
    reading = read(event("skip", "example.com/fx/none"), event("output", "example.com/fx/none", Output="?\n"))
    assert reading is not None
    assert reading.counts == Counts(passed=0, failed=0, skipped=0)


def test_a_broken_result_event_makes_the_reading_unparsed() -> None:
    reading = read(event("pass", "example.com/fx/a"), '{"Action":"pass","Package":"example.com/fx/a","Test":')
    assert reading is not None
    assert reading.counts is None


def test_json_that_is_not_test2json_is_not_claimed() -> None:
    assert read('{"numPassedTests": 3, "numFailedTests": 0, "success": true}') is None
    assert read('{ "type": "suite", "event": "ok", "passed": 2, "failed": 0 }') is None
    assert read("=== RUN   TestA\n--- PASS: TestA (0.00s)\nok  \texample.com/fx/a\t0.01s") is None
