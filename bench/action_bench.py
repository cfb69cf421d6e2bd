"""The whole run, end to end, as the action and a developer run it.

`run`: `evidence-gate run` on a generated repository (a real git repository with a base and a head
commit, a Python project whose 2,000 tests the head adds), after the project's own pytest run has
written its JUnit report and log. Its baseline is that pytest run itself, timed in the same process a
moment before: the ratio is what the gate costs over the tests it judges, in CPU time (the children's
own) and in wall time. No target is set for it yet; the figures say where a run's time goes.

`publish`: the render and publication of a run of 20,000 tests with 5,000 failures to the fake
GitHub API (tests/github_fake, which checks every request against GitHub's OpenAPI description and
documented limits). The action judges the run without a token, then `evidence-gate publish` renders
its ledger and publishes it, as a fork's pull request has it done: that publication is what is timed
and what the fake's request log is read from. Targets: every body within GitHub's limits (a comment or
pull request body 65,536 characters, a check run's summary and text 65,535, at most 50 annotations a
request), and no request GitHub would refuse.

The action is driven as tests/action/harness.py drives it (the same functions, not a copy). The
publication is timed once by default: its wall time is mostly the client's fixed pacing between
requests, and its requests are the same each time.

Run: python -m bench.action_bench [--tests N] [--published N] [--failures N] [--repeat K] [--publish-repeat K]
[--quick]
"""

from __future__ import annotations

import argparse
import functools
import json
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.action.harness import (
    action_environ,
    event,
    make_repo,
    publish,
    run_entrypoint,
    run_pytest,
    runner_files,
    seed,
)
from tests.conftest import Repo, git, local_environment
from tests.github_fake import FakeGitHub
from tests.github_fake.fixture import start_github_server
from tests.github_fake.limits import MAX_ANNOTATIONS_PER_REQUEST, MAX_BODY_CHARS, MAX_OUTPUT_CHARS
from tests.github_fake.runner_files import read_outputs

from bench.table import Row, cpu_seconds, render, seconds

PASSING = """\
import pytest


@pytest.mark.parametrize("n", range({tests}))
def test_total(n):
    assert n + 1 > n
"""
FAILING = """\
import pytest


@pytest.mark.parametrize("n", range({tests}))
def test_price(n):
    assert n % {every}, f"price {{n}} is not discounted"
"""
FULL = {"tests": 2_000, "published": 20_000, "failures": 5_000}
QUICK = {"tests": 500, "published": 2_000, "failures": 500}
TOOLS_OFF = ("type-check", "lint")  # the generated project has no type checker or linter configured


@dataclass(frozen=True)
class Timed:
    cpu: float  # this process's and its children's CPU seconds
    wall: float


def timed(function: Callable[[], object]) -> Timed:
    cpu, wall = cpu_seconds(), time.perf_counter()
    function()
    return Timed(cpu=cpu_seconds() - cpu, wall=time.perf_counter() - wall)


def least(timings: list[Timed]) -> Timed:
    return Timed(cpu=min(t.cpu for t in timings), wall=min(t.wall for t in timings))


def new_repo(root: Path) -> Repo:
    path = root / "repo"
    path.mkdir()
    git(path, "init", "--quiet", "--initial-branch=main")
    return Repo(path)


def gate_run(repo: Repo, base: str, head: str, tests: int) -> None:
    """`evidence-gate run` on the reports, in its own process, as a developer runs it."""
    command = [sys.executable, "-m", "evidence_gate", "run", "--repo", str(repo.path), "--base", base, "--head", head]
    command += ["--reports", "build/*.xml", "build/*.log", "--format", "json", "--gates-off", *TOOLS_OFF]
    result = subprocess.run(command, env=local_environment(), capture_output=True, text=True, check=False)
    assert result.returncode in (0, 1), result.stderr
    executed = json.loads(result.stdout)["counts"]["executed"]
    assert executed == tests, (executed, tests)


def run_rows(quick: bool = False, tests: int | None = None, repeat: int = 3) -> list[Row]:
    count = tests or (QUICK if quick else FULL)["tests"]
    with tempfile.TemporaryDirectory(prefix="action-bench-") as scratch:
        repo = new_repo(Path(scratch))
        base, head = make_repo(repo, PASSING.format(tests=count))
        pytest_runs, gate_runs = [], []
        for _ in range(repeat):
            pytest_runs.append(timed(lambda: run_pytest(repo)))
            gate_runs.append(timed(lambda: gate_run(repo, base, head, count)))
    plain, ours = least(pytest_runs), least(gate_runs)
    label = f"{count:,} tests"
    return [
        Row("run", f"{label}: CPU time", seconds(ours.cpu), f"pytest {seconds(plain.cpu)}", ours.cpu / plain.cpu),
        Row("run", f"{label}: wall time", seconds(ours.wall), f"pytest {seconds(plain.wall)}", ours.wall / plain.wall),
    ]


@dataclass(frozen=True)
class Largest:
    """The largest of one kind of field the requests sent, against GitHub's limit for it."""

    what: str
    limit: int
    size: int = 0


