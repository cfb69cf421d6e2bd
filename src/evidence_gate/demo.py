"""`evidence-gate demo`: the whole pipeline on a pull request the tool makes itself, so a first look
needs no repository of one's own, no CI and no token.

The example is real, not a recording: a git repository with a base commit (a tiny package `shop`)
and a pull request's head commit (discount codes, one test tagged `[SHOP-1#1]`, one failing test,
one skipped test, a cart test that passes without the change, and a method no test runs), whose tests run for real in a
child process, whose logs and reports the pipeline then reads like any other; the strength gate
runs each changed test file again with the change taken away. So the comment it prints is the one
the action would post.

The tests run under coverage.py (a coverage report with the test that ran each line, which the
coverage gate weighs by what the strength gate found), with pytest when it is importable (a console
log and a JUnit report), else with the standard library's unittest (a console log only: pytest is a
test extra, not a runtime dependency, and `pip install . && evidence-gate demo` must work on a
fresh machine). The example's tests are unittest test cases, so both runners run the same tests.
Without a JUnit report no test is named, so the acceptance-criteria gate is unavailable: the demo
says so rather than hiding it.

The preview is the same Markdown as HTML (CommonMark with GitHub's tables and strikethrough), in
one self-contained file that works offline.
"""

from __future__ import annotations

import importlib.util
import os
import shlex
import sys
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import StrEnum
from pathlib import Path

from evidence_gate.demo_example import BASE_DATE, BASE_FILES, HEAD_DATE, HEAD_FILES, PR_BODY
from evidence_gate.effects import effects_for
from evidence_gate.errors import EvidenceGateError, UsageError
from evidence_gate.facts import RunInputs
from evidence_gate.ledger.model import Ledger
from evidence_gate.model import PullRequest
from evidence_gate.pipeline import run_pipeline
from evidence_gate.runner import run_command
from evidence_gate.settings import Settings
from evidence_gate.stacks.table import AdapterTable
from evidence_gate.workspace import Workspace

STORY = "SHOP-1"
REPORTS = ("build/*.log", "build/*.xml", "build/*.json")
TEST_TIMEOUT_SECONDS = 120
GIT_TIMEOUT_SECONDS = 60
MAX_PRINTED_BYTES = 64 * 1024  # of what git or coverage.py printed: a SHA, or why it failed


class DemoError(EvidenceGateError):
    """The demo could not build or run its example: git refused, or the example's tests did not run."""


class Runner(StrEnum):
    AUTO = "auto"  # pytest when importable, else unittest
    PYTEST = "pytest"
    UNITTEST = "unittest"


@dataclass(frozen=True, kw_only=True)
class DemoRun:
    ledger: Ledger
    runner: Runner  # the one that ran the example's tests: pytest or unittest


def _importable(module: str) -> bool:
    return importlib.util.find_spec(module) is not None


def pytest_available() -> bool:
    """Whether this interpreter can run `-m pytest`: the demo runs the tests with `sys.executable`."""
    return importlib.util.find_spec("pytest") is not None


def choose_runner(requested: Runner) -> Runner:
    if requested is Runner.AUTO:
        return Runner.PYTEST if pytest_available() else Runner.UNITTEST
    if requested is Runner.PYTEST and not pytest_available():
        raise UsageError(
            f"--runner pytest: pytest is not installed for {sys.executable}; "
            "install it (pip install pytest) or use --runner unittest"
        )
    return requested


def run_demo(repo: Path, requested: Runner, table: AdapterTable, environ: Mapping[str, str]) -> DemoRun:
    """Build the example in `repo` (an empty or missing directory), run its tests, judge it."""
    runner = choose_runner(requested)
    repo = repo.absolute()  # the runners run in it, and write reports at paths given from it
    pull_request = build_example(repo, environ)
    run_tests(repo, runner, environ)
    python = shlex.quote(sys.executable)
    settings = Settings(
        repo=repo,
        reports=REPORTS,
        story=STORY,
        strength_command=strength_command(runner),
        # The example's own type checker and linter, where this machine has them (the test extras);
        # without them, checks 1 and 2 show as MISSING, as they would for a project without its tools.
        type_check_command=f"{python} -m mypy --strict shop" if _importable("mypy") else None,
        lint_command=f"{python} -m ruff check --no-cache shop tests" if _importable("ruff") else None,
        smoke=(f"{python} -c 'import shop.cart; print(shop.cart.Cart().total())'",),
    )
    inputs = RunInputs(
        pull_request=pull_request,
        baseline_note="the demo has no earlier run of the base to compare with",
        table=table,
    )
    # The example is the demo's own, made just now: its folder is the workspace, whatever the environment
    # says, and nobody edits it while it runs, so the strength gate runs its changed tests as in CI.
    effects = replace(effects_for(repo, environ, Workspace.at(repo)), in_ci=True)
    ledger = run_pipeline(settings, inputs, effects)
    return DemoRun(ledger=ledger, runner=runner)


