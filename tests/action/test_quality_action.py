"""The quality-gate report in the action: STAGNATION over three runs of one pull request (its
history read back from the sticky comment), none when the error changes, a forged history in
someone else's comment ignored, and the checks that need the toolchain read from the logs the
job's steps wrote."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from evidence_gate.ledger.model import GateVerdict, Verdict
from evidence_gate.render import check_slug, comment_marker
from tests.github_fake import FakeGitHub
from tests.github_fake.state import OCTOCAT

from ..conftest import Repo
from .harness import CART, CHECK, PR, REPO, TESTS, Run, event, post_marked_comments, pull_request, run_pytest, seed

ONE_FAILING = """\
def test_total():
    assert 5 == 4, "the {what} is off"
"""


def failing(repo: Repo, what: str) -> None:
    """The test step again, its one test failing with another message."""
    (repo.path / "tests" / "test_cart.py").write_text(ONE_FAILING.format(what=what), encoding="utf-8")
    run_pytest(repo)


def test_the_same_failure_on_three_runs_is_stagnation(
    tmp_path: Path, repo: Repo, server: FakeGitHub, action: Callable[..., Run]
) -> None:
    base, head = pull_request(repo, server, ONE_FAILING.format(what="total"))
    runs = [action(repo, event(tmp_path, base, head), head) for _ in range(3)]
    assert [run.ledger.verdict for run in runs] == [Verdict.BLOCKED, Verdict.BLOCKED, Verdict.STAGNATION]
    assert [run.code for run in runs] == [1, 1, 1]
    assert runs[2].outputs["verdict"] == "STAGNATION"
    stagnation = runs[2].ledger.quality.stagnation
    assert stagnation is not None and stagnation.check == 3
    assert stagnation.message.startswith("STAGNATION DETECTED: Check 3 (Test Suite) has failed 3 consecutive times")
    (comment,) = server.comments(PR)
    assert "<!-- QG:VERDICT:STAGNATION -->" in comment.body
    assert "Stop retrying" in comment.body
    assert runs[2].ledger.quality.history == "2 earlier runs of this pull request, from its sticky comment"


def test_a_failure_whose_error_changes_is_blocked_each_time(
    tmp_path: Path, repo: Repo, server: FakeGitHub, action: Callable[..., Run]
) -> None:
    base, head = pull_request(repo, server, ONE_FAILING.format(what="total"))
    verdicts = []
    for what in ("total", "tax", "discount"):  # the same test, a new error each time: not a loop of retries
        failing(repo, what)
        # The acceptance criteria would fail the same way each time (no test proves them): not judged here.
        run = action(repo, event(tmp_path, base, head), head, gates_off="type-check\nlint\ncriteria")
        verdicts.append(run.ledger.verdict)
    assert verdicts == [Verdict.BLOCKED] * 3


def test_a_history_in_a_comment_the_author_wrote_is_not_read(
    tmp_path: Path, repo: Repo, server: FakeGitHub, action: Callable[..., Run]
) -> None:
    base, head = pull_request(repo, server, ONE_FAILING.format(what="total"))
    first = action(repo, event(tmp_path, base, head), head, comment_mode="off")
    failed = ",".join(f"{number}:{mark}" for number, mark in sorted(first.ledger.quality.signatures.items()))
    forged = f"{comment_marker(CHECK)}\n<!-- evidence-gate:history:{check_slug(CHECK)}:{failed};{failed} -->"
    server.add_comment(REPO, PR, forged, user=OCTOCAT)  # two earlier failures, claimed by the author
    run = action(repo, event(tmp_path, base, head), head, comment_mode="off")
    assert run.ledger.verdict is Verdict.BLOCKED
    assert run.ledger.quality.history == "no earlier run of this pull request left a comment"
    post_marked_comments(server, forged.split("\n", 1)[1])  # the same line, by the action's own account
    assert action(repo, event(tmp_path, base, head), head, comment_mode="off").ledger.verdict is Verdict.STAGNATION


def test_the_type_checkers_log_from_a_step_is_read_under_the_capture_protocol(
    tmp_path: Path, repo: Repo, server: FakeGitHub, action: Callable[..., Run]
) -> None:
    base, head = pull_request(repo, server)
    (repo.path / "build" / "mypy.log").write_text("Success: no issues found in 2 source files\nEXIT_CODE=0\n")
    run = action(repo, event(tmp_path, base, head), head, gates_off="lint", logs="type-check: build/mypy.log")
    gate = run.ledger.gate("type-check")
    assert gate is not None and (gate.verdict, gate.headline) == (GateVerdict.PASS, "exit code 0, 0 errors")
    report = Path(run.outputs["report"]).read_text()
    assert "<!-- QG:CHECK:1:PASS -->" in report
    assert "**Command:** mypy . (read from build/mypy.log)" in report


def test_cargo_checks_warnings_are_no_type_errors(
    tmp_path: Path, repo: Repo, server: FakeGitHub, action: Callable[..., Run]
) -> None:
    """cargo check prints its warnings and exits 0: check 1 counts errors, and there are none."""
    base, head = pull_request(repo, server)
    fixture = Path(__file__).resolve().parents[1] / "fixtures" / "tools" / "cargo" / "check-warnings.log"
    (repo.path / "build" / "cargo-check.log").write_bytes(fixture.read_bytes())
    run = action(repo, event(tmp_path, base, head), head, gates_off="lint", logs="type-check: build/cargo-check.log")
    gate = run.ledger.gate("type-check")
    assert gate is not None and (gate.verdict, gate.headline) == (GateVerdict.PASS, "exit code 0, 0 errors")
    report = Path(run.outputs["report"]).read_text()
    assert "| 1 | Type Checker | no baseline | 0 errors, exit 0 | PASS |" in report


def test_a_flake8_log_is_named_flake8_in_the_toolchain_table(
    tmp_path: Path, repo: Repo, server: FakeGitHub, action: Callable[..., Run]
) -> None:
    """The adapter's default linter is ruff; the step ran flake8, and its log says so."""
    base, head = pull_request(repo, server)
    fixture = Path(__file__).resolve().parents[1] / "fixtures" / "tools" / "flake8" / "errors.log"
    (repo.path / "build" / "lint.log").write_bytes(fixture.read_bytes())
    run = action(repo, event(tmp_path, base, head), head, gates_off="type-check", logs="lint: build/lint.log")
    (row,) = [row for row in run.ledger.quality.toolchain if row.check == 2]
    assert (row.command, row.reason) == ("flake8", "the log build/lint.log (`logs`), written by flake8")
    report = Path(run.outputs["report"]).read_text()
    assert "| 2. linter | DETECTED | flake8 (the log build/lint.log (`logs`), written by flake8) |" in report
    assert "**Command:** flake8 (read from build/lint.log)" in report
    assert "ruff" not in report


