"""A file that holds its own tests, with its production change taken away and its tests kept, on
real diffs: each hunk undone where its lines are production code, kept where they are tests."""

from __future__ import annotations

from dataclasses import replace

import pytest

from evidence_gate.changes import PathClassifier, collect_changes
from evidence_gate.errors import GitError
from evidence_gate.git import Git
from evidence_gate.model import ChangedFile, InlineTests
from evidence_gate.stacks.detect import detect
from evidence_gate.stacks.table import default_table
from evidence_gate.strength.partial import Tangled, production_reverted

from ..conftest import Repo, local_environment

CARGO = '[package]\nname = "shop"\nversion = "0.1.0"\nedition = "2021"\n'
BASE = """pub fn total(prices: &[u32]) -> u32 {
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
# one hunk that changes the code's last line and the tests' first lines: production and tests together
HEAD = BASE.replace(
    "    prices.iter().sum()\n}\n#[cfg(test)]\nmod tests {\n    use super::*;\n",
    ("    prices.iter().sum::<u32>() * 2\n}\n#[cfg(test)]\nmod tests {\n    use super::*;\n    const TWO: u32 = 2;\n"),
).replace("total(&[1, 2]), 3)", "total(&[1, 2]), 3 * TWO)")


def changed_file(repo: Repo, base: dict[str, str], head: dict[str, str]) -> tuple[ChangedFile, bytes, bytes]:
    first = repo.commit("base", {"Cargo.toml": CARGO, "src/lib.rs": "pub mod cart;\n", **base})
    repo.commit("head", head)
    table = default_table()
    classifier = PathClassifier(table=table, matches=detect(repo.path, table).matches)
    (changed,) = collect_changes(Git(repo.path, local_environment()), first, "HEAD", classifier).files
    path = repo.path / changed.path
    return changed, repo.git("show", f"{first}:{changed.path}").encode() + b"\n", path.read_bytes()


def test_a_hunk_of_code_and_tests_goes_back_where_it_is_code_and_stays_where_it_is_tests(repo: Repo) -> None:
    changed, base, head = changed_file(repo, {"src/cart.rs": BASE}, {"src/cart.rs": HEAD})
    assert changed.inline_tests is not None and len(changed.hunks) == 1
    reverted = production_reverted(changed, base, head).decode()
    assert reverted == BASE.replace("    use super::*;\n", "    use super::*;\n    const TWO: u32 = 2;\n").replace(
        "total(&[1, 2]), 3)", "total(&[1, 2]), 3 * TWO)"
    )


def test_all_production_lines_give_the_base_and_all_test_lines_the_head(repo: Repo) -> None:
    changed, base, head = changed_file(repo, {"src/cart.rs": BASE}, {"src/cart.rs": HEAD})
    numbers = InlineTests(added=frozenset(), removed=frozenset())
    assert production_reverted(replace(changed, inline_tests=numbers), base, head) == base
    every = InlineTests(
        added=frozenset(line.number for line in changed.added_lines),
        removed=frozenset(line.number for line in changed.removed_lines),
    )
    assert production_reverted(replace(changed, inline_tests=every), base, head) == head


def test_production_brought_back_beside_tests_kept_in_one_run_of_lines_is_tangled(repo: Repo) -> None:
    """A function removed right after a test module the change rewrote: put back before the module,
    it would take the module's `#[cfg(test)]`; which order the base meant cannot be told."""
    base_text = "pub fn one() -> u32 {\n    1\n}\n#[cfg(test)]\nmod tests {}\npub fn two() -> u32 {\n    2\n}\n"
    head_text = "pub fn one() -> u32 {\n    1\n}\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn t() {}\n}\n"
    changed, base, head = changed_file(repo, {"src/cart.rs": base_text}, {"src/cart.rs": head_text})
    assert changed.inline_tests is not None and changed.production_hunks
    with pytest.raises(Tangled) as tangled:
        production_reverted(changed, base, head)
    assert tangled.value.line == 5


def test_hunks_that_do_not_fit_the_texts_are_refused(repo: Repo) -> None:
    changed, base, head = changed_file(repo, {"src/cart.rs": BASE}, {"src/cart.rs": HEAD})
    with pytest.raises(GitError, match="refusing to guess"):
        production_reverted(changed, base.replace(b"mod tests", b"mod other"), head)
    with pytest.raises(GitError, match="refusing to guess"):
        production_reverted(changed, base, head[:40])
