#!/usr/bin/env python3
"""Checks that a pushed tag can be released, and prints the version it names.

Usage: scripts/release/check-tag.py TAG [REPOSITORY_ROOT]

A release tag is `v` and three numbers (`v1.2.3`: the Python package's version is `1.2.3`, the
image's tag too). It must name what the commit says of itself: the version in pyproject.toml's
`[project]` table (the distribution's) and `evidence_gate.__version__` (the ledger's and
`--version`'s), so the image, the wheel and the ledgers they write all carry the tag's number.
And the commit must be a source commit, one whose action.yml still builds the Dockerfile
(`runs.image: Dockerfile`): the release workflow makes the release commit, which names the
pushed image, on top of it; a tag on a release commit would release a release.

Prints the version on stdout and exits 0, or prints one line saying what is wrong on stderr and
exits 2. Reads the files as text (no import of the package), so it runs before anything is
installed.
"""

from __future__ import annotations

import ast
import re
import sys
import tomllib
from pathlib import Path

import yaml

TAG = re.compile(r"v(?P<version>(0|[1-9][0-9]{0,8})\.(0|[1-9][0-9]{0,8})\.(0|[1-9][0-9]{0,8}))")
SOURCE_IMAGE = "Dockerfile"


class Refused(Exception):
    """The tag cannot be released; the message says why, in one line."""


def package_version(root: Path) -> str:
    """`__version__` as src/evidence_gate/__init__.py assigns it (a plain string literal)."""
    module = ast.parse((root / "src" / "evidence_gate" / "__init__.py").read_text(encoding="utf-8"))
    for node in module.body:
        if (
            isinstance(node, ast.Assign)
            and [target.id for target in node.targets if isinstance(target, ast.Name)] == ["__version__"]
            and isinstance(node.value, ast.Constant)
            and isinstance(node.value.value, str)
        ):
            return node.value.value
    raise Refused("src/evidence_gate/__init__.py assigns no __version__ string")


def action_image(root: Path) -> object:
    try:
        action = yaml.safe_load((root / "action.yml").read_text(encoding="utf-8"))
    except yaml.YAMLError as error:
        raise Refused(f"action.yml is not valid YAML: {' '.join(str(error).split())}") from error
    runs = action.get("runs") if isinstance(action, dict) else None
    return runs.get("image") if isinstance(runs, dict) else None


def release_version(tag: str, root: Path) -> str:
    matched = TAG.fullmatch(tag)
    if matched is None:
        raise Refused(f"{tag!r} is not a release tag: v and three numbers, as v1.2.3")
    version = matched["version"]
    try:
        project = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]
    except (tomllib.TOMLDecodeError, KeyError, TypeError) as error:
        raise Refused(f"pyproject.toml has no [project] version: {error}") from error
    if project != version:
        raise Refused(f"the tag {tag} says {version}, pyproject.toml's [project] version is {project!r}")
    module = package_version(root)
    if module != version:
        raise Refused(f"the tag {tag} says {version}, evidence_gate.__version__ is {module!r}")
    image = action_image(root)
    if image != SOURCE_IMAGE:
        raise Refused(
            f"action.yml's runs.image is {image!r}, not {SOURCE_IMAGE!r}: the tag must name a source commit, "
            "not a release commit"
        )
    return version


def main(argv: list[str]) -> int:
    if len(argv) not in (1, 2):
        print("usage: check-tag.py TAG [REPOSITORY_ROOT]", file=sys.stderr)
        return 2
    root = Path(argv[1]) if len(argv) == 2 else Path(__file__).resolve().parent.parent.parent
    try:
        print(release_version(argv[0], root))
    except (Refused, OSError, UnicodeDecodeError) as error:
        print(f"check-tag: {' '.join(str(error).split())}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
