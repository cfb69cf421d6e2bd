"""What every JSON report parser (jest, mocha, RSpec, Dart) does with hostile or broken input:
a reading without counts and a one-line reason, never a traceback, never a pass; and what each
recognises, so that none takes another format's file (xcresult JSON, `go test -json` logs, coverage
JSON, JUnit XML) and none of those takes theirs."""

from __future__ import annotations

import json
import os
import tracemalloc
from pathlib import Path

import pytest

from evidence_gate.coverage.registry import coverage_format
from evidence_gate.facts import find_reports
from evidence_gate.summary.json_stream import MAX_DEPTH
from evidence_gate.summary.read import read_source
from evidence_gate.summary.registry import DOCUMENT_PARSERS, document_format, document_parser
from evidence_gate.workspace import Workspace

FIXTURES = Path(__file__).parent.parent / "fixtures"
STACK_LOGS = FIXTURES / "stack-logs"
JSON_PARSERS = ("jest-json", "mocha-json", "rspec-json", "dart-json")

# The smallest real-looking start of each format, enough to be recognised.
HEADS = {
    "jest-json": b'{"numFailedTestSuites":0,"numFailedTests":0,"numPassedTests":1,"numTotalTests":1,"testResults":[',
    "mocha-json": b'{\n  "stats": {\n    "tests": 1,\n    "passes": 1\n  },\n  "tests": [',
    "rspec-json": b'{"version":"3.13.0","examples":[',
    "dart-json": b'{"protocolVersion":"0.1.1","runnerVersion":"1.25.3","pid":1,"type":"start","time":0}\n',
}


def unparsed(parser: str, path: Path) -> str:
    reading = document_parser(parser).parse(path)
    assert reading.counts is None, reading
    assert reading.reason
    assert "\n" not in reading.reason
    assert len(reading.reason) < 500
    return reading.reason


def test_the_json_parsers_are_registered_as_documents() -> None:
    for name in JSON_PARSERS:
        assert name in DOCUMENT_PARSERS
        assert document_parser(name).names_cases


@pytest.mark.parametrize("parser", JSON_PARSERS)
def test_each_recognises_its_own_start_and_no_other(parser: str) -> None:
    for name, head in HEADS.items():
        assert document_parser(parser).recognises(head) == (name == parser), name
    assert document_format(HEADS[parser]) == parser


def _files(*patterns: str) -> list[Path]:
    return sorted(path for pattern in patterns for path in FIXTURES.glob(pattern) if path.name != "expected.json")


OTHER_FORMATS = _files(
    "stack-logs/xcresult/*.json",
    "stack-logs/go-test/*.log",
    "stack-logs/junit/*",
    "stack-logs/*/*.junit.xml",
    "stack-logs/node-test/*.log",
    "coverage/**/*.json",
    "ledgers/*.json",
)


def test_the_fixtures_the_parametrized_tests_read_are_there() -> None:
    """The parametrized tests over OTHER_FORMATS and OWN read nothing if their globs match nothing."""
    assert OTHER_FORMATS, f"no fixture of another format under {FIXTURES}"
    assert {path.relative_to(FIXTURES).parts[0] for path in OTHER_FORMATS} == {"stack-logs", "coverage", "ledgers"}
    assert {path.parent.name for path in OWN} == set(JSON_PARSERS)


@pytest.mark.parametrize("path", OTHER_FORMATS, ids=[str(path.relative_to(FIXTURES)) for path in OTHER_FORMATS])
def test_no_other_fixture_is_taken_by_a_json_report_parser(path: Path) -> None:
    head = path.read_bytes()[:65536]
    for parser in JSON_PARSERS:
        assert not document_parser(parser).recognises(head), parser


OWN = _files(*(f"stack-logs/{parser}/*.json" for parser in JSON_PARSERS))


@pytest.mark.parametrize("path", OWN, ids=[str(path.relative_to(STACK_LOGS)) for path in OWN])
def test_no_coverage_reader_or_other_document_parser_takes_a_json_report(path: Path) -> None:
    head = path.read_bytes()[:65536]
    assert coverage_format(head) is None
    assert document_format(head) == path.parent.name


