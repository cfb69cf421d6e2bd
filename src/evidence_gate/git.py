"""What the tool asks of git: a checkout's configuration, commits, files and diffs, and worktrees of
other commits. The calls that change a worktree's files are `worktree_edits`'s, and every call is
started as `git_process` starts git.

Paths come from `-z` output and are decoded with `surrogateescape`, so any byte sequence git can
store (spaces, quotes, newlines, leading dashes, invalid UTF-8) survives the round trip. Git's
configuration can change diff output (prefixes, colour, external diff drivers), so every diff call
pins the options the parser relies on.

A pull request controls the work tree, and a folder of it can hold a bare repository whose config
names a command (`core.fsmonitor`, `core.worktree`, hooks). So git is started once in the directory
the user gave, to find the top of the real checkout, and every call after that runs with `-C <top>`
(see `git_process`).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from evidence_gate.errors import EvidenceGateError, GitError, UnsafeRepository, UsageError
from evidence_gate.git_process import first_line, pathspec_batches
from evidence_gate.patch import Held, RawEntry, Section, read_diff
from evidence_gate.workspace import Refused, open_regular
from evidence_gate.worktree_edits import WorktreeEdits

WORKTREE = "worktree"

_DIFF_OPTIONS = (
    "--no-color",
    "--no-ext-diff",
    "--no-textconv",
    "--no-relative",
    "--src-prefix=a/",
    "--dst-prefix=b/",
    "--find-renames",
    "--find-copies",
    "--no-abbrev",  # whole blob ids: a counted file is named by its blob
)
_SNAPSHOT_AUTHOR = (("NAME", "evidence-gate"), ("EMAIL", "evidence-gate@localhost"))


@dataclass(frozen=True, kw_only=True)
class ConfigEntry:
    """One setting of git's configuration as this checkout sees it."""

    scope: str  # system, global, local, worktree or command (`-c` and GIT_CONFIG_* variables)
    origin: str  # where it was set: `file:.git/config`, an included file's path, `command line:`
    key: str  # section and name in lower case; a subsection (`http.<url>.`) as written
    value: str | None  # None: a name set without `=` (true)


