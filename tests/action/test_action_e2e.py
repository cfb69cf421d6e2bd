"""The action end to end: entrypoint.py in a real process, with the environment GitHub sets, a real
git repository, reports written by a real pytest run, against the fake GitHub API that validates
every request and response against GitHub's OpenAPI description."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from evidence_gate.digest import encode
from evidence_gate.github.pr_body import section_markers
from evidence_gate.ledger import GateResult, GateVerdict, Ledger, Verdict, read_ledger, write_ledger
from evidence_gate.model import Counts
from tests.github_fake import DEFAULT_TOKEN, FakeGitHub, faults
from tests.github_fake.fixture import check_no_violations, start_github_server
from tests.github_fake.runner_files import read_outputs

from ..conftest import Repo, git

ROOT = Path(__file__).parent.parent.parent
REPO = "octo-org/shop"
PR = 7
CHECK = "Evidence Gate"
START = section_markers(CHECK).start
BODY = "Adds volume discounts.\r\n\r\n## Acceptance criteria\r\n- [ ] ten items get 5% off\r\n"
CART = "def total(prices):\n    return sum(prices)\n"
TESTS = """\
import pytest

def test_total():
    assert 1 + 1 == 2

@pytest.mark.parametrize("criterion", ["[SHOP-1#1] ten items get 5% off"])
def test_discount(criterion):
    assert criterion
"""


@dataclass
class Run:
    code: int
    stdout: str
    outputs: dict[str, str]
    summary: str
    ledger: Ledger


@pytest.fixture
def server() -> Iterator[FakeGitHub]:
    fake = start_github_server()
    try:
        yield fake
    finally:
        fake.stop()
    check_no_violations(fake)


def make_repo(repo: Repo, tests: str) -> tuple[str, str]:
    base = repo.commit(
        "base", {"pyproject.toml": "[project]\nname = 'shop'\n", "shop/cart.py": CART, ".gitignore": "build/\n"}
    )
    repo.git("checkout", "--quiet", "-b", "feature")
    head = repo.commit("discounts", {"shop/cart.py": CART + "# discounts\n", "tests/test_cart.py": tests})
    return base, head


def run_pytest(repo: Repo) -> None:
    """The workflow's test step: a real pytest run writing a console log and a JUnit report."""
    build = repo.path / "build"
    build.mkdir(exist_ok=True)
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-p",
            "no:cacheprovider",
            "-o",
            "junit_family=xunit1",
            f"--junitxml={build / 'junit.xml'}",
            "tests",
        ],
        cwd=repo.path,
        capture_output=True,
        check=False,
    )
    (build / "pytest.log").write_bytes(result.stdout + result.stderr)


def event(tmp_path: Path, base: str, head: str, head_repo: str = REPO, name: str = "event.json") -> Path:
    def side(sha: str, full_name: str) -> dict[str, object]:
        return {"sha": sha, "ref": "feature", "repo": {"full_name": full_name}}

    payload = {
        "action": "synchronize",
        "number": PR,
        "pull_request": {"number": PR, "body": BODY, "head": side(head, head_repo), "base": side(base, REPO)},
        "repository": {"full_name": REPO},
    }
    path = tmp_path / name
    path.write_text(json.dumps(payload))
    return path


def action_environ(
    server: FakeGitHub, repo: Repo, event_path: Path, head: str, files: Path, **inputs: str
) -> dict[str, str]:
    """The environment GitHub gives the action's container, its runner files in `files`."""
    return {
        "PATH": os.environ["PATH"],
        "HOME": str(files),
        "CI": "true",
        "GITHUB_ACTIONS": "true",
        "GITHUB_REPOSITORY": REPO,
        "GITHUB_EVENT_NAME": inputs.pop("event_name", "pull_request"),
        "GITHUB_EVENT_PATH": str(event_path),
        "GITHUB_SHA": head,
        "GITHUB_API_URL": server.url,
        "GITHUB_SERVER_URL": server.url,
        "GITHUB_WORKSPACE": str(repo.path),
        "GITHUB_OUTPUT": str(files / "output"),
        "GITHUB_STEP_SUMMARY": str(files / "summary"),
        "RUNNER_TEMP": str(files),
        "INPUT_GITHUB-TOKEN": DEFAULT_TOKEN,
        "INPUT_REPORTS": "build/*.xml\nbuild/*.log",
        "INPUT_STORY": "SHOP-1",
        "INPUT_CHECK-NAME": CHECK,
        "INPUT_COMMENT-MODE": "always",
        "INPUT_FAIL-ON": "stagnation",
        **{f"INPUT_{key.upper().replace('_', '-')}": value for key, value in inputs.items()},
    }


