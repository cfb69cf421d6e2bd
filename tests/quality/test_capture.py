"""The capture protocol and the counting rules on real tools' output (tests/fixtures/tools/, from
scripts/capture_fixtures/tools.sh): the exit code from the `EXIT_CODE=` line, the errors or
warnings each tool printed, and the first diagnostic a failure's signature is made of."""

from __future__ import annotations

from pathlib import Path

import pytest

from evidence_gate.ledger.stagnation import normalised, signature
from evidence_gate.quality.capture import read_captured
from evidence_gate.quality.diagnostics import count

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "tools"

CASES = {
    "mypy/clean.log": (0, 0, None),
    "mypy/errors.log": (1, 3, 'shop.py:6: error: Unsupported operand types for + ("int" and "str")  [operator]'),
    "ruff/clean.log": (0, 0, None),
    "ruff/errors.log": (1, 2, "F401 [*] `os` imported but unused"),
    "ruff/concise.log": (1, 2, "shop.py:1:8: F401 [*] `os` imported but unused"),
    "go-vet/clean.log": (0, 0, None),
    "go-vet/errors.log": (2, 2, "./shop.go:5:35: fmt.Sprintf format %s has arg n of wrong type int"),
    "golangci-lint/clean.log": (0, 0, None),  # `0 issues.`
    # `2 issues:` and a line per linter: the count is the summary's, the lines under each issue are none
    "golangci-lint/errors.log": (1, 2, "shop.go:7:11: Error return value of `os.Remove` is not checked (errcheck)"),
    "eslint/stylish.log": (1, 2, "1:7  error    'unused' is assigned a value but never used  no-unused-vars"),
    "eslint/unix.log": (
        1,
        2,
        "/checkout/shop/src/shop.js:1:7: 'unused' is assigned a value but never used. [Error/no-unused-vars]",
    ),
    "eslint/compact.log": (
        1,
        2,
        "/checkout/shop/src/shop.js: line 1, col 7, Error - 'unused' is assigned a value but never used."
        " (no-unused-vars)",
    ),
    "cargo/warnings.log": (0, 1, "warning: unused variable: `unused`"),
    "cargo/check-warnings.log": (0, 1, "warning: unused variable: `unused`"),  # a linter's unit: the warning
    "cargo/check-error.log": (101, 1, "warning: unnecessary parentheses around assigned value"),
}
# The type checker's unit is the error: cargo check's warnings are none (`errors_only`).
TYPE_CHECK_CASES = {
    "cargo/warnings.log": (0, 0, None),
    "cargo/check-warnings.log": (0, 0, None),
    "cargo/check-error.log": (101, 1, "error[E0308]: mismatched types"),
    "mypy/errors.log": (1, 3, 'shop.py:6: error: Unsupported operand types for + ("int" and "str")  [operator]'),
    "go-vet/errors.log": (2, 2, "./shop.go:5:35: fmt.Sprintf format %s has arg n of wrong type int"),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_each_tools_output_is_read_with_its_exit_code_count_and_first_error(name: str) -> None:
    exit_code, counted, first = CASES[name]
    captured = read_captured(FIXTURES / name, "the command", name)
    assert (captured.exit_code, count(captured.lines, captured.exit_code), captured.first_error) == (
        exit_code,
        counted,
        first,
    )
    assert "EXIT_CODE=" not in "\n".join(captured.lines)  # the marker is the protocol's, not the tool's


@pytest.mark.parametrize("name", sorted(TYPE_CHECK_CASES))
def test_a_type_checker_counts_errors_and_never_a_warning(name: str) -> None:
    captured = read_captured(FIXTURES / name, "the command", name, errors_only=True)
    counted = count(captured.lines, captured.exit_code, errors_only=True)
    assert (captured.exit_code, counted, captured.first_error) == TYPE_CHECK_CASES[name]


def test_a_log_without_an_exit_marker_has_no_exit_code_and_an_uncountable_failure(tmp_path: Path) -> None:
    log = tmp_path / "lint.log"
    log.write_text("something went wrong\n")
    captured = read_captured(log, "lint", "lint.log")
    assert (captured.exit_code, count(captured.lines, captured.exit_code)) == (None, None)


def test_the_last_exit_marker_is_the_commands_and_a_forged_one_in_the_middle_is_not(tmp_path: Path) -> None:
    log = tmp_path / "tests.log"
    log.write_text("print('EXIT_CODE=0')\nEXIT_CODE=0\nFAILED test_a\nEXIT_CODE=1\n")
    assert read_captured(log, "tests", "tests.log").exit_code == 1


def test_a_long_output_keeps_its_first_50_and_last_10_lines(tmp_path: Path) -> None:
    log = tmp_path / "long.log"
    log.write_text("".join(f"line {n}\n" for n in range(1, 201)) + "EXIT_CODE=0\n")
    output = read_captured(log, "long", "long.log").output.splitlines()
    assert output[:2] == ["line 1", "line 2"] and output[49] == "line 50"
    assert output[50] == "... 141 lines truncated ..."
    assert output[-1] == "EXIT_CODE=0" and output[-10] == "line 192"


def test_a_signature_forgets_paths_numbers_hashes_and_timings_and_keeps_the_error() -> None:
    one = "build/run-1/shop.py:6: error: took 1.2s, commit 3f2a9b1c, total 5 != 4"
    two = "work/ci/shop.py:12: error: took 31 ms, commit a0b1c2d, total 7 != 4"
    assert normalised(one) == normalised(two) == "<path>:<n>: error: took <time>, commit <hash>, total <n> != <n>"
    assert signature(2, one) == signature(2, two)
    assert signature(2, one) != signature(1, one)  # the check is part of it
    assert signature(2, one) != signature(2, "shop.py:6: error: Name 'x' is not defined")
