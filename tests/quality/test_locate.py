"""Each diagnostic located on real tools' output (tests/fixtures/tools/, from
scripts/capture_fixtures/tools.sh), and told the change's or the base's by the lines it touched."""

from __future__ import annotations

from pathlib import Path

import pytest

from evidence_gate.errors import ConfigError
from evidence_gate.model import Change, ChangedFile, ChangedLine, FileKind, FileStatus, Hunk
from evidence_gate.quality.capture import read_captured
from evidence_gate.quality.debt import ChangedLines, changed_lines, classify, repo_path
from evidence_gate.quality.diagnostics import count
from evidence_gate.quality.locate import Found, load_patterns, locate
from evidence_gate.quality.recognise import recognise

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "tools"
PYTHON_ERRORS: list[tuple[str | None, int | None]] = [("shop.py", 1), ("shop.py", 2)]
CASES: dict[str, list[tuple[str | None, int | None]]] = {
    "mypy/clean.log": [],
    "mypy/errors.log": [("shop.py", 6), ("shop.py", 9), ("shop.py", 10)],  # notes are no diagnostics
    "ruff/clean.log": [],
    "ruff/errors.log": PYTHON_ERRORS,  # the full format: the place on the `-->` line
    "ruff/concise.log": PYTHON_ERRORS,
    "flake8/errors.log": PYTHON_ERRORS,
    "pylint/errors.log": [("shop.py", 1), ("shop.py", 5), ("shop.py", 9), ("shop.py", 1), ("shop.py", 2)],
    "pyright/errors.log": [("/checkout/shop/shop.py", 6), ("/checkout/shop/shop.py", 10)],
    "eslint/stylish.log": [("/checkout/shop/src/shop.js", 1), ("/checkout/shop/src/shop.js", 2)],
    "eslint/unix.log": [("/checkout/shop/src/shop.js", 1), ("/checkout/shop/src/shop.js", 2)],
    "eslint/compact.log": [("/checkout/shop/src/shop.js", 1), ("/checkout/shop/src/shop.js", 2)],
    "tsc/plain.log": [("src/shop.ts", 1), ("src/shop.ts", 4)],
    "tsc/pretty.log": [("src/shop.ts", 1), ("src/shop.ts", 4)],
    "go-vet/clean.log": [],
    "go-vet/errors.log": [("./shop.go", 5), ("./shop.go", 7)],  # the `# pkg` header is none
    "go-vet/undefined.log": [("./shop.go", 3)],  # `vet: ` before it
    "golangci-lint/clean.log": [],
    "golangci-lint/errors.log": [("shop.go", 7), ("shop.go", 10)],  # the source line and caret under each are none
    "cargo/warnings.log": [("src/lib.rs", 2)],  # `warning: …` placed by its `-->` line
    "cargo/check-warnings.log": [("src/lib.rs", 2)],
    "cargo/check-error.log": [("src/lib.rs", 2), ("src/lib.rs", 3)],  # a warning, then the error
    "cargo/clippy.log": [("src/lib.rs", 1)],
}


def located(name: str) -> list[tuple[str | None, int | None]]:
    return [(item.path, item.line) for item in locate(read_captured(FIXTURES / name, "tool", name).lines)]


@pytest.mark.parametrize("name", sorted(CASES))
def test_each_tools_diagnostics_are_located_at_the_file_and_line_they_name(name: str) -> None:
    assert located(name) == CASES[name]


def test_every_captured_output_has_its_case() -> None:
    assert sorted(str(path.relative_to(FIXTURES)) for path in FIXTURES.glob("*/*.log")) == sorted(CASES)


def test_a_type_checkers_warning_is_no_error_where_its_diagnostics_are_placed() -> None:
    def errors(name: str) -> list[tuple[str | None, int | None, str]]:
        lines = read_captured(FIXTURES / name, "cargo check", name, errors_only=True).lines
        return [(item.path, item.line, item.message) for item in locate(lines, errors_only=True)]

    assert errors("cargo/check-warnings.log") == []
    assert errors("cargo/check-error.log") == [("src/lib.rs", 3, "error[E0308]: mismatched types")]