def run_entrypoint(environ: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """entrypoint.py in a real process; never a traceback, and never longer than two minutes."""
    result = subprocess.run(
        [sys.executable, str(ROOT / "entrypoint.py")],
        env=environ,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert "Traceback" not in result.stderr + result.stdout, result.stderr
    return result


def runner_files(tmp_path: Path) -> Path:
    files = tmp_path / f"run-{time.monotonic_ns()}"
    files.mkdir()
    (files / "output").touch()
    (files / "summary").touch()
    return files


@pytest.fixture
def action(tmp_path: Path, server: FakeGitHub) -> Callable[..., Run]:
    def run(repo: Repo, event_path: Path, head: str, **inputs: str) -> Run:
        files = runner_files(tmp_path)
        result = run_entrypoint(action_environ(server, repo, event_path, head, files, **inputs))
        outputs = read_outputs((files / "output").read_text())
        return Run(
            code=result.returncode,
            stdout=result.stdout,
            outputs=outputs,
            summary=(files / "summary").read_text(),
            ledger=read_ledger(Path(outputs["ledger"])),
        )

    return run


def seed(server: FakeGitHub, base: str, head: str) -> None:
    server.add_pull(REPO, PR, head_sha=head, base_sha=base, body=BODY)


def push_another_test(repo: Repo, server: FakeGitHub, base: str) -> str:
    """The pull request gains a commit with one more test, and the test step runs again."""
    more = repo.commit("another test", {"tests/test_more.py": "def test_more():\n    assert True\n"})
    seed(server, base, more)
    run_pytest(repo)
    return more


def post_marked_comments(server: FakeGitHub, *texts: str) -> None:
    """Comments carrying our marker, posted with the action's token, as concurrent runs leave them."""
    import requests

    from evidence_gate.render import comment_marker

    for text in texts:
        response = requests.post(
            f"{server.url}/repos/{REPO}/issues/{PR}/comments",
            headers={"Authorization": f"token {DEFAULT_TOKEN}"},
            json={"body": f"{comment_marker(CHECK)}\n{text}"},
            timeout=10,
        )
        assert response.status_code == 201


def pull_request(repo: Repo, server: FakeGitHub, tests: str = TESTS) -> tuple[str, str]:
    """The usual arrangement: a base and a head commit, the PR on the fake, the test step's reports."""
    base, head = make_repo(repo, tests)
    seed(server, base, head)
    run_pytest(repo)
    return base, head


def test_the_first_run_creates_the_comment_the_check_run_and_the_pr_section(
    tmp_path: Path, repo: Repo, server: FakeGitHub, action: Callable[..., Run]
) -> None:
    base, head = pull_request(repo, server)
    run = action(repo, event(tmp_path, base, head), head)

    assert run.code == 0, run.stdout
    assert run.ledger.verdict is Verdict.PASS
    assert run.outputs["verdict"] == "PASS"
    assert (run.outputs["executed"], run.outputs["failed"]) == ("2", "0")
    assert "<!-- QG:VERDICT:PASS -->" in run.summary
    (comment,) = server.comments(PR)
    assert "<!-- QG:VERDICT:PASS -->" in comment.body
    (check_run,) = server.check_runs(head)
    assert (check_run.name, check_run.conclusion) == (CHECK, "success")
    assert "evidence-gate:digest" in (check_run.output_summary or "")
    body = server.pr_body(PR) or ""
    assert body.startswith(BODY)
    assert START in body
    assert run.outputs["comment-url"].startswith(server.url)
    report = Path(run.outputs["report"]).read_text()
    assert report.startswith("<!-- QG:VERDICT:PASS -->")
    assert run.outputs["check-run-url"].startswith(server.url)


def test_a_rerun_edits_the_same_comment(
    tmp_path: Path, repo: Repo, server: FakeGitHub, action: Callable[..., Run]
) -> None:
    base, head = pull_request(repo, server)
    action(repo, event(tmp_path, base, head), head)
    more = push_another_test(repo, server, base)
    second = action(repo, event(tmp_path, base, more, name="second.json"), more)
    assert second.code == 0
    assert second.outputs["executed"] == "3"
    assert len(server.comments(PR)) == 1
    assert server.requests_to("PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}")
    body = server.pr_body(PR) or ""
    assert body.count(START) == 1


def test_a_fork_run_degrades_to_the_summary_outputs_and_ledger(
    tmp_path: Path, repo: Repo, server: FakeGitHub, action: Callable[..., Run]
) -> None:
    base, head = make_repo(repo, TESTS)
    seed(server, base, head)
    server.read_only = True
    run_pytest(repo)
    run = action(repo, event(tmp_path, base, head, head_repo="contributor/shop"), head)
    assert run.code == 0
    assert run.outputs["verdict"] == "PASS"
    assert "<!-- QG:VERDICT:PASS -->" in run.summary
    assert "::notice title=Evidence Gate::" in run.stdout
    assert "docs/fork-pull-requests.md" in run.stdout
    assert [r for r in server.requests if r.method != "GET"] == []


def test_an_unexpected_read_only_token_is_reported_once(
    tmp_path: Path, repo: Repo, server: FakeGitHub, action: Callable[..., Run]
) -> None:
    base, head = make_repo(repo, TESTS)
    seed(server, base, head)
    server.read_only = True
    run_pytest(repo)
    run = action(repo, event(tmp_path, base, head), head)
    assert run.stdout.count("::warning") == 1
    assert "Resource not accessible by integration" in run.stdout
    assert run.outputs["verdict"] == "PASS"


def test_a_502_then_success_is_retried(
    tmp_path: Path, repo: Repo, server: FakeGitHub, action: Callable[..., Run]
) -> None:
    base, head = make_repo(repo, TESTS)
    seed(server, base, head)
    server.script("POST /repos/{owner}/{repo}/check-runs", faults.bad_gateway())
    run_pytest(repo)
    run = action(repo, event(tmp_path, base, head), head)
    assert run.code == 0
    assert len(server.requests_to("POST /repos/{owner}/{repo}/check-runs")) == 2
    assert len(server.check_runs(head)) == 1


def test_a_secondary_rate_limit_honours_retry_after(
    tmp_path: Path, repo: Repo, server: FakeGitHub, action: Callable[..., Run]
) -> None:
    base, head = make_repo(repo, TESTS)
    seed(server, base, head)
    server.script(
        "POST /repos/{owner}/{repo}/issues/{issue_number}/comments", faults.secondary_rate_limit(retry_after=2)
    )
    run_pytest(repo)
    action(repo, event(tmp_path, base, head), head)
    posts = server.requests_to("POST /repos/{owner}/{repo}/issues/{issue_number}/comments")
    assert len(posts) == 2
    assert len(server.comments(PR)) == 1
    assert posts[1].received_at - posts[0].received_at >= 2.0


FAILING = """\
import pytest

@pytest.mark.parametrize("n", range(120))
def test_price(n):
    assert n < 0, f"price {n} is not negative"

def test_total():
    assert True
"""


def test_120_failing_tests_send_their_annotations_in_3_requests(
    tmp_path: Path, repo: Repo, server: FakeGitHub, action: Callable[..., Run]
) -> None:
    base, head = pull_request(repo, server, FAILING)
    run = action(repo, event(tmp_path, base, head), head)
    assert run.code == 1
    assert run.outputs["verdict"] == "BLOCKED"
    (check_run,) = server.check_runs(head)
    assert check_run.conclusion == "failure"
    assert len(check_run.annotations) == 120
    creates = server.requests_to("POST /repos/{owner}/{repo}/check-runs")
    updates = server.requests_to("PATCH /repos/{owner}/{repo}/check-runs/{check_run_id}")
    sizes = [len(r.json["output"]["annotations"]) for r in [*creates, *updates]]
    assert sizes == [50, 50, 20]
    assert check_run.annotations[0].path == "tests/test_cart.py"


def test_a_base_commit_with_a_digest_yields_deltas(
    tmp_path: Path, repo: Repo, server: FakeGitHub, action: Callable[..., Run]
) -> None:
    base, head = make_repo(repo, TESTS)
    seed(server, base, head)
    base_ledger = Ledger(
        verdict=Verdict.PASS,
        head=base,
        base=None,
        stack="python",
        counts=Counts(passed=1, failed=0, skipped=0),
        tests={"000000000000": "passed"},
    )
    digest = encode(base_ledger)
    assert digest is not None
    _create_base_check_run(server, base, f"## Evidence Gate\n{digest}")
    run_pytest(repo)
    run = action(repo, event(tmp_path, base, head), head)
    deltas = run.ledger.deltas
    assert deltas is not None
    assert (deltas.executed, deltas.added, deltas.removed) == (1, 2, 1)
    gate = run.ledger.gate("evidence")
    assert gate is not None
    assert gate.summary == "1 tests the base ran are missing, and the change does not delete them: 1 unnamed"
    assert run.ledger.baseline == f"base {base[:12]}"
    (comment,) = server.comments(PR)
    assert "+1 test" in comment.body


def _create_base_check_run(server: FakeGitHub, sha: str, summary: str) -> None:
    import requests

    response = requests.post(
        f"{server.url}/repos/{REPO}/check-runs",
        headers={"Authorization": f"token {DEFAULT_TOKEN}", "Accept": "application/vnd.github+json"},
        json={
            "name": CHECK,
            "head_sha": sha,
            "status": "completed",
            "conclusion": "success",
            "output": {"title": "PASS", "summary": summary},
        },
        timeout=10,
    )
    assert response.status_code == 201, response.text


def test_no_token_still_writes_the_result(
    tmp_path: Path, repo: Repo, server: FakeGitHub, action: Callable[..., Run]
) -> None:
    base, head = pull_request(repo, server)
    run = action(repo, event(tmp_path, base, head), head, **{"github-token": ""})
    assert run.outputs["verdict"] == "PASS"
    assert "no github-token" in run.stdout
    assert server.requests == []


def test_pull_request_target_from_a_fork_refuses_to_run_commands(tmp_path: Path, repo: Repo) -> None:
    base, head = make_repo(repo, TESTS)
    payload = event(tmp_path, base, head, head_repo="contributor/shop")
    environ = {
        **os.environ,
        "GITHUB_EVENT_NAME": "pull_request_target",
        "GITHUB_EVENT_PATH": str(payload),
        "GITHUB_REPOSITORY": REPO,
    }
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "evidence_gate",
            "criteria",
            "--story",
            "SHOP-1",
            "--count",
            "1",
            "--command",
            "python -m pytest -k {tag}",
            "--repo",
            str(repo.path),
        ],
        env=environ,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 2
    assert "pull_request_target" in result.stderr
    assert not (repo.path / ".pytest_cache").exists()
    git(repo.path, "status")


@pytest.mark.parametrize(("mode", "comments"), [("off", 0), ("failures", 0), ("always", 1)])
def test_comment_modes_on_a_passing_run(
    tmp_path: Path, repo: Repo, server: FakeGitHub, action: Callable[..., Run], mode: str, comments: int
) -> None:
    base, head = pull_request(repo, server)
    action(repo, event(tmp_path, base, head), head, comment_mode=mode)
    assert len(server.comments(PR)) == comments


def test_changes_mode_leaves_the_comment_alone_while_the_verdict_holds(
    tmp_path: Path, repo: Repo, server: FakeGitHub, action: Callable[..., Run]
) -> None:
    base, head = pull_request(repo, server)
    action(repo, event(tmp_path, base, head), head, comment_mode="changes")
    more = push_another_test(repo, server, base)
    action(repo, event(tmp_path, base, more, name="second.json"), more, comment_mode="changes")
    assert len(server.comments(PR)) == 1
    assert server.requests_to("PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}") == []


def publish(server: FakeGitHub, ledger: Path, event_path: Path, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    environ = {
        "PATH": os.environ["PATH"],
        "HOME": str(tmp_path),
        "GITHUB_REPOSITORY": REPO,
        "GITHUB_EVENT_NAME": "workflow_run",
        "GITHUB_API_URL": server.url,
        "GITHUB_TOKEN": DEFAULT_TOKEN,
    }
    return subprocess.run(
        [sys.executable, "-m", "evidence_gate", "publish", "--ledger", str(ledger), "--event", str(event_path)],
        env=environ,
        capture_output=True,
        text=True,
        check=False,
        cwd=tmp_path,
    )


def test_the_fork_recipe_publishes_a_ledger_made_by_the_forks_run(
    tmp_path: Path, repo: Repo, server: FakeGitHub, action: Callable[..., Run]
) -> None:
    base, head = pull_request(repo, server)
    fork_event = event(tmp_path, base, head, head_repo="contributor/shop")
    forked = action(repo, fork_event, head, github_token="", ledger_out=str(tmp_path / "ledger.json"))
    assert server.requests == []
    result = publish(server, Path(forked.outputs["ledger"]), fork_event, tmp_path)
    assert result.returncode == 0, result.stderr
    assert len(server.comments(PR)) == 1
    assert len(server.check_runs(head)) == 1


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"head": "0" * 40}, "refusing to publish it here"),
        ({"head": None}, "names no head commit"),
        ({"check_name": "Someone else's check"}, "refusing it"),
    ],
)
def test_publish_refuses_a_ledger_not_about_this_pull_request(
    tmp_path: Path,
    repo: Repo,
    server: FakeGitHub,
    action: Callable[..., Run],
    change: dict[str, object],
    message: str,
) -> None:
    base, head = pull_request(repo, server)
    made = action(repo, event(tmp_path, base, head), head, github_token="")
    document = json.loads(Path(made.outputs["ledger"]).read_text())
    document.update(change)
    tampered = tmp_path / "tampered.json"
    tampered.write_text(json.dumps(document))
    result = publish(server, tampered, event(tmp_path, base, head), tmp_path)
    assert result.returncode == 2
    assert message in result.stderr
    assert [r for r in server.requests if r.method != "GET"] == []


