"""What every console-log parser must do, one test per parser: leave other runners' logs alone (fed
a fixture log of another runner, it claims nothing), and read a count no test run has as unparsed,
with a short reason, not as a crash."""

from __future__ import annotations

from pathlib import Path

import pytest

from evidence_gate.summary.base import LineParser, Reading
from evidence_gate.summary.parsers.check import CheckParser
from evidence_gate.summary.parsers.cmocka import CmockaParser
from evidence_gate.summary.parsers.gradle import GradleParser
from evidence_gate.summary.parsers.jest import JestParser
from evidence_gate.summary.parsers.maven import MavenParser
from evidence_gate.summary.parsers.minitest import MinitestParser
from evidence_gate.summary.parsers.mocha import MochaParser
from evidence_gate.summary.parsers.node_test import NodeTestParser
from evidence_gate.summary.parsers.phpunit import PhpunitParser
from evidence_gate.summary.parsers.pytest import PytestParser
from evidence_gate.summary.parsers.rspec import RspecParser
from evidence_gate.summary.parsers.unittest import UnittestParser
from evidence_gate.summary.parsers.uvu import UvuParser
from evidence_gate.summary.parsers.vitest import VitestParser
from evidence_gate.summary.read import read_lines, read_source
from evidence_gate.summary.registry import ALL_PARSERS

FIXTURES = Path(__file__).parent.parent / "fixtures" / "stack-logs"
JS_AND_PYTHON = ("pytest", "unittest", "jest", "vitest", "mocha", "node-test")
EVERY_OTHER = None  # every runner's folder but the parser's own

# The parser, its own fixture folder, and the runners' folders whose logs it must not claim.
CASES: dict[str, tuple[type[LineParser], str, tuple[str, ...] | None]] = {
    "pytest": (PytestParser, "pytest", JS_AND_PYTHON),
    "unittest": (UnittestParser, "unittest", JS_AND_PYTHON),
    "jest": (JestParser, "jest", JS_AND_PYTHON),
    "vitest": (VitestParser, "vitest", JS_AND_PYTHON),
    "mocha": (MochaParser, "mocha", JS_AND_PYTHON),
    "node-test": (NodeTestParser, "node-test", JS_AND_PYTHON),
    "minitest": (MinitestParser, "minitest", EVERY_OTHER),
    "phpunit": (PhpunitParser, "phpunit", EVERY_OTHER),
    "rspec": (RspecParser, "rspec", EVERY_OTHER),
    "maven": (MavenParser, "maven", EVERY_OTHER),
    "gradle": (GradleParser, "gradle", EVERY_OTHER),
    "uvu": (UvuParser, "uvu", EVERY_OTHER),
}


def other_runners_logs(own: str, runners: tuple[str, ...] | None) -> list[Path]:
    """The fixture logs of `runners`, each of which has some; with None, of every runner but `own`."""
    if runners is None:
        folders = sorted(path for path in FIXTURES.iterdir() if path.is_dir() and path.name != own)
        found = sorted(path for folder in folders for path in folder.glob("*.log"))
        assert found, f"no fixture log of a runner other than {own} under {FIXTURES}"
        return found
    found = []
    for runner in runners:
        logs = sorted((FIXTURES / runner).glob("*.log"))
        assert logs, f"no fixture log under {FIXTURES / runner}"
        found.extend(logs)
    return found


@pytest.mark.parametrize("name", sorted(CASES))
def test_no_other_runners_fixture_is_claimed(name: str) -> None:
    parser_type, own, runners = CASES[name]
    for path in other_runners_logs(own, runners):
        if path.parent.name == own:
            continue
        parser = parser_type()
        for line in read_lines(path):
            parser.feed(line)
        assert parser.finish() is None, path


def test_each_parser_checked_here_has_fixture_logs_of_its_own() -> None:
    for own in (own for _, own, _ in CASES.values()):
        assert sorted((FIXTURES / own).glob("*.log")), f"no fixture log under {FIXTURES / own}"


HUGE = "9" * 5000


def uvu_summary(total: str = "3", passed: str = "3", skipped: str = "0") -> str:
    return f"\n  Total:     {total}\n  Passed:    {passed}\n  Skipped:   {skipped}\n  Duration:  1.25ms\n\n"


# The parser, a log whose count has thousands of digits, and how its reason starts.
HUGE_COUNTS: dict[str, tuple[type[LineParser], str, str]] = {
    "check": (
        CheckParser,
        f"Running suite(s): Money\n100%: Checks: {HUGE}, Failures: 0, Errors: 0\n",
        "Check's summary holds a count no test run has",
    ),
    "cmocka": (
        CmockaParser,
        f"[==========] Running {HUGE} test(s).\n[==========] {HUGE} test(s) run.\n[  PASSED  ] 1 test(s).\n",
        "cmocka's output holds a count no test run has",
    ),
    "uvu-total": (UvuParser, uvu_summary(total=HUGE), "uvu's summary holds a count no test run has"),
    "uvu-passed": (UvuParser, uvu_summary(passed=HUGE), "uvu's summary holds a count no test run has"),
    "uvu-skipped": (UvuParser, uvu_summary(skipped=HUGE), "uvu's summary holds a count no test run has"),
}


def fed(parser: LineParser, text: str) -> Reading | None:
    for line in text.splitlines():
        parser.feed(line)
    return parser.finish()


@pytest.mark.parametrize("case", sorted(HUGE_COUNTS))
def test_a_huge_count_is_unparsed_not_a_crash(case: str, tmp_path: Path) -> None:
    parser_type, text, reason = HUGE_COUNTS[case]
    reading = fed(parser_type(), text)
    assert reading is not None
    assert reading.counts is None
    assert reading.reason is not None and reading.reason.startswith(reason), reading.reason
    assert len(reading.reason) < 400
    log = tmp_path / "test.log"
    log.write_text(text, encoding="utf-8")
    found = read_source(log, ALL_PARSERS)
    assert (found.parser, found.counts) == (parser_type.name, None)