def test_without_its_log_the_type_checker_is_missing_and_blocks(
    tmp_path: Path, repo: Repo, server: FakeGitHub, action: Callable[..., Run]
) -> None:
    base, head = pull_request(repo, server)
    run = action(repo, event(tmp_path, base, head), head, gates_off="lint")
    gate = run.ledger.gate("type-check")
    assert gate is not None and gate.verdict is GateVerdict.MISSING
    assert gate.headline == (
        "the action's container does not run the project's tools (mypy: [tool.mypy] in pyproject.toml): give its"
        " evidence (run it in the runner step, `uses: your-org/evidence-gate/run@<sha>`, or hand in its log with"
        " `logs: type-check: <file>`), or switch the check off in the base branch's config (`gates-off:"
        " [type-check]` in .github/evidence-gate.yml)"
    )
    assert run.ledger.verdict is Verdict.BLOCKED and run.code == 1
    (check_run,) = server.check_runs(head)
    assert check_run.name == CHECK and check_run.conclusion == "failure"


def test_the_baseline_file_is_read_as_the_base_commit_has_it(
    tmp_path: Path, repo: Repo, server: FakeGitHub, action: Callable[..., Run]
) -> None:
    """The pull request raises its own baseline to let a new warning through: the base's holds."""

    def baseline(warnings: int) -> str:
        lint = {"exit": 1 if warnings else 0, "warnings": warnings}
        return json.dumps({"type_check": None, "lint": lint, "test": None, "coverage": None, "timestamp": ""})

    base = repo.commit(
        "base",
        {"pyproject.toml": "[project]\nname = 'shop'\n", "shop/cart.py": CART, "docs/baseline.json": baseline(0)},
    )
    repo.git("checkout", "--quiet", "-b", "feature")
    head = repo.commit(
        "room", {"shop/cart.py": "import os\n" + CART, "tests/test_cart.py": TESTS, "docs/baseline.json": baseline(5)}
    )
    seed(server, base, head)
    run_pytest(repo)
    (repo.path / "build" / "ruff.log").write_text("F401 [*] `os` imported but unused\nFound 1 error.\nEXIT_CODE=1\n")
    run = action(
        repo,
        event(tmp_path, base, head),
        head,
        gates_off="type-check",
        logs="lint: build/ruff.log",
        baseline="docs/baseline.json",
    )
    gate = run.ledger.gate("lint")
    assert gate is not None and (gate.verdict, gate.headline) == (
        GateVerdict.FAIL,
        "exit code 1: 1 warning (baseline 0, +1)",
    )
    assert run.ledger.quality.baseline_source == f"the baseline file docs/baseline.json at the base commit {base[:12]}"


