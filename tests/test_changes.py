"""The diff model, from real git repositories."""

from __future__ import annotations

import hashlib
import json
import os
import re
import tracemalloc
from collections.abc import Callable
from pathlib import Path

import pytest

from evidence_gate.changes import PathClassifier, collect_changes
from evidence_gate.coverage.measure import changed_production_lines
from evidence_gate.errors import GitError, UsageError
from evidence_gate.git import Git
from evidence_gate.model import Change, ChangedFile, FileKind, FileStatus
from evidence_gate.patch import COUNTED_LINES_HELD, parse_patch, parse_raw
from evidence_gate.stacks.detect import detect
from evidence_gate.stacks.table import default_table

from .conftest import CliResult, Repo, git, local_environment


def changes(repo: Repo, base: str, head: str = "HEAD") -> Change:
    table = default_table()
    classifier = PathClassifier(table=table, matches=detect(repo.path, table).matches)
    return collect_changes(Git(repo.path, local_environment()), base, head, classifier)


def by_path(change: Change) -> dict[str, ChangedFile]:
    return {changed.path: changed for changed in change.files}


def test_statuses_of_every_kind_of_change(repo: Repo) -> None:
    long_text = "".join(f"line {n}\n" for n in range(40))
    base = repo.commit(
        "base",
        {
            "kept.txt": "one\ntwo\n",
            "gone.txt": "bye\n",
            "moved.txt": long_text.replace("line", "row"),
            "source.txt": long_text,
            "script.sh": "echo hi\n",
            "link-target.txt": "target\n",
            "image.bin": b"\x89PNG\x00\x01\x02",
        },
    )
    repo.write({"kept.txt": "one\n2\n", "image.bin": b"\x89PNG\x00\x09\x09", "new.txt": "fresh\n"})
    (repo.path / "gone.txt").unlink()
    repo.git("mv", "moved.txt", "renamed.txt")
    repo.write({"source.txt": long_text + "more\n", "copy.txt": long_text})
    (repo.path / "script.sh").chmod(0o755)
    (repo.path / "link-target.txt").unlink()
    (repo.path / "link-target.txt").symlink_to("kept.txt")
    repo.commit("head")

    files = by_path(changes(repo, base))
    assert {path: changed.status for path, changed in files.items()} == {
        "copy.txt": FileStatus.COPIED,
        "gone.txt": FileStatus.DELETED,
        "image.bin": FileStatus.MODIFIED,
        "kept.txt": FileStatus.MODIFIED,
        "link-target.txt": FileStatus.TYPE_CHANGE,
        "new.txt": FileStatus.ADDED,
        "renamed.txt": FileStatus.RENAMED,
        "script.sh": FileStatus.MODE_CHANGE,
        "source.txt": FileStatus.MODIFIED,
    }
    assert files["renamed.txt"].old_path == "moved.txt"
    assert files["renamed.txt"].similarity == 100
    assert files["copy.txt"].old_path == "source.txt"
    assert (files["script.sh"].old_mode, files["script.sh"].new_mode) == ("100644", "100755")
    assert files["image.bin"].binary
    assert files["image.bin"].hunks == ()
    assert not files["kept.txt"].binary
    assert files["new.txt"].old_mode is None
    link = files["link-target.txt"]
    assert [line.text for line in link.removed_lines] == ["target"]
    assert [line.text for line in link.added_lines] == ["kept.txt"]


def test_hunks_hold_the_real_added_and_removed_lines_with_their_numbers(repo: Repo) -> None:
    old = [f"line {n}" for n in range(1, 21)]
    base = repo.commit("base", {"app.py": "\n".join(old) + "\n"})
    new = old.copy()
    new[4] = "line five"  # line 5 changed
    new.insert(12, "inserted")  # new line 13
    del new[18]  # old line 18 removed
    repo.commit("head", {"app.py": "\n".join(new) + "\n"})

    (changed,) = changes(repo, base).files
    assert [(line.number, line.text) for line in changed.added_lines] == [(5, "line five"), (13, "inserted")]
    assert [(line.number, line.text) for line in changed.removed_lines] == [(5, "line 5"), (18, "line 18")]
    first = changed.hunks[0]
    # The header's span counts context lines; the added/removed lists never do.
    assert (first.old_start, first.old_lines, first.new_start, first.new_lines) == (2, 7, 2, 7)
    assert len(first.added) == len(first.removed) == 1


