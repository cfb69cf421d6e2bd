"""The wheel holds every package and data file: an editable install would hide a missing one."""

from __future__ import annotations

import re
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
    assert folders, f"no Python module under {ROOT / 'src' / 'evidence_gate'}"
    assert sorted(str(folder) for folder in folders if not (folder / "__init__.py").is_file()) == []


# The distribution's name on PyPI is not the command's: `evidence-gate` on PyPI is another project.
DISTRIBUTION = "pr-evidence-gate"
# An install command for the other project's distribution, in a shell line of the docs.
OTHER_PROJECT = re.compile(r"""pip3? install\s+(?:-\S+\s+)*["']?evidence-gate(?![\w.-])""")


def test_the_distribution_is_named_for_pypi_and_the_command_and_import_package_keep_their_names() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["name"] == DISTRIBUTION
    assert project["scripts"] == {"evidence-gate": "evidence_gate.cli:main"}
    assert (ROOT / "src" / "evidence_gate" / "__init__.py").is_file()


def test_no_documented_command_installs_the_other_project_from_pypi() -> None:
    """The docs' code blocks are copied as they are: none may `pip install evidence-gate`."""
    found = []
    documents = [*sorted((ROOT / "docs").rglob("*.md")), *sorted((ROOT / "docs").rglob("*.yml"))]
    assert documents, f"no document under {ROOT / 'docs'}"
    for document in [ROOT / "README.md", *documents]:
        text = document.read_text(encoding="utf-8")
        blocks = (
            text if document.suffix == ".yml" else "\n".join(re.findall(r"^```.*?^```", text, re.MULTILINE | re.DOTALL))
        )
        found += [f"{document.relative_to(ROOT)}: {match.group(0)}" for match in OTHER_PROJECT.finditer(blocks)]
    assert found == []


def test_the_install_pattern_catches_the_forms_a_doc_would_use() -> None:
    caught = ["pip install evidence-gate", "python -m pip install 'evidence-gate'", "pip3 install -U evidence-gate"]
    assert all(OTHER_PROJECT.search(line) for line in caught)
    assert not OTHER_PROJECT.search(f"pip install {DISTRIBUTION}==1.2.3")
    assert not OTHER_PROJECT.search("pip install evidence-gate-plugin")
