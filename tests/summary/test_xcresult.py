"""xcresulttool JSON beyond the fixtures: recognition, malformed and inconsistent documents,
per-device sums, legacy records without top-level metrics or with a failed status."""

from __future__ import annotations

import json
from pathlib import Path

from evidence_gate.model import Counts
from evidence_gate.summary.base import DocumentParser
from evidence_gate.summary.parsers.xcresult import PARSER

FIXTURES = Path(__file__).parent.parent / "fixtures" / "stack-logs"


def write(tmp_path: Path, document: object) -> Path:
    path = tmp_path / "result.json"
    path.write_text(json.dumps(document, indent=2), encoding="utf-8")
    return path


def wrapped(value: int) -> dict[str, object]:
    return {"_type": {"_name": "Int"}, "_value": str(value)}


def legacy(metrics: dict[str, object], status: str = "succeeded", *, top_level: bool = True) -> dict[str, object]:
    action_metrics: dict[str, object] = {"_type": {"_name": "ResultMetrics"}, **metrics}
    document: dict[str, object] = {
        "_type": {"_name": "ActionsInvocationRecord"},
        "actions": {
            "_type": {"_name": "Array"},
            "_values": [
                {
                    "_type": {"_name": "ActionRecord"},
                    "actionResult": {
                        "_type": {"_name": "ActionResult"},
                        "metrics": action_metrics,
                        "status": {"_type": {"_name": "String"}, "_value": status},
                    },
                }
            ],
        },
    }
    if top_level:
        document["metrics"] = action_metrics
    return document


def test_is_a_document_parser_instance() -> None:
    assert isinstance(PARSER, DocumentParser)


def test_recognises_both_shapes_and_nothing_else() -> None:
    for name in ("mixed.summary.json", "zero-tests.summary.json", "mixed.legacy.json"):
        assert PARSER.recognises((FIXTURES / "xcresult" / name).read_bytes()[:65536]), name
    assert not PARSER.recognises(b'{"numPassedTests": 3, "numFailedTests": 0}')
    assert not PARSER.recognises(b'<?xml version="1.0"?><testsuites/>')
    assert not PARSER.recognises(b'passedTests failedTests "passedTests" "failedTests"')


def test_malformed_json_is_unparsed_with_the_reason(tmp_path: Path) -> None:
    path = tmp_path / "cut.json"
    path.write_text('{\n  "failedTests" : 2,\n  "passedTests" : ', encoding="utf-8")
    reading = PARSER.parse(path)
    assert reading.counts is None
    assert reading.reason and "not valid JSON" in reading.reason


def test_json_of_another_shape_is_unparsed(tmp_path: Path) -> None:
    for document in ([1, 2], {"numPassedTests": 3}, {"passedTests": "5", "failedTests": 0, "skippedTests": 0}):
        reading = PARSER.parse(write(tmp_path, document))
        assert reading.counts is None, document
        assert reading.reason


def test_a_total_that_disagrees_with_its_parts_is_unparsed(tmp_path: Path) -> None:
    document = {"passedTests": 5, "failedTests": 0, "skippedTests": 0, "expectedFailures": 0, "totalTestCount": 6}
    reading = PARSER.parse(write(tmp_path, document))
    assert reading.counts is None
    assert reading.reason and "totalTestCount" in reading.reason


def test_without_top_level_counts_the_devices_add_up(tmp_path: Path) -> None:
    device = {"passedTests": 2, "failedTests": 1, "skippedTests": 0, "expectedFailures": 1}
    document = {"result": "Failed", "devicesAndConfigurations": [device, device], "totalTestCount": 8}
    reading = PARSER.parse(write(tmp_path, document))
    assert reading.counts == Counts(passed=4, failed=2, skipped=2)


def test_a_failed_result_without_a_failed_test_is_one_error(tmp_path: Path) -> None:
    document = {"result": "Failed", "passedTests": 3, "failedTests": 0, "skippedTests": 0, "expectedFailures": 0}
    reading = PARSER.parse(write(tmp_path, document))
    assert reading.counts == Counts(passed=3, failed=1, skipped=0)


def test_legacy_without_top_level_metrics_adds_the_actions(tmp_path: Path) -> None:
    document = legacy({"testsCount": wrapped(4), "testsSkippedCount": wrapped(1)}, top_level=False)
    reading = PARSER.parse(write(tmp_path, document))
    assert reading.counts == Counts(passed=3, failed=0, skipped=1)


def test_legacy_failed_status_without_a_failed_test_is_one_error(tmp_path: Path) -> None:
    reading = PARSER.parse(write(tmp_path, legacy({}, status="failed")))
    assert reading.counts == Counts(passed=0, failed=1, skipped=0)


def test_legacy_counts_that_are_not_numbers_are_unparsed(tmp_path: Path) -> None:
    document = legacy({"testsCount": {"_type": {"_name": "Int"}, "_value": "many"}})
    reading = PARSER.parse(write(tmp_path, document))
    assert reading.counts is None
    assert reading.reason and "testsCount" in reading.reason