def test_the_message_is_the_diagnostics_own() -> None:
    (first, *_) = locate(read_captured(FIXTURES / "cargo/warnings.log", "cargo", "cargo").lines)
    assert first.message == "warning: unused variable: `unused`"
    (first, *_) = locate(read_captured(FIXTURES / "tsc/plain.log", "tsc", "tsc").lines)
    assert first.message == "TS2322: Type 'string' is not assignable to type 'number'."


def test_golangci_lints_line_names_its_linter_after_the_message() -> None:
    (found,) = locate(["pkg/shop.go:12:2: ineffectual assignment to err (ineffassign)"])
    assert (found.path, found.line) == ("pkg/shop.go", 12)


def test_an_opening_with_no_arrow_before_the_next_diagnostic_has_no_place() -> None:
    lines = ["warning: the crate has no docs", "warning: unused variable: `x`", " --> src/lib.rs:4:9"]
    assert [(item.path, item.line) for item in locate(lines)] == [(None, None), ("src/lib.rs", 4)]


MANIFEST_WARNINGS = [
    "warning: no edition set: defaulting to the 2015 edition while the latest is 2024",
    "warning: unused manifest key: package.authors2",
]


def test_cargos_manifest_warnings_are_about_cargo_toml_the_base_s_when_the_change_left_it_alone() -> None:
    """`warning: no edition set` is printed by cargo for Cargo.toml itself, with no line: on a first
    pull request that leaves Cargo.toml alone it is the base's, never a new warning with no place."""
    found = locate(MANIFEST_WARNINGS)
    assert [(item.path, item.line) for item in found] == [("Cargo.toml", None), ("Cargo.toml", None)]
    untouched = ChangedLines(lines={"src/lib.rs": frozenset({3})}, top="/w", root="")
    located = classify(found, untouched, None)
    assert (located.pre_existing, located.new) == (2, 0)


def test_a_manifest_warning_stays_the_bases_when_the_change_to_cargo_toml_could_not_cause_it() -> None:
    """bluss/either#51 adds a feature to Cargo.toml; the base has no edition either, so cargo's
    `no edition set` is the base's, not a warning the pull request added."""
    touched = ChangedLines(
        lines={"Cargo.toml": frozenset({20})}, top="/w", edits={"Cargo.toml": ("[features]", "use_std = []")}
    )
    located = classify(locate(MANIFEST_WARNINGS), touched, None)
    assert (located.pre_existing, located.new, located.unlocated) == (2, 0, 0)


def test_a_manifest_warning_is_new_when_the_change_added_or_removed_the_line_it_is_about() -> None:
    removed_edition = ChangedLines(
        lines={"Cargo.toml": frozenset()}, top="/w", edits={"Cargo.toml": ('edition = "2018"',)}
    )
    located = classify(locate(MANIFEST_WARNINGS), removed_edition, None)
    assert (located.pre_existing, located.new) == (1, 1)
    assert located.new_shown[0].text == f"Cargo.toml: {MANIFEST_WARNINGS[0]}"
    added_key = ChangedLines(
        lines={"Cargo.toml": frozenset({2})}, top="/w", edits={"Cargo.toml": ('authors2 = ["x"]',)}
    )
    located = classify(locate(MANIFEST_WARNINGS), added_key, None)
    assert (located.pre_existing, located.new) == (1, 1)
    assert located.new_shown[0].text == f"Cargo.toml: {MANIFEST_WARNINGS[1]}"


def test_an_unused_key_is_matched_as_a_whole_name() -> None:
    """`authors` names no `authors2`: a change to the one is no cause of a warning about the other."""
    near = ChangedLines(lines={"Cargo.toml": frozenset({2})}, top="/w", edits={"Cargo.toml": ('authors = ["x"]',)})
    assert classify(locate(MANIFEST_WARNINGS[1:]), near, None).new == 0


def test_a_manifest_warning_about_a_file_the_change_added_is_new() -> None:
    added = ChangedLines(
        lines={"Cargo.toml": frozenset({1, 2})},
        top="/w",
        edits={"Cargo.toml": ("[package]",)},
        new_files=frozenset({"Cargo.toml"}),
    )
    assert classify(locate(MANIFEST_WARNINGS), added, None).new == 2


