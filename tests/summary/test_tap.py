"""TAP from producers other than the captured prove runs: TAP 14 subtests and YAML blocks,
directives, broken plans, bail-outs, concatenated streams, prove cross-checks, and output that
is not TAP."""

from __future__ import annotations

import time
from pathlib import Path

from evidence_gate.model import Counts
from evidence_gate.summary.base import Reading
from evidence_gate.summary.parsers.tap import TapParser
from evidence_gate.summary.read import read_source

FIXTURES = Path(__file__).parent.parent / "fixtures" / "stack-logs"


def read(text: str) -> Reading | None:
    parser = TapParser()
    for line in text.splitlines():
        parser.feed(line)
    return parser.finish()


def counts(text: str) -> Counts | None:
    reading = read(text)
    assert reading is not None
    return reading.counts


def test_directives_map_to_skipped_xfail_and_xpass() -> None:
    assert counts(
        "TAP version 14\n"
        "1..6\n"
        "ok 1 - plain\n"
        "ok 2 - later # SKIP no network\n"
        "not ok 3 - known bug # TODO fix me\n"
        "ok 4 - fixed by accident # todo\n"
        "not ok 5 - skipped but failing # skip\n"
        "ok 6 - hash in the name \\# TODO is escaped\n"
    ) == Counts(passed=3, failed=1, skipped=2)


def test_cmockas_skips_are_skipped_in_the_groups_it_closes_and_failed_elsewhere() -> None:
    cmocka_group = "1..3\nok 1 - test_add\nnot ok 2 # SKIP test_network\nok 3 - test_sub\n# ok - tests\n"
    reading = read(cmocka_group + "1..1\nnot ok 1 # SKIP test_disk\n")
    assert reading is not None
    assert reading.counts == Counts(passed=2, failed=1, skipped=1)
    assert reading.notes == (
        "1 `not ok ... # SKIP` test(s) of cmocka groups (closed by `# ok - <group>` lines): cmocka writes a skipped "
        "test so; counted as skipped, as cmocka counts it",
    )


def test_a_cmocka_group_of_one_skip_that_broke_its_plan_is_still_one_error() -> None:
    assert counts("1..2\nnot ok 1 # SKIP test_network\n# ok - tests\n") == Counts(passed=0, failed=1, skipped=1)


def test_subtests_count_at_the_leaves_and_yaml_blocks_are_not_tests() -> None:
    assert counts(
        "TAP version 14\n"
        "# Subtest: group\n"
        "    # Subtest: inner\n"
        "        ok 1 - deep\n"
        "        1..1\n"
        "    ok 1 - inner\n"
        "    not ok 2 - fails\n"
        "      ---\n"
        "      output: |\n"
        "        not ok 9 - quoted in a diagnostic\n"
        "        ok 10 - also quoted\n"
        "      ...\n"
        "    1..2\n"
        "not ok 1 - group\n"
        "ok 2 - flat\n"
        "1..2\n"
    ) == Counts(passed=2, failed=1, skipped=0)


def test_a_parent_adds_only_what_its_children_do_not_show() -> None:
    assert counts(
        "1..4\n"
        "    ok 1 - child\n"
        "    1..2\n"
        "not ok 1 - died after one child\n"  # the child stream broke its plan: one error
        "    1..0 # SKIP no database\n"
        "ok 2 - database # SKIP no database\n"
        "    1..0\n"
        "ok 3 - empty group\n"
        "ok 4 - leaf\n"
    ) == Counts(passed=2, failed=1, skipped=1)


def test_a_broken_or_missing_plan_is_one_failed_test() -> None:
    assert counts("1..3\nok 1\nok 2\n") == Counts(passed=2, failed=1, skipped=0)
    assert counts("1..1\nok 1\nok 2\n") == Counts(passed=2, failed=1, skipped=0)
    assert counts("TAP version 13\nok 1\nok 2\n") == Counts(passed=2, failed=1, skipped=0)
    # A broken stream that already shows a failure adds nothing.
    assert counts("1..3\nok 1\nnot ok 2\n") == Counts(passed=1, failed=1, skipped=0)


