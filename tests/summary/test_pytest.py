"""pytest's closing line beyond the captured fixtures: every optional part, `-q`, several sessions,
stopped and truncated sessions, and output that only looks like pytest's."""

from __future__ import annotations

from evidence_gate.model import Counts
from evidence_gate.summary.base import Reading
from evidence_gate.summary.parsers.pytest import PytestParser
from evidence_gate.summary.terminal import clean_line


def read(text: str) -> Reading | None:
    parser = PytestParser()
    for line in text.splitlines():
        parser.feed(clean_line(line))
    return parser.finish()


def test_a_closing_line_with_every_part_maps_errors_to_failed_xfail_to_skipped_and_xpass_to_passed() -> None:
    errors = "".join(f"______ ERROR at setup of test_{number} ______\n" for number in range(8))
    reading = read(
        f"{errors}=== 1 failed, 2 passed, 3 skipped, 4 deselected, 5 xfailed, 6 xpassed, 7 warnings, 8 errors "
        "in 75.20s (0:01:15) ==="
    )
    assert reading is not None
    assert reading.counts == Counts(passed=8, failed=9, skipped=8)


def test_the_bare_line_of_pytest_q_is_read() -> None:
    reading = read(
        "..F.\n=== FAILURES ===\nFAILED t.py::test_x - assert 1 == 2\n1 failed, 3 passed, 1 warning in 0.12s"
    )
    assert reading is not None
    assert reading.counts == Counts(passed=3, failed=1, skipped=0)


def test_a_bare_line_with_words_pytest_never_prints_is_not_pytest() -> None:
    assert read("2 files changed in 0.10s") is None
    assert read("3 passed in 2 seconds") is None


def test_a_plugin_part_in_a_padded_line_is_noted_not_counted() -> None:
    reading = read("========= 3 passed, 1 flaky in 0.10s =========")
    assert reading is not None
    assert reading.counts == Counts(passed=3, failed=0, skipped=0)
    assert any("1 flaky" in note for note in reading.notes)


def test_sessions_add_up() -> None:
    reading = read(
        "=== test session starts ===\n=== 2 passed in 0.10s ===\n"
        "=== test session starts ===\n=== 1 failed, 1 skipped in 0.20s ==="
    )
    assert reading is not None
    assert reading.counts == Counts(passed=2, failed=1, skipped=1)
    assert "2 pytest sessions added up" in reading.notes


def test_no_tests_ran_and_collect_only_are_zero() -> None:
    assert read("=== no tests ran in 0.01s ===") == Reading(
        parser="pytest", counts=Counts(passed=0, failed=0, skipped=0)
    )
    collected = read("========== 2 tests collected in 0.83s ==========")
    assert collected is not None
    assert collected.counts == Counts(passed=0, failed=0, skipped=0)
    assert collected.notes


def test_a_session_without_its_closing_line_is_unparsed() -> None:
    reading = read("============ test session starts ============\ncollected 40 items\n\ntest_a.py ....")
    assert reading is not None
    assert reading.counts is None
    assert reading.reason and "closing" in reading.reason


def test_a_second_session_starting_before_the_first_closed_is_unparsed() -> None:
    reading = read("=== test session starts ===\ntest_a.py ..\n=== test session starts ===\n=== 3 passed in 0.10s ===")
    assert reading is not None
    assert reading.counts is None


def test_a_keyboard_interrupt_before_a_green_closing_line_is_unparsed() -> None:
    reading = read(
        "=== test session starts ===\n"
        "!!!!!!!!!!!!!!!!!!!!!!!!!!!!!! KeyboardInterrupt !!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!\n"
        "(to show a full traceback on KeyboardInterrupt use --full-trace)\n"
        "============================== 1 passed in 1.10s ==============================="
    )
    assert reading is not None
    assert reading.counts is None
    assert reading.reason and "KeyboardInterrupt" in reading.reason


def test_a_stopped_session_that_already_failed_keeps_its_counts() -> None:
    reading = read("!!!!!! _pytest.outcomes.Exit: bye !!!!!!\n=== 1 failed, 1 passed in 0.50s ===")
    assert reading is not None
    assert reading.counts == Counts(passed=1, failed=1, skipped=0)
    assert reading.notes


def test_a_closing_looking_line_followed_by_more_of_the_session_is_not_its_closing_line() -> None:
    reading = read(
        "=== test session starts ===\ncollected 41 items\n\ntest_a.py .\n"
        "=============== 40 passed in 1.00s ===============\n.....F"
    )
    assert reading is not None
    assert reading.counts is None
    assert reading.reason and "closing line last" in reading.reason


def test_a_closing_looking_line_printed_by_a_test_is_superseded_by_pytests_own() -> None:
    reading = read(
        "=== test session starts ===\ntest_a.py .\n=== 40 passed in 1.00s ===\n.F                [100%]\n"
        "=== FAILURES ===\n___ test_b ___\nE assert 0\n=== short test summary info ===\n"
        "FAILED test_a.py::test_b - assert 0\n=== 1 failed, 2 passed in 1.20s ===\nEXIT_CODE=1"
    )
    assert reading is not None
    assert reading.counts == Counts(passed=2, failed=1, skipped=0)


def test_errors_not_named_in_an_errors_section_are_unparsed_not_over_counted() -> None:
    reading = read("=== test session starts ===\ntest_a.py .E [100%]\n=== 1 passed, 1 error in 0.10s ===")
    assert reading is not None
    assert reading.counts is None
    assert reading.reason and "teardown" in reading.reason


def test_teardown_errors_of_passed_and_skipped_tests_cannot_be_told_apart() -> None:
    reading = read(
        "=== test session starts ===\n=== ERRORS ===\n____ ERROR at teardown of test_a ____\n"
        "=== short test summary info ===\nERROR t.py::test_a - boom\n=== 1 passed, 1 skipped, 1 error in 0.10s ==="
    )
    assert reading is not None
    assert reading.counts is None


def test_failed_lines_a_test_prints_before_the_short_test_summary_name_no_test() -> None:
    reading = read(
        "============================= test session starts ==============================\n"
        "collected 2 items\n"
        "\n"
        "test_a.py FAILED test_a.py::test_ghost - printed by a test\n"
        ".F                                                              [100%]\n"
        "\n"
        "=================================== FAILURES ===================================\n"
        "___________________________________ test_b ____________________________________\n"
        "FAILED test_a.py::test_ghost - printed by a test\n"
        "=========================== short test summary info ============================\n"
        "FAILED test_a.py::test_b[a b] - assert 1 == 2\n"
        "========================= 1 failed, 1 passed in 0.01s ==========================\n"
    )
    assert reading is not None
    assert reading.counts == Counts(passed=1, failed=1, skipped=0)
    assert reading.failed_tests == ("test_a.py::test_b[a b]",)
