"""Strength runs a project's tests in the project's environment: its virtualenv (the active one, or
its own `.venv`/`venv` though neither is on PATH), its editable install's generated version file
(ignored by git, so no worktree has it), its node_modules. Real venvs, real pip installs (offline:
no build isolation, the build backends this interpreter has), real git repositories."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import sysconfig
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.tools import needs

from ..conftest import CliResult, Repo, write_tree
from .leftovers import assert_nothing_left
from .test_python_strength import strength, verdicts

PYTEST = "\n[tool.pytest.ini_options]\naddopts = '-p no:cacheprovider'\n"
BACKENDS = {
    "setuptools-scm": (
        "[build-system]\nrequires = ['setuptools>=64', 'setuptools-scm>=8']\n"
        "build-backend = 'setuptools.build_meta'\n\n"
        "[project]\nname = 'shop'\ndynamic = ['version']\n\n"
        "[tool.setuptools_scm]\nversion_file = 'src/shop/_version.py'\n"
    ),
    "hatch-vcs": (
        "[build-system]\nrequires = ['hatchling', 'hatch-vcs']\nbuild-backend = 'hatchling.build'\n\n"
        "[project]\nname = 'shop'\ndynamic = ['version']\n\n[tool.hatch.version]\nsource = 'vcs'\n\n"
        "[tool.hatch.build.hooks.vcs]\nversion-file = 'src/shop/_version.py'\n\n"
        "[tool.hatch.build.targets.wheel]\npackages = ['src/shop']\n"
    ),
}
IGNORE = ".venv/\nvenv/\n__pycache__/\n*.egg-info/\nsrc/shop/_version.py\nnode_modules/\nsrc/version.js\n"
CART = "def total(prices):\n    return sum(prices)\n"
CART_FIXED = "def total(prices):\n    return round(sum(prices) * 1.2, 2)\n"
REGRESSION = "from shop.cart import total\n\n\ndef test_taxed():\n    assert total([10]) == 12.0\n"


def make_venv(folder: Path, *installs: Path, editable: bool = False) -> Path:
    """A virtualenv that sees this interpreter's packages (pytest, the build backends), as
    `--system-site-packages` would from a virtualenv too, with `installs` installed offline."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(folder)], check=True)
    ours = sysconfig.get_paths()["purelib"]
    theirs = subprocess.run(
        [folder / "bin" / "python", "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    Path(theirs, "outer.pth").write_text(ours + "\n")
    pip = [str(folder / "bin" / "python"), "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
    for project in installs:
        flags = ["-e", str(project)] if editable else [str(project)]
        done = subprocess.run(
            [*pip, "--no-build-isolation", "--no-deps", "--no-index", *flags], capture_output=True, text=True
        )
        assert done.returncode == 0, done.stdout + done.stderr
    return folder


@pytest.fixture
def no_venv(monkeypatch: pytest.MonkeyPatch) -> None:
    """The caller as a CI step that never activated the project's environment: `python` on PATH is
    a bare interpreter."""
    monkeypatch.delenv("VIRTUAL_ENV", raising=False)
    path = [entry for entry in os.environ["PATH"].split(os.pathsep) if "venv" not in entry]
    monkeypatch.setenv("PATH", os.pathsep.join(path))


def backend_case(name: str, *modules: str) -> object:
    """A build backend's case, skipped outside CI where the test extra's backends are not installed."""
    missing = [module for module in modules if importlib.util.find_spec(module) is None]
    return pytest.param(name, marks=needs(not missing, f"not installed: {', '.join(missing)} (the test extra)"))


@pytest.mark.usefixtures("no_venv")
@pytest.mark.parametrize(
    "backend",
    [
        backend_case("setuptools-scm", "setuptools_scm", "wheel"),
        backend_case("hatch-vcs", "hatchling", "hatch_vcs", "editables"),
    ],
)
def test_a_version_file_written_at_install_is_copied_into_the_worktree_and_the_fix_is_red(
    repo: Repo, cli: Callable[..., CliResult], backend: str
) -> None:
    init = "from shop._version import version as __version__\n"
    files = {"pyproject.toml": BACKENDS[backend] + PYTEST, ".gitignore": IGNORE, "src/shop/__init__.py": init}
    base = repo.commit("base", {**files, "src/shop/cart.py": CART})
    make_venv(repo.path / ".venv", repo.path, editable=True)
    assert (repo.path / "src/shop/_version.py").is_file()
    repo.commit("fix the tax", {"src/shop/cart.py": CART_FIXED, "tests/test_cart.py": REGRESSION})
    before = assert_nothing_left.snapshot(repo)

    code, document = strength(cli, repo, base)

    assert verdicts(document) == {"tests/test_cart.py": "red"}, document
    assert code == 0 and document["summary"]["copied"] == ["src/shop/_version.py"]
    assert document["tests"][0]["loaded_from"]["shop.cart"] == "src/shop/cart.py"
    assert_nothing_left(repo, before)

    (repo.path / "src/shop/_version.py").unlink()  # as a checkout that never ran the install
    code, document = strength(cli, repo, base)
    (test,) = document["tests"]
    assert (test["verdict"], code) == ("not-run", 4)
    assert test["reason"] == (
        "does not load at the head (exit code 2): ModuleNotFoundError: No module named 'shop._version'"
    )


MONEY = {
    "pyproject.toml": "[project]\nname = 'money'\nversion = '1'\n\n[tool.setuptools]\npy-modules = ['money']\n",
    "money.py": "def cents(amount):\n    return round(amount * 100)\n",
}
NEEDS_MONEY = {
    "pyproject.toml": "[project]\nname = 'shop'\nversion = '1'\ndependencies = ['money']\n" + PYTEST,
    ".gitignore": IGNORE,
    "src/shop/__init__.py": "",
    "src/shop/cart.py": "import money\n\n\n" + CART,
}


@pytest.mark.usefixtures("no_venv")
@pytest.mark.parametrize("where", [".venv", "venv", "active"])
def test_a_dependency_only_the_projects_virtualenv_has_is_found_though_it_is_not_on_path(
    repo: Repo, cli: Callable[..., CliResult], monkeypatch: pytest.MonkeyPatch, tmp_path: Path, where: str
) -> None:
    """`.venv` or `venv` in the checkout, or `VIRTUAL_ENV` naming one elsewhere: none is on PATH,
    and the interpreter on PATH cannot import `money`."""
    money = write_tree(tmp_path / "money", MONEY)
    base = repo.commit("base", NEEDS_MONEY)
    folder = tmp_path / "env" if where == "active" else repo.path / where
    make_venv(folder, money)
    if where == "active":
        monkeypatch.setenv("VIRTUAL_ENV", str(folder))
    assert str(folder) not in os.environ["PATH"]
    fixed = "import money\n\n\n" + CART_FIXED
    repo.commit("fix the tax", {"src/shop/cart.py": fixed, "tests/test_cart.py": REGRESSION})

    code, document = strength(cli, repo, base)

    assert verdicts(document) == {"tests/test_cart.py": "red"}, document
    assert code == 0


@pytest.mark.usefixtures("no_venv")
def test_a_virtualenv_git_tracks_is_never_the_projects(
    repo: Repo, cli: Callable[..., CliResult], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A committed `env/bin/python` that prints a passing summary is the pull request's, not an
    environment: the interpreter on PATH runs the tests, and it lacks `money`."""
    fake = "#!/bin/sh\necho '============ 1 passed in 0.01s ============'\n"
    base = repo.commit("base", NEEDS_MONEY)
    repo.write({"env/bin/python": fake, ".venv/bin/python": fake})
    for name in ("env", ".venv"):
        (repo.path / name / "bin" / "python").chmod(0o755)
    repo.git("add", "--force", "env", ".venv")
    fixed = "import money\n\n\n" + CART_FIXED
    repo.commit("fix the tax", {"src/shop/cart.py": fixed, "tests/test_cart.py": REGRESSION})
    monkeypatch.setenv("VIRTUAL_ENV", str(repo.path / "env"))

    code, document = strength(cli, repo, base)

    (test,) = document["tests"]
    assert (test["verdict"], code) == ("not-run", 4)
    assert test["reason"] == "does not load at the head (exit code 2): ModuleNotFoundError: No module named 'money'"


PACKAGE = (
    '{"name": "shop", "main": "src/cart.js", "scripts": {"test": "node --test"},'
    ' "devDependencies": {"money": "file:../money"}}\n'
)
NODE_CART = "const { cents } = require('money');\nconst { version } = require('./version.js');\n"


def test_a_node_project_with_its_node_modules_and_a_generated_file_is_red_and_says_what_does_not_load(
    repo: Repo, cli: Callable[..., CliResult]
) -> None:
    """node_modules (a real folder, as `npm install` makes it) is linked in; `src/version.js`, which
    a build step writes and git ignores, is copied."""
    cart = NODE_CART + "exports.total = (prices) => cents(prices.reduce((a, b) => a + b, 0));\n"
    fixed = NODE_CART + "exports.total = (prices) => cents(prices.reduce((a, b) => a + b, 0) * 1.2);\n"
    test = (
        "const test = require('node:test');\nconst assert = require('node:assert');\n"
        "const { total } = require('../src/cart.js');\ntest('taxed', () => assert.strictEqual(total([10]), 1200));\n"
    )
    base = repo.commit("base", {"package.json": PACKAGE, ".gitignore": IGNORE, "src/cart.js": cart})
    repo.write(
        {
            "node_modules/money/package.json": '{"name": "money", "main": "index.js"}\n',
            "node_modules/money/index.js": "exports.cents = (amount) => Math.round(amount * 100);\n",
            "src/version.js": "exports.version = '1.0.0';\n",
        }
    )
    repo.commit("fix the tax", {"src/cart.js": fixed, "test/cart.test.js": test})

    code, document = strength(cli, repo, base)

    assert verdicts(document) == {"test/cart.test.js": "red"}, document
    assert code == 0 and document["summary"]["copied"] == ["src/version.js"]

    (repo.path / "src/version.js").unlink()
    code, document = strength(cli, repo, base)
    (test_run,) = document["tests"]
    assert (test_run["verdict"], code) == ("not-run", 4)
    assert "Cannot find module './version.js'" in test_run["reason"], test_run["reason"]