def untyped_pull_request(repo: Repo, server: FakeGitHub, config: str | None) -> tuple[str, str]:
    """A project that configures a linter (ruff) and no type checker, its base commit's config file
    `config`; the lint step's log says it passed."""
    files = {"pyproject.toml": "[project]\nname = 'shop'\n\n[tool.ruff]\n", "shop/cart.py": CART}
    base = repo.commit(
        "base", files | ({".github/evidence-gate.yml": config} if config else {}) | {".gitignore": "build/\n"}
    )
    repo.git("checkout", "--quiet", "-b", "feature")
    head = repo.commit("discounts", {"shop/cart.py": CART + "# discounts\n", "tests/test_cart.py": TESTS})
    seed(server, base, head)
    run_pytest(repo)
    (repo.path / "build" / "lint").mkdir()
    (repo.path / "build" / "lint" / "ruff.log").write_text("All checks passed!\nEXIT_CODE=0\n")
    return base, head


def test_a_project_with_no_type_checker_is_missing_with_the_two_ways_out(
    tmp_path: Path, repo: Repo, server: FakeGitHub, action: Callable[..., Run]
) -> None:
    base, head = untyped_pull_request(repo, server, None)
    run = action(repo, event(tmp_path, base, head), head, gates_off="", logs="lint: build/lint/ruff.log")
    gate = run.ledger.gate("type-check")
    assert gate is not None and gate.verdict is GateVerdict.MISSING
    none = "no mypy or pyright is configured: no config file, dev dependency or CI step names one: "
    assert gate.headline.startswith(none)
    assert "`uses: your-org/evidence-gate/run@<sha>`" in gate.headline
    assert "`logs: type-check: <file>`" in gate.headline
    assert "`gates-off: [type-check]` in .github/evidence-gate.yml" in gate.headline
    assert "install it" not in gate.headline and "type-check-command" not in gate.headline
    assert run.ledger.verdict is Verdict.BLOCKED


def test_a_type_checker_the_maintainer_switched_off_is_shown_as_their_choice_and_passes(
    tmp_path: Path, repo: Repo, server: FakeGitHub, action: Callable[..., Run]
) -> None:
    base, head = untyped_pull_request(repo, server, "gates-off: [type-check]\n")
    run = action(repo, event(tmp_path, base, head), head, gates_off="", logs="lint: build/lint/ruff.log")
    gate = run.ledger.gate("type-check")
    off = "switched off by the maintainer (gates-off in .github/evidence-gate.yml at the base commit)"
    assert gate is not None and (gate.verdict, gate.headline) == (GateVerdict.OFF, off)
    lint = run.ledger.gate("lint")
    assert lint is not None and lint.verdict is GateVerdict.PASS
    assert run.ledger.verdict is Verdict.PASS, [(g.id, g.verdict, g.headline) for g in run.ledger.gates]
    (comment,) = server.comments(PR)
    assert f"| 1 | Type Checker | no baseline | {off} | \N{DOUBLE VERTICAL BAR} OFF |" in comment.body
    assert "<!-- QG:CHECK:1:NOT_APPLICABLE -->" in comment.body
