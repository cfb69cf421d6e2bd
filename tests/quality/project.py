"""A Python project with its own virtualenv's tools, as `quality` finds them: `.venv/bin/mypy`,
`.venv/bin/ruff` and `.venv/bin/python` start the real mypy, ruff and pytest (the launchers a
virtualenv holds), and the run's PATH holds no other copy of them."""

from __future__ import annotations

import io
import os
import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass

from evidence_gate.cli import main
from tests.conftest import Repo, local_environment

TOOLS = ("mypy", "ruff")
SYSTEM_PATH = "/usr/bin:/bin"  # git and sh; no Python tool of this machine's
PYPROJECT = """[project]
name = "shop"
version = "0"

[tool.mypy]
strict = true

[tool.ruff]
line-length = 100
"""
PYTEST = "python -m pytest -rA -p no:cacheprovider --junitxml=build/junit.xml"
CONFIG = f"""\
test-command: {PYTEST} --cov=shop --cov-report=xml:build/coverage.xml
reports: [build/junit.xml, build/coverage.xml]
"""
CART = '''"""The cart."""


def total(prices: list[int]) -> int:
    """The sum of the prices."""
    return sum(prices)
'''
TOTAL_TESTS = """from shop import total


def test_total() -> None:
    assert total([1, 2]) == 3


def test_total_of_nothing() -> None:
    assert total([]) == 0
"""


@dataclass(frozen=True)
class Result:
    code: int
    out: str


def python_project(repo: Repo, *, tools: Sequence[str] = TOOLS) -> str:
    """The base commit of a small typed, linted, tested project; `tools` in its virtualenv."""
    bin_dir = repo.path / ".venv" / "bin"
    bin_dir.mkdir(parents=True)
    launchers = {name: f'#!/bin/sh\nexec {sys.executable} -m {name} "$@"\n' for name in tools}
    launchers["python"] = f'#!/bin/sh\nexec {sys.executable} "$@"\n'
    for name, text in launchers.items():
        (bin_dir / name).write_text(text)
        (bin_dir / name).chmod(0o755)
    return repo.commit(
        "base",
        {
            ".gitignore": ".venv/\nbuild/\n.coverage\n.mypy_cache/\n.ruff_cache/\n",
            "pyproject.toml": PYPROJECT,
            ".github/evidence-gate.yml": CONFIG,
            "shop/__init__.py": CART,
            "tests/test_total.py": TOTAL_TESTS,
        },
    )


def quality(repo: Repo, *args: str | os.PathLike[str], path: str = SYSTEM_PATH) -> Result:
    """`evidence-gate quality` in the project, as a developer runs it: their PATH, no CI."""
    out = io.StringIO()
    environ = {**local_environment(), "PATH": path}
    code = main(
        ["quality", "--repo", os.fspath(repo.path), *(os.fspath(arg) for arg in args)], out=out, environ=environ
    )
    return Result(code=code, out=out.getvalue())


def report_checks(text: str) -> dict[int, str]:
    """Each check's marker word, by number."""
    return {int(n): word for n, word in re.findall(r"^<!-- QG:CHECK:(\d):([A-Z_]+) -->$", text, re.MULTILINE)}


def verdict(text: str) -> str:
    """The report's one verdict marker's word."""
    found: list[str] = re.findall(r"^<!-- QG:VERDICT:([A-Z]+) -->$", text, re.MULTILINE)
    assert len(found) == 1
    return found[0]