def test_a_bail_out_is_unparsed_with_its_reason() -> None:
    reading = read("1..3\nok 1\nBail out! database went away\n")
    assert reading is not None
    assert reading.counts is None
    assert reading.reason == "the run bailed out: database went away (the tests after it never ran)"


def test_a_bail_out_in_a_subtest_after_passing_streams_is_unparsed() -> None:
    reading = read("1..2\nok 1\nok 2\n1..2\n    1..1\n    Bail out!\nnot ok 1 - group\n")
    assert reading is not None
    assert reading.counts is None
    assert reading.reason == "the run bailed out: no reason given (the tests after it never ran)"


def test_prove_s_own_bail_out_line_is_read_without_the_tap() -> None:
    reading = read(
        "t/01-basic.t .. ok\n"
        "Bailout called.  Further testing stopped:  database went away\n"
        "Files=2, Tests=4,  0 wallclock secs\nResult: FAIL\n"
    )
    assert reading is not None
    assert reading.counts is None
    assert reading.reason and reading.reason.startswith("the run bailed out: database went away")


def test_a_skip_all_plan_is_one_skipped_test() -> None:
    assert counts("1..0 # SKIP no display\n") == Counts(passed=0, failed=0, skipped=1)
    assert counts("1..0\n") == Counts(passed=0, failed=0, skipped=0)


def test_concatenated_streams_are_checked_one_by_one() -> None:
    assert counts(
        "1..2\nok 1\nok 2\n"  # leading plan
        "1..1\nok 1\n"  # a second plan starts the next stream
        "ok 1\nnot ok 2\n1..2\n"  # trailing plan
        "ok 1\n1..2\n"  # after a trailing plan a test starts a new, broken stream
    ) == Counts(passed=5, failed=2, skipped=0)


def test_prove_verbose_must_agree_with_its_tests_total() -> None:
    reading = read("t/a.t .. \n1..2\nok 1\nok 2\nok\nAll tests successful.\nFiles=1, Tests=3,  0 wallclock secs\n")
    assert reading is not None
    assert reading.counts is None
    assert reading.reason and "Tests=3" in reading.reason


def test_prove_result_fail_without_a_failure_is_unparsed() -> None:
    reading = read("t/a.t .. \n1..1\nok 1\nok\nFiles=1, Tests=1,  0 wallclock secs\nResult: FAIL\n")
    assert reading is not None
    assert reading.counts is None


def test_prove_with_timer_and_a_file_that_runs_nothing_is_unparsed() -> None:
    reading = read(
        "[10:00:00] t/a.t .. \n1..1\nok 1 - fine\n[10:00:01] t/a.t .. ok      12 ms ( 0.00 usr )\n"
        "[10:00:01] t/b.t .. \nNo subtests run \n"
        "Files=2, Tests=1,  0 wallclock secs\nResult: FAIL\n"
    )
    assert reading is not None
    assert reading.counts is None
    assert reading.reason == "a test file died before any of its tests ran: t/b.t"


def test_a_stream_that_planned_tests_and_died_before_them_is_unparsed() -> None:
    for text in ("1..2\n", "TAP version 13\n", "1..3\nok 1\nok 2\nok 3\n1..2\n"):
        reading = read(text)
        assert reading is not None
        assert reading.counts is None
        assert reading.reason == "a test file died before any of its tests ran: a TAP stream"


def test_prove_without_tests_reads_its_files() -> None:
    assert counts("t/a.t .. skipped: no db\nt/b.t .. skipped: no net\nFiles=2, Tests=0,\nResult: NOTESTS\n") == Counts(
        passed=0, failed=0, skipped=2
    )


def test_mocha_tap_reporter_output_reads_as_the_truth() -> None:
    reading = read_source(FIXTURES / "mocha" / "mixed.tap.log", ["tap"])
    assert reading.counts == Counts(passed=3, failed=3, skipped=2)


