"""The tools `quality` runs for checks 1 and 2 are the ones the project configures: flake8 for a
flake8 project, golangci-lint for a Go project with its config, eslint for a JavaScript project with
an eslint config and no lint script, and no type checker at all for plain JavaScript, which has
none. A test that needs golangci-lint or eslint is skipped where it is not installed."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from tests.conftest import Repo
from tests.tools import needs, needs_tools

from .project import PYPROJECT, SYSTEM_PATH, python_project, quality, report_checks, verdict

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


@needs_tools("node", path="/usr/bin:/bin", hint="Debian's nodejs, in /usr/bin")
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


def tool_path(*tools: str) -> str:
    """The developer's PATH with the folders of these tools first."""
    return os.pathsep.join(dict.fromkeys((*(str(Path(tool).parent) for tool in tools), SYSTEM_PATH)))


GOLANGCI_LINT = shutil.which("golangci-lint")
GO = shutil.which("go")
GO_MOD = "module example.com/shop\n\ngo 1.19\n"
GOLANGCI = 'version: "2"\nlinters:\n  default: standard\n'
GO_SHOP = 'package shop\n\nimport "os"\n\n// Clean removes the file.\nfunc Clean(name string) error {\n'
GO_SHOP += "\treturn os.Remove(name)\n}\n"
GO_TEST = 'package shop\n\nimport "testing"\n\nfunc TestClean(t *testing.T) {\n\tif Clean("missing") == nil {\n'
GO_TEST += '\t\tt.Fatal("no error")\n\t}\n}\n'


@pytest.mark.skipif(
    GOLANGCI_LINT is None or GO is None,
    reason="golangci-lint is not installed (go install github.com/golangci/golangci-lint/v2/cmd/golangci-lint@latest)",
)
def test_a_go_project_with_a_golangci_config_is_linted_by_golangci_lint_and_type_checked_by_go_vet(
    repo: Repo,
) -> None:
    assert GOLANGCI_LINT is not None and GO is not None
    repo.commit("base", {"go.mod": GO_MOD, ".golangci.yml": GOLANGCI, "shop.go": GO_SHOP, "shop_test.go": GO_TEST})
    unchecked = GO_SHOP.replace(") error {\n\treturn os.Remove(name)\n", ") error {\n\tos.Remove(name)\n\treturn nil\n")
    repo.commit("unchecked", {"shop.go": unchecked, "shop_test.go": GO_TEST.replace("== nil", "!= nil")})
    result = quality(repo, "--base", "HEAD~1", path=tool_path(GOLANGCI_LINT, GO))
    checks = report_checks(result.out)
    assert (checks[1], checks[2]) == ("PASS", "FAIL"), result.out
    assert "| 2 | Linter | no baseline | 1 warning, exit 1 | FAIL |" in result.out  # golangci-lint's `1 issues:`
    assert (
        '| 2. linter | DETECTED | golangci-lint run ./... 2&gt;&amp;1; echo "EXIT\\_CODE=\\$?"'
        " (golangci-lint: .golangci.yml) |" in result.out
    )
    assert '| 1. type checker | DETECTED | go vet ./... 2&gt;&amp;1; echo "EXIT\\_CODE=\\$?"' in result.out
    assert "Error return value of `os.Remove` is not checked (errcheck)" in result.out


# The pinned test tools' eslint (scripts/install-test-tools.sh), else one on PATH.
ESLINT = shutil.which(
    "eslint", path=str(Path(__file__).parents[2] / "tools" / "node_modules" / ".bin")
) or shutil.which("eslint")
NODE = shutil.which("node")
ESLINT_CONFIG = 'export default [{ rules: { "no-unused-vars": "error", "no-console": "warn" } }];\n'
CART_JS = "exports.total = (prices) => prices.reduce((a, b) => a + b, 0);\n"
CART_TEST = (
    "const test = require('node:test');\nconst assert = require('node:assert');\n"
    "const { total } = require('../cart.js');\ntest('total', () => assert.equal(total([1, 2]), 3));\n"
)


@needs_tools("node")
@needs(ESLINT is not None, "eslint is not installed (scripts/install-test-tools.sh)")
def test_a_javascript_project_with_an_eslint_config_and_no_lint_script_is_linted_by_eslint(repo: Repo) -> None:
    """The project's own eslint, as `npm install` puts it in node_modules: here the installed one,
    linked in (its own dependencies are found where it lives)."""
    assert ESLINT is not None and NODE is not None
    package = Path(ESLINT).resolve().parents[1]  # <node_modules>/eslint/bin/eslint.js
    assert (package / "package.json").is_file(), package
    manifest = {"name": "cart", "version": "1.0.0", "main": "cart.js", "scripts": {"test": "node --test"}}
    files = {"package.json": json.dumps(manifest), "eslint.config.mjs": ESLINT_CONFIG, "cart.js": CART_JS}
    repo.commit("base", {**files, ".gitignore": "node_modules/\n", "test/cart.test.js": CART_TEST})
    (repo.path / "node_modules" / ".bin").mkdir(parents=True)
    (repo.path / "node_modules" / "eslint").symlink_to(package, target_is_directory=True)
    (repo.path / "node_modules" / ".bin" / "eslint").symlink_to(package / "bin" / "eslint.js")
    repo.commit("unused", {"cart.js": "const unused = 1;\n" + CART_JS})
    result = quality(repo, "--base", "HEAD~1", path=tool_path(NODE))
    checks = report_checks(result.out)
    assert (checks[1], checks[2], checks[3]) == ("NOT_APPLICABLE", "FAIL", "PASS"), result.out
    assert (
        '| 2. linter | DETECTED | npx --no-install eslint . 2&gt;&amp;1; echo "EXIT\\_CODE=\\$?"'
        " (eslint: eslint.config.mjs) |" in result.out
    )
    assert "| 2 | Linter | no baseline | 1 warning, exit 1 | FAIL |" in result.out  # eslint's `✖ 1 problem`
    assert "'unused' is assigned a value but never used" in result.out
