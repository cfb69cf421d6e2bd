"""Test strength on a real Cargo crate whose tests live in the source file they test, a
`#[cfg(test)] mod tests { … }`: the file is a changed test file, its module's unit tests run, and
the second run takes away the file's production lines alone, keeping the tests the pull request
wrote beside them."""

from __future__ import annotations

from collections.abc import Callable

from tests.tools import needs_tools

from ..conftest import CliResult, Repo
from ..test_integrity_tagger import inventory_between
from .test_python_strength import strength, verdicts

pytestmark = needs_tools("cargo", hint="cargo comes with the machine")

CARGO = '[package]\nname = "shop"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n'
LIB = "pub mod cart;\npub mod pricing;\npub mod stock;\n"
TESTS = "\n#[cfg(test)]\nmod tests {{\n    use super::*;\n{tests}}}\n"
SUMS = "\n    #[test]\n    fn sums() {\n        assert_eq!(total(&[1, 2]), 3);\n    }\n"
CART = "pub fn total(prices: &[u32]) -> u32 {\n    prices.iter().sum()\n}\n"
CART += "\npub fn discounted(price: u32) -> u32 {\n    price / 10\n}\n"  # the bug: the discount, not the price
FIXED = CART.replace("    price / 10\n", "    price - price / 10\n")
DISCOUNTS = "\n    #[test]\n    fn discounts_by_a_tenth() {\n        assert_eq!(discounted(100), 90);\n    }\n"
PRICING = "pub fn rounded(cents: u32) -> u32 {\n    cents / 5 * 5\n}\n"
ROUNDS = "\n    #[test]\n    fn rounds() {\n        assert_eq!(rounded(12), 10);\n    }\n"
REFACTORED = PRICING.replace("cents / 5 * 5", "cents - cents % 5")
LIMITS = "\n    #[test]\n    fn limits() {\n        assert!(limit() > 0);\n    }\n"
TWENTY = "\n    #[test]\n    fn limit_is_twenty() {\n        assert_eq!(limit(), 20);\n    }\n"
ROOT = LIB + "\npub fn limit() -> u32 {\n    10\n}\n" + TESTS.format(tests=LIMITS)
RAISED = LIB + "\npub fn limit() -> u32 {\n    20\n}\n" + TESTS.format(tests=LIMITS + TWENTY)
# a function removed right after the test module the change rewrote: code and tests side by side
STOCK = "pub fn low(level: u32) -> bool {\n    level < 5\n}\n#[cfg(test)]\nmod tests {}\npub fn gone() {}\n"
RESTOCKED = STOCK.replace("mod tests {}\npub fn gone() {}\n", "mod tests {\n    #[test]\n    fn low() {\n")
RESTOCKED += "        assert!(super::low(1));\n    }\n}\n"
ZERO = "\n    #[test]\n    fn rounds_zero() {\n        assert_eq!(rounded(0), 0);\n    }\n"


def test_inline_tests_are_judged_with_their_files_production_lines_taken_away(
    repo: Repo, cli: Callable[..., CliResult]
) -> None:
    """A fix with its regression test in the file's own test module fails without the fix (red), in a
    module and in the crate root; a test added beside a refactor passes without it too
    (still-green); a change to the tests alone has no production change to take away. None of them
    asks for a test (`RH-15?`)."""
    base = repo.commit(
        "base",
        {
            "Cargo.toml": CARGO,
            ".gitignore": "target/\n",
            "src/lib.rs": ROOT,
            "src/cart.rs": CART + TESTS.format(tests=SUMS),
            "src/pricing.rs": PRICING + TESTS.format(tests=ROUNDS),
            "src/stock.rs": STOCK,
        },
    )
    head = repo.commit(
        "head",
        {
            "src/cart.rs": FIXED + TESTS.format(tests=SUMS + DISCOUNTS),
            "src/pricing.rs": REFACTORED + TESTS.format(tests=ROUNDS + ZERO),
            "src/stock.rs": RESTOCKED,
            "src/lib.rs": RAISED,
        },
    )
    code, document = strength(cli, repo, base, "--timeout-ms", "300000")
    assert verdicts(document) == {
        "src/cart.rs": "red",
        "src/lib.rs": "red",
        "src/pricing.rs": "still-green",
        "src/stock.rs": "unjudged",
    }
    assert code == 1
    tests = {test["path"]: test for test in document["tests"]}
    assert tests["src/cart.rs"]["scope"] == "the unit tests of cart::"
    assert tests["src/cart.rs"]["base"]["counts"] == {"passed": 1, "failed": 1, "skipped": 0}  # the new test fails
    root = tests["src/lib.rs"]  # the crate root: its own tests by name, not every module's
    assert root["base"]["command"] == "cargo test --workspace --lib -- --exact tests::limits tests::limit_is_twenty"
    assert root["base"]["counts"] == {"passed": 1, "failed": 1, "skipped": 0}
    assert tests["src/stock.rs"]["reason"].startswith("its production code and its own tests change side by side")
    assert "RH-15?" not in {tag for hunk in inventory_between(repo, base).hunks for tag in hunk.tags}

    empty = "\n    #[test]\n    fn sums_nothing() {\n        assert_eq!(total(&[]), 0);\n    }\n"
    repo.commit("tests only", {"src/cart.rs": FIXED + TESTS.format(tests=SUMS + DISCOUNTS + empty)})
    code, document = strength(cli, repo, head)
    ((path, verdict, reason),) = [(test["path"], test["verdict"], test["reason"]) for test in document["tests"]]
    assert (path, verdict, code) == ("src/cart.rs", "not-run", 4)
    assert reason == "no production change to revert: only tests changed"
    assert not any(hunk.tags for hunk in inventory_between(repo, head).hunks)