def test_output_that_is_not_tap_is_not_claimed() -> None:
    assert read("ok  \texample.com/fx/calc\t0.002s\nok  \texample.com/fx/text\t0.001s\n") is None
    assert read("ok 1 - looks like a test\nnot ok 2 - but there is no plan or version\n") is None
    assert read("Loading modules ... done\nok\n") is None
    assert read("test result: ok. 3 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out\n") is None


def test_a_test_printing_dots_does_not_split_its_stream() -> None:
    assert counts("TAP version 13\nok 1 - a\nLoading fixtures ... done\nok 2 - b\n1..2\n") == Counts(
        passed=2, failed=0, skipped=0
    )


PROVE_FAILED = (
    "t/a.t .. \n"
    "Dubious, test returned 3 (wstat 768, 0x300)\n"
    "Failed 3/6 subtests \n"
    "\t(less 1 skipped subtest: 2 okay)\n"
    "t/b.t .. ok\n"
    "t/c.t .. skipped: no database\n"
    "\n"
    "Test Summary Report\n"
    "-------------------\n"
    "t/a.t (Wstat: 768 (exited 3) Tests: 6 Failed: 3)\n"
    "  Failed tests:  2, 4-5\n"
    "  Non-zero exit status: 3\n"
    "Files=3, Tests=10,  0 wallclock secs ( 0.01 usr +  0.00 sys =  0.01 CPU)\n"
    "Result: FAIL\n"
)


def test_prove_without_v_reads_a_failed_run_and_says_what_it_cannot_see() -> None:
    reading = read(PROVE_FAILED)
    assert reading is not None
    # 10 tests: 3 failed and 1 skipped shown, the skip_all file 1 skipped, the rest passed as prove counts them
    assert reading.counts == Counts(passed=6, failed=3, skipped=2)
    assert any("their 4 test(s) are counted as passed" in note for note in reading.notes)
    assert any("failing TODO test" in note for note in reading.notes)
    assert not reading.no_count_printed


def test_prove_without_v_counts_a_broken_plan_without_failures_as_one_failed() -> None:
    reading = read(
        "t/a.t .. \nFailed 1/3 subtests \n\nTest Summary Report\n-------------------\n"
        "t/a.t (Wstat: 11 (Signal: SEGV) Tests: 2 Failed: 0)\n"
        "  Non-zero wait status: 11\n"
        "  Parse errors: Bad plan.  You planned 3 tests but ran 2.\n"
        "Files=1, Tests=2,  0 wallclock secs\nResult: FAIL\n"
    )
    assert reading is not None
    assert reading.counts == Counts(passed=2, failed=1, skipped=0)


def test_prove_without_v_reads_a_wrapped_failed_list() -> None:
    numbers = [str(number) for number in range(3, 61, 3)]
    first, rest = ", ".join(numbers[:11]), ", ".join(numbers[11:])  # as prove wraps it (hidden-skips.log)
    reading = read(
        "t/a.t .. \nFailed 20/60 subtests \n\nTest Summary Report\n-------------------\n"
        "t/a.t (Wstat: 5120 (exited 20) Tests: 60 Failed: 20)\n"
        f"  Failed tests:  {first}\n{' ' * 16}{rest}\n"
        "  Non-zero exit status: 20\nFiles=1, Tests=60,  0 wallclock secs\nResult: FAIL\n"
    )
    assert reading is not None
    assert reading.counts == Counts(passed=40, failed=20, skipped=0)


def test_prove_without_v_and_without_failures_prints_no_count_by_design() -> None:
    reading = read(
        "t/a.t .. ok\n\nTest Summary Report\n-------------------\n"
        "t/a.t (Wstat: 0 Tests: 5 Failed: 0)\n  TODO passed:   5\n"
        "Files=1, Tests=5,  0 wallclock secs\nResult: PASS\n"
    )
    assert reading is not None
    assert reading.counts is None
    assert reading.no_count_printed