def test_a_workspace_members_manifest_warning_names_its_file_and_is_judged_by_that_files_change() -> None:
    """In a workspace cargo names the member's manifest: the warning is about that file, and its
    cause is looked for in that file's changed lines."""
    lines = [
        "warning: /w/crates/m/Cargo.toml: no edition set: defaulting to the 2015 edition while the latest is 2024",
        "warning: /w/crates/m/Cargo.toml: unused manifest key: package.authors3",
    ]
    found = locate(lines)
    assert [(item.path, item.line) for item in found] == [("/w/crates/m/Cargo.toml", None)] * 2
    changed = ChangedLines(
        lines={"crates/m/Cargo.toml": frozenset({4})}, top="/w", edits={"crates/m/Cargo.toml": ('authors3 = ["x"]',)}
    )
    located = classify(found, changed, None)
    assert (located.pre_existing, located.new) == (1, 1)
    assert [item.where for item in located.new_shown] == ["crates/m/Cargo.toml"]


def test_a_whole_file_pattern_with_no_cause_is_new_whenever_the_change_touched_the_file() -> None:
    entry = b"{tools: [x], kind: whole_file, file: setup.cfg, pattern: '^(?P<message>W: .+)$'}"
    table = load_patterns(b"version: 1\npatterns:\n  - " + entry + b"\n", "locations.yaml")
    touched = ChangedLines(lines={"setup.cfg": frozenset({3})}, top="/w", edits={"setup.cfg": ("x = 1",)})
    assert classify(locate(["W: deprecated section"], table), touched, None).new == 1


@pytest.mark.parametrize(
    ("entry", "error"),
    [
        ("{tools: [x], kind: whole_file, pattern: '^(?P<message>W: .+)$'}", "by `file` or by a `path` group"),
        (
            "{tools: [x], kind: whole_file, file: a.toml, pattern: '^(?P<message>W: (?P<path>.+))$'}",
            "by `file` or by a `path` group",
        ),
        ("{tools: [x], kind: whole_file, file: a.toml, pattern: '^(?P<message>W: .+)$', cause: 'k{key}'}", "no group"),
        ("{tools: [x], kind: whole_file, file: a.toml, pattern: '^(?P<message>W: .+)$', cause: '(k'}", "cause:"),
        ("{tools: [x], kind: skip, pattern: '^x', cause: 'k'}", "patterns/0"),
    ],
)
def test_a_whole_file_pattern_names_one_file_and_a_cause_that_reads(entry: str, error: str) -> None:
    with pytest.raises(ConfigError, match=error):
        load_patterns(f"version: 1\npatterns:\n  - {entry}\n".encode(), "locations.yaml")


def test_the_compilers_closing_counts_are_no_diagnostics() -> None:
    lines = [
        "warning: `shop` (lib) generated 1 warning",
        "warning: 1 warning emitted",
        "error: aborting due to 2 previous errors",
        "error: could not compile `shop` (lib) due to 2 previous errors",
    ]
    assert locate(lines) == ()


def test_a_pattern_without_the_groups_its_kind_needs_is_refused() -> None:
    table = b"version: 1\npatterns:\n  - {tools: [x], kind: diagnostic, pattern: '^(?P<path>.+):(?P<line>\\\\d+)$'}\n"
    with pytest.raises(ConfigError, match="needs the group"):
        load_patterns(table, "locations.yaml")


CHANGED = ChangedLines(lines={"shop/cart.py": frozenset({3, 4}), "shop/new.py": frozenset({1})}, top="/checkout/shop")


def test_paths_are_made_repository_relative() -> None:
    assert repo_path("/checkout/shop/shop/cart.py", CHANGED) == "shop/cart.py"
    assert repo_path("./shop/cart.py", CHANGED) == "shop/cart.py"
    under = ChangedLines(lines={}, top="/checkout/shop", root="backend")
    assert repo_path("app.py", under) == "backend/app.py"  # the tool ran in the stack's root
    assert repo_path("backend/app.py", under) == "backend/app.py"


def test_a_diagnostic_on_a_changed_line_is_new_and_the_rest_are_the_bases() -> None:
    found = [
        Found(path="shop/cart.py", line=3, message="F401 `os` imported but unused"),  # a changed line
        Found(path="shop/cart.py", line=9, message="E501 line too long"),  # a line it did not touch
        Found(path="shop/old.py", line=1, message="E501 line too long"),  # a file it did not touch
        Found(path="/home/runner/work/shop/shop/new.py", line=1, message="F821"),  # the job's checkout
    ]
    result = classify(found, CHANGED, counted=4)
    assert (result.pre_existing, result.new, result.unlocated) == (2, 2, 0)
    assert [item.text for item in result.new_shown] == [
        "shop/cart.py:3: F401 `os` imported but unused",
        "/home/runner/work/shop/shop/new.py:1: F821",
    ]