def write(tmp_path: Path, content: bytes, name: str = "report.json") -> Path:
    path = tmp_path / name
    path.write_bytes(content)
    return path


@pytest.mark.parametrize("parser", JSON_PARSERS)
def test_a_truncated_report_is_unparsed(tmp_path: Path, parser: str) -> None:
    whole = next((STACK_LOGS / parser).glob("*.json")).read_bytes()
    for cut in (len(whole) // 3, len(whole) - 2):
        reason = unparsed(parser, write(tmp_path, whole[:cut]))
        assert "JSON" in reason or "done" in reason


@pytest.mark.parametrize("parser", JSON_PARSERS)
@pytest.mark.parametrize(
    "content",
    [b"", b"   \n", b"\x89PNG\r\n\x1a\n\xff\xfe\xfd", b"[1, 2, 3]", b"null", b'"just a string"', b"{}"],
    ids=["empty", "blank", "binary", "array", "null", "string", "empty-object"],
)
def test_junk_is_unparsed(tmp_path: Path, parser: str, content: bytes) -> None:
    unparsed(parser, write(tmp_path, content))


@pytest.mark.parametrize("parser", ["jest-json", "mocha-json", "rspec-json"])
def test_nesting_past_the_limit_is_unparsed_in_bounded_time(tmp_path: Path, parser: str) -> None:
    deep = HEADS[parser] + b'{"x":' * 200_000 + b"1" + b"}" * 200_000 + b"]}"
    assert f"nested deeper than {MAX_DEPTH} levels" in unparsed(parser, write(tmp_path, deep))


def test_nesting_in_a_dart_event_is_a_line_it_cannot_read(tmp_path: Path) -> None:
    deep = HEADS["dart-json"] + b'{"type":"print","x":' + b"[" * 100_000 + b"]" * 100_000 + b"}\n"
    assert "no `done` event" in unparsed("dart-json", write(tmp_path, deep))


@pytest.mark.parametrize("parser", JSON_PARSERS)
def test_nan_infinity_and_trailing_garbage_are_not_json(tmp_path: Path, parser: str) -> None:
    report = next((STACK_LOGS / parser).glob("*.json")).read_bytes()
    for bad in (b"NaN", b"Infinity", b"-Infinity"):
        if parser == "dart-json":
            broken = report.replace(b'"time":0}', b'"time":' + bad + b"}", 1)
            # the start event no longer parses, so every later event is outside a run
            unparsed(parser, write(tmp_path, broken))
        else:
            broken = report.rstrip()[:-1] + b', "extra": ' + bad + b"}"
            assert "not valid JSON" in unparsed(parser, write(tmp_path, broken))
    if parser != "dart-json":
        assert "trailing garbage" in unparsed(parser, write(tmp_path, report + b"{}"))


@pytest.mark.parametrize("parser", ["jest-json", "mocha-json", "rspec-json"])
@pytest.mark.parametrize("before", [0, 256 * 1024 - 2_000], ids=["first-read", "across-two-reads"])
def test_a_number_of_more_digits_than_python_reads_is_unparsed(tmp_path: Path, parser: str, before: int) -> None:
    """ijson's C backend leaves such a number's value a null pointer; where the number spans two of
    its 256 KiB reads, reading that value crashed the interpreter. Refused before yajl sees it."""
    padding = b'"padding": "' + b"x" * before + b'", '
    report = HEADS[parser].split(b"{", 1)[1]
    huge = b"{" + padding + b'"huge": ' + b"7" * 5_000 + b", " + report
    assert "a number of more than 4,300 digits" in unparsed(parser, write(tmp_path, huge))
    exponent = b"{" + padding + b'"huge": 1e' + b"9" * 30 + b", " + report
    assert "exponent is out of range" in unparsed(parser, write(tmp_path, exponent))


@pytest.mark.parametrize("parser", JSON_PARSERS)
def test_a_fifo_behind_a_symlink_is_refused_unread(tmp_path: Path, parser: str) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    link = tmp_path / "report.json"
    link.symlink_to(fifo)
    assert "not a regular file" in unparsed(parser, link)


@pytest.mark.parametrize("parser", JSON_PARSERS)
def test_a_report_symlinked_out_of_the_workspace_is_refused_before_it_is_read(tmp_path: Path, parser: str) -> None:
    outside, workspace = tmp_path / "outside", tmp_path / "workspace"
    outside.mkdir()
    workspace.mkdir()
    secret = outside / "report.json"
    secret.write_bytes(next((STACK_LOGS / parser).glob("*.json")).read_bytes())
    (workspace / "report.json").symlink_to(secret)
    reports = find_reports(Workspace.at(workspace), workspace, ["*.json"], may_leave=False)
    assert reports.documents == ()
    assert len(reports.refused) == 1
    assert "symlink leading outside the workspace" in reports.refused[0]


@pytest.mark.parametrize("parser", JSON_PARSERS)
def test_a_report_in_utf16_is_refused_with_the_reason(tmp_path: Path, parser: str) -> None:
    report = next((STACK_LOGS / parser).glob("*.json")).read_text(encoding="utf-8")
    path = write(tmp_path, report.encode("utf-16"))
    summary = read_source(path, [parser])
    assert summary.counts is None
    assert summary.reason == "cannot read report.json: UTF-16"


def test_a_utf8_byte_order_mark_is_read_past(tmp_path: Path) -> None:
    for parser in JSON_PARSERS:
        report = next((STACK_LOGS / parser).glob("success.json"), None) or STACK_LOGS / parser / "dorny-dart.json"
        path = write(tmp_path, b"\xef\xbb\xbf" + report.read_bytes())
        assert document_format(path.read_bytes()[:65536]) == parser
        assert document_parser(parser).parse(path).counts == document_parser(parser).parse(report).counts


def test_a_large_jest_report_is_read_in_bounded_memory(tmp_path: Path) -> None:
    """10,000 failed tests with a 2 KB failure message each, some 21 MB of JSON: what the reader keeps
    is one test's fields and the current file's names (messages clipped), a fraction of the file."""
    message = json.dumps("x" * 2_000)
    test = (
        '{"ancestorTitles":["group"],"failureMessages":[' + message + '],"fullName":"group t",'
        '"status":"failed","title":"t","failing":false}'
    )
    files, per_file = 10, 1_000
    body = ",".join(
        '{"assertionResults":[' + ",".join([test] * per_file) + f'],"name":"/src/f{index}.test.js","status":"failed"}}'
        for index in range(files)
    )
    total = files * per_file
    document = (
        f'{{"numFailedTestSuites":{files},"numFailedTests":{total},"numTotalTests":{total},'
        f'"success":false,"testResults":[{body}]}}'
    )
    path = write(tmp_path, document.encode())
    named: list[int] = []
    tracemalloc.start()
    try:
        reading = document_parser("jest-json").parse(path, lambda case: named.append(len(case.message or "")))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert reading.counts is not None
    assert reading.counts.failed == total
    assert len(named) == total
    assert max(named) < 300  # clipped
    assert path.stat().st_size > 20_000_000
    assert peak < 4 * 1024 * 1024, peak


def test_the_action_sorts_each_json_report_as_a_document_of_its_format(tmp_path: Path) -> None:
    for parser in JSON_PARSERS:
        reports = [report for report in (STACK_LOGS / parser).glob("*.json") if report.name != "expected.json"]
        assert reports, f"no JSON report under {STACK_LOGS / parser}"
        for report in reports:
            (tmp_path / f"{parser}-{report.name}").write_bytes(report.read_bytes())
    found = find_reports(Workspace.at(tmp_path), tmp_path, ["*.json"], may_leave=False)
    assert found.logs == ()
    assert found.coverage == ()
    assert {path.name: kind for path, kind in found.documents} == {
        path.name: path.name.split("-json-")[0] + "-json" for path in tmp_path.iterdir()
    }
