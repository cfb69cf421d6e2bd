"""jest's summary beyond the captured fixtures: live status blocks on a terminal, several runs,
`--silent`, failed suites reprinted or unmarked, interrupted runs."""

from __future__ import annotations

from evidence_gate.model import Counts
from evidence_gate.summary.base import Reading
from evidence_gate.summary.parsers.jest import JestParser


def read(text: str) -> Reading | None:
    parser = JestParser()
    for line in text.splitlines():
        parser.feed(line)
    return parser.finish()


def block(suites: str, tests: str) -> str:
    return f"Test Suites: {suites}\nTests:       {tests}\nSnapshots:   0 total\nTime:        1 s\n"


def test_on_a_terminal_only_the_last_block_of_a_run_counts() -> None:
    reading = read(
        "Determining test suites to run...\n"
        " RUNS  ./a.test.js\n"
        + block("0 of 2 total", "0 total")
        + "PASS ./a.test.js\n RUNS  ./b.test.js\n"
        + block("1 passed, 1 of 2 total", "3 passed, 3 total")
        + "PASS ./b.test.js\n\n"
        + block("2 passed, 2 total", "5 passed, 5 total")
        + "Ran all test suites.\n"
    )
    assert reading is not None
    assert reading.counts == Counts(passed=5, failed=0, skipped=0)


def test_runs_add_up_and_silent_runs_need_no_closing_sentence() -> None:
    reading = read(
        block("1 passed, 1 total", "2 passed, 2 total") + block("1 failed, 1 total", "1 failed, 1 todo, 1 total")
    )
    assert reading is not None
    assert reading.counts == Counts(passed=2, failed=1, skipped=1)
    assert "2 jest runs added up" in reading.notes


def test_a_suite_that_failed_to_run_beside_others_is_one_failed_and_its_reprint_is_not_counted_again() -> None:
    reading = read(
        "FAIL ./broken.test.js\n  ● Test suite failed to run\n\n    SyntaxError: x\n"
        "Summary of all failing tests\nFAIL ./broken.test.js\n  ● Test suite failed to run\n\n"
        + block("1 failed, 20 passed, 21 total", "40 passed, 40 total")
        + "Ran all test suites.\n"
    )
    assert reading is not None
    assert reading.counts == Counts(passed=40, failed=1, skipped=0)
    assert reading.failed_tests == ("./broken.test.js",)
    assert reading.notes == (
        "1 test suite(s) failed to load before their tests ran (or failed outside them), each counted as 1 failed "
        "test: ./broken.test.js: SyntaxError: x",
    )


def test_two_suites_that_failed_to_run_beside_a_failed_test_are_each_one_failed_and_named() -> None:
    reading = read(
        "FAIL ./a.test.js\n  ● Test suite failed to run\n\n    Cannot find module './gone' from 'a.test.js'\n\n"
        "FAIL ./b.test.js\n  ● Test suite failed to run\n\n    boom\n\n"
        "FAIL ./c.test.js\n  ● adds\n\n    expect(received).toBe(expected)\n\n"
        + block("3 failed, 1 passed, 4 total", "1 failed, 5 passed, 6 total")
        + "Ran all test suites.\n"
    )
    assert reading is not None
    assert reading.counts == Counts(passed=5, failed=3, skipped=0)
    assert reading.failed_tests == ("adds", "./a.test.js", "./b.test.js")
    assert reading.notes[-1] == (
        "2 test suite(s) failed to load before their tests ran (or failed outside them), each counted as 1 failed "
        "test: ./a.test.js: Cannot find module './gone' from 'a.test.js' (and 1 more)"
    )


def test_a_suite_whose_module_is_missing_is_unparsed_with_the_error() -> None:
    reading = read(
        "FAIL ./missing.test.js\n  ● Test suite failed to run\n\n"
        "    Cannot find module './no-such-module' from 'missing.test.js'\n\n"
        + block("1 failed, 1 total", "0 total")
        + "Ran all test suites.\n"
    )
    assert reading is not None
    assert reading.counts is None
    assert reading.reason == (
        "a test suite failed to load before its tests ran (or failed outside them): ./missing.test.js: "
        "Cannot find module './no-such-module' from 'missing.test.js'"
    )


def test_failed_suites_the_failed_tests_cannot_explain_count_as_failed() -> None:
    reading = read(block("2 failed, 2 total", "1 failed, 3 passed, 4 total"))
    assert reading is not None
    assert reading.counts == Counts(passed=3, failed=2, skipped=0)


def test_failed_suites_in_a_run_where_no_test_ran_are_unparsed() -> None:
    reading = read(block("3 failed, 3 total", "0 total"))
    assert reading is not None
    assert reading.counts is None
    assert reading.reason == "3 test suite(s) failed and no test ran: the suites failed before their tests ran"


def test_an_interrupted_green_run_is_unparsed_and_a_red_one_stays_failed() -> None:
    green = read(block("1 passed, 1 of 4 total", "3 passed, 3 total") + "Test run was interrupted.\n")
    assert green is not None
    assert green.counts is None
    assert green.reason
    red = read(block("1 failed, 1 of 4 total", "1 failed, 3 total") + "Test run was interrupted.\n")
    assert red is not None
    assert red.counts == Counts(passed=0, failed=1, skipped=0)


def test_a_tests_line_without_its_suites_line_is_not_jest() -> None:
    assert read("Tests:       3 passed, 3 total\n") is None


def test_console_blocks_are_not_failed_tests() -> None:
    reading = read(
        "FAIL ./a.test.js\n"
        "  ● Console\n"
        "\n"
        "    console.log\n"
        "      hello\n"
        "\n"
        "  ● maths \u203a adds\n"
        "\n"
        "    expect(received).toBe(expected)\n"
        "\n" + block("1 failed, 1 total", "1 failed, 1 total")
    )
    assert reading is not None
    assert reading.failed_tests == ("maths \u203a adds",)
