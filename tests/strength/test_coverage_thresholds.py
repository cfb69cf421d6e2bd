"""A project's own coverage threshold is no failure of one test file: strength runs a single file,
whose coverage is far below any global threshold, so a run that passed every test it counted and
was failed by the threshold alone is a passing run (pytest-cov's `--cov-fail-under`, jest's
`coverageThreshold`), and a real failing test still fails."""

from __future__ import annotations

import json
from collections.abc import Callable

from ..conftest import CliResult, Repo
from .test_node_strength import TOOLS
from .test_python_strength import strength, verdicts

PYPROJECT = """[project]
name = "shop"
version = "0"

[tool.pytest.ini_options]
addopts = "--cov=shop --cov-fail-under=100 -p no:cacheprovider"
"""
CART = "def total(prices):\n    return sum(prices[1:])\n\n\ndef count(items):\n    return len(items)\n"
FIXED = CART.replace("prices[1:]", "prices")


def test_a_python_file_that_passes_under_pytest_covs_fail_under_is_judged(
    repo: Repo, cli: Callable[..., CliResult]
) -> None:
    base = repo.commit("base", {"pyproject.toml": PYPROJECT, "shop/__init__.py": "", "shop/cart.py": CART})
    tests = {
        "tests/test_total.py": "from shop.cart import total\n\n\ndef test_total():\n    assert total([2, 3]) == 5\n",
        "tests/test_count.py": "from shop.cart import count\n\n\ndef test_count():\n    assert count([1]) == 1\n",
    }
    repo.commit("fix", {"shop/cart.py": FIXED, **tests})
    code, document = strength(cli, repo, base)
    assert verdicts(document) == {"tests/test_total.py": "red", "tests/test_count.py": "still-green"}, document
    total = next(test for test in document["tests"] if test["path"] == "tests/test_total.py")
    assert total["head"]["exit_code"] != 0  # pytest-cov failed the head run on coverage alone
    assert total["head"]["threshold_line"].startswith("FAIL Required test coverage of 100")
    assert code == 1


JEST_TEST = "const { total } = require('../cart.js');\n{body}"
JS_CART = "exports.total = (prices) => prices.slice(1).reduce((a, b) => a + b, 0);\nexports.unused = () => 1;\n"


def test_a_jest_file_that_passes_under_the_projects_coverage_threshold_is_judged(
    repo: Repo, cli: Callable[..., CliResult]
) -> None:
    jest = {"collectCoverage": True, "coverageThreshold": {"global": {"functions": 100}}}
    package = json.dumps({"name": "shop", "main": "cart.js", "devDependencies": {"jest": "*"}, "jest": jest})
    base = repo.commit("base", {"package.json": package, "cart.js": JS_CART, ".gitignore": "node_modules\ncoverage\n"})
    (repo.path / "node_modules").symlink_to(TOOLS, target_is_directory=True)
    strong = JEST_TEST.replace("{body}", "test('sum', () => { expect(total([2, 3])).toBe(5); });\n")
    broken = JEST_TEST.replace("{body}", "test('wrong', () => { expect(total([2, 3])).toBe(6); });\n")
    fixed = JS_CART.replace(".slice(1)", "")
    repo.commit("fix", {"cart.js": fixed, "test/strong.test.js": strong, "test/broken.test.js": broken})
    code, document = strength(cli, repo, base, "--timeout-ms", "120000")
    assert verdicts(document) == {"test/strong.test.js": "red", "test/broken.test.js": "not-run"}, document
    reasons = {test["path"]: test["reason"] for test in document["tests"]}
    assert "fails at the head" in reasons["test/broken.test.js"]
    assert code in (0, 4)
