"""Test strength on real Node repositories, run by node's own test runner."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from ..conftest import CliResult, Repo
from .leftovers import assert_nothing_left
from .test_python_strength import strength, verdicts

PACKAGE = '{"name": "shop", "version": "1.0.0", "main": "cart.js", "scripts": {"test": "node --test"}}\n'
CART = "exports.total = (prices) => prices.reduce((a, b) => a + b, 0);\n"
CART_TAXED = (
    "exports.total = (prices) => Math.round(prices.reduce((a, b) => a + b, 0) * 120) / 100;\n"
    "exports.discount = (price) => Math.round(price * 90) / 100;\n"
)
TEST = "const test = require('node:test');\nconst assert = require('node:assert');\n{body}"
HEAD = {
    "cart.js": CART_TAXED,
    "refund.js": "exports.refund = (amount) => -amount;\n",
    "test/strong.test.js": TEST.format(
        body="const { total } = require('../cart.js');\ntest('taxed', () => assert.strictEqual(total([10]), 12));\n"
    ),
    "test/weak.test.js": TEST.format(
        body="const { total } = require('../cart.js');\ntest('is', () => assert.ok(total instanceof Function));\n"
    ),
    "test/new-module.test.js": TEST.format(
        body="const { refund } = require('../refund.js');\ntest('refund', () => assert.strictEqual(refund(5), -5));\n"
    ),
    "test/new-symbol.test.js": TEST.format(
        body="const cart = require('../cart.js');\ntest('discount', () => assert.strictEqual(cart.discount(10), 9));\n"
    ),
    "test/broken.test.js": TEST.format(
        body="const { total } = require('../cart.js');\ntest('wrong', () => assert.strictEqual(total([10]), 99));\n"
    ),
}


def test_each_kind_of_changed_node_test_gets_its_verdict(repo: Repo, cli: Callable[..., CliResult]) -> None:
    base = repo.commit("base", {"package.json": PACKAGE, "cart.js": CART})
    repo.commit("head", HEAD)
    before = assert_nothing_left.snapshot(repo)
    code, document = strength(cli, repo, base)
    assert verdicts(document) == {
        "test/broken.test.js": "not-run",
        "test/new-module.test.js": "unjudged",
        "test/new-symbol.test.js": "unjudged",
        "test/strong.test.js": "red",
        "test/weak.test.js": "still-green",
    }, document
    assert code == 1
    reasons = {test["path"]: test["reason"] for test in document["tests"]}
    assert "`discount`, a name the change adds" in reasons["test/new-symbol.test.js"]
    strong = next(test for test in document["tests"] if test["path"] == "test/strong.test.js")
    assert strong["base"]["command"] == "node --test test/strong.test.js"
    assert_nothing_left(repo, before)


def test_a_package_linked_from_the_callers_checkout_is_not_run(repo: Repo, cli: Callable[..., CliResult]) -> None:
    """`npm link` puts a symlink to the caller's own checkout in node_modules: the reverted worktree
    would import the head's code through it."""
    base = repo.commit("base", {"package.json": PACKAGE, "cart.js": CART, ".gitignore": "node_modules/\n"})
    strong = TEST.format(
        body="const { total } = require('shop');\ntest('taxed', () => assert.strictEqual(total([10]), 12));\n"
    )
    repo.commit("head", {"cart.js": CART_TAXED, "test/strong.test.js": strong})
    (repo.path / "node_modules").mkdir()
    (repo.path / "node_modules" / "shop").symlink_to(repo.path, target_is_directory=True)
    code, document = strength(cli, repo, base)
    (test,) = document["tests"]
    assert test["verdict"] == "not-run" and code == 4
    assert test["reason"].startswith("node_modules/shop links to the caller's checkout")


TOOLS = Path(__file__).resolve().parents[2] / "tools" / "node_modules"
JEST_TEST = "const { total } = require('../cart.js');\n{body}"
VITEST_TEST = "import { test, expect } from 'vitest';\nimport { total } from '../cart.js';\n{body}"