def strength_command(runner: Runner) -> str:
    """One test file's run for the strength gate, by the runner that ran the example's tests."""
    python = shlex.quote(sys.executable)
    if runner is Runner.PYTEST:
        return f"{python} -m pytest -rA -p no:cacheprovider {{file}}"
    return f"{python} -m unittest -v {{file}}"


def build_example(repo: Path, environ: Mapping[str, str]) -> PullRequest:
    """The example repository: the base commit, then the pull request's head commit on top. Git's
    output goes to a folder of its own, outside the example, so no commit takes it in."""
    repo.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="evidence-gate-demo-git-") as scratch:
        git = _ExampleGit(repo, Path(scratch) / "git.out", environ)
        git.run(BASE_DATE, "init", "--quiet", "--initial-branch=main")
        base = git.commit(BASE_DATE, "Add the cart", BASE_FILES)
        head = git.commit(HEAD_DATE, "Add discount codes", HEAD_FILES)
    return PullRequest(number=1, base_sha=base, head_sha=head, body=PR_BODY)


@dataclass(frozen=True)
class _ExampleGit:
    """Git in the example, with no user or system configuration (no signing, hooks or identity
    needed) and a fixed identity and date, started as every program is (runner.py)."""

    repo: Path
    output: Path
    environ: Mapping[str, str]

    def commit(self, date: str, message: str, files: dict[str, str]) -> str:
        for relative, content in files.items():
            path = self.repo / relative
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(content, encoding="utf-8")
        self.run(date, "add", "--all")
        self.run(date, "commit", "--quiet", "--no-verify", "-m", message)
        return self.run(date, "rev-parse", "HEAD")

    def run(self, date: str, *args: str) -> str:
        environ = {name: value for name, value in self.environ.items() if name not in _GIT_PLACES}
        identity = {
            "GIT_CONFIG_GLOBAL": os.devnull,
            "GIT_CONFIG_NOSYSTEM": "1",
            "GIT_AUTHOR_NAME": "Evidence Gate demo",
            "GIT_AUTHOR_EMAIL": "demo@example.invalid",
            "GIT_COMMITTER_NAME": "Evidence Gate demo",
            "GIT_COMMITTER_EMAIL": "demo@example.invalid",
            "GIT_AUTHOR_DATE": date,
            "GIT_COMMITTER_DATE": date,
        }
        try:
            ran = run_command(
                ["git", *args], self.repo, self.output, GIT_TIMEOUT_SECONDS, environ=environ, extra=identity
            )
        except UsageError as error:
            raise DemoError(f"{error.one_line()}; the demo builds its example with git") from error
        printed = _printed(self.output)
        if ran.exit_code != 0:
            message = " ".join(printed.split()) or f"exit {ran.exit_code}"
            raise DemoError(f"git {args[0]} failed in the example repository {self.repo}: {message}")
        return printed.strip()


_GIT_PLACES = ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE")  # the caller's repository, never the example's


def _printed(output: Path) -> str:
    with output.open("rb") as handle:
        return handle.read(MAX_PRINTED_BYTES).decode("utf-8", "replace")


def run_tests(repo: Path, runner: Runner, environ: Mapping[str, str]) -> None:
    """Run the example's tests for real, under coverage.py: the console log (and pytest's JUnit
    report) and the coverage report, with the test that ran each line, into build/.

    Exit 0 or 1 is a run (1: a test failed, as planned); anything else means the tests did not run
    as the demo intends (a runner crash, a usage error), which would make the comment misleading."""
    build = repo / "build"
    build.mkdir(exist_ok=True)
    log = build / f"{runner}.log"
    measured = [sys.executable, "-m", "coverage", "run", "-m"]
    if runner is Runner.PYTEST:
        command = [*measured, "pytest", "-rA", "-p", "no:cacheprovider", f"--junitxml={build / 'junit.xml'}"]
    else:
        command = [*measured, "unittest", "discover", "--verbose"]
    # A user's options, or no cwd on sys.path, would change the run.
    environ = {name: value for name, value in environ.items() if name not in ("PYTEST_ADDOPTS", "PYTHONSAFEPATH")}
    fixed = {"PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1", "PYTHONDONTWRITEBYTECODE": "1"}
    ran = run_command(command, repo, log, TEST_TIMEOUT_SECONDS, environ=environ, extra=fixed)
    if ran.timed_out:
        raise DemoError(f"the example's tests ran over {TEST_TIMEOUT_SECONDS} s; see {log}")
    if ran.exit_code not in (0, 1):
        raise DemoError(f"{runner} exited {ran.exit_code} on the example's tests, not 0 or 1: see {log}")
    report = [sys.executable, "-m", "coverage", "json", "--show-contexts", "-q", "-o", str(build / "coverage.json")]
    with tempfile.TemporaryDirectory(prefix="evidence-gate-demo-coverage-") as scratch:
        printed = Path(scratch) / "coverage.out"
        written = run_command(report, repo, printed, TEST_TIMEOUT_SECONDS, environ=environ, extra=fixed)
        if written.exit_code != 0:
            reason = " ".join(_printed(printed).split())
            raise DemoError(f"coverage.py could not write the example's coverage report: {reason}")