CONFIG = ".github/evidence-gate.yml"


@pytest.mark.parametrize(
    ("at_base", "change"),
    [(None, "adds"), ("fail-on: stagnation\n", "changes")],
    ids=["added", "changed"],
)
def test_a_pull_request_cannot_configure_its_own_gate(
    tmp_path: Path,
    repo: Repo,
    server: FakeGitHub,
    action: Callable[..., Run],
    at_base: str | None,
    change: str,
) -> None:
    base = repo.commit(
        "base",
        {
            "pyproject.toml": "[project]\nname = 'shop'\n",
            ".gitignore": "build/\n",
            **({CONFIG: at_base} if at_base else {}),
        },
    )
    repo.git("checkout", "--quiet", "-b", "feature")
    head = repo.commit("report only", {CONFIG: "fail-on: never\n", "tests/test_cart.py": FAILING})
    seed(server, base, head)
    run_pytest(repo)
    run = action(repo, event(tmp_path, base, head), head, fail_on="")
    assert run.code == 1
    (check_run,) = server.check_runs(head)
    assert check_run.conclusion == "failure"
    note = f"the pull request {change} {CONFIG}: its settings apply once merged"
    assert note in (check_run.output_text or "") + (check_run.output_summary or "")
    evidence = run.ledger.gate("evidence")
    assert evidence is not None
    assert note in evidence.details


