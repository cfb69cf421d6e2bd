"""Maven/Surefire beyond the captured fixtures: flaky reruns, old unprefixed Surefire, Failsafe,
skipped tests, builds that fail outside the tests, truncated logs, and other runners' output."""

from __future__ import annotations

from evidence_gate.model import Counts
from evidence_gate.summary.base import Reading
from evidence_gate.summary.parsers.maven import MavenParser


def module(name: str, total: str, plugin: str = "maven-surefire-plugin:2.22.3:test (default-test)") -> str:
    return (
        f"[INFO] --- {plugin} @ {name} ---\n"
        "[INFO] -------------------------------------------------------\n"
        "[INFO]  T E S T S\n"
        "[INFO] -------------------------------------------------------\n"
        f"[INFO] Running com.example.{name}.ATest\n"
        f"[INFO] {total}, Time elapsed: 0.05 s - in com.example.{name}.ATest\n"
        "[INFO] \n[INFO] Results:\n[INFO] \n"
        f"[INFO] {total}\n[INFO] \n"
    )


def read(text: str) -> Reading | None:
    parser = MavenParser()
    for line in text.splitlines():
        parser.feed(line)
    return parser.finish()


def test_flaky_tests_passed_on_rerun() -> None:
    log = module("core", "Tests run: 3, Failures: 0, Errors: 0, Skipped: 0, Flakes: 1") + "[INFO] BUILD SUCCESS\n"
    reading = read(log)
    assert reading is not None
    assert reading.counts == Counts(passed=3, failed=0, skipped=0)
    assert any("flaky" in note for note in reading.notes)


def test_surefire_and_failsafe_totals_add_up() -> None:
    log = (
        module("core", "Tests run: 3, Failures: 0, Errors: 0, Skipped: 1")
        + module(
            "core", "Tests run: 2, Failures: 1, Errors: 1, Skipped: 0", "maven-failsafe-plugin:3.2.5:integration-test"
        )
        + "[INFO] BUILD FAILURE\n"
    )
    reading = read(log)
    assert reading is not None
    assert reading.counts == Counts(passed=2, failed=2, skipped=1)


def test_old_surefire_without_level_prefixes() -> None:
    log = (
        "-------------------------------------------------------\n T E S T S\n"
        "-------------------------------------------------------\nRunning com.example.ATest\n"
        "Tests run: 2, Failures: 0, Errors: 0, Skipped: 0, Time elapsed: 0.1 sec\n\n"
        "Results :\n\nTests run: 2, Failures: 0, Errors: 0, Skipped: 0\n\n[INFO] BUILD SUCCESS\n"
    )
    reading = read(log)
    assert reading is not None
    assert reading.counts == Counts(passed=2, failed=0, skipped=0)


def test_a_compile_error_in_a_later_module_makes_passing_totals_untrusted() -> None:
    log = (
        module("core", "Tests run: 3, Failures: 0, Errors: 0, Skipped: 0")
        + "[ERROR] COMPILATION ERROR : \n[INFO] BUILD FAILURE\n"
    )
    reading = read(log)
    assert reading is not None
    assert reading.counts is None
    assert reading.reason and "COMPILATION ERROR" in reading.reason


def test_a_build_failing_outside_the_tests_is_unparsed() -> None:
    log = module("core", "Tests run: 3, Failures: 0, Errors: 0, Skipped: 0") + "[INFO] BUILD FAILURE\n"
    reading = read(log)
    assert reading is not None
    assert reading.counts is None


def test_tests_skipped_by_flag_are_zero_with_a_note() -> None:
    log = "[INFO] --- maven-surefire-plugin:2.22.3:test (default-test) @ calc ---\n[INFO] Tests are skipped.\n"
    reading = read(log + "[INFO] BUILD SUCCESS\n")
    assert reading is not None
    assert reading.counts == Counts(passed=0, failed=0, skipped=0)
    assert reading.notes


def test_maven_without_a_test_plugin_has_no_counts() -> None:
    reading = read(
        "[INFO] --- maven-compiler-plugin:3.10.1:compile (default-compile) @ calc ---\n[INFO] BUILD SUCCESS\n"
    )
    assert reading is not None
    assert reading.counts is None


def test_per_class_lines_without_the_module_total_are_not_read() -> None:
    log = module("core", "Tests run: 3, Failures: 0, Errors: 0, Skipped: 0").split("[INFO] \n[INFO] Results:")[0]
    reading = read(log)
    assert reading is not None
    assert reading.counts is None


def test_other_runners_output_is_not_maven() -> None:
    assert read("Tests run: 3, Failures: 0, Errors: 0, Skipped: 0, Time elapsed: 0.1 sec\n") is None
    assert read("BUILD SUCCESSFUL in 6s\n3 actionable tasks: 3 executed\n") is None
    assert read("OK (3 tests, 3 assertions)\n") is None