def test_body_lines_that_look_like_patch_headers_are_read_as_lines(repo: Repo) -> None:
    """A removed SQL comment `-- x` is `--- x` in the patch, an added `++ y` is `+++ y`; lines that
    read `diff --git`, `@@ -1 +1 @@` or `\\ No newline` are content too: hunks are read by their count."""
    old = ["-- the schema", "select 1;", "keep", "@@ -1 +1 @@ old"]
    new = ["++ counter", "select 2;", "keep", "diff --git a/x b/x", "@@ -1 +1 @@ new", "\\ No newline here"]
    base = repo.commit("base", {"schema.sql": "\n".join(old) + "\n", "other.sql": "a\n"})
    repo.commit("head", {"schema.sql": "\n".join(new), "other.sql": "a\nb\n"})

    files = by_path(changes(repo, base))
    removed = files["schema.sql"].removed_lines
    assert [line.text for line in removed] == ["-- the schema", "select 1;", "@@ -1 +1 @@ old"]
    assert [line.text for line in files["schema.sql"].added_lines] == new[:2] + new[3:]
    assert [line.number for line in files["schema.sql"].added_lines] == [1, 2, 4, 5, 6]
    assert [line.text for line in files["other.sql"].added_lines] == ["b"]


def test_a_removed_final_line_without_newline_and_crlf_lines_keep_their_text(repo: Repo) -> None:
    base = repo.commit("base", {"a.txt": "one\ntwo", "b.txt": "x\r\ny\r\n"})
    repo.commit("head", {"a.txt": "one\n2\n", "b.txt": "x\r\nz\r\n"})
    files = by_path(changes(repo, base))
    assert [(line.number, line.text) for line in files["a.txt"].removed_lines] == [(2, "two")]
    assert [(line.number, line.text) for line in files["a.txt"].added_lines] == [(2, "2")]
    assert [line.text for line in files["b.txt"].added_lines] == ["z\r"]


@pytest.mark.parametrize(
    "name",
    [
        "with space.py",
        'quote"d.py',
        "it's.py",
        "ünïcødé/файл.py",
        "-leading-dash.py",
        "new\nline.py",
        "tab\there.py",
        "back\\slash.py",
    ],
)
def test_paths_survive_whatever_they_contain(repo: Repo, name: str) -> None:
    base = repo.commit("base", {"README.md": "x\n"})
    repo.commit("head", {name: "print('hi')\n"})
    (changed,) = changes(repo, base).files
    assert changed.path == name
    assert changed.added_lines[0].text == "print('hi')"


def test_a_path_that_is_not_utf8_survives(repo: Repo) -> None:
    base = repo.commit("base", {"README.md": "x\n"})
    raw_name = b"caf\xe9.txt"
    (repo.path / os.fsdecode(raw_name)).write_bytes(b"latin-1 name\n")
    repo.commit("head")
    (changed,) = changes(repo, base).files
    assert os.fsencode(changed.path) == raw_name
    assert (repo.path / changed.path).read_bytes() == b"latin-1 name\n"


def test_content_that_is_not_utf8_does_not_crash(repo: Repo, cli: Callable[..., CliResult]) -> None:
    base = repo.commit("base", {"notes.txt": "plain\n"})
    repo.commit("head", {"notes.txt": b"plain\n\xff\xfe caf\xe9\n"})
    (changed,) = changes(repo, base).files
    assert changed.added_lines[0].text == "\ufffd\ufffd caf\ufffd"
    result = cli("changes", "--repo", repo.path, "--base", base, "--json")
    assert result.code == 0
    assert json.loads(result.out)["files"][0]["hunks"][0]["added"][0]["text"] == "\ufffd\ufffd caf\ufffd"


def test_the_change_starts_at_the_merge_base_as_on_github(repo: Repo) -> None:
    repo.commit("root", {"a.txt": "a\n"})
    repo.git("checkout", "--quiet", "-b", "feature")
    repo.commit("feature work", {"feature.txt": "f\n"})
    repo.git("checkout", "--quiet", "main")
    repo.commit("main moved on", {"main-only.txt": "m\n"})
    repo.git("checkout", "--quiet", "feature")
    change = changes(repo, "main")
    assert [changed.path for changed in change.files] == ["feature.txt"]
    assert change.merge_base == repo.git("rev-parse", "main~1")


