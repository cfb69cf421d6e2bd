"""The pure parts of test strength, with literal values: the plan, the units, the verdict rules,
the runtime errors that mean a test died on a name the change adds, and the line a run that did not
load is reported with."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from evidence_gate.errors import UsageError
from evidence_gate.ledger.payloads.strength import Verdict
from evidence_gate.markers import Claim, markers_for
from evidence_gate.model import Change, ChangedFile, Counts, FileKind, FileStatus, Shard, parse_shard
from evidence_gate.runner import CommandRun
from evidence_gate.stacks.table import default_table
from evidence_gate.strength.evidence import RunEvidence, errors_for, new_symbols, read_run, runtime_errors
from evidence_gate.strength.plan import THROUGH_CAP, plan
from evidence_gate.strength.units import unit_for
from evidence_gate.strength.verdict import judge_base, judge_head

PASSED = RunEvidence(
    command="pytest t.py",
    exit_code=0,
    timed_out=False,
    seconds=1.0,
    counts=Counts(passed=2, failed=0, skipped=0),
    count_reason=None,
    load_error=None,
    missing_symbol=None,
    head=(),
    tail=(),
)
FAILED = replace(PASSED, exit_code=1, counts=Counts(passed=1, failed=1, skipped=0))


def changed(path: str, kind: FileKind, status: FileStatus, old_path: str | None = None) -> ChangedFile:
    return ChangedFile(
        path=path,
        old_path=old_path,
        status=status,
        kind=kind,
        binary=False,
        old_mode=None,
        new_mode=None,
        similarity=None,
    )


def test_the_plan_restores_changed_production_files_removes_added_ones_and_moves_renamed_ones_back() -> None:
    change = Change(
        base="b",
        head="h",
        merge_base="m",
        files=(
            changed("src/cart.py", FileKind.PRODUCTION, FileStatus.MODIFIED),
            changed("src/refund.py", FileKind.PRODUCTION, FileStatus.ADDED),
            changed("src/gone.py", FileKind.PRODUCTION, FileStatus.DELETED),
            changed("src/tax.py", FileKind.PRODUCTION, FileStatus.RENAMED, old_path="src/vat.py"),
            changed("tests/test_cart.py", FileKind.TEST, FileStatus.MODIFIED),
            changed("tests/test_gone.py", FileKind.TEST, FileStatus.DELETED),
            changed("pyproject.toml", FileKind.GATE_CONFIG, FileStatus.MODIFIED),
        ),
    )
    made = plan(change)
    assert made.tests == ("tests/test_cart.py",)
    assert made.restore == ("src/cart.py", "src/gone.py", "src/vat.py")
    assert made.remove == ("src/refund.py", "src/tax.py")
    assert made.merge_base == "m" and made.reverts


def helper_change(*helpers: tuple[str, FileKind]) -> Change:
    files = [changed(path, kind, FileStatus.MODIFIED) for path, kind in helpers]
    return Change(
        base="b",
        head="h",
        merge_base="m",
        files=(changed("src/lib.rs", FileKind.PRODUCTION, FileStatus.MODIFIED), *files),
    )


def test_a_helper_is_judged_through_the_tests_that_name_its_module_and_data_through_its_file_name() -> None:
    head_tests = {
        "tests/cli.rs": "mod common;\n\n#[test]\nfn runs() { common::setup(); }\n",
        "tests/other.rs": "#[test]\nfn alone() {}\n",
        "tests/reads.rs": 'const INPUT: &str = include_str!("data/cart.json");\n',
        "tests/cart.rs": "// the cart\n",
    }
    made = plan(helper_change(("tests/common/mod.rs", FileKind.TEST_HELPER)), head_tests)
    assert made.through == {"tests/cli.rs": "judged for tests/common/mod.rs, which it names"}
    made = plan(helper_change(("tests/data/cart.json", FileKind.TEST_DATA)), head_tests)
    assert made.tests == ("tests/reads.rs",)  # not tests/cart.rs: data is named by its file name


def test_helpers_no_test_names_bring_their_folders_tests_nearest_first_and_at_most_the_cap() -> None:
    head_tests = {f"tests/unit/test_{n:02}.py": "" for n in range(30)} | {"tests/test_top.py": ""}
    made = plan(helper_change(("tests/unit/conftest.py", FileKind.TEST_HELPER)), head_tests)
    assert len(made.tests) == THROUGH_CAP and "tests/test_top.py" not in made.tests
    assert made.through["tests/unit/test_00.py"] == (
        "judged for tests/unit/conftest.py, a test helper of its folder tests/unit/"
        f" ({THROUGH_CAP} of the 30 test files that use them judged)"
    )
    made = plan(helper_change(("fixtures/prices.json", FileKind.TEST_DATA)), head_tests)
    assert (made.tests, made.note) == (
        (),
        "the change touches production code and test helpers or data (fixtures/prices.json) but no test"
        " file, and no test file names them or sits in their folders: nothing to judge",
    )


def test_shards_are_a_stable_partition() -> None:
    paths = [f"tests/test_{n}.py" for n in range(200)]
    shards = [Shard(index=index, count=3) for index in (1, 2, 3)]
    held = [[path for path in paths if shard.holds(path)] for shard in shards]
    assert sorted(path for part in held for path in part) == sorted(paths)
    assert all(20 < len(part) < 100 for part in held)
    assert parse_shard("2/3") == shards[1]


@pytest.mark.parametrize("text", ["0/2", "3/2", "1", "a/b", "1/0", "-1/2"])
def test_a_shard_that_is_not_i_of_n_is_a_usage_error(text: str) -> None:
    with pytest.raises(UsageError, match="give I/N"):
        parse_shard(text)


@pytest.mark.parametrize(
    ("path", "adapter", "language", "text", "command", "slots", "problem"),
    [
        ("tests/test_cart.py", "python", "python", "", "test_file", {"file": "tests/test_cart.py"}, None),
        ("tests/test_cart.py", "django", "python", "", "test_file", {"name": "tests.test_cart"}, None),
        (
            "cart/cart_test.go",
            "go",
            "go",
            "package cart\n\nfunc TestTotal(t *testing.T) {}\nfunc Testhelper() {}\nfunc ExampleTotal() {}\n",
            "test_file",
            {"name": "(TestTotal|ExampleTotal)", "package": "./cart"},
            None,
        ),
        ("cart_test.go", "go", "go", "package cart\n\nfunc helper() {}\n", "test_file", {}, "defines no Test"),
        ("tests/cart.rs", "rust", "rust", "", "test_file", {"name": "cart"}, None),
        ("tests/cart/main.rs", "rust", "rust", "", "test_file", {"name": "cart"}, None),
        ("tests/common/mod.rs", "rust", "rust", "", "test_file", {}, "a module of an integration test"),
        ("src/cart/tests.rs", "rust", "rust", "", "test_module", {"name": "cart::tests::"}, None),
        ("crates/shop/src/tax/mod.rs", "rust", "rust", "", "test_module", {"name": "tax::"}, None),
        ("src/lib.rs", "rust", "rust", "", "test_file", {}, "crate root"),
        ("src/main.rs", "rust", "rust", "#[test]\nfn t() {}\n", "test_file", {}, "crate root"),
        (
            "src/test/java/shop/CartTest.java",
            "jvm",
            "java",
            "package com.example.shop;\n\nclass CartTest {}\n",
            "test_file",
            {"name": "com.example.shop.CartTest"},
            None,
        ),
    ],
)
def test_each_file_maps_to_the_unit_that_holds_exactly_its_tests(
    path: str,
    adapter: str,
    language: str,
    text: str,
    command: str,
    slots: dict[str, str],
    problem: str | None,
) -> None:
    unit = unit_for(path, adapter, language, text)
    assert unit.command == command
    assert {key: unit.slots[key] for key in slots} == slots
    assert (unit.problem is None) == (problem is None)
    if problem:
        assert problem in (unit.problem or "")


def test_the_head_run_must_pass_and_run_tests() -> None:
    assert judge_head(PASSED) is None
    assert (
        judge_head(FAILED) == "fails at the head (1 failed, 1 passed, exit code 1): only a passing test can be judged"
    )
    assert (
        judge_head(replace(PASSED, counts=Counts(passed=0, failed=0, skipped=3))) == "executed zero tests at the head"
    )
    assert "no test count" in (judge_head(replace(PASSED, counts=None, count_reason="no summary line")) or "")
    assert (judge_head(replace(PASSED, timed_out=True, exit_code=124)) or "").startswith("timed out at the head")
    assert judge_head(replace(PASSED, exit_code=2)) is not None  # counted green, but the runner failed


def test_a_head_run_that_did_not_load_quotes_its_error_line() -> None:
    error = "ModuleNotFoundError: No module named 'shop._version'"
    collected = replace(
        FAILED, exit_code=2, counts=Counts(passed=0, failed=1, skipped=0), load_error="___ ERROR collecting t.py ___"
    )
    assert judge_head(replace(collected, error_line=error)) == f"does not load at the head (exit code 2): {error}"
    unread = replace(FAILED, exit_code=1, counts=None, count_reason="no parser recognised this output")
    assert judge_head(replace(unread, error_line="python: No module named pytest")) == (
        "does not load at the head (exit code 1): python: No module named pytest"
    )
    # a run that loaded and collected nothing says so, not its last line
    empty = replace(PASSED, exit_code=5, counts=Counts(passed=0, failed=0, skipped=0), error_line="no tests ran")
    assert judge_head(empty) == "executed zero tests at the head"
    # a test that ran and failed is not a load failure, whatever its error line says
    failed = replace(FAILED, error_line="AssertionError: 10 != 12")
    assert (judge_head(failed) or "").startswith("fails at the head (1 failed, 1 passed")


# What a run that did not load prints, per language, and the line its reason quotes.
LOAD = [
    (
        "python",
        [
            "______ ERROR collecting tests/test_cart.py ______",
            "src/shop/__init__.py:1: in <module>",
            "E   ModuleNotFoundError: No module named 'shop._version'",
            "=== 1 error in 0.61s ===",
        ],
        "ModuleNotFoundError: No module named 'shop._version'",
    ),
    ("python", ["/usr/bin/python: No module named pytest"], "No module named pytest"),
    ("python", ['  File "t.py", line 1', "    def (", "SyntaxError: invalid syntax"], "SyntaxError: invalid syntax"),
    (
        "javascript",
        ["node:internal/modules/cjs/loader:1228", "  throw err;", "Error: Cannot find module './x'", "Require stack:"],
        "Cannot find module './x'",
    ),
    (
        "go",
        [
            'cart_test.go:3:8: cannot find package "example.com/shop/money" in any of:',
            "FAIL example.com/shop [setup failed]",
        ],
        'cannot find package "example.com/shop/money" in any of:',
    ),
    (
        "rust",
        [
            "   Compiling shop v0.1.0",
            "error[E0432]: unresolved import `shop::money`",
            "error: could not compile `shop`",
        ],
        "error[E0432]: unresolved import `shop::money`",
    ),
    (
        "csharp",
        ["Build started", "Program.cs(3,7): error CS0246: The type 'Money' could not be found", "Build FAILED."],
        "error CS0246: The type 'Money' could not be found",
    ),
    ("elixir", ["compiling", "something went wrong", "exit status 3"], "exit status 3"),
]


@pytest.mark.parametrize(("language", "lines", "quoted"), LOAD)
def test_a_failing_run_s_error_line_is_its_language_s_first_then_any_error_then_its_last_line(
    tmp_path: Path, language: str, lines: list[str], quoted: str
) -> None:
    log = tmp_path / "run.log"
    log.write_text("\n".join(lines) + "\n")
    table = default_table()
    python = table.get("python")
    markers = markers_for(table, Claim.TEST, (python,))
    run = CommandRun(command="sh -c t", exit_code=1, output=log)
    evidence = read_run(run, (), markers, errors_for(language), frozenset(), command="t")
    assert evidence.error_line == quoted
    passed = read_run(replace(run, exit_code=0), (), markers, errors_for(language), frozenset(), command="t")
    assert passed.error_line is None  # only a failing run has one


PROBE = ["error[E0463]: can't find crate for `missing_crate`", "error: aborting due to 1 previous error"]
RUNNING = ["     Running tests/probe.rs (target/debug/deps/probe-0a1b)", "", "running 1 test"]


@pytest.mark.parametrize(
    ("lines", "load_error"),
    [
        # the binary ran and reported: the probe's rustc errors are its test's output
        ([*RUNNING, *PROBE, "test probed ... ok", "", "test result: ok. 1 passed; 0 failed; 0 ignored"], None),
        (
            [*RUNNING, *PROBE, "test probed ... FAILED", "test result: FAILED. 0 passed; 1 failed; 0 ignored"],
            None,
        ),
        # compiled before any binary ran: the target did not build
        (["   Compiling shop v0.1.0", *PROBE, 'error: could not compile `shop` (test "probe")'], PROBE[0]),
        # the binary never reported: nothing says its test ran to a result
        ([*RUNNING, *PROBE, "error: test failed, to rerun pass `--test probe`"], PROBE[0]),
        ([*RUNNING, *PROBE, *RUNNING, "test result: ok. 1 passed; 0 failed; 0 ignored"], PROBE[0]),
    ],
)
def test_rustc_errors_are_a_load_error_only_where_no_test_binary_reported(
    tmp_path: Path, lines: list[str], load_error: str | None
) -> None:
    log = tmp_path / "run.log"
    log.write_text("\n".join(lines) + "\n")
    table = default_table()
    markers = markers_for(table, Claim.TEST, (table.get("rust"),))
    run = CommandRun(command="sh -c t", exit_code=1, output=log)
    evidence = read_run(run, ("cargo-test",), markers, errors_for("rust"), frozenset(), command="t")
    assert evidence.load_error == load_error


def test_an_error_line_is_bounded(tmp_path: Path) -> None:
    log = tmp_path / "run.log"
    log.write_text("ImportError: " + "x" * 5000 + "\n")
    run = CommandRun(command="sh -c t", exit_code=1, output=log)
    evidence = read_run(
        run, (), markers_for(default_table(), Claim.TEST, ()), errors_for("python"), frozenset(), command="t"
    )
    assert evidence.error_line is not None and len(evidence.error_line) == 200 and evidence.error_line.endswith("…")


@pytest.mark.parametrize(
    ("base", "rerun", "reverted", "verdict", "reason"),
    [
        (FAILED, PASSED, True, Verdict.RED, "fails without the change"),
        (FAILED, FAILED, True, Verdict.NOT_RUN, "flaky"),
        (PASSED, None, True, Verdict.STILL_GREEN, "passes without the change"),
        (PASSED, None, False, Verdict.NOT_RUN, "the revert did not apply"),
        (replace(FAILED, load_error="E   ModuleNotFoundError"), None, True, Verdict.UNJUDGED, "does not load"),
        (
            replace(FAILED, missing_symbol="discount"),
            None,
            True,
            Verdict.UNJUDGED,
            "`discount`, a name the change adds",
        ),
        (replace(FAILED, counts=None), None, True, Verdict.UNJUDGED, "no failing test was counted"),
        (replace(PASSED, counts=Counts(passed=0, failed=0, skipped=0)), None, True, Verdict.UNJUDGED, "zero tests"),
        (replace(FAILED, timed_out=True), None, True, Verdict.NOT_RUN, "timed out without the change"),
    ],
)
def test_the_base_run_decides_the_verdict(
    base: RunEvidence, rerun: RunEvidence | None, reverted: bool, verdict: Verdict, reason: str
) -> None:
    decided, why = judge_base(base, rerun, reverted)
    assert decided is verdict
    assert reason in why


def test_new_symbols_are_the_names_only_the_head_has() -> None:
    head = {"shop/cart.py": "def total(p):\n    return tax(sum(p))\n\ndef tax(x): ...\n", "shop/refund.py": "x = 1\n"}
    base = {"shop/cart.py": "def total(p):\n    return sum(p)\n"}
    assert new_symbols(head, base) == {"tax", "refund", "x"}


# What each language's runner prints when a test dies on a missing name, with the name.
MISSING = [
    ("python", "E       AttributeError: module 'shop.cart' has no attribute 'discount'", "discount"),
    ("python", "E   ImportError: cannot import name 'refund' from 'shop.cart' (/w/src/shop/cart.py)", "refund"),
    ("python", "E   ModuleNotFoundError: No module named 'shop.refund'", "refund"),
    ("python", "E       NameError: name 'discount' is not defined", "discount"),
    ("python", "E       TypeError: total() got an unexpected keyword argument 'currency'", "currency"),
    ("javascript", "TypeError: cart.discount is not a function", "discount"),
    ("javascript", "  error: 'cart.discount is not a function'", "discount"),
    ("javascript", "TypeError: Refund is not a constructor", "Refund"),
    ("javascript", "ReferenceError: discount is not defined", "discount"),
    (
        "javascript",
        "SyntaxError: The requested module '../cart.js' does not provide an export named 'discount'",
        "discount",
    ),
    ("javascript", "Error: Cannot find module '../refund.js'", "refund"),
    ("ruby", "NoMethodError: undefined method `discount' for an instance of Cart", "discount"),
    ("ruby", "NameError: uninitialized constant Shop::Refund", "Refund"),
    ("php", "Error: Call to undefined method Cart::discount()", "discount"),
    ("php", 'Error: Class "App\\Refund" not found', "Refund"),
]


@pytest.mark.parametrize(("language", "line", "symbol"), MISSING)
def test_each_language_s_missing_name_errors_are_read_with_the_name(language: str, line: str, symbol: str) -> None:
    errors = runtime_errors()[language]
    found = [match.group("symbol") for pattern in errors.missing if (match := pattern.search(line))]
    assert found[:1] == [symbol]


@pytest.mark.parametrize(
    ("language", "line"),
    [
        ("python", "E       assert 10 == 12.0"),
        ("python", "AssertionError: 10 != 12.0"),
        ("javascript", "AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:"),
        ("javascript", "    Expected: 12"),
        ("ruby", "Minitest::Assertion: Expected: 12"),
        ("php", "Failed asserting that 10 is identical to 12."),
    ],
)
def test_each_language_s_failing_assertions_are_recognised(language: str, line: str) -> None:
    assert any(pattern.search(line) for pattern in runtime_errors()[language].assertion)


@pytest.mark.parametrize(
    ("lines", "missing"),
    [
        (["E       AttributeError: module 'shop' has no attribute 'discount'", "E       assert 1 == 2"], "discount"),
        (["E       assert 1 == 2", "E       AttributeError: module 'shop' has no attribute 'discount'"], None),
        (["E       AttributeError: module 'shop' has no attribute 'total'"], None),  # not a name the change adds
    ],
)
def test_a_missing_name_counts_only_when_the_change_adds_it_and_no_assertion_failed_first(
    tmp_path: Path, lines: list[str], missing: str | None
) -> None:
    log = tmp_path / "run.log"
    log.write_text("\n".join([*lines, "=========== 2 failed in 0.10s ==========="]) + "\n")
    table = default_table()
    python = table.get("python")
    run = CommandRun(command="sh -c pytest", exit_code=1, output=log)
    evidence = read_run(
        run,
        python.parsers,
        markers_for(table, Claim.TEST, (python,)),
        runtime_errors()["python"],
        frozenset({"discount"}),
        command="pytest",
    )
    assert evidence.missing_symbol == missing
    assert evidence.counts == Counts(passed=0, failed=2, skipped=0)
    assert evidence.command == "pytest"


RUST_INLINE = default_table().get("rust").inline_tests
assert RUST_INLINE is not None
RUST_FUNCTIONS = RUST_INLINE.functions


def test_the_crate_roots_own_tests_are_run_each_by_its_name() -> None:
    """`src/lib.rs`'s module path is every module's: its own tests are named one by one, exactly."""
    text = "pub fn f() {}\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn a() {}\n    fn helper() {}\n}\n"
    text += "#[test]\nfn top() {}\n"
    unit = unit_for("src/lib.rs", "rust", "rust", text, RUST_FUNCTIONS)
    assert (unit.command, unit.slots["names"], unit.problem) == ("test_names", ("tests::a", "top"), None)
    assert unit.scope == "the unit tests the crate root defines itself, each by its name (tests::a, top)"
    none = unit_for("src/lib.rs", "rust", "rust", "pub fn f() {}\n", RUST_FUNCTIONS)
    assert none.problem == (
        "the crate root's tests are run by their names, and it defines no test function the reader can name"
    )
    unread = unit_for("src/lib.rs", "rust", "rust", "pub fn f() {\n", RUST_FUNCTIONS)
    assert unread.problem == "the crate root's tests are run by their names, and its text could not be read"
