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