def test_worktree_includes_uncommitted_and_untracked_files_without_touching_the_index(repo: Repo) -> None:
    base = repo.commit("base", {"app.py": "a = 1\n", ".gitignore": "*.log\n"})
    repo.write({"app.py": "a = 2\n", "staged.py": "s = 1\n"})
    repo.git("add", "staged.py")
    repo.write({"untracked.py": "u = 1\n", "debug.log": "ignored\n"})
    index = repo.path / ".git" / "index"
    before = hashlib.sha256(index.read_bytes()).hexdigest()
    status_before = repo.git("status", "--porcelain")

    change = changes(repo, base, "worktree")

    assert change.head == "worktree"
    assert sorted(changed.path for changed in change.files) == ["app.py", "staged.py", "untracked.py"]
    assert hashlib.sha256(index.read_bytes()).hexdigest() == before
    assert repo.git("status", "--porcelain") == status_before


def test_kinds_follow_the_adapters_that_cover_each_path(repo: Repo) -> None:
    base = repo.commit("base", {"go.mod": "module shop\n", "web/package.json": '{"dependencies": {"react": "18"}}'})
    repo.commit(
        "head",
        {
            "cart.go": "package shop\n",
            "cart_test.go": "package shop\n",
            "testdata/cart.golden": "total 3\n",
            "web/src/Cart.tsx": "export {}\n",
            "web/src/Cart.test.tsx": "test('x', () => {})\n",
            "web/src/__snapshots__/Cart.test.tsx.snap": "exports[`x`] = 1\n",
            "web/vitest.config.ts": "export default {}\n",
            ".github/workflows/ci.yml": "on: push\n",
            ".golangci.yml": "linters: {}\n",
            "codecov.yml": "coverage: {}\n",
            "docs/guide.md": "# Guide\n",
            "README.md": "# Shop\n",
        },
    )
    kinds = {changed.path: changed.kind for changed in changes(repo, base).files}
    assert kinds == {
        "cart.go": FileKind.PRODUCTION,
        "cart_test.go": FileKind.TEST,
        "testdata/cart.golden": FileKind.SNAPSHOT,
        "web/src/Cart.tsx": FileKind.PRODUCTION,
        "web/src/Cart.test.tsx": FileKind.TEST,
        "web/src/__snapshots__/Cart.test.tsx.snap": FileKind.SNAPSHOT,
        "web/vitest.config.ts": FileKind.GATE_CONFIG,
        ".github/workflows/ci.yml": FileKind.CI,
        ".golangci.yml": FileKind.GATE_CONFIG,
        "codecov.yml": FileKind.GATE_CONFIG,
        "docs/guide.md": FileKind.DOCS,
        "README.md": FileKind.DOCS,
    }


def test_an_unknown_stack_uses_generic_test_patterns(repo: Repo) -> None:
    base = repo.commit("base", {"main.c": "int main(void){return 0;}\n"})
    repo.commit("head", {"tests/check_main.c": "\n", "src/util.c": "\n"})
    kinds = {changed.path: changed.kind for changed in changes(repo, base).files}
    assert kinds == {"tests/check_main.c": FileKind.TEST, "src/util.c": FileKind.PRODUCTION}


def test_a_missing_base_names_the_fix(repo: Repo) -> None:
    repo.commit("base", {"a.txt": "a\n"})
    with pytest.raises(
        GitError, match=r"cannot resolve base 'origin/main': .*`git fetch --no-tags --depth=1 origin main`"
    ):
        changes(repo, "origin/main")


def test_a_shallow_clone_says_it_is_shallow_and_how_to_deepen(repo: Repo, tmp_path: Path) -> None:
    first = repo.commit("one", {"a.txt": "1\n"})
    repo.commit("two", {"a.txt": "2\n"})
    repo.commit("three", {"a.txt": "3\n"})
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "--quiet", "--depth=1", f"file://{repo.path}", str(clone))
    with pytest.raises(GitError, match=r"not in this clone \(a shallow clone\).*fetch-depth: 0"):
        changes(Repo(clone), first)
    git(clone, "fetch", "--quiet", "--depth=1", "origin", first)
    with pytest.raises(GitError, match=r"no history in this shallow clone.*git fetch --deepen"):
        changes(Repo(clone), first)