def test_a_diagnostic_with_no_place_and_one_only_the_summary_counts_are_new() -> None:
    found = [
        Found(path=None, line=None, message="warning: unused manifest key"),
        Found(path="a.py", line=1, message="x"),
    ]
    result = classify(found, CHANGED, counted=3)
    assert (result.pre_existing, result.new, result.unlocated) == (1, 2, 2)


def test_the_fixtures_count_agrees_with_what_is_located() -> None:
    for name in ("ruff/errors.log", "mypy/errors.log", "tsc/pretty.log", "pyright/errors.log"):
        captured = read_captured(FIXTURES / name, "tool", name)
        assert count(captured.lines, captured.exit_code) == len(CASES[name]), name


@pytest.mark.parametrize("name", sorted(CASES))
def test_each_captured_log_is_recognised_as_the_tool_that_wrote_it(name: str) -> None:
    tools = {"go-vet": "go vet", "cargo": "cargo check"}
    expected = {"cargo/clippy.log": "cargo clippy", "go-vet/clean.log": None}  # go vet prints nothing when clean
    folder = name.split("/")[0]
    found = recognise(read_captured(FIXTURES / name, "tool", name).lines)
    assert (found.name if found else None) == expected.get(name, tools.get(folder, folder))


def test_golangci_lint_is_recognised_by_its_linter_names() -> None:
    found = recognise(["pkg/shop.go:12:2: ineffectual assignment to err (ineffassign)", "1 issues:"])
    assert found is not None and found.name == "golangci-lint"
    assert found.ran("golangci-lint run ./...") and not found.ran("go vet ./...")


def test_a_clippy_run_that_stops_the_build_counts_its_diagnostics_not_its_closing_lines() -> None:
    """`-D warnings` turns clippy's findings into errors and the build stops: cargo's closing lines
    (`could not compile … due to N previous errors`, `build failed, waiting for other jobs`) are no
    diagnostics, so no count is left over to be called new with no place."""
    lines = [
        "warning: no edition set: defaulting to the 2015 edition while the latest is 2024",
        "error: deref on an immutable reference",
        "  --> src/lib.rs:9:5",
        "error: could not compile `shop` (lib) due to 1 previous error",
        "warning: build failed, waiting for other jobs to finish...",
    ]
    assert count(lines, 101) == 2
    untouched = ChangedLines(lines={"src/lib.rs": frozenset({3})}, top="/w", root="")
    located = classify(locate(lines), untouched, count(lines, 101))
    assert (located.pre_existing, located.new, located.unlocated) == (2, 0, 0)


def test_the_changed_lines_carry_each_files_edits_and_which_files_are_new() -> None:
    def changed(path: str, status: FileStatus, removed: tuple[str, ...], added: tuple[str, ...]) -> ChangedFile:
        hunk = Hunk(
            old_start=1,
            old_lines=len(removed),
            new_start=1,
            new_lines=len(added),
            section="",
            added=tuple(ChangedLine(number=n, text=text) for n, text in enumerate(added, start=1)),
            removed=tuple(ChangedLine(number=n, text=text) for n, text in enumerate(removed, start=1)),
        )
        return ChangedFile(
            path=path,
            old_path=None,
            status=status,
            kind=FileKind.GATE_CONFIG,
            binary=False,
            old_mode=None,
            new_mode=None,
            similarity=None,
            hunks=(hunk,),
        )

    change = Change(
        base="b",
        head="h",
        merge_base="b",
        files=(
            changed("Cargo.toml", FileStatus.MODIFIED, ('edition = "2018"',), ("[features]",)),
            changed("crates/m/Cargo.toml", FileStatus.ADDED, (), ("[package]",)),
        ),
    )
    lines = changed_lines(change, Path("/w"), ".")
    assert lines is not None
    assert lines.edits == {"Cargo.toml": ('edition = "2018"', "[features]"), "crates/m/Cargo.toml": ("[package]",)}
    assert lines.new_files == {"crates/m/Cargo.toml"}
