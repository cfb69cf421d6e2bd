"""The coverage gate in the action, end to end against the fake GitHub: a coverage report among
`reports`, recognised by content; the `coverage` output; the PR body's diagram and proposals,
rendered by GitHub's own renderer; annotations per uncovered range; and a label added after the
event, read fresh from the API."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from evidence_gate.ledger.model import GateVerdict
from evidence_gate.ledger.payloads.coverage import CoverageData
from tests.github_fake import FakeGitHub, faults

from ..conftest import Repo
from ..render.gfm import render
from .harness import BODY, PR, REPO, Run, event

CART_HEAD = (
    "def total(prices):\n"
    "    return sum(prices)\n"
    "\n"
    "\n"
    "def refund(amount):\n"
    "    if amount < 0:\n"
    "        raise ValueError(amount)\n"
    "    return -amount\n"
    "\n"
    "\n"
    "def audit(amount):\n"
    "    return {'amount': amount}\n"
)
TESTS = "from shop.cart import refund\n\n\ndef test_refund():\n    assert refund(5) == -5\n"


def covered_pull_request(repo: Repo, server: FakeGitHub, labels: tuple[str, ...] = ()) -> tuple[str, str]:
    base = repo.commit(
        "base",
        {
            "pyproject.toml": "[project]\nname = 'shop'\n",
            "shop/__init__.py": "",
            "shop/cart.py": "def total(prices):\n    return sum(prices)\n",
            ".gitignore": "build/\n.coverage\n",
        },
    )
    repo.git("checkout", "--quiet", "-b", "feature")
    head = repo.commit("refunds", {"shop/cart.py": CART_HEAD, "tests/__init__.py": "", "tests/test_cart.py": TESTS})
    server.add_pull(REPO, PR, head_sha=head, base_sha=base, body=BODY, labels=labels)
    build = repo.path / "build"
    build.mkdir()
    tests = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-p",
            "no:cacheprovider",
            f"--junitxml={build / 'junit.xml'}",
            "--cov=shop",
            "--cov-context=test",
            "--cov-report=",
            "tests",
        ],
        cwd=repo.path,
        capture_output=True,
        check=False,
    )
    (build / "pytest.log").write_bytes(tests.stdout + tests.stderr)
    subprocess.run(
        [sys.executable, "-m", "coverage", "json", "--show-contexts", "-o", str(build / "coverage.json")],
        cwd=repo.path,
        capture_output=True,
        check=True,
    )
    return base, head


def coverage_of(run: Run) -> tuple[GateVerdict, str, CoverageData]:
    gate = run.ledger.gate("coverage")
    assert gate is not None
    assert isinstance(gate.data, CoverageData)
    return gate.verdict, gate.headline, gate.data


def test_low_coverage_fails_with_its_paths_in_the_pr_body_and_annotations(
    tmp_path: Path, repo: Repo, server: FakeGitHub, action: Callable[..., Run]
) -> None:
    base, head = covered_pull_request(repo, server)
    run = action(repo, event(tmp_path, base, head), head, reports="build/*", coverage_minimum="70")
    verdict, headline, data = coverage_of(run)
    # 6 executable changed lines: 5-8, 11 and 12. The two `def` lines ran on import, refund's 6 and 8
    # in the test; 7 (the raise) and audit's body did not: 4 of 6.
    assert (data.total, data.covered) == (6, 4)
    assert verdict is GateVerdict.FAIL
    assert headline == (
        "Coverage is critically low (66.66%; 66.66% including 0 weakly covered paths). "
        "2 of 4 code paths have no tests. Minimum threshold is 70%."
    )
    assert run.outputs["coverage"] == "66.66"
    gate = run.ledger.gate("coverage")
    assert gate is not None
    assert "value-weighted coverage unavailable: test strength judged no test" in gate.details[0]
    body = server.pr_body(PR) or ""
    assert "Coverage: 66.66% (66.66% including 0 weakly covered paths), 2 gaps." in body
    html = render(body)
    charts = html.xpath(".//pre/code[@class='language-mermaid']")
    assert len(charts) == 1
    chart = charts[0].text_content()
    assert 'f0["shop/cart.py"]' in chart
    assert 'f0 --- p0["lines 5-6: covered (test strength not judged)"]:::covered' in chart
    assert 'p1["line 7: uncovered"]:::uncovered' in chart
    assert "shop/cart.py line 12" in html.text_content()  # a proposed test
    annotations = [a for check in server.check_runs(head) for a in check.annotations]
    uncovered = sorted((a.start_line, a.end_line) for a in annotations if a.title == "Not run by any test")
    assert uncovered == [(7, 7), (12, 12)]


def test_a_label_added_after_the_event_counts_on_the_rerun(
    tmp_path: Path, repo: Repo, server: FakeGitHub, action: Callable[..., Run]
) -> None:
    base, head = covered_pull_request(repo, server, labels=("coverage:override",))
    run = action(repo, event(tmp_path, base, head), head, reports="build/*", coverage_minimum="70")
    verdict, headline, _ = coverage_of(run)
    assert (verdict, headline) == (GateVerdict.PASS, "Coverage gate: OVERRIDDEN at 66.66%.")


def test_thresholds_and_fail_on_come_from_the_inputs(
    tmp_path: Path, repo: Repo, server: FakeGitHub, action: Callable[..., Run]
) -> None:
    base, head = covered_pull_request(repo, server)
    run = action(repo, event(tmp_path, base, head), head, reports="build/*")
    verdict, headline, _ = coverage_of(run)
    assert verdict is GateVerdict.PASS
    assert headline.startswith("Coverage is 66.66% (66.66% including 0 weakly covered paths).")
    strict = action(
        repo,
        event(tmp_path, base, head, name="strict.json"),
        head,
        reports="build/*",
        coverage_fail_on="target",
    )
    assert coverage_of(strict)[0] is GateVerdict.FAIL


def test_the_output_says_skipped_or_unavailable_and_a_failed_label_read_keeps_the_events_labels(
    tmp_path: Path, repo: Repo, server: FakeGitHub, action: Callable[..., Run]
) -> None:
    base, head = covered_pull_request(repo, server, labels=("coverage:override",))
    skipped = action(repo, event(tmp_path, base, head), head, reports="build/*.xml\nbuild/*.log")
    assert skipped.outputs["coverage"] == "skipped"
    (repo.path / "build" / "coverage.json").write_text('{"meta": {"version": "7"}, "files": {"x.py": 1}}\n')
    server.script("GET /repos/{owner}/{repo}/pulls/{pull_number}", faults.not_found())
    unavailable = action(repo, event(tmp_path, base, head, name="again.json"), head, reports="build/*")
    assert unavailable.outputs["coverage"] == "unavailable"
    assert "the pull request's labels are the event's" in unavailable.stdout