def test_a_revision_that_looks_like_an_option_is_refused(repo: Repo) -> None:
    repo.commit("base", {"a.txt": "a\n"})
    with pytest.raises(UsageError, match=r"--base '--output=x': a revision cannot start with '-'"):
        changes(repo, "--output=x")


def test_changes_cli_json_and_text(repo: Repo, cli: Callable[..., CliResult]) -> None:
    base = repo.commit("base", {"pyproject.toml": "[project]\nname='x'\n", "x.py": "a = 1\n"})
    repo.commit("head", {"x.py": "a = 2\n", "tests/test_x.py": "def test_a(): pass\n", "new\nline.py": ""})
    result = cli("changes", "--repo", repo.path, "--base", base, "--json")
    assert result.code == 0, result.err
    document = json.loads(result.out)
    assert document["base"] == base
    assert [(f["path"], f["status"], f["kind"]) for f in document["files"]] == [
        ("new\nline.py", "added", "production"),
        ("tests/test_x.py", "added", "test"),
        ("x.py", "modified", "production"),
    ]
    assert document["files"][2]["hunks"][0]["added"] == [{"number": 1, "text": "a = 2"}]
    text = cli("changes", "--repo", repo.path, "--base", base)
    assert text.code == 0
    assert text.out.splitlines()[1:] == [
        "  added       production  +0 -0       new\\nline.py",
        "  added       test        +1 -0       tests/test_x.py",
        "  modified    production  +1 -1       x.py",
    ]


def test_changes_bad_inputs_are_one_line_errors(tmp_path: Path, repo: Repo, cli: Callable[..., CliResult]) -> None:
    not_repo = cli("changes", "--repo", tmp_path, "--base", "main")
    assert not_repo.code == 2
    assert not_repo.err.startswith(f"evidence-gate: error: {tmp_path}: not a git repository (")
    assert not_repo.err.count("\n") == 1
    missing_dir = cli("changes", "--repo", tmp_path / "nope", "--base", "main")
    assert (missing_dir.code, missing_dir.err) == (
        2,
        f"evidence-gate: error: {tmp_path / 'nope'}: no such directory\n",
    )
    repo.commit("only", {"a.txt": "a\n"})
    missing_base = cli("changes", "--repo", repo.path, "--base", "origin/main")
    assert missing_base.code == 2
    assert missing_base.err.count("\n") == 1
    assert "fetch-depth: 0" in missing_base.err


def test_an_empty_repository_is_a_one_line_error(repo: Repo, cli: Callable[..., CliResult]) -> None:
    result = cli("changes", "--repo", repo.path, "--base", "main")
    assert result.code == 2
    assert result.err.startswith("evidence-gate: error: cannot resolve base 'main'")


@pytest.mark.parametrize(
    ("patch", "why"),
    [
        (b"index 1..2\n", "a `diff --git` line was expected"),
        (b"diff --git a/x b/x\n@@ -1,2 +1,2 @@\n-a\n+b\n", "the hunk ends before the lines its header counts"),
        (b"diff --git a/x b/x\n@@ -1 +1 @@\n-a\n*b\n", "a hunk line starts with none of ' ', '+', '-'"),
        (b"diff --git a/x b/x\n@@ -1 +1 @@\n+a\n+b\n", "the hunk holds more lines than its header counts"),
        (b"diff --git a/x b/x\n@@ -one +1 @@\n", "the hunk header is malformed"),
        pytest.param(
            b"diff --git a/x b/x\n@@ -" + b"1" * 5_000 + b" +1 @@\n", "the hunk header is malformed", id="5000-digits"
        ),
    ],
)
def test_a_patch_git_did_not_write_is_refused_with_its_line(patch: bytes, why: str) -> None:
    with pytest.raises(GitError, match=re.escape(why)):
        parse_patch(patch)


def test_a_raw_entry_whose_score_is_not_gits_has_none() -> None:
    """A score of 5,000 digits raised int()'s ValueError; git writes at most three."""
    entries, _ = parse_raw(b":100644 100644 abc def R" + b"1" * 5_000 + b"\x00old\x00new\x00")
    assert [(entry.status, entry.score, entry.old_path, entry.path) for entry in entries] == [("R", None, "old", "new")]


