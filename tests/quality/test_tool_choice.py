"""The tools `quality` runs for checks 1 and 2 are the ones the project configures: flake8 for a
flake8 project, and no type checker at all for plain JavaScript, which has none."""

from __future__ import annotations

import json
import shutil

import pytest

from tests.conftest import Repo

from .project import PYPROJECT, python_project, quality, report_checks, verdict

FLAKE8_PYPROJECT = PYPROJECT.replace("[tool.ruff]\nline-length = 100\n", "")


def test_a_flake8_project_is_linted_by_flake8_not_ruff(repo: Repo) -> None:
    python_project(repo, tools=("mypy", "flake8"))
    repo.commit("flake8", {"pyproject.toml": FLAKE8_PYPROJECT, "setup.cfg": "[flake8]\nmax-line-length = 100\n"})
    source = (repo.path / "shop" / "__init__.py").read_text()
    docstring, rest = source.split("\n", 1)
    repo.commit("import os", {"shop/__init__.py": f"{docstring}\n\nimport os\n{rest}"})
    result = quality(repo, "--base", "HEAD~1")
    assert report_checks(result.out)[2] == "FAIL", result.out
    assert (
        '| 2. linter | DETECTED | flake8 . 2&gt;&amp;1; echo "EXIT\\_CODE=\\$?" (flake8: \\[flake8\\] in setup.cfg) |'
        in (result.out)
    )
    assert "F401 'os' imported but unused" in result.out  # flake8's wording; ruff's is F401 `os` ...
    assert "ruff" not in result.out


@pytest.mark.skipif(shutil.which("node", path="/usr/bin:/bin") is None, reason="node is not installed")
def test_plain_javascript_has_no_type_checker_and_runs_no_tsc(repo: Repo) -> None:
    manifest = {"name": "cart", "version": "1.0.0", "main": "cart.js", "scripts": {"test": "node --test"}}
    repo.commit("base", {"package.json": json.dumps(manifest), "cart.js": "exports.total = (p) => 0;\n"})
    repo.commit(
        "total",
        {
            "cart.js": "exports.total = (prices) => prices.reduce((a, b) => a + b, 0);\n",
            "test/cart.test.js": (
                "const test = require('node:test');\nconst assert = require('node:assert');\n"
                "const { total } = require('../cart.js');\ntest('total', () => assert.equal(total([1, 2]), 3));\n"
            ),
        },
    )
    result = quality(repo, "--base", "HEAD~1")
    checks = report_checks(result.out)
    assert checks[1] == "NOT_APPLICABLE", result.out
    assert "| 1. type checker | NOT_APPLICABLE | plain JavaScript: no TypeScript sources and no tsconfig.json |" in (
        result.out
    )
    assert "tsc --noEmit" not in result.out and "npx" not in result.out
    assert checks[3] == "PASS"
    assert verdict(result.out) == "BLOCKED"  # its linter: no lint script, no eslint configured
    assert checks[2] == "MISSING"
    assert "| 2. linter | MISSING | no lint script or eslint is configured: " in result.out