class Git(WorktreeEdits):
    """A repository, run through the `git` executable with a fixed, predictable configuration."""

    def __init__(self, path: Path, environ: Mapping[str, str]) -> None:
        if shutil.which("git") is None:
            raise UsageError("git is not installed or not on PATH")
        if not path.is_dir():
            raise UsageError(f"{path}: no such directory")
        super().__init__(path, environ)
        self.path = path
        result = self._run(["rev-parse", "--show-toplevel"], check=False)
        if result.returncode != 0:
            if b"safe.bareRepository" in result.stderr:
                raise UnsafeRepository(
                    f"{path}: a bare repository in the work tree, refused (safe.bareRepository=explicit); give the"
                    " checkout's own directory"
                )
            raise GitError(f"{path}: not a git repository ({first_line(result.stderr)})")
        self.top = Path(os.fsdecode(result.stdout.rstrip(b"\n")))

    def config_entries(self) -> tuple[ConfigEntry, ...]:
        """Every setting git applies in this checkout, each with its scope and file: the system's,
        the user's, the checkout's (in a linked worktree, the main repository's and its own) and
        every file they include (`include.path`, `includeIf`, where actions/checkout may keep its
        credential header), in the order git reads them."""
        listed = self._run(["config", "--list", "--null", "--includes", "--show-scope", "--show-origin"]).stdout
        fields = listed.split(b"\0")
        entries = []
        for index in range(0, len(fields) - 2, 3):
            key, newline, value = fields[index + 2].partition(b"\n")
            entries.append(
                ConfigEntry(
                    scope=fields[index].decode("utf-8", "replace"),
                    origin=os.fsdecode(fields[index + 1]),
                    key=os.fsdecode(key),
                    value=os.fsdecode(value) if newline else None,
                )
            )
        return tuple(entries)

    def resolve_commit(self, rev: str, role: str) -> str:
        """The full SHA of `rev`; an unknown revision is a GitError with the fix for CI checkouts."""
        if rev.startswith("-"):
            raise UsageError(f"--{role} {rev!r}: a revision cannot start with '-'")
        result = self._run(["rev-parse", "--verify", "--quiet", "--end-of-options", f"{rev}^{{commit}}"], check=False)
        if result.returncode != 0:
            raise GitError(
                f"cannot resolve {role} {rev!r}: it is not in this clone"
                + (" (a shallow clone)" if self.is_shallow() else "")
                + f". Fetch it: `git fetch --no-tags --depth=1 origin {_branch_hint(rev)}`, or check out with"
                " `fetch-depth: 0` in actions/checkout"
            )
        return result.stdout.decode().strip()

    def is_shallow(self) -> bool:
        result = self._run(["rev-parse", "--is-shallow-repository"], check=False)
        return result.stdout.strip() == b"true"

    def merge_base(self, base: str, head: str) -> str:
        result = self._run(["merge-base", base, head], check=False)
        if result.returncode != 0:
            if self.is_shallow():
                raise GitError(
                    "base and head share no history in this shallow clone. Deepen it: "
                    "`git fetch --deepen=200 origin`, or check out with `fetch-depth: 0` in actions/checkout"
                )
            raise GitError(f"base {base[:12]} and head {head[:12]} have no common ancestor")
        return result.stdout.decode().strip()

    def is_ancestor(self, ancestor: str, commit: str) -> bool:
        """Whether `ancestor` is `commit` or lies in its history."""
        return self._run(["merge-base", "--is-ancestor", ancestor, commit], check=False).returncode == 0

    def commits_changing(self, base: str, head: str, path: PurePosixPath, limit: int) -> tuple[str, ...] | None:
        """The commits of `base..head` that change `path`, oldest first; None when more than `limit` do."""
        output = self._run(
            ["rev-list", "--topo-order", f"--max-count={limit + 1}", f"{base}..{head}", "--", path.as_posix()]
        ).stdout
        commits = output.decode().split()
        return None if len(commits) > limit else tuple(reversed(commits))

    def paths_changed(self, old: str, new: str, paths: Iterable[str]) -> tuple[str, ...]:
        """Which of `paths` differ between the two commits (changed, deleted or renamed away)."""
        wanted = list(paths)
        if not wanted:
            return ()
        output = self._run(["diff", "--name-only", "-z", "--no-renames", old, new, "--", *wanted]).stdout
        return tuple(os.fsdecode(name) for name in output.split(b"\0") if name)

    def worktree_tree(self) -> str:
        """A tree object of the working tree as it is now, untracked (not ignored) files included.

        Built in a private copy of the index, so the user's index and staging are never touched.
        """
        real_index = self._run(["rev-parse", "--git-path", "index"]).stdout.rstrip(b"\n")
        real_index_path = Path(os.fsdecode(real_index))
        if not real_index_path.is_absolute():
            real_index_path = self.top / real_index_path
        with tempfile.TemporaryDirectory(prefix="evidence-gate-index-") as scratch:
            private = Path(scratch) / "index"
            if real_index_path.exists():
                shutil.copyfile(real_index_path, private)
            env = {"GIT_INDEX_FILE": str(private)}
            self._run(["add", "--all", "--", "."], env=env)
            return self._run(["write-tree"], env=env).stdout.decode().strip()

    def oneline(self, commit: str) -> str:
        """`git log --oneline -1` of `commit`: its short hash and subject."""
        output = self._run(["log", "--oneline", "--no-decorate", "--no-color", "-1", "--end-of-options", commit])
        return output.stdout.decode("utf-8", "replace").strip()

    def diff_stat(self, base: str, head: str) -> str:
        """The last line of `git diff --stat base head`: `N files changed, M insertions(+), K deletions(-)`."""
        spec = [base] if head == WORKTREE else [base, head]
        output = self._run(
            ["diff", "--stat", "--no-color", "--no-ext-diff", "--no-textconv", "--end-of-options", *spec]
        )
        lines = output.stdout.decode("utf-8", "replace").strip().splitlines()
        return lines[-1].strip() if lines else "0 files changed"

    def file_at(self, commit: str, relative: PurePosixPath) -> bytes | None:
        """The content of the file at `relative` (to the top) in `commit`, or None when the commit
        has no file there."""
        blob = self._blob_at(commit, relative)
        return None if blob is None else self._run(["cat-file", "blob", blob]).stdout

    def size_at(self, commit: str, relative: PurePosixPath) -> int | None:
        """The size in bytes of the file at `relative` in `commit`, read without reading the file;
        None when the commit has no file there."""
        blob = self._blob_at(commit, relative)
        return None if blob is None else int(self._run(["cat-file", "-s", blob]).stdout.strip())

    def _blob_at(self, commit: str, relative: PurePosixPath) -> str | None:
        """The blob at `relative` in `commit`; None when there is none, or a tree or link is there."""
        spec = f"{commit}:{relative.as_posix()}"
        found = self._run(["rev-parse", "--verify", "--quiet", "--end-of-options", spec], check=False)
        if found.returncode != 0:
            return None
        blob = found.stdout.decode().strip()
        return blob if self._run(["cat-file", "-t", blob]).stdout.strip() == b"blob" else None

    def read_at(self, head: str, relative: str, cap: int) -> bytes | None:
        """The first `cap` bytes of the file at `relative` in `head`, which may be `WORKTREE`: then
        the work tree's file, refused when it is a symlink or not a regular file. None: no such
        file, or a refused one."""
        if head != WORKTREE:
            content = self.file_at(head, PurePosixPath(relative))
            return None if content is None else content[:cap]
        try:
            with open_regular(self.top / relative) as handle:
                return handle.read(cap)
        except Refused:
            return None

    def files_in_at(self, commit: str, folder: PurePosixPath) -> tuple[str, ...]:
        """The names of the regular files directly in `folder` (to the top) at `commit`; symlinks,
        submodules and sub-folders are left out."""
        spec = f"{commit}:{folder.as_posix()}" if folder.parts else commit
        output = self._run(["ls-tree", "-z", "--end-of-options", spec], check=False).stdout
        names = []
        for entry in output.split(b"\0"):
            meta, _, name = entry.partition(b"\t")
            if meta.split(b" ")[:2] in ([b"100644", b"blob"], [b"100755", b"blob"]):
                names.append(os.fsdecode(name))
        return tuple(names)

    def files_at(self, commit: str) -> tuple[str, ...]:
        """Every file path of `commit` (for `WORKTREE`: tracked and untracked, not ignored), `/`-separated."""
        if commit == WORKTREE:
            output = self._run(["ls-files", "-z", "--cached", "--others", "--exclude-standard"]).stdout
        else:
            output = self._run(["ls-tree", "-r", "-z", "--name-only", "--end-of-options", commit]).stdout
        return tuple(dict.fromkeys(os.fsdecode(name) for name in output.split(b"\0") if name))

    def ignored_files(self) -> tuple[str, ...]:
        """The files git ignores in the work tree that sit in folders it does not ignore whole (an
        install's `src/shop/_version.py`), `/`-separated. A folder ignored whole (`node_modules/`,
        `.venv/`) is left out: git names it once and is never asked to walk it."""
        output = self._run(
            ["ls-files", "-z", "--others", "--ignored", "--exclude-standard", "--directory", "--no-empty-directory"]
        ).stdout
        names = (os.fsdecode(name) for name in output.split(b"\0") if name)
        return tuple(name for name in names if not name.endswith("/"))

    def tracks_any(self, folder: str) -> bool:
        """Whether git tracks `folder` (relative to the top) or anything below it."""
        return bool(self._run(["ls-files", "-z", "--", folder]).stdout)

    def tracked(self, relatives: Iterable[Path]) -> set[Path]:
        """Which of `relatives` (to the top of the work tree) git tracks.

        One `ls-files` over the folders that hold them, not a process per file: a run can name
        thousands of reports, and they sit in a few folders.
        """
        wanted = set(relatives)
        folders = sorted({os.fspath(relative.parent) for relative in wanted})
        listed: set[Path] = set()
        for batch in [[]] if "." in folders else pathspec_batches(folders):
            output = self._run(["ls-files", "-z", "--", *batch]).stdout
            listed.update(Path(os.fsdecode(name)) for name in output.split(b"\0") if name)
        return wanted & listed

    def grep_fixed(self, needle: str) -> list[tuple[str, int, str]]:
        """Every (path, line number, line) of a text file in the work tree, tracked or untracked (not
        ignored), whose line contains `needle`. Git reads regular files only, never a symlink's target."""
        result = self._run(
            ["grep", "--untracked", "--fixed-strings", "--line-number", "-z", "-I", "-e", needle, "--"],
            check=False,
        )
        if result.returncode not in (0, 1):
            raise GitError(f"git grep failed: {first_line(result.stderr)}")
        # `path NUL number NUL line LF`; a path may hold a newline, so read field by field.
        output = result.stdout
        found = []
        start = 0
        while start < len(output):
            path_end = output.index(b"\0", start)
            number_end = output.index(b"\0", path_end + 1)
            line_end = output.find(b"\n", number_end + 1)
            end = len(output) if line_end == -1 else line_end
            found.append(
                (
                    os.fsdecode(output[start:path_end]),
                    int(output[path_end + 1 : number_end]),
                    output[number_end + 1 : end].decode("utf-8", "replace"),
                )
            )
            start = end + 1
        return found

    def files_naming(self, word: str) -> tuple[str, ...]:
        """The text files of the work tree, tracked or untracked (not ignored), that hold `word` as a
        whole word. Git reads regular files only, never a symlink's target."""
        result = self._run(
            ["grep", "--untracked", "--fixed-strings", "--word-regexp", "--files-with-matches", "-z", "-I", "-e", word],
            check=False,
        )
        if result.returncode not in (0, 1):
            raise GitError(f"git grep failed: {first_line(result.stderr)}")
        return tuple(os.fsdecode(name) for name in result.stdout.split(b"\0") if name)

    def head_moved_at(self) -> float | None:
        """When HEAD last moved in this clone (checkout, commit, reset), from the reflog."""
        result = self._run(["log", "--walk-reflogs", "-1", "--format=%gd", "--date=unix", "HEAD"], check=False)
        text = result.stdout.decode().strip()
        # "HEAD@{1732870000}"
        if result.returncode != 0 or not text.startswith("HEAD@{"):
            return None
        try:
            return float(text[len("HEAD@{") : -1])
        except ValueError:
            return None

    def head_committed_at(self) -> float | None:
        result = self._run(["log", "-1", "--format=%ct", "HEAD"], check=False)
        text = result.stdout.decode().strip()
        return float(text) if result.returncode == 0 and text.isdigit() else None

    def diff(self, old: str, new: str, held: Callable[[list[RawEntry]], Held]) -> tuple[list[RawEntry], list[Section]]:
        """The change from `old` to `new` in one run of git: its raw entries (exact names) and its
        patch's sections, read as git writes them; `held` says, from the entries, whose lines to
        keep (the rest are counted)."""
        with self._stream(["diff", "--raw", "-z", "--patch", *_DIFF_OPTIONS, old, new, "--"]) as output:
            return read_diff(output, held)

    @contextlib.contextmanager
    def worktree(self, commit: str) -> Iterator[Path]:
        """A temporary, detached work tree of `commit`, removed afterwards: where a gate runs the code
        of another commit (the base's tests against the head, say) without touching the checkout.
        Hooks stay off (`core.hooksPath=/dev/null`), so checking it out runs nothing of the repository's."""
        with tempfile.TemporaryDirectory(prefix="evidence-gate-worktree-") as scratch:
            tree = Path(scratch) / "tree"
            self.add_worktree(tree, commit)
            try:
                yield tree
            finally:
                self.remove_worktree(tree)

    def add_worktree(self, tree: Path, commit: str) -> Git:
        """A detached work tree of `commit` at `tree` (a folder not there yet), opened as a checkout."""
        self._run(["worktree", "add", "--detach", "--quiet", os.fsdecode(tree), commit])
        return Git(tree, self._environ)

    def remove_worktree(self, tree: Path) -> None:
        self._run(["worktree", "remove", "--force", os.fsdecode(tree)], check=False)
        self.prune_worktrees()

    def prune_worktrees(self) -> None:
        """Forget the work trees whose folders are gone (an interrupted run's)."""
        self._run(["worktree", "prune"], check=False)

    def snapshot(self) -> str:
        """A commit object of the working tree as it is now (see `worktree_tree`), its parent HEAD: no
        ref, index or file of the checkout changes."""
        head = self.resolve_commit("HEAD", "head")
        tree = self.worktree_tree()
        who = {f"GIT_{role}_{part}": value for role in ("AUTHOR", "COMMITTER") for part, value in _SNAPSHOT_AUTHOR}
        made = self._run(["commit-tree", tree, "-p", head, "-m", "evidence-gate: the working tree"], env=who)
        return made.stdout.decode().strip()


def open_repository(path: Path, environ: Mapping[str, str]) -> Git | None:
    """The git checkout around `path`, or None when there is none (or no git). A planted bare
    repository is an error, not "no checkout": without git, committed reports would go unseen."""
    try:
        return Git(path, environ)
    except UnsafeRepository:
        raise
    except EvidenceGateError:
        return None


def _branch_hint(rev: str) -> str:
    for prefix in ("refs/remotes/origin/", "refs/heads/", "origin/"):
        if rev.startswith(prefix):
            return rev[len(prefix) :]
    return rev