def test_a_file_is_a_test_only_if_its_runner_runs_it_as_one(repo: Repo) -> None:
    base = repo.commit(
        "base",
        {
            "pyproject.toml": "[project]\nname = 'shop'\n",
            "web/package.json": '{"main": "index.js", "devDependencies": {"jest": "29"}}\n',
            "Cargo.toml": '[package]\nname = "shop"\nversion = "0.1.0"\n',
        },
    )
    repo.commit(
        "head",
        {
            "shop/cart.py": "\n",
            "tests/test_cart.py": "\n",
            "tests/conftest.py": "\n",
            "tests/helpers/builders.py": "\n",
            "tests/fixtures/test_sample.py": "\n",
            "tests/data/cart.json": "{}\n",
            "tests/__snapshots__/test_cart.ambr": "\n",
            "tests/README.md": "# Tests\n",
            "shop/tests.py": "\n",
            "web/src/cart.test.js": "\n",
            "web/test/fixtures/app.js": "\n",
            "web/test/helpers/db.js": "\n",
            "web/test/cart.js": "\n",
            "web/src/__snapshots__/cart.test.js.snap": "\n",
            "web/tap-snapshots/test/cart.test.js.test.cjs": "\n",
            "web/package-lock.json": "{}\n",
            "src/lib.rs": "\n",
            "tests/cli.rs": "\n",
            "tests/common/mod.rs": "\n",
            "tests/snapshots/cli__total.snap": "\n",
            "requirements-dev.txt": "pytest\n",
            "requirements/base.txt": "attrs\n",
            "constraints.txt": "attrs==23\n",
            "poetry.lock": "\n",
            "Cargo.lock": "\n",
        },
    )
    kinds = {changed.path: changed.kind for changed in changes(repo, base).files}
    assert kinds == {
        "shop/cart.py": FileKind.PRODUCTION,
        "tests/test_cart.py": FileKind.TEST,
        "tests/conftest.py": FileKind.TEST_HELPER,
        "tests/helpers/builders.py": FileKind.TEST_HELPER,
        "tests/fixtures/test_sample.py": FileKind.TEST_HELPER,
        "tests/data/cart.json": FileKind.TEST_DATA,
        "tests/__snapshots__/test_cart.ambr": FileKind.SNAPSHOT,
        "tests/README.md": FileKind.DOCS,
        "shop/tests.py": FileKind.TEST,
        "web/src/cart.test.js": FileKind.TEST,
        "web/test/fixtures/app.js": FileKind.TEST_HELPER,
        "web/test/helpers/db.js": FileKind.TEST_HELPER,
        "web/test/cart.js": FileKind.TEST,
        "web/src/__snapshots__/cart.test.js.snap": FileKind.SNAPSHOT,
        "web/tap-snapshots/test/cart.test.js.test.cjs": FileKind.SNAPSHOT,
        "web/package-lock.json": FileKind.DEPENDENCY,
        "src/lib.rs": FileKind.PRODUCTION,
        "tests/cli.rs": FileKind.TEST,
        "tests/common/mod.rs": FileKind.TEST_HELPER,
        "tests/snapshots/cli__total.snap": FileKind.SNAPSHOT,
        "requirements-dev.txt": FileKind.DEPENDENCY,
        "requirements/base.txt": FileKind.DEPENDENCY,
        "constraints.txt": FileKind.DEPENDENCY,
        "poetry.lock": FileKind.DEPENDENCY,
        "Cargo.lock": FileKind.DEPENDENCY,
    }


@pytest.mark.parametrize(
    ("stack", "test", "helper", "data"),
    [
        ("go.mod", "cart_test.go", "testdata/cart_test.go", None),
        ("pom.xml", "src/test/java/CartTest.java", "src/test/java/Builders.java", "src/test/resources/a.json"),
        ("Gemfile", "spec/cart_spec.rb", "spec/support/builders.rb", "spec/fixtures/a.yml"),
        ("composer.json", "tests/CartTest.php", "tests/Builders.php", "tests/fixtures/a.json"),
        ("mix.exs", "test/cart_test.exs", "test/support/builders.ex", "test/fixtures/a.json"),
        ("pubspec.yaml", "test/cart_test.dart", "test/builders.dart", "test/a.json"),
        ("Package.swift", "Tests/ShopTests/CartTests.swift", "Tests/ShopTests/Builders.swift", "Tests/a.json"),
        ("CMakeLists.txt", "tests/cart_test.cpp", "tests/builders.h", "tests/a.json"),
    ],
)
def test_each_stack_tells_its_tests_from_their_helpers_and_data(
    repo: Repo, stack: str, test: str, helper: str, data: str | None
) -> None:
    base = repo.commit("base", {stack: "\n"})
    files = {test: "\n", helper: "\n", **({data: "\n"} if data else {})}
    repo.commit("head", files)
    kinds = {changed.path: changed.kind for changed in changes(repo, base).files}
    assert kinds[test] is FileKind.TEST
    assert kinds[helper] in (FileKind.TEST_HELPER, FileKind.SNAPSHOT)  # Go's testdata/ holds golden files
    if data:
        assert kinds[data] is FileKind.TEST_DATA


