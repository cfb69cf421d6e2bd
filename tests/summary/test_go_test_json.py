"""`go test -json` beyond the captured fixtures: Go 1.24's build events, packages that fail
without a failing test, truncated streams, and JSON that is not test2json's."""

from __future__ import annotations

import json

from evidence_gate.model import Counts
from evidence_gate.summary.base import Reading
from evidence_gate.summary.parsers.go_test_json import GoTestJsonParser
from tests.summary.memory import memory_kept


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


def test_go_1_24_build_failure_events_count_the_package_as_one_failed_with_the_first_error() -> None:
    reading = read(
        '{"ImportPath":"example.com/fx/a [example.com/fx/a.test]","Action":"build-output",'
        '"Output":"# example.com/fx/a\\n"}',
        '{"ImportPath":"example.com/fx/a [example.com/fx/a.test]","Action":"build-output",'
        '"Output":"a/a_test.go:3:2: undefined: nope\\n"}',
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
    assert reading.failed_tests == ("example.com/fx/a [build failed]",)
    assert reading.notes == (
        "the build failed before the tests of 1 package(s) ran: example.com/fx/a [build failed]: "
        "a/a_test.go:3:2: undefined: nope; each is counted as 1 failed test beside the tests the other packages ran",
    )


def test_a_setup_failure_names_the_package_not_the_missing_import_its_build_fail_event_names() -> None:
    reading = read(
        '{"ImportPath":"example.com/fx/missing","Action":"build-output","Output":"# example.com/fx/needs\\n"}',
        '{"ImportPath":"example.com/fx/missing","Action":"build-output",'
        '"Output":"needs/needs_test.go:6:2: no required module provides package example.com/fx/missing\\n"}',
        '{"ImportPath":"example.com/fx/missing","Action":"build-fail"}',
        event("start", "example.com/fx/needs"),
        event("output", "example.com/fx/needs", Output="FAIL\texample.com/fx/needs [setup failed]\n"),
        event("fail", "example.com/fx/needs", Elapsed=0, FailedBuild="example.com/fx/missing"),
        event("run", "example.com/fx/b", "TestB"),
        event("pass", "example.com/fx/b", "TestB"),
        event("pass", "example.com/fx/b"),
    )
    assert reading is not None
    assert reading.counts == Counts(passed=1, failed=1, skipped=0)
    assert reading.failed_tests == ("example.com/fx/needs [setup failed]",)
    assert reading.notes[0].startswith(
        "the build failed before the tests of 1 package(s) ran: example.com/fx/needs [setup failed]: "
        "needs/needs_test.go:6:2: no required module provides package example.com/fx/missing;"
    )


def test_a_run_where_every_package_failed_to_build_is_unparsed() -> None:
    reading = read(
        '{"ImportPath":"example.com/fx/a [example.com/fx/a.test]","Action":"build-fail"}',
        event("start", "example.com/fx/a"),
        event("output", "example.com/fx/a", Output="FAIL\texample.com/fx/a [build failed]\n"),
        event("fail", "example.com/fx/a", Elapsed=0, FailedBuild="example.com/fx/a [example.com/fx/a.test]"),
    )
    assert reading is not None
    assert reading.counts is None
    assert reading.reason == "the build failed before any test ran: example.com/fx/a [build failed]"


def test_a_package_failing_without_a_failed_test_event_is_one_error_and_is_not_counted_twice() -> None:
    reading = read(
        event("run", "example.com/fx/slow", "TestSlow"),
        event("output", "example.com/fx/slow", "TestSlow", Output="panic: test timed out after 1s\n"),
        event("fail", "example.com/fx/slow"),
        event("run", "example.com/fx/ok", "TestOk"),
        event("fail", "example.com/fx/ok", "TestOk"),
        event("fail", "example.com/fx/ok"),
    )
    assert reading is not None
    assert reading.counts == Counts(passed=0, failed=2, skipped=0)


def test_a_plain_build_failure_line_in_the_stream_is_one_more_failed() -> None:
    reading = read(
        "FAIL\texample.com/fx/gone [build failed]",
        event("run", "example.com/fx/ok", "TestOk"),
        event("fail", "example.com/fx/ok", "TestOk"),
        event("fail", "example.com/fx/ok"),
    )
    assert reading is not None
    assert reading.counts == Counts(passed=0, failed=2, skipped=0)
    assert reading.failed_tests == ("TestOk", "example.com/fx/gone [build failed]")


def test_a_result_event_nested_100000_deep_is_unparsed_not_a_traceback() -> None:
    nested = "[" * 100_000 + "]" * 100_000
    reading = read(
        event("pass", "example.com/fx/a", "TestA"),
        '{"Action":"pass","Package":"example.com/fx/a","Test":' + nested + "}",
        event("pass", "example.com/fx/a"),
    )
    assert reading is not None
    assert reading.counts is None
    assert reading.reason and "not valid JSON" in reading.reason


def test_a_test_printing_deeply_nested_brackets_is_read_as_its_output() -> None:
    reading = read(
        event("run", "example.com/fx/a", "TestA"),
        event("output", "example.com/fx/a", "TestA", Output="[" * 100_000 + "\n"),
        event("pass", "example.com/fx/a", "TestA"),
        event("pass", "example.com/fx/a"),
    )
    assert reading is not None
    assert reading.counts == Counts(passed=1, failed=0, skipped=0)


def test_many_one_megabyte_package_names_keep_the_parser_small() -> None:
    lines = [
        event(action, f"{number:02d}" + "p" * 1_000_000, test)
        for number in range(20)
        for action, test in (("pass", "TestA"), ("pass", None))
    ]
    parser = GoTestJsonParser()
    assert memory_kept(parser, lines) < 1_000_000
    reading = parser.finish()
    assert reading is not None
    assert reading.counts == Counts(passed=20, failed=0, skipped=0)


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


def test_a_build_failed_package_output_is_one_failed_without_the_failed_build_field() -> None:
    reading = read(
        "# example.com/fx/a [example.com/fx/a.test]",
        "a/a_test.go:3:2: undefined: nope",
        event("start", "example.com/fx/a"),
        event("output", "example.com/fx/a", Output="FAIL\texample.com/fx/a [build failed]\n"),
        event("fail", "example.com/fx/a", Elapsed=0),
        event("run", "example.com/fx/b", "TestB"),
        event("pass", "example.com/fx/b", "TestB"),
        event("pass", "example.com/fx/b"),
    )
    assert reading is not None
    assert reading.counts == Counts(passed=1, failed=1, skipped=0)
    assert reading.failed_tests == ("example.com/fx/a [build failed]",)
    assert reading.notes[0].startswith(
        "the build failed before the tests of 1 package(s) ran: example.com/fx/a [build failed]: "
        "a/a_test.go:3:2: undefined: nope;"
    )


def test_a_test_printing_a_build_failure_line_is_its_output() -> None:
    reading = read(
        event("run", "example.com/fx/a", "TestA"),
        event("output", "example.com/fx/a", "TestA", Output="FAIL\texample.com/fx/z [build failed]\n"),
        event("pass", "example.com/fx/a", "TestA"),
        event("pass", "example.com/fx/a"),
    )
    assert reading is not None
    assert reading.counts == Counts(passed=1, failed=0, skipped=0)


def test_a_build_fail_event_alone_is_one_failed_package() -> None:
    reading = read(
        '{"ImportPath":"example.com/fx/a.test","Action":"build-output","Output":"# example.com/fx/a\\n"}',
        '{"ImportPath":"example.com/fx/a.test","Action":"build-fail"}',
        event("run", "example.com/fx/b", "TestB"),
        event("pass", "example.com/fx/b", "TestB"),
        event("pass", "example.com/fx/b"),
    )
    assert reading is not None
    assert reading.counts == Counts(passed=1, failed=1, skipped=0)
    assert reading.failed_tests == ("example.com/fx/a.test [build failed]",)