def test_prove_quiet_shows_no_file_so_every_test_may_hide_a_skip() -> None:
    quiet = "\n".join(line for line in PROVE_FAILED.splitlines() if " .. " not in line and "(less" not in line)
    reading = read(quiet.replace("Files=3, Tests=10", "Files=3, Tests=9"))
    assert reading is not None
    assert reading.counts == Counts(passed=6, failed=3, skipped=0)
    assert any("their 9 test(s) are counted as passed" in note for note in reading.notes)


def test_prove_without_v_is_unparsed_when_its_report_does_not_hold_together() -> None:
    cases = {
        "a list shorter than its count": PROVE_FAILED.replace("2, 4-5", "2, 4"),
        "a list that is not numbers": PROVE_FAILED.replace("2, 4-5", "2, four"),
        "a huge range": PROVE_FAILED.replace("2, 4-5", "2, 4-" + "9" * 40),
        "a huge count": PROVE_FAILED.replace("Tests: 6 Failed: 3", "Tests: 6 Failed: " + "9" * 5000),
        "a huge total": PROVE_FAILED.replace("Tests=10", "Tests=" + "9" * 5000),
        "more failed than run": PROVE_FAILED.replace("Tests=10", "Tests=3"),
        "a failed file with more tests than the run": PROVE_FAILED.replace("Tests: 6 Failed", "Tests: 60 Failed"),
        "a range that runs backwards": PROVE_FAILED.replace("2, 4-5", "2, 5-4, 9"),
        "a pass with a failed file": PROVE_FAILED.replace("Result: FAIL", "Result: PASS"),
        "a report cut after its header": PROVE_FAILED.split("  Failed tests:")[0] + "Files=3, Tests=10,\n",
    }
    for case, text in cases.items():
        reading = read(text)
        assert reading is not None, case
        assert reading.counts is None, case
        assert reading.reason, case
        assert len(reading.reason) < 400, case
        assert not reading.no_count_printed, case


def test_prove_without_v_with_a_file_that_died_before_its_tests_is_unparsed() -> None:
    reading = read(
        "t/a.t .. ok\nt/b.t .. \nDubious, test returned 2 (wstat 512, 0x200)\nFailed 2/2 subtests \n\n"
        "Test Summary Report\n-------------------\nt/b.t (Wstat: 512 (exited 2) Tests: 0 Failed: 0)\n"
        "  Non-zero exit status: 2\n  Parse errors: Bad plan.  You planned 2 tests but ran 0.\n"
        "Files=2, Tests=3,  0 wallclock secs\nResult: FAIL\n"
    )
    assert reading is not None
    assert reading.counts is None
    assert reading.reason == "a test file died before any of its tests ran: t/b.t"


def test_interleaved_junk_in_prove_s_report_does_not_change_the_count() -> None:
    noisy = PROVE_FAILED.replace(
        "  Non-zero exit status: 3\n", "  Non-zero exit status: 3\nsome stray stderr \x01\n    indented junk 1..2\n"
    )
    reading = read(noisy)
    assert reading is not None
    assert reading.counts == Counts(passed=6, failed=3, skipped=2)


def test_a_huge_plan_is_unparsed_not_a_crash() -> None:
    reading = read("1.." + "9" * 5000 + "\nok 1\n")
    assert reading is not None
    assert reading.counts is None
    assert reading.reason is not None and reading.reason.startswith("a TAP plan no test run has")


def test_a_huge_line_in_prove_s_report_is_read_in_linear_time() -> None:
    """A name padded with a million spaces, a list of a million numbers: each line costs its length."""
    started = time.monotonic()
    reading = read(
        "t/a.t .. \nFailed 1/1 subtests \n\nTest Summary Report\n-------------------\n"
        f"t/a.t{' ' * 1_000_000}(Wstat: 256 (exited 1) Tests: 1 Failed: 1\n"
        f"t/a.t (Wstat: 256 (exited 1) Tests: 1 Failed: 1)\n  Failed test:  {'1, ' * 300_000}1\n"
        "Files=1, Tests=1,  0 wallclock secs\nResult: FAIL\n"
    )
    assert time.monotonic() - started < 10
    assert reading is not None
    assert reading.counts is None
    assert reading.reason == "prove's summary report says t/a.t failed 1 test(s) but lists more"