def test_a_config_merged_into_the_base_applies(
    tmp_path: Path, repo: Repo, server: FakeGitHub, action: Callable[..., Run]
) -> None:
    base = repo.commit(
        "base", {"pyproject.toml": "[project]\nname = 'shop'\n", ".gitignore": "build/\n", CONFIG: "fail-on: never\n"}
    )
    repo.git("checkout", "--quiet", "-b", "feature")
    head = repo.commit("failing tests", {"tests/test_cart.py": FAILING})
    seed(server, base, head)
    run_pytest(repo)
    run = action(repo, event(tmp_path, base, head), head, fail_on="")
    assert run.code == 0
    (check_run,) = server.check_runs(head)
    assert check_run.conclusion == "neutral"


def forge_pass(made: Run, folder: Path) -> Path:
    """The ledger of a failing run, edited to say PASS: what a fork's run can upload."""
    document = json.loads(Path(made.outputs["ledger"]).read_text())
    assert document["verdict"] == "BLOCKED"
    document["verdict"] = "PASS"
    forged = folder / "forged.json"
    forged.write_text(json.dumps(document))
    return forged


def test_publish_posts_a_failure_for_a_forged_pass(
    tmp_path: Path, repo: Repo, server: FakeGitHub, action: Callable[..., Run]
) -> None:
    base, head = pull_request(repo, server, FAILING)
    made = action(repo, event(tmp_path, base, head), head, github_token="")
    result = publish(server, forge_pass(made, tmp_path), event(tmp_path, base, head), tmp_path)
    assert result.returncode == 1, result.stderr
    (check_run,) = server.check_runs(head)
    assert check_run.conclusion == "failure"
    assert "the ledger says PASS, but its gates say BLOCKED" in (check_run.output_text or "") + (
        check_run.output_summary or ""
    )


