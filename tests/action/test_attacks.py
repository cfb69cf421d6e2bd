"""Attacks through the action, with the pull request as the only lever: its committed files (symlinks
to the runner's secrets, a link to `/`, a FIFO its test step left), its logs and its paths. Run end
to end through entrypoint.py against the fake GitHub API: nothing of a secret may reach the comment,
the check run, the job summary, the PR body or the ledger, and a refused file fails the evidence."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

from evidence_gate.ledger.document import read_ledger
from evidence_gate.ledger.model import GateVerdict, Verdict
from tests.action.harness import (
    PR,
    Run,
    action_environ,
    event,
    pull_request,
    run_entrypoint,
    run_pytest,
    runner_files,
)
from tests.github_fake import DEFAULT_TOKEN, FakeGitHub
from tests.github_fake.runner_files import read_outputs

from ..conftest import Repo

CANARY = "canary-7f3e9a1c-not-for-publication"


def everything_published(server: FakeGitHub, run: Run, head: str) -> str:
    """All text the run made public or left for later steps."""
    check_runs = server.check_runs(head)
    return "\n".join(
        [
            *(comment.body for comment in server.comments(PR)),
            *(f"{c.output_title}\n{c.output_summary}\n{c.output_text}" for c in check_runs),
            server.pr_body(PR) or "",
            run.summary,
            Path(run.outputs["ledger"]).read_text(),
            Path(run.outputs["report"]).read_text(),
        ]
    )


def test_a_report_linked_to_the_process_environment_is_refused_and_nothing_leaks(
    tmp_path: Path, repo: Repo, server: FakeGitHub, action: Callable[..., Run]
) -> None:
    base, head = pull_request(repo, server)
    (repo.path / "build" / "environ.log").symlink_to("/proc/self/environ")
    run = action(repo, event(tmp_path, base, head), head)
    evidence = run.ledger.gate("evidence")
    assert evidence is not None
    assert evidence.verdict is GateVerdict.FAIL
    assert "environ.log: a symlink leading outside the workspace" in evidence.headline
    assert run.ledger.verdict is Verdict.BLOCKED
    published = everything_published(server, run, head)
    assert DEFAULT_TOKEN not in published
    assert "GITHUB_REPOSITORY=" not in published


def test_a_report_linked_to_a_runner_file_or_git_config_is_never_read(
    tmp_path: Path, repo: Repo, server: FakeGitHub, action: Callable[..., Run]
) -> None:
    base, head = pull_request(repo, server)
    secret = tmp_path / "runner-secret.txt"
    secret.write_text(f"{CANARY}\n5 passed in 0.01s\n")
    with (repo.path / ".git" / "config").open("a") as config:
        config.write(f'[http "https://github.com/"]\n\textraheader = AUTHORIZATION: basic {CANARY}\n')
    (repo.path / "build" / "secret.log").symlink_to(secret)
    (repo.path / "build" / "credentials.log").symlink_to(repo.path / ".git" / "config")
    run = action(repo, event(tmp_path, base, head), head)
    evidence = run.ledger.gate("evidence")
    assert evidence is not None
    assert evidence.verdict is GateVerdict.FAIL
    assert any("credentials.log: inside a .git directory" in line for line in evidence.details)
    assert any("secret.log: a symlink leading outside the workspace" in line for line in evidence.details)
    assert CANARY not in everything_published(server, run, head)


def test_a_fifo_left_by_the_test_step_is_refused_without_hanging(
    tmp_path: Path, repo: Repo, server: FakeGitHub, action: Callable[..., Run]
) -> None:
    base, head = pull_request(repo, server)
    os.mkfifo(repo.path / "build" / "pipe.log")
    run = action(repo, event(tmp_path, base, head), head)
    evidence = run.ledger.gate("evidence")
    assert evidence is not None
    assert evidence.verdict is GateVerdict.FAIL
    assert "pipe.log: a FIFO, not a regular file" in evidence.headline


def test_a_committed_link_to_the_root_is_not_searched(
    tmp_path: Path, repo: Repo, server: FakeGitHub, action: Callable[..., Run]
) -> None:
    base, head = pull_request(repo, server)
    (repo.path / "build" / "root").symlink_to("/", target_is_directory=True)
    run = action(repo, event(tmp_path, base, head), head, reports="build/**/*.xml\nbuild/**/*.log")
    assert run.ledger.verdict is Verdict.PASS
    assert run.outputs["executed"] == "2"


def test_credentials_a_log_printed_are_masked_everywhere(
    tmp_path: Path, repo: Repo, server: FakeGitHub, action: Callable[..., Run]
) -> None:
    base, head = pull_request(repo, server)
    with (repo.path / "build" / "pytest.log").open("a") as log:
        log.write(f"token in the environment: {DEFAULT_TOKEN}\n")
        log.write("cloning https://x-access-token:ghs_16C7e42F292c6912E7710c838347Ae178B4a@github.com/o/r\n")
        log.write("Authorization: bearer github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz\n")
        log.write("EXIT_CODE=0\n")  # a log that records its exit code is shown beside the JUnit report
    run = action(repo, event(tmp_path, base, head), head)
    published = everything_published(server, run, head)
    assert DEFAULT_TOKEN not in published
    assert "ghs_16C7e42F292c6912E7710c838347Ae178B4a" not in published
    assert "github_pat_11ABCDEFG" not in published
    assert "x-access-token:***" in Path(run.outputs["ledger"]).read_text()
    assert f"::add-mask::{DEFAULT_TOKEN}" in run.stdout.splitlines()[0]


def test_a_ledger_out_through_a_committed_symlink_stays_in_the_workspace(
    tmp_path: Path, repo: Repo, server: FakeGitHub, action: Callable[..., Run]
) -> None:
    base, head = pull_request(repo, server)
    outside = tmp_path / "runner-home"
    outside.mkdir()
    (repo.path / "out").symlink_to(outside, target_is_directory=True)
    run = action(repo, event(tmp_path, base, head), head, ledger_out="out/ledger.json")
    assert list(outside.iterdir()) == []
    assert "ledger-out" in run.stdout
    assert "outside the workspace" in run.stdout
    assert Path(run.outputs["ledger"]).is_file()
    assert run.outputs["verdict"] == "PASS"


def test_ledger_out_is_the_workspaces_path_whatever_the_working_directory(
    tmp_path: Path, repo: Repo, server: FakeGitHub
) -> None:
    """docs/usage.md: `ledger-out` is relative to the workspace, where a later step of the job looks,
    not to `working-directory` (the repository checked out below it)."""
    base, head = pull_request(repo, server)
    (tmp_path / "out").mkdir()
    files = runner_files(tmp_path)
    environ = action_environ(server, repo, event(tmp_path, base, head), head, files, ledger_out="out/ledger.json")
    environ |= {"GITHUB_WORKSPACE": str(tmp_path), "INPUT_WORKING-DIRECTORY": repo.path.name}
    result = run_entrypoint(environ)
    assert result.returncode == 0, result.stdout
    assert read_outputs((files / "output").read_text())["ledger"] == str(tmp_path / "out" / "ledger.json")
    assert read_ledger(tmp_path / "out" / "ledger.json").verdict is Verdict.PASS
    assert not (repo.path / "out").exists()


def test_without_runner_temp_the_ledger_goes_to_a_private_folder_not_a_planted_link(
    tmp_path: Path, repo: Repo, server: FakeGitHub
) -> None:
    """The action run by hand, with no RUNNER_TEMP: the default ledger is not a fixed name in the shared
    temp folder (where another user could plant a link to a file of this user's) but a new folder's."""
    base, head = pull_request(repo, server)
    shared, victim = tmp_path / "shared-tmp", tmp_path / "bashrc"
    shared.mkdir()
    victim.write_text("alias ls='ls -F'\n")
    (shared / "evidence-gate-ledger.json").symlink_to(victim)
    files = runner_files(tmp_path)
    environ = action_environ(server, repo, event(tmp_path, base, head), head, files)
    del environ["RUNNER_TEMP"]
    result = run_entrypoint({**environ, "TMPDIR": str(shared)})
    assert result.returncode == 0, result.stdout
    ledger = Path(read_outputs((files / "output").read_text())["ledger"])
    assert ledger.parent.parent == shared
    assert ledger.parent.stat().st_mode & 0o777 == 0o700
    assert read_ledger(ledger).verdict is Verdict.PASS
    assert victim.read_text() == "alias ls='ls -F'\n"


def test_a_report_whose_name_is_not_utf8_is_read_and_published(
    tmp_path: Path, repo: Repo, server: FakeGitHub, action: Callable[..., Run]
) -> None:
    base, head = pull_request(repo, server)
    log = repo.path / "build" / "pytest.log"
    log.rename(repo.path / "build" / os.fsdecode(b"pytest-\xff.log"))
    run = action(repo, event(tmp_path, base, head), head)
    assert run.code == 0, run.stdout
    assert run.ledger.verdict is Verdict.PASS
    assert "pytest-\ufffd.log" in server.comments(PR)[0].body


@pytest.mark.parametrize(
    ("template", "at_base", "shown"),
    [
        (
            "comment.md.j2",
            "{{ comment_marker }}\nThe base commit's comment: {{ verdict }}\n",
            "The base commit's comment: BLOCKED",
        ),
        (
            "gates/evidence.md.j2",
            "The base commit's evidence partial: {{ gate.verdict }}\n",
            "The base commit's evidence partial: FAIL",
        ),
    ],
)
def test_templates_a_pull_request_changes_apply_only_once_merged(
    tmp_path: Path, repo: Repo, server: FakeGitHub, action: Callable[..., Run], template: str, at_base: str, shown: str
) -> None:
    """The comment's template, or one gate's partial: the base commit's stands in the pull request."""
    base = repo.commit(
        "base",
        {
            "pyproject.toml": "[project]\nname = 'shop'\n",
            ".gitignore": "build/\n",
            ".github/evidence-gate.yml": "templates-dir: templates\n",
            f"templates/{template}": at_base,
        },
    )
    repo.git("checkout", "--quiet", "-b", "feature")
    forged = "{{ comment_marker }}\n## ✅ Everything passed, merge away\n"
    failing = 'import os\n\n\ndef test_refund():\n    assert os.sep == "?"\n'
    head = repo.commit("restyle", {f"templates/{template}": forged, "tests/test_refund.py": failing})
    server.add_pull("octo-org/shop", PR, head_sha=head, base_sha=base, body="")
    run_pytest(repo)
    run = action(repo, event(tmp_path, base, head), head)
    assert run.ledger.verdict is Verdict.BLOCKED
    (comment,) = server.comments(PR)
    assert "Everything passed" not in comment.body
    assert shown in comment.body
