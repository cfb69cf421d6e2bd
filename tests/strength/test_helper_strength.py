"""Strength on a change whose only test-side files are helpers or data (a fixture module, conftest.py,
a data file) beside a production fix: judged through the test files that use them, on real
repositories run by the real pytest and node --test."""

from __future__ import annotations

from collections.abc import Callable

from ..conftest import CliResult, Repo
from .test_python_strength import BASE, CART_TAXED, strength, verdicts

READS_DATA = (
    "import json\nfrom pathlib import Path\n\nfrom shop.cart import total\n\n\n"
    "def test_total():\n    expected = json.loads((Path(__file__).parent / 'data' / 'cart.json').read_text())\n"
    "    assert total([10]) == expected['total']\n"
)
USES_BUILDER = (
    "from helpers.builders import EXPECTED\nfrom shop.cart import total\n\n\n"
    "def test_total():\n    assert total([10]) == EXPECTED\n"
)
UNRELATED = "def test_unrelated():\n    assert 1 + 1 == 2\n"


def test_a_data_file_changed_beside_a_fix_is_judged_through_the_tests_that_name_it(
    repo: Repo, cli: Callable[..., CliResult]
) -> None:
    base = repo.commit(
        "base",
        {
            **BASE,
            "tests/test_cart.py": READS_DATA,
            "tests/data/cart.json": '{"total": 10}\n',
            "tests/test_unrelated.py": UNRELATED,
        },
    )
    repo.commit("head", {"src/shop/cart.py": CART_TAXED, "tests/data/cart.json": '{"total": 12.0}\n'})
    code, document = strength(cli, repo, base)
    assert verdicts(document) == {"tests/test_cart.py": "red"}, document
    (test,) = document["tests"]
    assert "judged for tests/data/cart.json, which it names" in test["reason"]
    assert code == 0


def test_a_helper_module_changed_beside_a_fix_is_judged_through_its_importers(
    repo: Repo, cli: Callable[..., CliResult]
) -> None:
    base = repo.commit(
        "base",
        {
            **BASE,
            "tests/helpers/__init__.py": "",
            "tests/helpers/builders.py": "EXPECTED = 10\n",
            "tests/test_cart.py": USES_BUILDER,
            "tests/test_unrelated.py": UNRELATED,
        },
    )
    repo.commit("head", {"src/shop/cart.py": CART_TAXED, "tests/helpers/builders.py": "EXPECTED = 12.0\n"})
    code, document = strength(cli, repo, base)
    assert verdicts(document) == {"tests/test_cart.py": "red"}, document
    assert code == 0


def test_a_conftest_changed_beside_a_fix_is_judged_through_its_folders_tests(
    repo: Repo, cli: Callable[..., CliResult]
) -> None:
    conftest = "import pytest\n\n\n@pytest.fixture\ndef expected():\n    return {value}\n"
    uses = "from shop.cart import total\n\n\ndef test_total(expected):\n    assert total([10]) == expected\n"
    base = repo.commit(
        "base",
        {**BASE, "tests/conftest.py": conftest.format(value=10), "tests/test_cart.py": uses},
    )
    repo.commit("head", {"src/shop/cart.py": CART_TAXED, "tests/conftest.py": conftest.format(value=12.0)})
    code, document = strength(cli, repo, base)
    assert verdicts(document) == {"tests/test_cart.py": "red", "tests/test_old.py": "still-green"}, document
    reasons = {test["path"]: test["reason"] for test in document["tests"]}
    assert "judged for tests/conftest.py, a test helper of its folder tests/" in reasons["tests/test_cart.py"]
    assert code == 1


def test_a_helper_no_test_uses_says_why_nothing_was_judged(repo: Repo, cli: Callable[..., CliResult]) -> None:
    base = repo.commit("base", {**BASE, "fixtures/prices.json": "[10]\n"})
    repo.commit("head", {"src/shop/cart.py": CART_TAXED, "fixtures/prices.json": "[12]\n"})
    code, document = strength(cli, repo, base)
    assert (code, document["tests"]) == (4, [])
    assert document["summary"]["note"] == (
        "the change touches production code and test helpers or data (fixtures/prices.json) but no test file,"
        " and no test file names them or sits in their folders: nothing to judge"
    )


NODE_PACKAGE = '{"name": "shop", "private": true, "scripts": {"test": "node --test"}}\n'
NODE_CART = "exports.total = (prices) => prices.reduce((a, b) => a + b, 0);\n"
NODE_CART_TAXED = "exports.total = (prices) => Math.round(prices.reduce((a, b) => a + b, 0) * 120) / 100;\n"
NODE_TEST = (
    "const test = require('node:test');\nconst assert = require('node:assert');\n"
    "const { total } = require('../cart.js');\nconst { expected } = require('./fixtures/prices');\n"
    "test('total', () => assert.strictEqual(total([10]), expected));\n"
)


def test_a_node_fixture_module_changed_beside_a_fix_is_judged_through_its_tests_not_run_itself(
    repo: Repo, cli: Callable[..., CliResult]
) -> None:
    base = repo.commit(
        "base",
        {
            "package.json": NODE_PACKAGE,
            "cart.js": NODE_CART,
            "test/cart.test.js": NODE_TEST,
            "test/fixtures/prices.js": "exports.expected = 10;\n",
        },
    )
    repo.commit("head", {"cart.js": NODE_CART_TAXED, "test/fixtures/prices.js": "exports.expected = 12;\n"})
    code, document = strength(cli, repo, base)
    assert verdicts(document) == {"test/cart.test.js": "red"}, document
    (test,) = document["tests"]
    assert test["base"]["command"] == "node --test test/cart.test.js"
    assert "judged for test/fixtures/prices.js, which it names" in test["reason"]
    assert code == 0