def test_the_ledger_input_posts_a_failure_for_a_forged_pass(
    tmp_path: Path, repo: Repo, server: FakeGitHub, action: Callable[..., Run]
) -> None:
    base, head = pull_request(repo, server, FAILING)
    made = action(repo, event(tmp_path, base, head), head, github_token="")
    forge_pass(made, repo.path)
    run = action(repo, event(tmp_path, base, head), head, ledger="forged.json", reports="")
    assert run.code == 1
    assert run.outputs["verdict"] == "BLOCKED"
    (check_run,) = server.check_runs(head)
    assert check_run.conclusion == "failure"


def test_a_429_on_an_annotation_patch_is_retried(
    tmp_path: Path, repo: Repo, server: FakeGitHub, action: Callable[..., Run]
) -> None:
    base, head = make_repo(repo, FAILING)
    seed(server, base, head)
    server.script("PATCH /repos/{owner}/{repo}/check-runs/{check_run_id}", faults.too_many_requests(retry_after=1))
    run_pytest(repo)
    action(repo, event(tmp_path, base, head), head)
    (check_run,) = server.check_runs(head)
    assert len(check_run.annotations) == 120
    assert len(server.requests_to("PATCH /repos/{owner}/{repo}/check-runs/{check_run_id}")) == 3


