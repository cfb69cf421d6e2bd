"""Reading a console log: redrawn lines, wide encodings, several runners in one log, and bounded
memory on hostile input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from evidence_gate.model import Counts, SummaryStatus
from evidence_gate.summary.read import combine, numbered_lines, read_lines, read_source
from evidence_gate.summary.registry import ALL_PARSERS
from evidence_gate.summary.terminal import MAX_EARLIER_DRAWINGS
from tests.summary.memory import peak_mib

FIXTURES = Path(__file__).parent.parent / "fixtures" / "stack-logs"


def log(tmp_path: Path, content: bytes, name: str = "run.log") -> Path:
    path = tmp_path / name
    path.write_bytes(content)
    return path


def concatenated(tmp_path: Path, *fixtures: str) -> Path:
    return log(tmp_path, b"".join((FIXTURES / fixture).read_bytes() for fixture in fixtures))


def test_a_redrawn_line_reads_as_its_last_drawing_after_those_that_tell_of_a_failure(tmp_path: Path) -> None:
    path = log(
        tmp_path,
        b"first\ncollecting ... \r\x1b[2Kcollected 3 items\r\n"
        b"Tests: 1 failed, 2 total\rTests: 0 failed, 3 total\rTests: 3 passed, 3 total\n\nlast\n",
    )
    assert list(numbered_lines(path)) == [
        (1, "first"),
        (2, "collected 3 items"),
        (3, "Tests: 1 failed, 2 total"),
        (3, "Tests: 0 failed, 3 total"),
        (3, "Tests: 3 passed, 3 total"),
        (4, ""),
        (5, "last"),
    ]


def test_a_log_of_hostile_redraws_keeps_a_bounded_number_of_drawings_per_line(tmp_path: Path) -> None:
    path = log(tmp_path, b"".join(b"fail %d\r" % number for number in range(50_000)) + b"done\n")
    drawings = list(read_lines(path))
    assert len(drawings) == MAX_EARLIER_DRAWINGS + 1
    assert drawings[:2] == ["fail 0", "fail 1"]
    assert drawings[-2:] == ["fail 49999", "done"]


def test_a_failure_drawn_over_by_a_passing_closing_line_still_fails_the_run(tmp_path: Path) -> None:
    failed = b"========= 1 failed, 2 passed in 0.10s ========="
    passed = b"========= 3 passed in 0.10s ========="
    path = log(tmp_path, b"===== test session starts =====\ntest_a.py ..F [100%]\n\n" + failed + b"\r" + passed + b"\n")
    assert "1 failed, 2 passed" in "\n".join(read_lines(path))
    summary = read_source(path, ALL_PARSERS)
    assert summary.status is not SummaryStatus.PASSED
    assert summary.reason and "drawn over" in summary.reason


def test_a_utf16_console_log_with_a_byte_order_mark_is_read(tmp_path: Path) -> None:
    text = (FIXTURES / "pytest" / "failure.log").read_text(encoding="utf-8")
    summary = read_source(log(tmp_path, text.encode("utf-16")), ALL_PARSERS)
    assert (summary.parser, summary.counts) == ("pytest", Counts(passed=3, failed=2, skipped=0))


def test_a_utf16_log_of_nul_characters_is_binary(tmp_path: Path) -> None:
    summary = read_source(log(tmp_path, "ab\x00c".encode("utf-16")), ALL_PARSERS)
    assert summary.counts is None
    assert summary.reason and "binary" in summary.reason


def truth(fixture: str) -> Counts:
    folder, name = fixture.split("/")
    entry = json.loads((FIXTURES / folder / "expected.json").read_text(encoding="utf-8"))[name]
    return Counts(passed=entry["passed"], failed=entry["failed"], skipped=entry["skipped"])


@pytest.mark.parametrize(
    "fixtures",
    [
        ("pytest/failure.log", "jest/failure.log", "go-test/failure.v.log"),
        ("pytest/mixed.log", "rspec/failure.log"),
        ("pytest/success.tty.log", "minitest/failure.log", "mocha/failure.log"),
        ("pytest/mixed.xdist.log", "phpunit/failure.log", "cargo-test/failure.log", "ctest/failure.log"),
    ],
    ids=["pytest-jest-go", "pytest-rspec", "pytest-minitest-mocha", "pytest-phpunit-cargo-ctest"],
)
def test_a_log_holding_several_runners_runs_adds_them_up(tmp_path: Path, fixtures: tuple[str, ...]) -> None:
    summary = read_source(concatenated(tmp_path, *fixtures), ALL_PARSERS)
    expected = Counts(passed=0, failed=0, skipped=0)
    for fixture in fixtures:
        expected = expected + truth(fixture)
    assert summary.counts == expected
    assert set(str(summary.parser).split("+")) == {fixture.split("/")[0] for fixture in fixtures}
    assert summary.notes[0].startswith("runs of several runners added up")


def test_a_runner_that_cannot_be_read_beside_one_that_can_makes_the_log_unparsed(tmp_path: Path) -> None:
    path = log(tmp_path, (FIXTURES / "jest" / "success.log").read_bytes() + b"Ran 40 tests in 1.2s\n")
    summary = read_source(path, ALL_PARSERS)
    assert summary.counts is None
    assert summary.reason and summary.reason.startswith("unittest: ")


def test_nodes_tap_is_one_run_read_by_two_parsers_not_two_runs(tmp_path: Path) -> None:
    summary = read_source(FIXTURES / "node-test" / "failure.log", ALL_PARSERS)
    assert (summary.parser, summary.counts) == ("node-test", Counts(passed=3, failed=2, skipped=0))


def test_failing_tap_beside_a_green_node_run_makes_the_log_unparsed(tmp_path: Path) -> None:
    summary = read_source(concatenated(tmp_path, "node-test/success.log", "tap/failure.log"), ALL_PARSERS)
    assert summary.counts is None
    assert summary.reason and "cannot be told apart" in summary.reason


def test_a_long_single_line_log_and_megabyte_test_names_are_read_in_flat_memory(tmp_path: Path) -> None:
    small = log(tmp_path, b"=== test session starts ===\n=== 1 failed in 0.10s ===\n", "small.log")
    name = b"n" * (1024 * 1024)
    failures = b"".join(b"FAILED t.py::" + name + str(i).encode() + b" - boom\n" for i in range(20))
    huge = log(
        tmp_path,
        b"x" * (48 * 1024 * 1024) + b"\n=== test session starts ===\n" + failures + b"=== 20 failed in 1.00s ===\n",
        "huge.log",
    )
    small_status, small_peak = peak_mib(small)
    huge_status, huge_peak = peak_mib(huge)
    assert (small_status, huge_status) == ("failed", "failed")
    assert huge_peak < small_peak + 64, (small_peak, huge_peak)


def test_a_utf16_report_that_no_reader_streams_is_unparsed_with_the_reason(tmp_path: Path) -> None:
    path = log(tmp_path, '{"actions": {"_values": []}}'.encode("utf-16"), "report.json")
    summary = read_source(path, ["xcresult"])
    assert (summary.counts, summary.reason) == (None, "cannot read report.json: UTF-16")


def test_a_green_unittest_run_beside_pytests_is_taken_as_pytests_and_said(tmp_path: Path) -> None:
    summary = read_source(concatenated(tmp_path, "pytest/failure.log", "unittest/success.log"), ALL_PARSERS)
    assert (summary.parser, summary.counts) == ("pytest", Counts(passed=3, failed=2, skipped=0))
    assert any(note.startswith("unittest also read this log") for note in summary.notes)


def test_a_unittest_run_with_failures_beside_a_green_pytest_run_makes_the_log_unparsed(tmp_path: Path) -> None:
    summary = read_source(concatenated(tmp_path, "pytest/success.log", "unittest/failure.log"), ALL_PARSERS)
    assert summary.counts is None
    assert summary.reason and summary.reason.startswith("unittest reads 1 failed tests")


def test_a_log_naming_more_than_a_thousand_failed_tests_lists_the_first_thousand_clipped(tmp_path: Path) -> None:
    names = ["Test" + "x" * 5000, *(f"Test{number}" for number in range(1, 1500))]
    lines = "".join(f"=== RUN   {name}\n--- FAIL: {name} (0.00s)\n" for name in names)
    summary = read_source(log(tmp_path, f"{lines}FAIL\nFAIL\texample.com/fx/a\t0.01s\n".encode()), ALL_PARSERS)
    assert summary.counts == Counts(passed=0, failed=1500, skipped=0)
    assert len(summary.failed_tests) == 1000
    assert summary.failed_tests[0] == f"Test{'x' * 196}… (4,804 more characters)"
    assert summary.failed_tests[-1] == "Test999"


def test_shards_that_name_one_failed_test_list_it_once(tmp_path: Path) -> None:
    shards = [read_source(FIXTURES / "pytest" / "failure.log", ALL_PARSERS) for _ in range(2)]
    assert combine(shards).failed_tests == ("test_calc.py::test_add_wrong", "test_calc.py::test_add_raises")


def test_a_count_of_thousands_of_digits_is_unparsed_with_the_reason(tmp_path: Path) -> None:
    """int() refuses more than 4,300 digits; no runner prints such a count, and the log says why."""
    log = tmp_path / "rspec.log"
    log.write_text(
        "Finished in 0.1 seconds (files took 0.2 seconds to load)\n" + "1" * 5_000 + " examples, 0 failures\n"
    )
    summary = read_source(log, ALL_PARSERS)
    assert summary.counts is None
    assert summary.reason is not None and "a count in the log cannot be read" in summary.reason
    assert "\n" not in summary.reason
