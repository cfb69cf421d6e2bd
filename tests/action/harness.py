"""The action end to end, as every module here runs it: entrypoint.py in a real process, with the
environment GitHub sets, a real git repository, reports written by a real pytest run, against the
fake GitHub API that validates every request and response against GitHub's OpenAPI description."""

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

from evidence_gate.github.pr_body import section_markers
from evidence_gate.ledger.document import read_ledger
from evidence_gate.ledger.model import Ledger
from tests.github_fake import DEFAULT_TOKEN, FakeGitHub
from tests.github_fake.fixture import check_no_violations, start_github_server
from tests.github_fake.runner_files import read_outputs

from ..conftest import Repo

ROOT = Path(__file__).parent.parent.parent
REPO = "octo-org/shop"
PR = 7
CHECK = "Evidence Gate"
START = section_markers(CHECK).start
BODY = "Adds volume discounts.\r\n\r\n## Acceptance criteria\r\n- [ ] ten items get 5% off\r\n"
CART = "def total(prices):\n    return sum(prices)\n"
PYPROJECT = "[project]\nname = 'shop'\n\n[tool.mypy]\n\n[tool.ruff]\n"  # the tools checks 1 and 2 take
TESTS = """\
import pytest

def test_total():
    assert 1 + 1 == 2

@pytest.mark.parametrize("criterion", ["[SHOP-1#1] ten items get 5% off"])
def test_discount(criterion):
    assert criterion
"""

FAILING = """\
import pytest

@pytest.mark.parametrize("n", range(120))
def test_price(n):
    assert n < 0, f"price {n} is not negative"

def test_total():
    assert True
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


UNTESTED_CODE = CART + "\n\ndef discount(price):\n    return price\n"  # code no test runs: still-green


def make_repo(repo: Repo, tests: str, production: str = CART + "# discounts\n") -> tuple[str, str]:
    base = repo.commit("base", {"pyproject.toml": PYPROJECT, "shop/cart.py": CART, ".gitignore": "build/\n"})
    repo.git("checkout", "--quiet", "-b", "feature")
    head = repo.commit("discounts", {"shop/cart.py": production, "tests/test_cart.py": tests})
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


TOOLS_OFF = "type-check\nlint"  # these workflows give no type-check or lint log


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
        "INPUT_GATES-OFF": TOOLS_OFF,
        **{f"INPUT_{key.upper().replace('_', '-')}": value for key, value in inputs.items()},
        # The package under test, when the test run names it (a checkout beside an installed copy).
        **{name: os.environ[name] for name in ("PYTHONPATH",) if name in os.environ},
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


def pull_request(
    repo: Repo, server: FakeGitHub, tests: str = TESTS, production: str = CART + "# discounts\n"
) -> tuple[str, str]:
    """The usual arrangement: a base and a head commit, the PR on the fake, the test step's reports."""
    base, head = make_repo(repo, tests, production)
    seed(server, base, head)
    run_pytest(repo)
    return base, head


def publish(server: FakeGitHub, ledger: Path, event_path: Path, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    environ = {
        "PATH": os.environ["PATH"],
        "HOME": str(tmp_path),
        "GITHUB_REPOSITORY": REPO,
        "GITHUB_EVENT_NAME": "workflow_run",
        "GITHUB_API_URL": server.url,
        "GITHUB_TOKEN": DEFAULT_TOKEN,
        "INPUT_GATES-OFF": TOOLS_OFF,  # as the runs that made the ledgers have it
    }
    return subprocess.run(
        [sys.executable, "-m", "evidence_gate", "publish", "--ledger", str(ledger), "--event", str(event_path)],
        env=environ,
        capture_output=True,
        text=True,
        check=False,
        cwd=tmp_path,
    )