RUST_CARGO = '[package]\nname = "shop"\nversion = "0.1.0"\nedition = "2021"\n'
RUST_SOURCE = """pub fn total(prices: &[u32]) -> u32 {
    prices.iter().sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sums() {
        assert_eq!(total(&[1, 2]), 3);
    }
}
"""


def test_a_rust_file_whose_changed_lines_lie_in_its_own_tests_is_a_test_file(repo: Repo) -> None:
    base = repo.commit("base", {"Cargo.toml": RUST_CARGO, "src/lib.rs": "pub mod cart;\n", "src/cart.rs": RUST_SOURCE})
    repo.commit("head", {"src/cart.rs": RUST_SOURCE.replace("&[1, 2]), 3", "&[1, 2, 3]), 6")})
    (changed,) = changes(repo, base).files
    assert (changed.kind, changed.changes_tests) == (FileKind.TEST, True)
    assert changed.inline_tests is not None
    assert (changed.inline_tests.added, changed.inline_tests.removed) == (frozenset({11}), frozenset({11}))
    assert changed.production_hunks == () and changed.test_hunks == changed.hunks


def test_a_rust_file_that_changes_its_code_and_its_tests_is_both(repo: Repo) -> None:
    base = repo.commit("base", {"Cargo.toml": RUST_CARGO, "src/lib.rs": "pub mod cart;\n", "src/cart.rs": RUST_SOURCE})
    head = RUST_SOURCE.replace("sum()", "sum::<u32>() * 2").replace("&[1, 2]), 3", "&[1, 2]), 6")
    head = head.replace(
        "    }\n}\n", "    }\n\n    #[test]\n    fn empty() {\n        assert_eq!(total(&[]), 0);\n    }\n}\n"
    )
    repo.commit("head", {"src/cart.rs": head})
    change = changes(repo, base)
    (changed,) = change.files
    assert (changed.kind, changed.changes_tests) == (FileKind.PRODUCTION, True)
    assert [line.text for hunk in changed.production_hunks for line in hunk.added] == [
        "    prices.iter().sum::<u32>() * 2"
    ]
    test_lines = [line.number for hunk in changed.test_hunks for line in hunk.added]
    assert test_lines == sorted({line.number for line in changed.added_lines} - {2})
    assert "    fn empty() {" in [line.text for hunk in changed.test_hunks for line in hunk.added]
    assert changed_production_lines(change) == {"src/cart.rs": (2,)}  # coverage asks no test of the tests


def test_a_rust_file_whose_tests_did_not_change_or_cannot_be_read_is_production_code(repo: Repo) -> None:
    unreadable = "pub fn broken() -> &'static str {\n    \"\n}\n"  # a string left open
    base = repo.commit(
        "base",
        {
            "Cargo.toml": RUST_CARGO,
            "src/lib.rs": "pub mod cart;\n",
            "src/cart.rs": RUST_SOURCE,
            "src/odd.rs": unreadable,
        },
    )
    repo.commit(
        "head",
        {"src/cart.rs": RUST_SOURCE.replace("sum()", "sum::<u32>()"), "src/odd.rs": unreadable + "// more\n"},
    )
    for changed in changes(repo, base).files:
        assert (changed.kind, changed.inline_tests, changed.changes_tests) == (FileKind.PRODUCTION, None, False)


