"""The effects a run is handed: the checkout opened once, a temporary worktree of another commit
for a gate that runs code there, and the pull request as the event names it (labels included)."""

from __future__ import annotations

import ast
import json
from collections.abc import Callable
from pathlib import Path

import pytest

from evidence_gate.effects import effects_for
from evidence_gate.errors import GitError
from evidence_gate.event import load_context

from .conftest import Repo, local_environment


def test_a_worktree_of_the_base_holds_the_bases_files_and_is_gone_afterwards(repo: Repo) -> None:
    base = repo.commit("base", {"shop/cart.py": "TOTAL = 1\n"})
    repo.commit("head", {"shop/cart.py": "TOTAL = 2\n"})
    effects = effects_for(repo.path, local_environment())
    with effects.worktree(base) as tree:
        assert (tree / "shop" / "cart.py").read_text(encoding="utf-8") == "TOTAL = 1\n"
        assert (repo.path / "shop" / "cart.py").read_text(encoding="utf-8") == "TOTAL = 2\n"
    assert not tree.exists()
    assert repo.git("worktree", "list", "--porcelain").count("worktree ") == 1


def test_a_worktree_of_an_unknown_commit_is_one_line(repo: Repo) -> None:
    repo.commit("base", {"README.md": "shop\n"})
    effects = effects_for(repo.path, local_environment())
    with pytest.raises(GitError, match="git worktree failed: "), effects.worktree("0" * 40):
        pass


def test_outside_a_checkout_there_is_no_git_and_asking_for_one_says_why(tmp_path: Path) -> None:
    effects = effects_for(tmp_path, local_environment())
    assert effects.git is None and effects.top == tmp_path
    with pytest.raises(GitError, match="not a git repository"):
        effects.checkout()


def test_the_pull_requests_labels_come_from_the_event(tmp_path: Path) -> None:
    event = tmp_path / "event.json"
    pull = {
        "number": 7,
        "body": "Adds discounts.",
        "base": {"sha": "b" * 40},
        "head": {"sha": "a" * 40},
        "labels": [{"name": "no-tests-needed"}, {"name": "docs"}, {"id": 3}, "forged"],
    }
    event.write_text(json.dumps({"pull_request": pull}), encoding="utf-8")
    context = load_context({"GITHUB_REPOSITORY": "octo-org/shop", "GITHUB_EVENT_PATH": str(event)})
    assert context is not None and context.pull_request is not None
    assert context.pull_request.labels == ("no-tests-needed", "docs")


SOURCE = Path(__file__).resolve().parents[1] / "src" / "evidence_gate"


def uses(predicate: Callable[[ast.AST], bool]) -> set[str]:
    """The source modules (relative to the package) holding a node the predicate picks."""
    return {
        str(path.relative_to(SOURCE))
        for path in SOURCE.rglob("*.py")
        if any(predicate(node) for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))))
    }


def test_the_environment_is_read_and_git_opened_at_the_edges_only() -> None:
    """Only the entry points read the process's environment, and only effects.py (through git.py)
    opens a checkout: everything else is handed what it needs."""

    def reads_environ(node: ast.AST) -> bool:
        return isinstance(node, ast.Attribute) and node.attr in {"environ", "getenv"} and _is_os(node.value)

    def opens_git(node: ast.AST) -> bool:
        return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "Git"

    assert uses(reads_environ) == {"cli.py", "action.py"}
    assert uses(opens_git) == {"git.py", "effects.py"}


def _is_os(node: ast.AST) -> bool:
    return isinstance(node, ast.Name) and node.id == "os"


# The judging side: it reads what the effects hand it (their git, workspace, commands, scratch
# directories and clock), never the machine directly.
JUDGING = ("gates/", "facts.py", "claims.py", "summary/", "coverage/", "integrity/")
FORBIDDEN_MODULES = {"subprocess", "tempfile", "shutil", "socket", "urllib", "http"}
FORBIDDEN_OS = {
    "environ",
    "environb",
    "getenv",
    "putenv",
    "open",
    "fdopen",
    "stat",
    "lstat",
    "listdir",
    "scandir",
    "walk",
    "remove",
    "unlink",
    "mkdir",
    "makedirs",
    "rename",
    "replace",
    "system",
    "popen",
    "fork",
    "chdir",
    "getcwd",
}
# Methods that touch the file system when called on a path. Called on the effects' workspace (or
# the package's own data, `resources.files`), they are the sanctioned road.
PATH_IO = {"open", "read_text", "read_bytes", "write_text", "write_bytes", "exists", "is_file", "is_dir"}
PATH_IO |= {"iterdir", "glob", "rglob", "mkdir", "unlink", "touch", "stat", "lstat", "is_symlink", "rename"}
SANCTIONED = ("workspace", "resources.files")
CLOCK = {("time", "time"), ("time", "time_ns"), ("datetime", "now"), ("datetime", "utcnow"), ("date", "today")}


def _io_outside_effects(node: ast.AST) -> str | None:
    """What `node` does to the machine without the effects, or None."""
    if isinstance(node, ast.Import | ast.ImportFrom):
        names = [alias.name for alias in node.names] if isinstance(node, ast.Import) else [node.module or ""]
        forbidden = [name for name in names if name.split(".")[0] in FORBIDDEN_MODULES]
        return f"imports {forbidden[0]}" if forbidden else None
    if isinstance(node, ast.Attribute) and _is_os(node.value) and node.attr in FORBIDDEN_OS:
        return f"os.{node.attr}"
    if not isinstance(node, ast.Call):
        return None
    function = node.func
    if isinstance(function, ast.Name) and function.id == "open":
        return "open()"
    if not isinstance(function, ast.Attribute):
        return None
    receiver = ast.unparse(function.value)
    if isinstance(function.value, ast.Name) and (function.value.id, function.attr) in CLOCK:
        return f"{receiver}.{function.attr}() (the clock)"
    if function.attr in PATH_IO and not any(name in receiver for name in SANCTIONED):
        return f"{receiver}.{function.attr}()"
    return None


def test_the_judging_side_reaches_the_machine_only_through_the_effects() -> None:
    """gates/, facts, summary/, coverage/ and integrity/ start no process, make no temp file, open no
    file and read no environment or clock of their own: a test hands them literals, a real temporary
    repository or a recording command runner, and nothing else is touched."""
    found = []
    modules = [path for path in sorted(SOURCE.rglob("*.py")) if str(path.relative_to(SOURCE)).startswith(JUDGING)]
    assert len(modules) > 40
    for path in modules:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            what = _io_outside_effects(node)
            if what is not None:
                found.append(f"{path.relative_to(SOURCE)}:{getattr(node, 'lineno', '?')}: {what}")
    assert found == []


@pytest.mark.parametrize(
    ("source", "what"),
    [
        ("import subprocess", "imports subprocess"),
        ("from tempfile import mkdtemp", "imports tempfile"),
        ("open('x')", "open()"),
        ("os.environ.get('CI')", "os.environ"),
        ("Path('a').read_text()", "Path('a').read_text()"),
        ("time.time()", "time.time() (the clock)"),
        ("effects.workspace.glob('*.xml')", None),
        ("resources.files('evidence_gate').joinpath('a.yaml').read_bytes()", None),
    ],
)
def test_the_fence_sees_each_kind_of_reach(source: str, what: str | None) -> None:
    found = {_io_outside_effects(node) for node in ast.walk(ast.parse(source))} - {None}
    assert found == ({what} if what else set())