@pytest.mark.parametrize(
    ("runner", "template", "command"),
    [
        ("jest", JEST_TEST, "npx --no-install jest --ci test/{name}.test.js"),
        ("vitest", VITEST_TEST, "npx --no-install vitest run test/{name}.test.js"),
    ],
)
def test_jest_and_vitest_files_are_judged_with_the_callers_node_modules(
    repo: Repo, cli: Callable[..., CliResult], runner: str, template: str, command: str
) -> None:
    """The caller's node_modules (its runner installed) is linked into the worktree: no lockfile changed."""
    package = json.dumps({"name": "shop", "main": "cart.js", "devDependencies": {runner: "*"}})
    base = repo.commit("base", {"package.json": package, "cart.js": CART, ".gitignore": "node_modules\n"})
    (repo.path / "node_modules").symlink_to(TOOLS, target_is_directory=True)
    strong = template.replace("{body}", "test('taxed', () => { expect(total([10])).toBe(12); });\n")
    weak = template.replace("{body}", "test('is', () => { expect(typeof total).toBe('function'); });\n")
    repo.commit("head", {"cart.js": CART_TAXED, "test/strong.test.js": strong, "test/weak.test.js": weak})
    code, document = strength(cli, repo, base, "--timeout-ms", "120000")
    assert verdicts(document) == {"test/strong.test.js": "red", "test/weak.test.js": "still-green"}, document
    assert code == 1
    strong_run = next(test for test in document["tests"] if test["path"] == "test/strong.test.js")
    assert strong_run["base"]["command"] == command.format(name="strong")


def test_node_failing_empty_hanging_and_tests_only_changes_are_not_run(
    repo: Repo, cli: Callable[..., CliResult]
) -> None:
    base = repo.commit("base", {"package.json": PACKAGE, "cart.js": CART})
    # waits between its checks without leaving the test (jest's own timeout would end an async wait),
    # so the timeout it runs into costs no CPU
    hangs = (
        "const { total } = require('../cart.js');\ntest('waits', () => {\n  while (total([10]) !== 12) {\n"
        "    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10);\n  }\n});\n"
    )
    repo.commit(
        "head",
        {
            "cart.js": CART_TAXED,
            "test/broken.test.js": HEAD["test/broken.test.js"],
            "test/empty.test.js": TEST.format(body="// no test yet\n"),
            "test/hangs.test.js": TEST.format(body=hangs),
        },
    )
    code, document = strength(cli, repo, base, "--timeout-ms", "10000")
    reasons = {test["path"]: (test["verdict"], test["reason"]) for test in document["tests"]}
    assert code == 4
    assert reasons["test/broken.test.js"][0] == "not-run" and "fails at the head" in reasons["test/broken.test.js"][1]
    assert reasons["test/empty.test.js"] == ("not-run", "executed zero tests at the head")
    assert reasons["test/hangs.test.js"][0] == "not-run"
    assert reasons["test/hangs.test.js"][1].startswith("timed out without the change")
    repo.commit("tests only", {"test/weak.test.js": HEAD["test/weak.test.js"]})
    code, document = strength(cli, repo, repo.git("rev-parse", "HEAD~1"))
    assert code == 4 and verdicts(document) == {"test/weak.test.js": "not-run"}


def test_an_install_command_runs_once_in_each_worktree_and_a_failing_one_leaves_the_tests_not_run(
    repo: Repo, cli: Callable[..., CliResult], tmp_path: Path
) -> None:
    base = repo.commit("base", {"package.json": PACKAGE, "cart.js": CART})
    tests = {name: HEAD[name] for name in ("test/strong.test.js", "test/weak.test.js")}
    repo.commit("head", {"cart.js": CART_TAXED, **tests})
    installs = tmp_path / "installs.log"
    code, document = strength(cli, repo, base, "--install-command", f"pwd >> {installs}", "--jobs", "2")
    assert verdicts(document) == {"test/strong.test.js": "red", "test/weak.test.js": "still-green"}
    worktrees = installs.read_text().split()
    assert len(worktrees) == len(set(worktrees)) == 2  # once in each of the two worktrees
    code, document = strength(cli, repo, base, "--install-command", "exit 3")
    assert code == 4
    assert {test["reason"] for test in document["tests"]} == {"the install command `exit 3` exited 3 in the worktree"}
