"""cmocka beyond the captured fixtures: googletest's look-alike output, newer cmocka's group names,
groups cut off or contradicting themselves, huge counts, interleaved junk."""

from __future__ import annotations

from pathlib import Path

import pytest

from evidence_gate.model import Counts
from evidence_gate.summary.base import Reading
from evidence_gate.summary.parsers.cmocka import CmockaParser
from evidence_gate.summary.read import UNRECOGNISED, read_source
from evidence_gate.summary.registry import ALL_PARSERS

FIXTURES = Path(__file__).parent.parent / "fixtures"
GOOGLETEST = ("mixed.log", "mixed.tty.log", "success.log")


def read(text: str) -> Reading | None:
    parser = CmockaParser()
    for line in text.splitlines():
        parser.feed(line)
    return parser.finish()


GROUP = (
    "[==========] Running 4 test(s).\n"
    "[ RUN      ] test_a\n"
    "[       OK ] test_a\n"
    "[ RUN      ] test_b\n"
    "[  ERROR   ] --- 0x3 != 0x4\n"
    "[   LINE   ] --- t.c:12: error: Failure!\n"
    "[  FAILED  ] test_b\n"
    "[ RUN      ] test_c\n"
    "[  SKIPPED ] test_c\n"
    "[ RUN      ] test_d\n"
    "Could not run test: Test setup failed\n"
    "[  ERROR   ] test_d\n"
    "[==========] 4 test(s) run.\n"
    "[  PASSED  ] 1 test(s).\n"
    "[  SKIPPED ] 1 test(s), listed below:\n"
    "[  SKIPPED ] test_c\n"
    "\n"
    " 1 SKIPPED TEST(S)\n"
    "[  FAILED  ] 1 test(s), listed below:\n"
    "[  FAILED  ] test_b\n"
    "\n"
    " 2 FAILED TEST(S)\n"
)


def test_errors_are_failed_though_no_closing_line_lists_them() -> None:
    reading = read(GROUP)
    assert reading is not None
    assert reading.counts == Counts(passed=1, failed=2, skipped=1)
    assert reading.failed_tests == ("test_b", "test_d")


@pytest.mark.parametrize("name", GOOGLETEST)
def test_googletest_output_is_left_unrecognised(name: str) -> None:
    assert read((FIXTURES / "googletest" / name).read_text(encoding="utf-8")) is None
    summary = read_source(FIXTURES / "googletest" / name, ALL_PARSERS)
    assert summary.counts is None
    assert summary.reason is not None and summary.reason.startswith(UNRECOGNISED)


def test_googletest_after_a_cmocka_group_adds_nothing_to_it() -> None:
    googletest = (FIXTURES / "googletest" / "mixed.log").read_text(encoding="utf-8")
    reading = read(GROUP + googletest)
    assert reading is not None
    assert reading.counts == Counts(passed=1, failed=2, skipped=1)
    assert reading.failed_tests == ("test_b", "test_d")


def test_newer_cmocka_names_its_groups() -> None:
    reading = read(
        "[==========] tests: Running 2 test(s).\n"
        "[ RUN      ] test_a\n[       OK ] test_a\n[ RUN      ] test_b\n[       OK ] test_b\n"
        "[==========] tests: 2 test(s) run.\n[  PASSED  ] 2 test(s).\n"
    )
    assert reading is not None
    assert reading.counts == Counts(passed=2, failed=0, skipped=0)


def test_a_group_cut_before_its_closing_lines_is_unparsed() -> None:
    reading = read(GROUP + "[==========] storage: Running 2 test(s).\n[ RUN      ] test_x\n")
    assert reading is not None
    assert reading.counts is None
    assert reading.reason == (
        "the output ends inside `storage` before its `test(s) run.` closing line (last test started: test_x): "
        "the test binary crashed or was killed"
    )


def test_a_group_cut_and_followed_by_another_binary_is_unparsed() -> None:
    reading = read("[==========] Running 2 test(s).\n[ RUN      ] test_x\n" + GROUP)
    assert reading is not None
    assert reading.counts is None


def test_a_log_cut_after_the_run_line_is_unparsed() -> None:
    reading = read("[==========] Running 1 test(s).\n[ RUN      ] a\n[       OK ] a\n[==========] 1 test(s) run.\n")
    assert reading is not None
    assert reading.counts is None
    assert reading.reason == "a cmocka group closes without its `[  PASSED  ]` line (a truncated log?)"


@pytest.mark.parametrize(
    "closing",
    [
        "[==========] 4 test(s) run.\n[  PASSED  ] 3 test(s).\n",  # per-test lines show 1 passed
        "[==========] 1 test(s) run.\n[  PASSED  ] 2 test(s).\n",  # more passed than ran
        "[==========] 9 test(s) run.\n[  PASSED  ] 1 test(s).\n",  # more than announced
        "[==========] 3 test(s) run.\n[  PASSED  ] 1 test(s).\n",  # fewer than announced
    ],
)
def test_closing_lines_that_do_not_add_up_are_unparsed(closing: str) -> None:
    head = GROUP.split("[==========] 4 test(s) run.\n")[0]
    reading = read(head + closing)
    assert reading is not None
    assert reading.counts is None
    assert reading.reason is not None


def test_closing_lines_alone_are_trusted_without_per_test_lines() -> None:
    reading = read("[==========] Running 3 test(s).\n[==========] 3 test(s) run.\n[  PASSED  ] 2 test(s).\n")
    assert reading is not None
    assert reading.counts == Counts(passed=2, failed=1, skipped=0)


def test_interleaved_junk_does_not_change_the_count() -> None:
    noisy = GROUP.replace(
        "[ RUN      ] test_c\n", "[ RUN      ] test_c\n[junk] \x01\x02\n[  ERROR   ] --- more\nplain output\n"
    )
    reading = read(noisy)
    assert reading is not None
    assert reading.counts == Counts(passed=1, failed=2, skipped=1)


def test_a_failed_group_setup_is_unparsed_and_names_the_group() -> None:
    reading = read(
        GROUP + "[==========] Running 2 test(s).\n[  FAILED  ] GROUP SETUP\n[  ERROR   ] storage\n"
        "[==========] 0 test(s) run.\n[  PASSED  ] 0 test(s).\n"
    )
    assert reading is not None
    assert reading.counts is None
    assert reading.reason == "a cmocka group's setup failed before its tests ran: `storage`"


def test_other_runners_output_is_not_cmocka() -> None:
    assert read("[ RUN      ] a\n[       OK ] a\n[  PASSED  ] 1 test(s).\n") is None
    assert read("[==========] 3 test(s) run.\n[  PASSED  ] 3 test(s).\n") is None
    assert read("100%: Checks: 3, Failures: 0, Errors: 0\n") is None
    assert read("[ 50%] Built target calc\n") is None


def test_cmocka_output_inside_a_ctest_run_is_left_to_ctest() -> None:
    ctest = (
        "Test project /build\n    Start 1: calc\n1/1 Test #1: calc ....***Failed    0.01 sec\n"
        f"{GROUP}\n0% tests passed, 1 tests failed out of 1\n"
    )
    assert read(ctest) is None
    reading = read(ctest + GROUP)
    assert reading is not None
    assert reading.counts == Counts(passed=1, failed=2, skipped=1)
    assert reading.notes == ("1 cmocka group(s) printed inside a ctest run are its tests' output: ctest counts them",)


def test_a_ctest_run_after_a_cut_group_does_not_hide_the_cut() -> None:
    reading = read("[==========] Running 2 test(s).\n[ RUN      ] test_x\nTest project /build\n")
    assert reading is not None
    assert reading.counts is None
