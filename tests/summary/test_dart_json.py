"""Dart's JSON event stream beyond the published fixtures: hidden tests, tests never done, `done`
against the tests, several runs, other lines, and streams that cannot be read."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import pytest

from evidence_gate.model import Counts
from evidence_gate.summary.base import CaseResult, Reading
from evidence_gate.summary.parsers import dart_json
from evidence_gate.summary.parsers.dart_json import PARSER

FIXTURES = Path(__file__).parent.parent / "fixtures" / "stack-logs" / "dart-json"
START = {"protocolVersion": "0.1.1", "runnerVersion": "1.25.3", "pid": 1, "type": "start", "time": 0}
SUITE = {"suite": {"id": 0, "platform": "vm", "path": "test/a_test.dart"}, "type": "suite", "time": 0}


def start(ident: int, name: str, line: int | None = 3) -> dict[str, object]:
    test = {"id": ident, "name": name, "suiteID": 0, "groupIDs": [], "line": line, "url": None}
    return {"test": test, "type": "testStart", "time": 1}


def done(ident: int, result: str = "success", *, skipped: bool = False, hidden: bool = False) -> dict[str, object]:
    return {"testID": ident, "result": result, "skipped": skipped, "hidden": hidden, "type": "testDone", "time": 2}


def end(success: bool | None) -> dict[str, object]:
    return {"success": success, "type": "done", "time": 3}


def run(*events: dict[str, object], success: bool | None = True) -> list[dict[str, object]]:
    return [START, SUITE, *events, end(success)]


def read(tmp_path: Path, events: Sequence[object], cases: list[CaseResult] | None = None) -> Reading:
    path = tmp_path / "dart.json"
    lines = [event if isinstance(event, str) else json.dumps(event) for event in events]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return PARSER.parse(path, cases.append if cases is not None else None)


def test_a_passing_hidden_test_is_not_counted_and_a_failing_one_is(tmp_path: Path) -> None:
    cases: list[CaseResult] = []
    events = run(
        start(1, "loading test/a_test.dart", None),
        done(1, hidden=True),
        start(2, "(setUpAll)"),
        {"testID": 2, "error": "setUpAll threw", "isFailure": False, "type": "error", "time": 2},
        done(2, "error", hidden=True),
        success=False,
    )
    reading = read(tmp_path, events, cases)
    assert reading.counts == Counts(passed=0, failed=1, skipped=0)
    assert reading.notes == ("the runner's own test '(setUpAll)' failed: counted as 1 failed test",)
    assert [(case.display_name, case.outcome, case.message) for case in cases] == [
        ("test/a_test.dart::(setUpAll)", "failed", "setUpAll threw")
    ]


def test_a_file_that_fails_to_load_is_a_failed_test(tmp_path: Path) -> None:
    events = run(start(1, "loading test/a_test.dart", None), done(1, "error"), success=False)
    assert read(tmp_path, events).counts == Counts(passed=0, failed=1, skipped=0)


def test_each_result_maps_to_one_outcome(tmp_path: Path) -> None:
    cases: list[CaseResult] = []
    events = run(
        start(1, "passes"),
        done(1),
        start(2, "fails", 7),
        done(2, "failure"),
        start(3, "throws"),
        done(3, "error"),
        start(4, "is skipped"),
        done(4, skipped=True),
        success=False,
    )
    assert read(tmp_path, events, cases).counts == Counts(passed=1, failed=2, skipped=1)
    assert [(case.name, case.outcome, case.line, case.file) for case in cases][:2] == [
        ("passes", "passed", 3, "test/a_test.dart"),
        ("fails", "failed", 7, "test/a_test.dart"),
    ]


def test_a_test_started_but_never_done_is_failed(tmp_path: Path) -> None:
    reading = read(tmp_path, run(start(1, "passes"), done(1), start(2, "hangs"), success=False))
    assert reading.counts == Counts(passed=1, failed=1, skipped=0)
    assert reading.notes == ("1 tests started but never done; each counted as failed",)


def test_done_without_success_and_no_failed_test_counts_one(tmp_path: Path) -> None:
    reading = read(tmp_path, run(start(1, "passes"), done(1), success=False))
    assert reading.counts == Counts(passed=1, failed=1, skipped=0)


def test_done_with_success_null_is_unparsed(tmp_path: Path) -> None:
    reading = read(tmp_path, run(start(1, "passes"), done(1), success=None))
    assert reading.counts is None
    assert reading.reason == 'line 5: `done` with `"success": null`: the runner closed before every test ran'


def test_a_stream_without_done_is_unparsed_as_cut_short() -> None:
    reading = PARSER.parse(FIXTURES / "dorny-flutter-provider.json")
    assert reading.counts is None
    assert reading.reason == "no `done` event: the stream was cut short (a killed run or a truncated file)"


def test_several_runs_add_up_and_other_lines_are_noted(tmp_path: Path) -> None:
    events: list[object] = [
        *run(start(1, "a"), done(1)),
        "Observatory listening on http://127.0.0.1:1234",
        '[{"event":"test.startedProcess","params":{}}]',
        *run(start(1, "b"), done(1, "failure"), success=False),
    ]
    reading = read(tmp_path, events)
    assert reading.counts == Counts(passed=1, failed=1, skipped=0)
    assert reading.notes == (
        "2 runs added up",
        "2 lines that are not JSON events skipped (first: line 6: Observatory listening on http://127.0.0.1:1234)",
    )


@pytest.mark.parametrize(
    ("events", "reason"),
    [
        ([START, START], "line 2: a run starts before the previous one's `done` event"),
        ([SUITE, end(True)], "line 1: a `suite` event outside a run"),
        (run(start(1, "a"), done(1, "exploded")), "line 4: a test's `result` is 'exploded'"),
        (run(start(1, "a"), done(1, None)), "a test's `result` is None"),  # type: ignore[arg-type]  # a null result, on purpose
        (run({"test": {"name": "no id"}, "type": "testStart"}), "line 3: a `testStart` event without a test id"),
        (run({"testID": "1", "result": "success", "type": "testDone"}), "a `testDone` event without a test id"),
        (run({"testID": True, "result": "success", "type": "testDone"}), "a `testDone` event without a test id"),
        ([], "no `start` event"),
        (["not json", "{still not json"], "no `start` event"),
    ],
)
def test_a_malformed_stream_is_unparsed_with_the_reason(tmp_path: Path, events: Sequence[object], reason: str) -> None:
    reading = read(tmp_path, events)
    assert reading.counts is None
    assert reading.reason is not None and reason in reading.reason


def test_a_line_past_the_limit_is_unparsed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(dart_json, "_MAX_LINE_BYTES", 1_000)
    events = run({"testID": 1, "messageType": "print", "message": "x" * 5_000, "type": "print"})
    reading = read(tmp_path, events)
    assert reading.counts is None
    assert reading.reason == "line 3 is longer than 0 MiB"


def test_too_many_tests_running_at_once_is_unparsed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(dart_json, "_MAX_RUNNING", 3)
    reading = read(tmp_path, run(*(start(ident, f"t{ident}") for ident in range(5))))
    assert reading.reason == "line 6: more than 3 tests running at once"


def test_recognises_the_start_event_on_the_first_line_only() -> None:
    assert PARSER.recognises((FIXTURES / "dorny-dart.json").read_bytes()[:65536])
    assert PARSER.recognises(b'\n  {"type":"start","protocolVersion":"0.1.1"}\n')  # keys in another order
    assert not PARSER.recognises(b'some output\n{"protocolVersion":"0.1.1","type":"start"}\n')
    assert not PARSER.recognises(b'{"Time":"2024-01-01T00:00:00Z","Action":"start","Package":"x"}\n')
