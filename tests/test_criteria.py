"""Per-criterion evidence, from real JUnit reports (written by pytest) and real filtered test runs
(node --test), in real git repositories."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from evidence_gate.criteria_source import (
    MAX_CRITERIA,
    MAX_NAMED_PER_TAG,
    TaggedTests,
    criteria_from_body,
    parked_items,
    read_body,
)
from evidence_gate.errors import UsageError
from evidence_gate.gates.criteria import from_reports
from evidence_gate.ledger.model import GateResult, GateVerdict
from evidence_gate.ledger.payloads.criteria import Criterion, CriterionStatus
from evidence_gate.model import PullRequest
from evidence_gate.settings import Settings
from evidence_gate.summary.base import CaseResult

from .conftest import CliResult, Repo, judge_repo

PYTEST_SUITE = """\
import pytest

@pytest.mark.parametrize("case", ["[SHOP-7#1] adds an item"])
def test_cart_adds(case):
    assert 1 + 1 == 2

@pytest.mark.parametrize("case", ["[SHOP-7#2] totals the cart", "[SHOP-7#2] totals an empty cart"])
def test_cart_totals(case):
    assert case.endswith("the cart"), "an empty cart totals 0"
"""
UNLOADED_TEST = '''\
import missing_module  # the suite cannot load

def test_discount():
    """[SHOP-7#3] applies a discount"""
'''
BODY = """\
Adds a shopping cart.

## Acceptance criteria
- [x] adding an item puts it in the cart
- [ ] the total is the sum of the items
* [ ] a discount code lowers the total
- [ ] the cart survives a reload

## Notes
- [ ] not a criterion: under another heading
"""


def run_pytest(repo: Repo) -> Path:
    """Run pytest for real in `repo`, writing its JUnit report outside the repository."""
    report = repo.path.parent / "junit.xml"
    subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", f"--junitxml={report}", "tests/test_cart.py"],
        cwd=repo.path,
        capture_output=True,
        check=False,
    )
    return report


def criteria(cli: Callable[..., CliResult], *args: object) -> tuple[int, dict[str, Any]]:
    result = cli("criteria", *args, "--json")
    return result.code, json.loads(result.out) if result.out else {"err": result.err}


def test_criteria_from_a_real_junit_report(repo: Repo, cli: Callable[..., CliResult]) -> None:
    repo.commit("tests", {"tests/test_cart.py": PYTEST_SUITE, "tests/test_discount.py": UNLOADED_TEST})
    report = run_pytest(repo)
    code, document = criteria(cli, "--story", "SHOP-7", "--count", "4", "--junit", report, "--repo", repo.path)
    assert code == 1
    statuses = [(item["n"], item["status"]) for item in document["criteria"]]
    assert statuses == [(1, "green"), (2, "red"), (3, "red"), (4, "missing")]
    assert document["criteria"][1]["reason"].startswith("1 of 2 tests did not pass: ")
    assert document["criteria"][2]["reason"] == (
        "the tag is in the test sources (tests/test_discount.py:4) but no test in the reports carries it:"
        " the suite may not have loaded"
    )
    assert document["criteria"][3]["reason"] == "no test names it"
    assert document["ok"] is False


def test_every_criterion_green_exits_0(repo: Repo, cli: Callable[..., CliResult]) -> None:
    repo.commit("tests", {"tests/test_cart.py": PYTEST_SUITE.replace('"[SHOP-7#2] totals an empty cart"', "")})
    report = run_pytest(repo)
    code, document = criteria(cli, "--story", "SHOP-7", "--count", "2", "--junit", report, "--repo", repo.path)
    assert (code, document["ok"]) == (0, True)


def test_a_tag_named_outside_the_test_files_is_missing_not_red(repo: Repo, cli: Callable[..., CliResult]) -> None:
    repo.commit(
        "tests and docs",
        {
            "tests/test_cart.py": PYTEST_SUITE,
            "README.md": "Discounts are [SHOP-7#3].\n",
            "docs/plan.md": "- [SHOP-7#3] a discount code\n",
        },
    )
    code, document = criteria(
        cli, "--story", "SHOP-7", "--count", "3", "--junit", run_pytest(repo), "--repo", repo.path
    )
    assert code == 1
    assert (document["criteria"][2]["status"], document["criteria"][2]["reason"]) == ("missing", "no test names it")


def test_an_uncommitted_test_file_that_did_not_load_makes_its_criterion_red(
    repo: Repo, cli: Callable[..., CliResult]
) -> None:
    repo.commit("tests", {"tests/test_cart.py": PYTEST_SUITE})
    repo.write({"tests/test_discount.py": UNLOADED_TEST})
    code, document = criteria(
        cli, "--story", "SHOP-7", "--count", "3", "--junit", run_pytest(repo), "--repo", repo.path
    )
    assert code == 1
    assert document["criteria"][2]["status"] == "red"
    assert document["criteria"][2]["reason"].startswith("the tag is in the test sources (tests/test_discount.py:4)")


def test_the_pipeline_reads_the_tags_of_test_files_only(repo: Repo) -> None:
    repo.commit(
        "project",
        {
            "pyproject.toml": "[project]\nname = 'shop'\n",
            ".gitignore": "build/\n",
            "tests/test_cart.py": PYTEST_SUITE,
            "README.md": "Discounts are [SHOP-7#3].\n",
        },
    )
    subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--junitxml=build/junit.xml", "tests"],
        cwd=repo.path,
        capture_output=True,
        check=False,
    )
    pull = PullRequest(number=1, base_sha="HEAD", head_sha="HEAD", body=BODY)
    settings = Settings(repo=repo.path, story="SHOP-7", reports=("build/*.xml",))
    gate = judge_repo(settings, pull_request=pull, in_ci=True).gate("criteria")
    assert gate is not None
    assert gate.details[2] == "missing: [SHOP-7#3] a discount code lowers the total: no test names it"


def test_the_criteria_come_from_the_pr_body_checklist(
    tmp_path: Path, repo: Repo, cli: Callable[..., CliResult]
) -> None:
    repo.commit("tests", {"tests/test_cart.py": PYTEST_SUITE})
    event = tmp_path / "event.json"
    event.write_text(json.dumps({"action": "opened", "pull_request": {"number": 7, "body": BODY}}))
    code, document = criteria(
        cli, "--story", "SHOP-7", "--from-pr-body", event, "--junit", run_pytest(repo), "--repo", repo.path
    )
    assert code == 1
    assert [(item["n"], item["text"]) for item in document["criteria"]] == [
        (1, "adding an item puts it in the cart"),
        (2, "the total is the sum of the items"),
        (3, "a discount code lowers the total"),
        (4, "the cart survives a reload"),
    ]


def test_pr_body_parsing_handles_crlf_fences_and_heading_levels() -> None:
    body = (
        "### Acceptance Criteria:\r\n"
        "```\r\n- [ ] inside a fence, not a criterion\r\n```\r\n"
        "1. [ ] numbered items count\r\n"
        "- [X] checked ones too\r\n"
        "#### A sub-heading does not end the section\r\n"
        "- [ ] still a criterion\r\n"
        "## A higher heading ends it\r\n"
        "- [ ] not a criterion\r\n"
    )
    assert [c.text for c in criteria_from_body(body, "body")] == [
        "numbered items count",
        "checked ones too",
        "still a criterion",
    ]


def test_a_checklist_after_a_mismatched_fence_is_read_as_github_renders_it() -> None:
    # A four-backtick fence holding a three-backtick line closes at the next four-backtick line:
    # GitHub shows the heading and its checklist, so they are criteria.
    body = "Notes\n\n````\n```\n````\n\n## Acceptance criteria\n- [ ] refunds are logged\n- [ ] totals round down\n"
    assert [c.text for c in criteria_from_body(body, "body")] == ["refunds are logged", "totals round down"]


def test_a_later_heading_nested_in_the_criteria_parks_its_items() -> None:
    """`### Later` under the acceptance criteria holds parked work: its items are not criteria (they
    were, and a parked item with no test failed the plan), and a heading after it at its level ends it."""
    body = (
        "## Acceptance criteria\n- [ ] [S-1#1] refunds are logged\n\n"
        "### Later\n- [ ] [S-1#2] refunds are emailed\n\n#### Maybe\n- [ ] [S-1#3] refunds are printed\n\n"
        "### Also\n- [ ] [S-1#4] totals round down\n\n## Notes\n- [ ] not a criterion\n"
    )
    criteria = [c.text for c in criteria_from_body(body, "body")]
    assert criteria == ["[S-1#1] refunds are logged", "[S-1#4] totals round down"]
    assert parked_items(body) == ("[S-1#2] refunds are emailed", "[S-1#3] refunds are printed")


def test_a_heading_inside_an_html_comment_or_indented_code_is_not_the_checklist() -> None:
    body = (
        "<!--\n## Acceptance criteria\n- [ ] hidden in a comment\n-->\n\n"
        "    ## Acceptance criteria\n    - [ ] indented code\n\n"
        "## Acceptance criteria\n- [ ] the real one\n"
    )
    assert [c.text for c in criteria_from_body(body, "body")] == ["the real one"]


def test_more_criteria_than_are_read_fail_the_gate_instead_of_skipping_it(repo: Repo) -> None:
    repo.commit("base", {"README.md": "shop\n"})
    items = "".join(f"- [ ] criterion {n}\n" for n in range(1, MAX_CRITERIA + 2))
    pull = PullRequest(number=1, base_sha="HEAD", head_sha="HEAD", body=f"## Acceptance criteria\n{items}")
    ledger = judge_repo(Settings(repo=repo.path, story="SHOP-1"), pull_request=pull)
    gate = ledger.gate("criteria")
    assert gate is not None
    assert gate.verdict is GateVerdict.FAIL
    assert f"{MAX_CRITERIA + 1} acceptance criteria; at most {MAX_CRITERIA} are read" in gate.headline


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("no heading here\n- [ ] x\n", "no '## Acceptance criteria' heading"),
        ("## Acceptance criteria\nJust prose.\n", "no checklist items"),
    ],
)
def test_a_body_without_criteria_is_a_usage_error(body: str, message: str) -> None:
    with pytest.raises(UsageError, match=message):
        criteria_from_body(body, "body")


def test_an_event_payload_that_is_not_a_pull_request_is_refused(tmp_path: Path) -> None:
    event = tmp_path / "event.json"
    event.write_text(json.dumps({"ref": "refs/heads/main"}))
    with pytest.raises(UsageError, match="not a pull_request event payload"):
        read_body(event)


def test_an_event_payload_with_a_number_of_5000_digits_is_a_usage_error(tmp_path: Path) -> None:
    """Valid JSON that json.loads refuses with a plain ValueError (Python's limit on int() from text)."""
    event = tmp_path / "event.json"
    event.write_bytes(b'{"pull_request": {"number": ' + b"1" * 5_000 + b"}}")
    with pytest.raises(UsageError, match="cannot read its JSON"):
        read_body(event)


def test_an_unreadable_report_exits_4(tmp_path: Path, cli: Callable[..., CliResult]) -> None:
    broken = tmp_path / "junit.xml"
    broken.write_text("<testsuite><testcase name='[S-1#1] a'")
    code, document = criteria(cli, "--story", "S-1", "--count", "1", "--junit", broken, "--repo", tmp_path)
    assert code == 4
    assert document["unread"][0].startswith(f"{broken}: malformed XML")


def test_thousands_of_tagged_cases_are_counted_but_not_kept_whole() -> None:
    tagged = TaggedTests("SHOP-7")
    for number in range(50_000):
        outcome = "failed" if number == 49_999 else "passed"
        tagged(
            CaseResult(
                name=f"test_{number} [SHOP-7#1]",
                classname="x" * 1000,
                file=None,
                line=None,
                outcome=outcome,
                message=None,
            )
        )
    (result,) = from_reports("SHOP-7", (Criterion(number=1, text="refunds"),), tagged.by_tag, {})
    assert result.status is CriterionStatus.RED
    assert result.reason.startswith("1 of 50,000 tests did not pass: ")
    assert len(result.tests) <= 2 * MAX_NAMED_PER_TAG
    assert result.tests[0][1] == "failed"


def test_a_tag_is_matched_whole_so_criterion_1_is_not_criterion_10() -> None:
    tagged = TaggedTests("S")
    tagged(CaseResult(name="[S#10] later", classname="", file=None, line=None, outcome="failed", message=None))
    tagged(CaseResult(name="[S#1] first", classname="", file=None, line=None, outcome="passed", message=None))
    assert {tag: tally.total for tag, tally in tagged.by_tag.items()} == {"[S#10]": 1, "[S#1]": 1}


PLAN_BODY = """\
## Acceptance criteria
- [ ] a discount code lowers the total
- [ ] the guide explains discounts (file: `docs/discounts.md`)
- [ ] the copy reads well (manual)

## Later
- [ ] refunds of discounted orders
"""


def plan_facts(repo: Repo, body: str, files: dict[str, str], tag: str = "[SHOP-1#1]") -> GateResult:
    """The criteria gate on a real repository whose JUnit report holds one passing test carrying `tag`."""
    base = repo.commit("base", {"pyproject.toml": "[project]\nname = 'shop'\n"})
    report = (
        '<testsuite name="pytest" tests="1"><testcase classname="tests.test_cart"'
        f' name="test_discount{tag}"/></testsuite>\n'
    )
    head = repo.commit("plan", {"build/junit.xml": report, **files})
    settings = Settings(repo=repo.path, base=base, head=head, reports=("build/junit.xml",), story="SHOP-1")
    ledger = judge_repo(settings, pull_request=PullRequest(number=1, base_sha=base, head_sha=head, body=body))
    gate = ledger.gate("criteria")
    assert gate is not None
    return gate


def test_a_plan_item_is_proven_by_a_test_or_the_file_it_names_and_a_manual_one_is_unverifiable(repo: Repo) -> None:
    gate = plan_facts(repo, PLAN_BODY, {"docs/discounts.md": "# Discounts\n"})
    assert (gate.verdict, gate.headline) == (
        GateVerdict.PASS,
        "2 of 3 acceptance criteria proven by passing tests (1 left to a reviewer)",
    )
    assert gate.details == (
        "green: [SHOP-1#1] a discount code lowers the total: 1 test passed",
        "green: [SHOP-1#2] the guide explains discounts (file: `docs/discounts.md`): the file docs/discounts.md"
        " exists at head",
        "unverifiable: [SHOP-1#3] the copy reads well (manual): marked (manual): a reviewer's judgment, not blocking",
        "parked (Later): refunds of discounted orders",
    )


def test_a_named_file_missing_at_head_fails_its_criterion(repo: Repo) -> None:
    gate = plan_facts(repo, PLAN_BODY, {})
    assert gate.verdict is GateVerdict.FAIL
    assert (
        "red: [SHOP-1#2] the guide explains discounts (file: `docs/discounts.md`):"
        " the file docs/discounts.md it names is not at head"
    ) in gate.details


def test_an_acceptance_criterion_parked_under_later_means_the_plan_is_not_complete(repo: Repo) -> None:
    body = PLAN_BODY + "- [ ] the copy reads well (manual)\n"
    gate = plan_facts(repo, body, {"docs/discounts.md": "# Discounts\n"})
    assert (gate.verdict, gate.headline) == (
        GateVerdict.FAIL,
        "the plan is not complete: an acceptance criterion is parked under Later: the copy reads well (manual)",
    )


def test_a_plan_of_manual_items_only_is_unverifiable_and_does_not_block(repo: Repo) -> None:
    gate = plan_facts(repo, "## Acceptance criteria\n- [ ] it feels fast (manual)\n", {}, tag="")
    assert gate.verdict is GateVerdict.UNVERIFIABLE
    assert gate.headline == "1 acceptance criterion, each marked (manual): a reviewer's judgment"