def test_duplicates_left_by_concurrent_runs_are_removed(
    tmp_path: Path, repo: Repo, server: FakeGitHub, action: Callable[..., Run]
) -> None:

    base, head = make_repo(repo, TESTS)
    seed(server, base, head)
    post_marked_comments(server, "first run", "second run")
    oldest = min(comment.id for comment in server.comments(PR))
    run_pytest(repo)
    action(repo, event(tmp_path, base, head), head)
    (comment,) = server.comments(PR)
    assert comment.id == oldest
    assert "<!-- QG:VERDICT:PASS -->" in comment.body


def test_a_ledger_made_on_the_runner_is_published_by_the_container_step(
    tmp_path: Path, repo: Repo, server: FakeGitHub, action: Callable[..., Run]
) -> None:
    base, head = pull_request(repo, server)
    made = subprocess.run(
        [
            sys.executable,
            "-m",
            "evidence_gate",
            "run",
            "--repo",
            str(repo.path),
            "--base",
            base,
            "--reports",
            "build/*.xml",
            "build/*.log",
            "--format",
            "json",
            "--ledger-out",
            "evidence-gate-ledger.json",
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert made.returncode == 0, made.stderr
    run = action(repo, event(tmp_path, base, head), head, ledger="evidence-gate-ledger.json", reports="")
    assert run.outputs["verdict"] == "PASS"
    assert run.ledger.head == head
    assert len(server.check_runs(head)) == 1
    assert len(server.comments(PR)) == 1


def test_merge_joins_the_ledgers_of_a_matrix(tmp_path: Path) -> None:
    shards = []
    for index, (passed, failed) in enumerate([(3, 0), (2, 1)]):
        verdict = GateVerdict.FAIL if failed else GateVerdict.PASS
        ledger = Ledger(
            verdict=Verdict.BLOCKED if failed else Verdict.PASS,
            head="a" * 40,
            base=None,
            stack="python",
            counts=Counts(passed=passed, failed=failed, skipped=0),
            gates=(GateResult(id="evidence", title="Test evidence", verdict=verdict, summary=str(verdict)),),
        )
        path = tmp_path / f"ledger-{index}.json"
        write_ledger(ledger, path)
        shards.append(str(path))
    result = subprocess.run(
        [sys.executable, "-m", "evidence_gate", "merge", *shards, "-o", str(tmp_path / "merged.json")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 1
    merged = read_ledger(tmp_path / "merged.json")
    assert (merged.verdict, merged.counts) == (Verdict.BLOCKED, Counts(passed=5, failed=1, skipped=0))
