"""Check 5, scope, and check 8, smoke, on real repositories: the scope the body or the
configuration declares, each changed file outside it listed; the smoke commands the configuration
names run and only inform; the ones a body lists are shown, never run."""

from __future__ import annotations

import time
from pathlib import Path

from evidence_gate.body_lists import label_line, listed_under
from evidence_gate.gates.scope import body_scope
from evidence_gate.gates.smoke import body_commands
from evidence_gate.ledger.model import GateVerdict
from evidence_gate.model import PullRequest
from evidence_gate.settings import Settings
from tests.conftest import Repo, judge_repo


def test_a_body_declares_its_scope_inline_or_as_a_list_and_prose_is_not_a_scope() -> None:
    assert body_scope("Scope: src/, `docs/*.md`") == ("src/", "docs/*.md")
    assert body_scope("## Scope\n- src/\n- `tests/`\n\nMore text.\n- not a scope") == ("src/", "tests/")
    assert body_scope("**Scope:**\n* shop/\n") == ("shop/",)
    assert body_scope("The scope of this change is small.\nScope of work: big") == ()
    assert listed_under("Smoke:\n- a\n- b\n- c", label_line("Smoke"), 2) == ("a", "b")


def test_a_list_item_keeps_the_words_around_its_backticks_as_it_did() -> None:
    body = "Scope:\n- `src/** `\n-   docs/  \n- `a`b`\n- ` spaced`\n- tests/`\n"
    assert listed_under(body, label_line("Scope"), 10) == ("src/** ", "docs/")
    assert listed_under("Scope:\n- a`\n- `b\n", label_line("Scope"), 10) == ("a", "b")


def test_a_line_of_many_spaces_under_a_label_is_read_at_once() -> None:
    """A body line of 65,536 spaces between an item and a backtick took minutes (a lazy pattern over
    the spaces, quadratic); the body is the pull request's, so that was a hang anyone could cause."""
    started = time.monotonic()
    assert listed_under("Scope:\n- a" + " " * 65_536 + "`x\n", label_line("Scope"), 10) == ()
    assert time.monotonic() - started < 1


def changed(repo: Repo) -> tuple[str, str]:
    base = repo.commit("base", {"pyproject.toml": "[project]\nname = 'shop'\n", "shop/cart.py": "X = 1\n"})
    head = repo.commit("change", {"shop/cart.py": "X = 2\n", "docs/cart.md": "# Cart\n", "setup.cfg": "[x]\n"})
    return base, head


def pull(body: str, base: str, head: str) -> PullRequest:
    return PullRequest(number=1, base_sha=base, head_sha=head, body=body)


def test_each_changed_file_outside_the_bodys_scope_is_listed_and_fails(repo: Repo) -> None:
    base, head = changed(repo)
    settings = Settings(repo=repo.path, base=base, head=head)
    gate = judge_repo(settings, pull_request=pull("Scope:\n- shop/\n- docs/\n", base, head)).gate("scope")
    assert gate is not None
    assert (gate.verdict, gate.headline) == (
        GateVerdict.FAIL,
        "1 changed file outside the pull request's `Scope:` list",
    )
    assert gate.details == ("setup.cfg: outside the scope",)


def test_the_configurations_scope_applies_over_the_bodys_and_a_change_within_it_passes(repo: Repo) -> None:
    base, head = changed(repo)
    settings = Settings(repo=repo.path, base=base, head=head, scope=("shop/", "docs/", "*.cfg"))
    gate = judge_repo(settings, pull_request=pull("Scope: shop/", base, head)).gate("scope")
    assert gate is not None
    assert (gate.verdict, gate.headline) == (GateVerdict.PASS, "all 3 changed files within the configuration's `scope`")


def test_no_declared_scope_is_not_applicable_saying_so(repo: Repo) -> None:
    base, head = changed(repo)
    gate = judge_repo(Settings(repo=repo.path, base=base, head=head)).gate("scope")
    assert gate is not None and gate.verdict is GateVerdict.NOT_APPLICABLE
    assert gate.headline.startswith("no scope declared")


def test_smoke_commands_from_the_configuration_run_and_only_inform(repo: Repo, tmp_path: Path) -> None:
    base, head = changed(repo)
    marker = tmp_path / "ran"
    settings = Settings(repo=repo.path, base=base, head=head, smoke=(f"touch {marker}", "exit 3"))
    ledger = judge_repo(settings, pull_request=pull("Smoke:\n- `rm -rf ~`\n", base, head))
    gate = ledger.gate("smoke")
    assert gate is not None and gate.verdict is GateVerdict.INFO
    assert gate.headline == "1 of 2 smoke commands exited 0 (informational, never blocking)"
    assert gate.details == ("`exit 3`: exit code 3",)
    assert marker.exists()
    assert body_commands("Smoke:\n- `rm -rf ~`\n") == ("rm -rf ~",)
    assert "not run: 1 command from the pull request's body (rm -rf ~)" in (gate.data.row.reason or "")  # type: ignore[union-attr]  # a ToolData


def test_a_scope_glob_that_is_not_gitignore_syntax_is_unavailable_with_the_reason(repo: Repo) -> None:
    base, head = changed(repo)
    settings = Settings(repo=repo.path, base=base, head=head)
    gate = judge_repo(settings, pull_request=pull("Scope:\n- shop/\n- !\n", base, head)).gate("scope")
    assert gate is not None and gate.verdict is GateVerdict.UNAVAILABLE
    assert gate.headline.startswith("the pull request's `Scope:` list holds a glob that is not .gitignore syntax (")
