"""`cargo test` beyond the captured fixtures: closing lines of other libtest versions, benchmarks,
a test binary that crashes, truncated logs, compile errors, and other runners' output."""

from __future__ import annotations

from evidence_gate.model import Counts
from evidence_gate.summary.base import Reading
from evidence_gate.summary.parsers.cargo_test import CargoTestParser
from evidence_gate.summary.terminal import clean_line


def read(text: str) -> Reading | None:
    parser = CargoTestParser()
    for line in text.splitlines():
        parser.feed(line)
    return parser.finish()


def test_closing_lines_with_every_part_and_without_filtered_out_add_up() -> None:
    reading = read(
        "running 4 tests\n"
        "test result: FAILED. 1 passed; 1 failed; 1 ignored; 2 measured; 7 filtered out; finished in 0.01s\n"
        "running 2 tests\n"
        "test result: ok. 2 passed; 0 failed; 0 ignored; 0 measured\n"
    )
    assert reading is not None
    assert reading.counts == Counts(passed=5, failed=1, skipped=1)


def test_a_binary_that_crashes_counts_its_printed_results_and_one_failed() -> None:
    reading = read(
        "     Running unittests src/lib.rs (target/debug/deps/fx-0123)\n"
        "running 3 tests\n"
        "test a ... ok\n"
        "test c ... ignored\n"
        "error: test failed, to rerun pass `--lib`\n"
        "\n"
        "Caused by:\n"
        "  process didn't exit successfully: `target/debug/deps/fx-0123` (signal: 11, SIGSEGV)\n"
    )
    assert reading is not None
    assert reading.counts == Counts(passed=1, failed=1, skipped=1)
    assert any("stopped before" in note for note in reading.notes)


def test_a_log_cut_inside_a_binary_is_unparsed() -> None:
    reading = read(
        "running 1 test\ntest result: ok. 1 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out\n"
        "running 5 tests\ntest a ... ok\n"
    )
    assert reading is not None
    assert reading.counts is None
    assert reading.reason and "ends inside" in reading.reason


def test_terminal_charset_escapes_are_removed_by_the_line_cleaner() -> None:
    line = clean_line("test result: ok\x1b(B. 1 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out\r\n")
    reading = read(f"running 1 test\n{line}\n")
    assert reading is not None
    assert reading.counts == Counts(passed=1, failed=0, skipped=0)


def test_test_targets_that_do_not_compile_are_unparsed_with_the_first_error() -> None:
    reading = read(
        "error[E0425]: cannot find value `x` in this scope\n"
        " --> src/lib.rs:3:5\n"
        "error: could not compile `fx` (lib test) due to 1 previous error\n"
        'error: could not compile `fx` (test "api") due to 1 previous error\n'
    )
    assert reading is not None
    assert reading.counts is None
    assert reading.reason == (
        "the build failed before any test ran: `fx` (lib test) did not compile: "
        "error[E0425]: cannot find value `x` in this scope at src/lib.rs:3:5 (and 1 more target(s))"
    )


def test_a_compile_error_printed_by_a_running_test_is_its_output() -> None:
    reading = read(
        "running 1 test\n"
        "error[E0308]: mismatched types\n"
        "error: could not compile `probe` (lib) due to 1 previous error\n"
        "test probes::rejects_bad_code ... ok\n"
        "\n"
        "test result: ok. 1 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.20s\n"
    )
    assert reading is not None
    assert reading.counts == Counts(passed=1, failed=0, skipped=0)


def test_a_libtest_json_line_nested_100000_deep_is_not_a_traceback() -> None:
    reading = read(
        '{ "type": "suite", "event": "started", "test_count": 1 }\n'
        '{ "type": "test", "name": ' + "[" * 100_000 + "]" * 100_000 + " }\n"
        '{ "type": "suite", "event": "ok", "passed": 1, "failed": 0, "ignored": 0, "measured": 0 }\n'
    )
    assert reading is not None
    assert reading.counts == Counts(passed=1, failed=0, skipped=0)


def test_a_plain_cargo_build_failure_is_not_a_test_run() -> None:
    assert read("error: could not compile `fx` (lib) due to 2 previous errors\n") is None


def test_other_runners_output_is_not_cargo() -> None:
    assert read("=== RUN   TestA\n--- PASS: TestA (0.00s)\nok  \texample.com/fx/a\t0.01s\n") is None
    assert read("ok 1 - test result\n1..1\n") is None
    assert read("test session starts\ntests/test_a.py::test_one PASSED\n") is None


def test_show_output_sections_of_passing_tests_name_no_failed_test() -> None:
    reading = read(
        "running 2 tests\n"
        "test api_add ... ok\n"
        "test api_div ... FAILED\n"
        "\n"
        "successes:\n"
        "\n"
        "---- api_add stdout ----\n"
        "adding\n"
        "\n"
        "successes:\n"
        "    api_add\n"
        "\n"
        "failures:\n"
        "\n"
        "---- api_div stdout ----\n"
        "thread 'api_div' panicked at tests/api.rs:8:5:\n"
        "\n"
        "failures:\n"
        "    api_div\n"
        "\n"
        "test result: FAILED. 1 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s\n"
    )
    assert reading is not None
    assert reading.failed_tests == ("api_div",)


def test_the_terse_format_names_failed_tests_by_their_output_sections() -> None:
    reading = read(
        "running 2 tests\n"
        ".F\n"
        "failures:\n"
        "\n"
        "---- tests::div stdout ----\n"
        "thread 'tests::div' panicked at src/lib.rs:8:5:\n"
        "\n"
        "failures:\n"
        "    tests::div\n"
        "\n"
        "test result: FAILED. 1 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s\n"
    )
    assert reading is not None
    assert reading.failed_tests == ("tests::div",)
