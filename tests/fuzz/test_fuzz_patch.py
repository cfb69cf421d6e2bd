"""Git's diff output read (`patch.py`: `parse_raw` of `git diff --raw -z --patch`, and `parse_patch`),
fuzzed from the output of a real git on a real change: files modified, added, deleted, renamed,
copied, binary, a mode change, a file turned into a symlink, a name that is not UTF-8, a file
without its last newline, and lines that look like a patch's own headers.

Output is entries and hunks or a `GitError`, never a traceback, and every hunk's lines lie within
the spans its header counts, however the output was cut, flipped or spliced."""

from __future__ import annotations

import os
import re
import subprocess
import tempfile
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from evidence_gate.errors import GitError
from evidence_gate.patch import parse_patch, parse_raw
from tests.conftest import git, write_tree

from .inputs import HUGE_NUMBERS, garbage, mutated

pytestmark = pytest.mark.fuzz

# The options git.py gives `git diff`: the output read here is the output git writes there.
DIFF = (
    "diff",
    "--raw",
    "-z",
    "--patch",
    "--no-color",
    "--no-ext-diff",
    "--no-textconv",
    "--no-relative",
    "--no-abbrev",
)
DIFF_NAMES = ("--src-prefix=a/", "--dst-prefix=b/", "--find-renames", "--find-copies")
BASE: dict[str, str | bytes] = {
    "src/cart.py": "class Cart:\n    def total(self):\n        return 0\n"
    + "".join(f"# line {n}\n" for n in range(40)),
    "src/old_name.py": "".join(f"value_{n} = {n}\n" for n in range(30)),
    "src/gone.py": "print('bye')\n",
    "src/mode.sh": "echo hi\n",
    "src/link_me.txt": "a file, later a symlink\n",
    "docs/guide.md": "# Guide\n\nNo newline at the end",
}
HEAD: dict[str, str | bytes] = {
    "src/cart.py": "class Cart:\n    def total(self):\n        return sum(self.items)\n"
    + "".join(f"# line {n}\n" for n in range(40) if n % 7)
    + "diff --git a/x b/x\n@@ -1 +1 @@\n--- a/x\n+++ b/x\n",
    "src/new_name.py": "".join(f"value_{n} = {n}\n" for n in range(30)) + "extra = 1\n",
    "src/copy_of_cart.py": "class Cart:\n    def total(self):\n        return 0\n"
    + "".join(f"# line {n}\n" for n in range(40)),
    "docs/guide.md": "# Guide\n\nNow with a newline\n",
    "assets/logo.bin": bytes(range(256)) * 4,
}


def real_diffs() -> tuple[bytes, ...]:
    """`git diff --raw -z --patch` of the change above, with and without renames found, and its patch alone."""
    with tempfile.TemporaryDirectory() as scratch:
        repo = Path(scratch)
        git(repo, "init", "--quiet", "--initial-branch=main")
        write_tree(repo, BASE)
        git(repo, "add", "--all")
        git(repo, "commit", "--quiet", "-m", "base")
        for name in ("src/gone.py", "src/old_name.py", "src/link_me.txt"):
            (repo / name).unlink()
        (repo / "src/link_me.txt").symlink_to("cart.py")
        (repo / "src/mode.sh").chmod(0o755)
        write_tree(repo, HEAD)
        (repo / os.fsdecode(b"caf\xe9.txt")).write_bytes(b"a name that is not UTF-8\n")
        git(repo, "add", "--all")
        git(repo, "commit", "--quiet", "-m", "head")
        outputs = tuple(
            subprocess.run(
                ["git", "-c", "core.quotePath=false", *DIFF, *names, "HEAD~1", "HEAD", "--"],
                cwd=repo,
                capture_output=True,
                check=True,
            ).stdout
            for names in (DIFF_NAMES, DIFF_NAMES[:2])
        )
    return (*outputs, *(parse_raw(output)[1] for output in outputs))


DIFFS = real_diffs()


def test_the_real_diffs_read_whole() -> None:
    """The corpus is what git.py reads: every entry has its section (a type change has two)."""
    for output in DIFFS[:2]:
        entries, patch = parse_raw(output)
        sections = parse_patch(patch)
        assert len(sections) == sum(2 if entry.status == "T" else 1 for entry in entries)
        assert {entry.status for entry in entries} >= {"A", "D", "M", "T"}
        assert any(section.binary for section in sections)


def assert_within_headers(patch: bytes) -> None:
    try:
        sections = parse_patch(patch)
    except GitError as error:
        assert "\n" not in str(error)
        return
    for section in sections:
        for hunk in section.hunks:
            assert len(hunk.added) <= hunk.new_lines and len(hunk.removed) <= hunk.old_lines
            assert all(hunk.new_start <= line.number < hunk.new_start + hunk.new_lines for line in hunk.added)
            assert all(hunk.old_start <= line.number < hunk.old_start + hunk.old_lines for line in hunk.removed)


# The numbers git writes itself: a hunk header's spans and a rename's or copy's score.
_GIT_NUMBERS = re.compile(rb"(?<=\n@@ -)[0-9]+|(?<=,)[0-9]+(?= [+@])|(?<= \+)[0-9]+|(?<=[RC])[0-9]+(?=\x00)")


@st.composite
def numbers_changed(draw: st.DrawFn) -> bytes:
    """A real diff with one to three of git's own numbers replaced by huge, negative or non-ASCII ones."""
    data = draw(st.sampled_from(DIFFS))
    for _ in range(draw(st.integers(1, 3))):
        spot = draw(st.sampled_from(list(_GIT_NUMBERS.finditer(data))))
        data = data[: spot.start()] + draw(st.sampled_from(HUGE_NUMBERS)) + data[spot.end() :]
    return data


@given(data=st.one_of(mutated(DIFFS), numbers_changed(), garbage))
def test_git_output_is_entries_and_hunks_or_a_git_error(data: bytes) -> None:
    try:
        entries, patch = parse_raw(data)
    except GitError as error:
        assert "\n" not in str(error)
    else:
        assert all(entry.status and entry.path is not None for entry in entries)
        assert_within_headers(patch)
    assert_within_headers(data)
