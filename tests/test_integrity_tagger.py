"""The gate-edit inventory's idiom tags on real diffs: two relaxing examples and one control (an edit
of the same file that relaxes nothing) per tag, across languages, in real git repositories."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import pytest

from evidence_gate.changes import PathClassifier, collect_changes
from evidence_gate.errors import ConfigError
from evidence_gate.git import Git
from evidence_gate.integrity.idioms import default_idioms, load_idioms
from evidence_gate.integrity.survey import reader
from evidence_gate.integrity.tagger import Inventory, inventory
from evidence_gate.model import FileKind
from evidence_gate.stacks.detect import detect
from evidence_gate.stacks.table import default_table

from .conftest import Repo, local_environment

IDIOMS = Path(__file__).resolve().parents[1] / "src" / "evidence_gate" / "integrity" / "idioms.yaml"
PY_TEST = "import pytest\n\n\ndef test_total():\n    assert 1 + 1 == 2\n"
JS_TEST = "describe('cart', () => {\n  it('totals', () => {\n    expect(1 + 1).toBe(2);\n  });\n});\n"
GO_TEST = (
    'package shop\n\nimport "testing"\n\nfunc TestTotal(t *testing.T) {\n\tif 1+1 != 2 {\n\t\tt.Fatal("sum")\n\t}\n}\n'
)
RS_SRC = "pub fn total(a: u32, b: u32) -> u32 {\n    a + b\n}\n"
WORKFLOW = "on: pull_request\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - run: pytest\n"
PROJECTS = {
    "python": {"pyproject.toml": "[project]\nname = 'shop'\n", "shop.py": "def total(a, b):\n    return a + b\n"},
    "node": {"package.json": '{"name": "shop", "main": "index.js", "devDependencies": {"jest": "29"}}\n'},
    "go": {"go.mod": "module example.com/shop\n\ngo 1.22\n"},
    "rust": {"Cargo.toml": '[package]\nname = "shop"\nversion = "0.1.0"\nedition = "2021"\n'},
}


def inventory_of(repo: Repo, project: str, base: Mapping[str, str], head: Mapping[str, str | None]) -> Inventory:
    """The project and `base` committed, then `head` (None deletes a file), inventoried."""
    first = repo.commit("base", {**PROJECTS[project], **base})
    for path, text in head.items():
        if text is None:
            (repo.path / path).unlink()
    repo.commit("head", {path: text for path, text in head.items() if text is not None})
    return inventory_between(repo, first)


def inventory_between(repo: Repo, first: str, second: str = "HEAD") -> Inventory:
    table = default_table()
    classifier = PathClassifier(table=table, matches=detect(repo.path, table).matches)
    change = collect_changes(Git(repo.path, local_environment()), first, second, classifier)
    return inventory(change, default_idioms(), reader(Git(repo.path, local_environment())))


def tags(found: Inventory) -> list[tuple[str, tuple[str, ...]]]:
    return [(hunk.path, hunk.tags) for hunk in found.hunks]


CASES = [
    # (tag, project, base files, head files, expected tags of the edited file's hunk)
    (
        "RH-1",
        "python",
        {"tests/test_cart.py": PY_TEST},
        {"tests/test_cart.py": PY_TEST.replace("def test_total", "@pytest.mark.xfail(reason='flaky')\ndef test_total")},
        ("RH-1",),
    ),
    (
        "RH-1",
        "go",
        {"cart_test.go": GO_TEST},
        {"cart_test.go": GO_TEST.replace("\tif 1+1", '\tt.Skip("later")\n\tif 1+1')},
        ("RH-1",),
    ),
    (
        "RH-1 control",
        "python",
        {"tests/test_cart.py": PY_TEST},
        {
            "tests/test_cart.py": PY_TEST
            + "\n\ndef test_skip_words_in_a_name_are_no_skip():\n    assert 'skip' in 'skipper'\n"
        },
        (),
    ),
    (
        "RH-1",
        "python",
        {"tests/test_cart.py": PY_TEST},
        {"tests/test_cart.py": PY_TEST.replace("def test_total", "@pytest.mark.skip\ndef test_total")},
        ("RH-1",),
    ),
    (
        "RH-1 control: a decorator's text printed",
        "python",
        {"tests/test_cart.py": PY_TEST},
        {
            "tests/test_cart.py": PY_TEST
            + "\n\ndef test_hint():\n    print('@pytest.mark.skip')\n    assert '@unittest.skip' in HINT\n"
        },
        (),
    ),
    (
        "RH-2",
        "node",
        {"cart.test.js": JS_TEST},
        {"cart.test.js": JS_TEST.replace("it('totals'", "it.only('totals'")},
        ("RH-2",),
    ),
    (
        "RH-2",
        "node",
        {"cart.test.js": JS_TEST},
        {"cart.test.js": JS_TEST.replace("describe('cart'", "fdescribe('cart'")},
        ("RH-2",),
    ),
    (
        "RH-2 control",
        "node",
        {"cart.test.js": JS_TEST},
        {
            "cart.test.js": JS_TEST.replace(
                "expect(1 + 1).toBe(2);", "expect(1 + 1).toBe(2);\n    expect(2 + 2).toBe(4);"
            )
        },
        (),
    ),
    (
        "RH-6",
        "go",
        {"cart.go": "package shop\n\nfunc Total() int { return 1 }\n"},
        {"cart.go": "package shop\n\nfunc Total() int { return 1 } //nolint:errcheck\n"},
        ("RH-6",),  # a comment: no code changed, so no test is asked for (RH-15?)
    ),
    ("RH-6", "rust", {"src/lib.rs": RS_SRC}, {"src/lib.rs": "#[allow(deprecated)]\n" + RS_SRC}, ("RH-6", "RH-15?")),
    (
        "RH-7",
        "python",
        {"shop.py": "def total(a, b):\n    return a + b\n"},
        {"shop.py": "def total(a, b):  # pragma: no cover\n    return a + b\n"},
        ("RH-7",),  # likewise
    ),
    (
        "RH-7",
        "node",
        {"index.js": "module.exports = (a, b) => a + b;\n"},
        {"index.js": "/* istanbul ignore next */\nmodule.exports = (a, b) => a + b;\n"},
        ("RH-7",),  # likewise
    ),
    (
        "RH-9",
        "python",
        {".github/workflows/test.yml": WORKFLOW},
        {
            ".github/workflows/test.yml": WORKFLOW.replace(
                "      - run: pytest", "      - run: pytest\n        continue-on-error: true"
            )
        },
        ("RH-9",),
    ),
    (
        "RH-9",
        "python",
        {".github/workflows/test.yml": WORKFLOW},
        {".github/workflows/test.yml": WORKFLOW.replace("run: pytest", "run: pytest || true")},
        ("RH-9",),
    ),
    (
        "RH-9 control",
        "python",
        {".github/workflows/test.yml": WORKFLOW},
        {".github/workflows/test.yml": WORKFLOW + "      - run: ruff check .\n"},
        (),
    ),
    (
        "RH-12",
        "python",
        {"pytest.ini": "[pytest]\naddopts = -q\n"},
        {"pytest.ini": "[pytest]\naddopts = -q --deselect tests/test_cart.py::test_total\n"},
        ("RH-12",),
    ),
    (
        "RH-12",
        "python",
        {".github/workflows/test.yml": WORKFLOW},
        {".github/workflows/test.yml": WORKFLOW.replace("run: pytest", "run: pytest -k 'not slow'")},
        ("RH-12",),
    ),
    (
        "RH-13",
        "python",
        {"tests/test_cart.py": PY_TEST},
        {"tests/test_cart.py": PY_TEST.replace("def test_total", "@pytest.mark.flaky(reruns=3)\ndef test_total")},
        ("RH-13",),
    ),
    (
        "RH-13",
        "python",
        {".github/workflows/test.yml": WORKFLOW},
        {".github/workflows/test.yml": WORKFLOW.replace("run: pytest", "run: pytest --reruns 2")},
        ("RH-13",),
    ),
]


@pytest.mark.parametrize(("tag", "project", "base", "head", "expected"), CASES, ids=[case[0] for case in CASES])
def test_each_tag_marks_its_relaxation_and_not_its_control(
    repo: Repo, tag: str, project: str, base: dict[str, str], head: dict[str, str | None], expected: tuple[str, ...]
) -> None:
    (path,) = head
    found = inventory_of(repo, project, base, head)
    assert [hunk_tags for hunk_path, hunk_tags in tags(found) if hunk_path == path] == [expected]


def test_a_test_file_deleted_with_its_module_is_a_removed_test(repo: Repo) -> None:
    """RH-3 even though what is left passes: the test went with the code it covered."""
    base = {"shop/discount.py": "def off(x):\n    return x\n", "tests/test_discount.py": PY_TEST}
    found = inventory_of(repo, "python", base, {"shop/discount.py": None, "tests/test_discount.py": None})
    assert tags(found) == [("tests/test_discount.py", ("RH-3",))]  # the production file is no gate edit


def test_a_rewritten_snapshot_is_tagged_and_a_new_one_is_not(repo: Repo) -> None:
    snapshot = "exports[`cart 1`] = `3`;\n"
    base = {"cart.test.js": JS_TEST, "__snapshots__/cart.test.js.snap": snapshot}
    head = {"__snapshots__/cart.test.js.snap": snapshot.replace("`3`", "`4`"), "__snapshots__/new.snap": snapshot}
    found = inventory_of(repo, "node", base, head)
    assert tags(found) == [("__snapshots__/cart.test.js.snap", ("RH-11",)), ("__snapshots__/new.snap", ())]


def test_a_skipped_test_moved_within_its_file_is_not_skipped_again(repo: Repo) -> None:
    skipped = "@pytest.mark.skip(reason='needs the sandbox')\ndef test_refund():\n    assert False\n"
    base = {"tests/test_cart.py": PY_TEST + "\n\n" + skipped}
    head = {"tests/test_cart.py": "import pytest\n\n\n" + skipped + "\n\n" + PY_TEST.split("\n\n\n", 1)[1]}
    found = tags(inventory_of(repo, "python", base, head))
    assert found and all(hunk_tags == () for _, hunk_tags in found)


def test_a_gate_edit_in_a_language_without_idioms_is_named_unlisted(repo: Repo) -> None:
    elixir = 'defmodule CartTest do\n  use ExUnit.Case\n  test "total" do\n    assert 1 + 1 == 2\n  end\nend\n'
    base = {"mix.exs": "defmodule Cart.MixProject do\nend\n", "test/cart_test.exs": elixir}
    found = inventory_of(
        repo, "python", base, {"test/cart_test.exs": elixir.replace('test "total"', '@tag :skip\n  test "total"')}
    )
    assert found.languages_unlisted == ("*.exs",)


def test_an_idiom_that_does_not_compile_is_one_line_naming_its_tag() -> None:
    table = IDIOMS.read_text(encoding="utf-8").replace("'^\\s*@pytest\\.mark\\.(skip|skipif|xfail)\\b'", "'('", 1)
    with pytest.raises(ConfigError, match=r"^t.yaml: RH-1 added.python: missing \), unterminated subpattern"):
        load_idioms(table.encode(), "t.yaml")


def test_a_threshold_without_its_value_group_is_refused() -> None:
    table = IDIOMS.read_text(encoding="utf-8").replace("(?P<value>\\d+)'}", "\\d+'}", 1)
    with pytest.raises(ConfigError, match=r"^t.yaml: thresholds/8: the pattern has no `value` group"):
        load_idioms(table.encode(), "t.yaml")


def test_a_narrowed_scope_pattern_without_its_scope_group_is_refused() -> None:
    table = IDIOMS.read_text(encoding="utf-8").replace("(?P<scope>", "(", 1)
    with pytest.raises(ConfigError, match=r"^t.yaml: narrowed/0: the pattern has no `scope` group"):
        load_idioms(table.encode(), "t.yaml")


def test_a_config_rule_that_judges_a_value_without_one_is_refused() -> None:
    table = IDIOMS.read_text(encoding="utf-8").replace(", value: '^true\\b'}", "}", 1)
    with pytest.raises(ConfigError, match=r"^t.yaml: configs/rules/\d+: 'value' is a required property"):
        load_idioms(table.encode(), "t.yaml")


def test_a_suppression_pattern_that_does_not_compile_in_the_audit_is_one_line() -> None:
    table = IDIOMS.read_text(encoding="utf-8").replace("{directive: '@phpstan-ignore'", "{directive: '('", 1)
    with pytest.raises(ConfigError, match=r"^t.yaml: audit.fix_by_directive: missing \)"):
        load_idioms(table.encode(), "t.yaml")


@pytest.mark.parametrize(
    ("project", "snapshot"),
    [("node", "src/__snapshots__/cart.test.js.snap"), ("rust", "tests/snapshots/cli__total.snap")],
)
def test_a_snapshot_in_its_runners_snapshot_folder_rewritten_is_rh_11(repo: Repo, project: str, snapshot: str) -> None:
    """jest's `__snapshots__/*.snap` and insta's `snapshots/*.snap`: snapshots, not tests."""
    base = {snapshot: "exports[`cart 1`] = `3`;\n"}
    found = inventory_of(repo, project, base, {snapshot: "exports[`cart 1`] = `4`;\n"})
    assert tags(found) == [(snapshot, ("RH-11",))]
    assert found.hunks[0].kind is FileKind.SNAPSHOT


def test_deleted_test_data_and_helpers_remove_no_test(repo: Repo) -> None:
    data = {f"tests/data/case_{n:03}.json": f'{{"n": {n}}}\n' for n in range(300)}
    base = {**data, "tests/conftest.py": "import pytest\n", "tests/test_cases.py": PY_TEST}
    found = inventory_of(repo, "python", base, {**dict.fromkeys(data), "tests/conftest.py": None})
    assert len(found.hunks) == 301  # listed, each a gate edit to read
    assert not found.tagged
    assert {hunk.kind for hunk in found.hunks} == {FileKind.TEST_DATA, FileKind.TEST_HELPER}


def test_a_dependency_file_is_no_production_change_and_no_rh_15(repo: Repo) -> None:
    base = {"requirements-dev.txt": "pytest==8.2\n", "poetry.lock": "# lock\n"}
    found = inventory_of(repo, "python", base, {"requirements-dev.txt": "pytest==8.3\n", "poetry.lock": "# lock 2\n"})
    assert found.hunks == ()


def test_a_fixture_changed_beside_production_code_pairs_it(repo: Repo) -> None:
    """A helper or data change is a test-side change: the production hunk is not `RH-15?`."""
    base = {"tests/conftest.py": "import pytest\n", "tests/test_shop.py": PY_TEST}
    head = {"shop.py": "def total(a, b):\n    return b + a\n", "tests/conftest.py": "import pytest\n\nSEED = 3\n"}
    found = inventory_of(repo, "python", base, head)
    assert tags(found) == [("tests/conftest.py", ())]


def test_a_skip_added_in_a_helper_is_tagged_as_in_a_test(repo: Repo) -> None:
    base = {"tests/conftest.py": "import pytest\n", "tests/test_shop.py": PY_TEST}
    head = {"tests/conftest.py": "import pytest\n\npytestmark = pytest.mark.skip(reason='flaky')\n"}
    assert tags(inventory_of(repo, "python", base, head)) == [("tests/conftest.py", ("RH-1",))]


RS_INLINE = RS_SRC + "\n#[cfg(test)]\nmod tests {\n    use super::*;\n\n    #[test]\n    fn adds() {\n"
RS_INLINE += "        assert_eq!(total(1, 2), 3);\n    }\n}\n"


def test_a_change_to_a_rust_files_own_tests_alone_is_a_test_change_with_no_rh_15(repo: Repo) -> None:
    """seanmonstar/httparse#205 changed the tests inside src/simd/swar.rs: test edits, no production
    change that wants a test."""
    more = "        assert_eq!(total(1, 2), 3);\n        assert_eq!(total(0, 0), 0);"
    head = {"src/lib.rs": RS_INLINE.replace("        assert_eq!(total(1, 2), 3);", more)}
    found = inventory_of(repo, "rust", {"src/lib.rs": RS_INLINE}, head)
    assert [(hunk.path, hunk.kind, hunk.tags) for hunk in found.hunks] == [("src/lib.rs", FileKind.TEST, ())]


def test_a_rust_file_that_changes_its_code_and_its_tests_pairs_them_and_reads_its_tests_as_tests(
    repo: Repo,
) -> None:
    """The file's production lines are paired by its own tests (no `RH-15?`); its test lines are a
    test's gate edit, read with a test's idioms (an `#[ignore]` added is RH-1)."""
    head = RS_INLINE.replace("a + b", "b + a").replace("    #[test]\n", "    #[test]\n    #[ignore]\n")
    found = inventory_of(repo, "rust", {"src/lib.rs": RS_INLINE}, {"src/lib.rs": head})
    assert [(hunk.kind, hunk.tags) for hunk in found.hunks] == [(FileKind.TEST, ("RH-1",))]
    assert [line.text for hunk in found.hunks for line in hunk.added] == ["    #[ignore]"]


def test_a_rust_files_code_changed_with_no_test_is_still_rh_15(repo: Repo) -> None:
    found = inventory_of(repo, "rust", {"src/lib.rs": RS_INLINE}, {"src/lib.rs": RS_INLINE.replace("a + b", "b + a")})
    assert [(hunk.kind, hunk.tags) for hunk in found.hunks] == [(FileKind.PRODUCTION, ("RH-15?",))]
