"""The ignored files an install generated into the caller's checkout, copied into a worktree: which
ones, within which caps, on a real repository and a real worktree of it."""

from __future__ import annotations

import os
from pathlib import Path

from evidence_gate.git import Git
from evidence_gate.strength import generated
from evidence_gate.strength.generated import copy_generated, generated_files

from ..conftest import Repo

IGNORE = "*.pyc\n_version.py\nbig.py\nlink.py\nsecret.py\n.venv/\nbuild/\n*.egg-info/\ncoverage.xml\n.env\nnotes.txt\n"


def copied(repo: Repo, tmp_path: Path) -> tuple[tuple[str, ...], Path]:
    git = Git(repo.path, os.environ)
    head = repo.git("rev-parse", "HEAD")
    tree = git.add_worktree(tmp_path / "tree", head)
    return copy_generated(git.top, tree.top, generated_files(git, git.files_at(head))), tree.top


def test_a_generated_file_beside_tracked_code_is_copied_and_nothing_else(repo: Repo, tmp_path: Path) -> None:
    repo.commit("base", {".gitignore": IGNORE, "pyproject.toml": "", "src/shop/cart.py": "", "docs/a.md": ""})
    outside = tmp_path / "outside.py"
    outside.write_text("stolen = True\n")
    repo.write(
        {
            "src/shop/_version.py": "version = '1.2'\n",  # copied
            "src/shop/big.py": "x" * (generated.MAX_FILE_BYTES + 1),  # too big
            "src/shop/__pycache__/cart.cpython-311.pyc": "",  # a cache folder
            ".venv/lib/site.py": "",  # ignored whole
            "build/lib/shop/_version.py": "",  # ignored whole, and a build folder
            "shop.egg-info/top_level.py": "",
            "coverage.xml": "<coverage/>",  # no tracked .xml beside it
            ".env": "TOKEN=x\n",  # a dot-file
            "docs/notes.txt": "",  # no tracked .txt beside it
        }
    )
    (repo.path / "src" / "shop" / "link.py").symlink_to(outside)  # a link: never followed
    files, tree = copied(repo, tmp_path)
    assert files == ("src/shop/_version.py",)
    assert (tree / "src/shop/_version.py").read_text() == "version = '1.2'\n"
    assert not (tree / "src/shop/link.py").exists() and not (tree / ".env").exists()


def test_a_file_the_worktree_has_from_git_is_never_overwritten(repo: Repo, tmp_path: Path) -> None:
    """The checkout's ignored copy of a file the head tracks (force-added) stays the head's."""
    repo.commit("base", {".gitignore": "_version.py\n", "src/shop/cart.py": ""})
    repo.write({"src/shop/_version.py": "version = 'head'\n"})
    repo.git("add", "--force", "src/shop/_version.py")
    repo.commit("head")
    repo.write({"src/shop/_version.py": "version = 'checkout'\n"})
    files, tree = copied(repo, tmp_path)
    assert files == ()
    assert (tree / "src/shop/_version.py").read_text() == "version = 'head'\n"


def test_the_count_and_total_caps_hold(repo: Repo, tmp_path: Path) -> None:
    repo.commit("base", {".gitignore": "gen_*\n", "src/cart.py": ""})
    repo.write({f"src/gen_{number:03}.py": "" for number in range(generated.MAX_FILES + 5)})
    files, _ = copied(repo, tmp_path)
    assert len(files) == generated.MAX_FILES
    half = "x" * (generated.MAX_FILE_BYTES - 10)
    repo.git("clean", "-fdXq")
    repo.write({f"src/gen_{number}.py": half for number in range(10)})
    files, _ = copied(repo, tmp_path / "second")
    assert len(files) == generated.MAX_TOTAL_BYTES // len(half)  # 8 of ten files of 1 MiB, less a little
