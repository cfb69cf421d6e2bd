"""The wheel holds every package and data file: an editable install would hide a missing one."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).parent.parent


def test_every_python_package_under_src_is_listed_in_pyproject() -> None:
    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    found = {
        ".".join(init.parent.relative_to(ROOT / "src").parts)
        for init in (ROOT / "src").rglob("__init__.py")
        if "__pycache__" not in init.parts
    }
    assert found | {"evidence_gate.templates"} == listed


def test_every_folder_of_python_modules_is_a_package_the_list_can_name() -> None:
    """A folder of modules without __init__.py imports as a namespace package from a checkout, so
    only the installed wheel (the container) would miss it."""
    folders = {
        path.parent for path in (ROOT / "src" / "evidence_gate").rglob("*.py") if "__pycache__" not in path.parts
    }
    assert sorted(str(folder) for folder in folders if not (folder / "__init__.py").is_file()) == []