def largest(requests: list[dict[str, Any]]) -> list[Largest]:
    """Each limited field's largest size over the requests' bodies (operation id, parsed JSON)."""
    sizes: dict[str, list[int]] = {"comment": [], "pull": [], "summary": [], "text": [], "annotations": []}
    for request in requests:
        route, body = request["route"], request["json"]
        if not isinstance(body, dict):
            continue
        if route in ("issues/create-comment", "issues/update-comment") and isinstance(body.get("body"), str):
            sizes["comment"].append(len(body["body"]))
        if route == "pulls/update" and isinstance(body.get("body"), str):
            sizes["pull"].append(len(body["body"]))
        output = body.get("output")
        if route in ("checks/create", "checks/update") and isinstance(output, dict):
            for key in ("summary", "text"):
                if isinstance(output.get(key), str):
                    sizes[key].append(len(output[key]))
            sizes["annotations"].append(len(output.get("annotations") or []))
    limits = {
        "comment": ("comment body, characters", MAX_BODY_CHARS),
        "pull": ("pull request body, characters", MAX_BODY_CHARS),
        "summary": ("check run summary, characters", MAX_OUTPUT_CHARS),
        "text": ("check run text, characters", MAX_OUTPUT_CHARS),
        "annotations": ("annotations in one request", MAX_ANNOTATIONS_PER_REQUEST),
    }
    return [Largest(what, limit, max(sizes[key], default=0)) for key, (what, limit) in limits.items()]


def publish_rows(
    quick: bool = False, published: int | None = None, failures: int | None = None, repeat: int = 1
) -> list[Row]:
    sizes = QUICK if quick else FULL
    total, failed = published or sizes["published"], failures or sizes["failures"]
    judging = start_github_server()  # first: without GitHub's description installed, nothing else is worth doing
    with tempfile.TemporaryDirectory(prefix="action-bench-") as scratch:
        root = Path(scratch)
        try:
            repo = new_repo(root)
            base, head = make_repo(repo, FAILING.format(tests=total, every=total // failed))
            run_pytest(repo)
            seed(judging, base, head)
            files = runner_files(root)
            environ = action_environ(judging, repo, event(root, base, head), head, files, github_token="")
            result = run_entrypoint(environ)
            outputs = read_outputs((files / "output").read_text())
        finally:
            judging.stop()
        assert (outputs["executed"], outputs["failed"]) == (str(total), str(failed)), (outputs, result.stderr)
        ledger = Path(outputs["ledger"])
        timings, servers = [], []
        for _ in range(repeat):
            server = start_github_server()
            servers.append(server)
            try:
                seed(server, base, head)
                timings.append(timed(functools.partial(published_once, server, ledger, root, base, head)))
            finally:
                server.stop()
    return _publish_rows(total, failed, least(timings), servers[0])


def published_once(server: FakeGitHub, ledger: Path, root: Path, base: str, head: str) -> None:
    result = publish(server, ledger, event(root, base, head, name=f"event-{time.monotonic_ns()}.json"), root)
    assert result.returncode in (0, 1), result.stderr  # 1: the run's verdict fails the check, as it should
    assert "Traceback" not in result.stderr, result.stderr


def _publish_rows(total: int, failed: int, took: Timed, server: FakeGitHub) -> list[Row]:
    label = f"{total:,} tests, {failed:,} failed"
    requests = server.requests
    kinds: dict[str, int] = {}
    for request in requests:
        kinds[f"{request.method}"] = kinds.get(request.method, 0) + 1
    shown = ", ".join(f"{count} {method}" for method, count in sorted(kinds.items()))
    writes = sum(1 for request in requests if request.method != "GET")
    pacing = (
        f"CPU {seconds(took.cpu)} (the fake server's validation included); the wall time is mostly PyGithub's pacing,"
        f" 0.25 s between requests and 1 s between writes (GitHub's advice against its secondary rate limit):"
        f" {writes} writes"
    )
    rows = [
        Row("publish", f"{label}: render + publish, wall time", seconds(took.wall), note=pacing),
        Row("publish", f"{label}: requests made", f"{len(requests)} ({shown})"),
    ]
    for field in largest([{"route": r.route, "json": r.json} for r in requests]):
        rows.append(
            Row(
                "publish",
                f"{label}: largest {field.what}",
                f"{field.size:,}",
                target=f"<= {field.limit:,}",
                met=field.size <= field.limit,
            )
        )
    violations = server.violations
    rows.append(
        Row(
            "publish",
            f"{label}: requests GitHub would refuse",
            str(len(violations)),
            target="0",
            met=not violations,
            note="; ".join(str(v).splitlines()[0] for v in violations[:3]),
        )
    )
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer tests, for a quick look")
    parser.add_argument("--tests", type=int, help="tests of the `run` project")
    parser.add_argument("--published", type=int, help="tests of the published run")
    parser.add_argument("--failures", type=int, help="failed tests of the published run")
    parser.add_argument("--repeat", type=int, default=3, help="runs of `run` and its baseline")
    parser.add_argument("--publish-repeat", type=int, default=1, help="publications timed")
    args = parser.parse_args()
    found = run_rows(args.quick, args.tests, args.repeat)
    found += publish_rows(args.quick, args.published, args.failures, args.publish_repeat)
    print(render(found))
    return 0 if all(row.met is not False for row in found) else 1


if __name__ == "__main__":
    sys.exit(main())