def test_changes_cli_shows_a_rust_files_own_tests(repo: Repo, cli: Callable[..., CliResult]) -> None:
    base = repo.commit("base", {"Cargo.toml": RUST_CARGO, "src/lib.rs": "pub mod cart;\n", "src/cart.rs": RUST_SOURCE})
    repo.commit("head", {"src/cart.rs": RUST_SOURCE.replace("sum()", "sum::<u32>()").replace("3);", "3u32);")})
    document = json.loads(cli("changes", "--repo", repo.path, "--base", base, "--json").out)
    (changed,) = document["files"]
    assert (changed["kind"], changed["inline_tests"]) == ("production", {"added": [11], "removed": [11]})
    text = cli("changes", "--repo", repo.path, "--base", base).out
    assert text.splitlines()[1] == "  modified    production  +2 -2       src/cart.rs (its own tests changed too)"


def _data_file_peak(tmp_path: Path, lines: int) -> tuple[ChangedFile, int]:
    """The changed file and the peak traced memory of reading a change that adds `lines` lines of test data."""
    repo = Repo(tmp_path / f"repo-{lines}")
    repo.path.mkdir()
    git(repo.path, "init", "--quiet", "--initial-branch=main")
    base = repo.commit("base", {"pyproject.toml": "[project]\nname = 'shop'\n"})
    repo.commit("head", {"tests/cases.csv": "".join(f"{n},name-{n},value-{n * 7}\n" for n in range(lines))})
    tracemalloc.start()
    try:
        change = changes(repo, base)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    return by_path(change)["tests/cases.csv"], peak


def test_an_added_data_file_is_counted_not_held(tmp_path: Path) -> None:
    """A pull request adding a CSV of three million lines took about a gigabyte (101 MB for 300,000
    lines): the diff was read whole and every line kept. Now git's output is read a line at a time
    and an added data file's lines only counted, so ten times the lines take about the same memory."""
    small, small_peak = _data_file_peak(tmp_path, 30_000)
    large, large_peak = _data_file_peak(tmp_path, 300_000)
    assert (large.kind, large.added_count, large.removed_count) == (FileKind.TEST_DATA, 300_000, 0)
    assert large.counted is not None
    assert large.counted.blob == git(tmp_path / "repo-300000", "rev-parse", "HEAD:tests/cases.csv")
    assert [(hunk.new_start, hunk.new_lines, hunk.added) for hunk in large.hunks] == [(1, 300_000, ())]
    assert small.added_count == 30_000
    assert large_peak < 16 * 1024 * 1024, f"{large_peak:,} bytes for 300,000 lines"
    assert large_peak < 2 * small_peak, f"{small_peak:,} bytes for 30,000 lines, {large_peak:,} for 300,000"


def test_a_counted_file_reads_the_same_in_the_changes_verb(repo: Repo, cli: Callable[..., CliResult]) -> None:
    """`evidence-gate changes` counts an added data file's lines as it counts any other file's; a
    data file it changes, a small added one (a fixture module: a suppression in it is seen), and an
    added test file keep their lines."""
    base = repo.commit("base", {"pyproject.toml": "[project]\nname = 'shop'\n", "tests/old.csv": "a\nb\n"})
    repo.commit(
        "head",
        {
            "tests/cases.csv": "".join(f"{n}\n" for n in range(COUNTED_LINES_HELD + 1)),
            "testdata/shapes.py": "SHAPES = eval('[]')  # noqa\n",
            "tests/old.csv": "a\nc\n",
            "tests/test_cases.py": "def test_cases():\n    assert True\n",
        },
    )
    text = cli("changes", "--repo", repo.path, "--base", base)
    assert text.code == 0, text.err
    assert text.out.splitlines()[1:] == [
        "  added       test-data   +1 -0       testdata/shapes.py",
        f"  added       test-data   +{COUNTED_LINES_HELD + 1} -0   tests/cases.csv",
        "  modified    test-data   +1 -1       tests/old.csv",
        "  added       test        +2 -0       tests/test_cases.py",
    ]
    files = by_path(changes(repo, base))
    assert files["tests/cases.csv"].counted is not None and files["tests/cases.csv"].added_lines == ()
    assert files["tests/old.csv"].counted is None and [line.text for line in files["tests/old.csv"].added_lines] == [
        "c"
    ]
    assert files["tests/test_cases.py"].counted is None and len(files["tests/test_cases.py"].added_lines) == 2
    assert files["testdata/shapes.py"].counted is None and len(files["testdata/shapes.py"].added_lines) == 1
