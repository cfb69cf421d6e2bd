"""`evidence-gate inventory` and `evidence-gate freeze` end to end, on real repositories: the
GATE_SUMMARY line and its artifacts, the no-base error, and red tests frozen, then edited."""

from __future__ import annotations

import io
import json
import os
import re
import sys
import tracemalloc
from pathlib import Path

import pytest

from evidence_gate.cli import main
from evidence_gate.git import Git
from evidence_gate.integrity.frozen import MAX_RECORD_BYTES, check_frozen
from evidence_gate.ledger.model import GateVerdict
from evidence_gate.model import PullRequest
from evidence_gate.render import render_comment
from evidence_gate.settings import Settings
from tests.tools import require_tool

from .conftest import Repo, judge_repo, local_environment
from .test_integrity_tagger import PY_TEST, WORKFLOW

PYPROJECT = "[project]\nname = 'shop'\n"
SUMMARY = re.compile(
    r"^GATE_SUMMARY: listed=(?P<listed>\d+) eligible=(?P<eligible>\d+) inspected=(?P<inspected>\d+)"
    r" unread=(?P<unread>\d+) tagged=\{(?P<tagged>[^}]*)\} unmatched=(?P<unmatched>\d+) coverage=(?P<coverage>\S+)"
    r" languages_unlisted=(?P<unlisted>\S+) candidate=(?P<candidate>[0-9a-f]{16}) artifact=(?P<artifact>.+)$"
)


def evidence_gate(*args: str | Path, environ: dict[str, str] | None = None) -> tuple[int, str]:
    out = io.StringIO()
    code = main([os.fspath(arg) for arg in args], out=out, environ=environ or local_environment())
    return code, out.getvalue()


def relaxing_change(repo: Repo) -> str:
    base = repo.commit(
        "base", {"pyproject.toml": PYPROJECT, "tests/test_cart.py": PY_TEST, ".github/workflows/t.yml": WORKFLOW}
    )
    repo.commit(
        "head",
        {
            "tests/test_cart.py": PY_TEST.replace("def test_total", "@pytest.mark.xfail\ndef test_total"),
            ".github/workflows/t.yml": WORKFLOW.replace("run: pytest", "run: pytest || true"),
            "README.md": "shop\n",
        },
    )
    return base


def test_the_summary_line_then_one_line_per_hunk_and_the_artifact(repo: Repo, tmp_path: Path) -> None:
    base = relaxing_change(repo)
    code, out = evidence_gate("inventory", "--repo", repo.path, "--base", base, "--artifact", tmp_path / "inv.json")
    assert code == 0
    first, *hunks = out.splitlines()
    found = SUMMARY.match(first)
    assert found is not None, first
    assert found.group("listed", "eligible", "inspected", "unread", "unmatched") == ("2", "2", "2", "0", "0")
    assert found.group("tagged") == "RH-1:1,RH-9:1"
    assert found.group("coverage") == "python,yaml"
    assert found.group("artifact") == str(tmp_path / "inv.json")
    assert hunks == [
        "[H1] RH-9 .github/workflows/t.yml @@@ -3,4 +3,4 @@ jobs:",
        "[H2] RH-1 tests/test_cart.py @@@ -1,5 +1,6 @@",
    ]
    document = json.loads((tmp_path / "inv.json").read_text(encoding="utf-8"))
    assert document["summary"]["tagged"] == {"RH-1": 1, "RH-9": 1}
    assert {"line": 4, "text": "@pytest.mark.xfail"} in document["hunks"][1]["added"]
    again = evidence_gate("inventory", "--repo", repo.path, "--base", base, "--artifact", tmp_path / "again.json")[1]
    assert SUMMARY.match(again.splitlines()[0]).group("candidate") == found.group("candidate")  # type: ignore[union-attr]  # matched above


def test_the_read_cap_leaves_the_rest_unread_and_says_so(repo: Repo, tmp_path: Path) -> None:
    base = relaxing_change(repo)
    code, out = evidence_gate(
        "inventory", "--repo", repo.path, "--base", base, "--read-cap", "1", "--artifact", tmp_path / "a.json"
    )
    found = SUMMARY.match(out.splitlines()[0])
    assert code == 0 and found is not None
    assert found.group("inspected", "unread") == ("1", "1")
    assert len(out.splitlines()) == 2


def test_json_prints_the_artifact_and_sarif_carries_each_tag(repo: Repo, tmp_path: Path) -> None:
    base = relaxing_change(repo)
    code, out = evidence_gate(
        "inventory", "--repo", repo.path, "--base", base, "--json", "--sarif", tmp_path / "s.sarif"
    )
    assert code == 0
    assert [hunk["tags"] for hunk in json.loads(out)["hunks"]] == [["RH-9"], ["RH-1"]]
    report = json.loads((tmp_path / "s.sarif").read_text(encoding="utf-8"))
    assert report["version"] == "2.1.0"
    results = report["runs"][0]["results"]
    assert [(r["ruleId"], r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]) for r in results] == [
        ("RH-9", ".github/workflows/t.yml"),
        ("RH-1", "tests/test_cart.py"),
    ]
    assert {rule["id"]: rule["name"] for rule in report["runs"][0]["tool"]["driver"]["rules"]} == {
        "RH-1": "test-skipped",
        "RH-9": "ci-nonblocking",
    }


def test_the_default_artifact_never_follows_a_link_planted_at_the_old_fixed_name(repo: Repo, tmp_path: Path) -> None:
    base = relaxing_change(repo)
    runner_temp, victim = tmp_path / "runner-temp", tmp_path / "victim.txt"
    runner_temp.mkdir()
    victim.write_text("the user's own file\n", encoding="utf-8")
    (runner_temp / "evidence-gate-inventory.json").symlink_to(victim)
    environ = {**local_environment(), "RUNNER_TEMP": str(runner_temp)}
    runs = [evidence_gate("inventory", "--repo", repo.path, "--base", base, environ=environ) for _ in range(2)]
    assert victim.read_text(encoding="utf-8") == "the user's own file\n"
    written = []
    for code, out in runs:
        found = SUMMARY.match(out.splitlines()[0])
        assert (code, found is not None) == (0, True), out
        assert found is not None
        artifact = Path(found.group("artifact"))
        assert artifact.parent.parent == runner_temp and not artifact.is_symlink()
        assert artifact.parent.stat().st_mode & 0o777 == 0o700  # a folder of its own, this user's only
        assert json.loads(artifact.read_text(encoding="utf-8"))["summary"]["listed"] == 2
        written.append(artifact)
    assert written[0] != written[1]  # each run its own folder: nothing is written over


def test_a_base_not_in_the_clone_is_one_gate_error_line_with_the_fix(repo: Repo) -> None:
    repo.commit("base", {"pyproject.toml": PYPROJECT})
    code, out = evidence_gate("inventory", "--repo", repo.path, "--base", "origin/release")
    assert (code, out) == (2, "GATE_ERROR=no_base ref=origin/release fix='git fetch --no-tags origin origin/release'\n")


# --- freeze ---------------------------------------------------------------------------------------

RED = "def test_refund_is_logged():\n    from shop import refund\n    assert refund(5) == 'logged 5'\n"
SHOP = "def refund(amount):\n    return None\n"


@pytest.fixture
def environ(tmp_path: Path) -> dict[str, str]:
    """The environment with `python` on PATH as this interpreter (the python stack's commands call `python`)."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "python").symlink_to(sys.executable)
    environ = local_environment()
    environ.update(PATH=f"{bin_dir}{os.pathsep}{environ.get('PATH', '')}", PYTEST_ADDOPTS="-p no:cacheprovider")
    return environ


def frozen_repo(repo: Repo, environ: dict[str, str]) -> str:
    repo.commit("red tests", {"pyproject.toml": PYPROJECT, "shop.py": SHOP, "tests/test_refund.py": RED})
    code, out = evidence_gate("freeze", "--repo", repo.path, repo.path / "tests/test_refund.py", environ=environ)
    assert code == 0, out
    return repo.commit("freeze the red tests")


def test_a_red_test_is_frozen_in_a_record_to_commit(repo: Repo, environ: dict[str, str]) -> None:
    frozen = frozen_repo(repo, environ)
    record = json.loads((repo.path / ".evidence-gate" / "red-tests.json").read_text(encoding="utf-8"))
    assert record["frozen"] == ["tests/test_refund.py"]
    assert record["commit"] == repo.git("rev-parse", f"{frozen}~1")
    assert record["parked"] == []


def test_a_later_commit_editing_a_frozen_test_fails_with_the_message(repo: Repo, environ: dict[str, str]) -> None:
    frozen = frozen_repo(repo, environ)
    repo.commit("make it green", {"tests/test_refund.py": RED.replace("== 'logged 5'", "is None")})
    code, out = evidence_gate("inventory", "--repo", repo.path, "--base", frozen)
    assert code == 0
    assert "[H1] RH-14 tests/test_refund.py @@@ -1,3 +1,3 @@" in out
    assert out.splitlines()[-1] == (
        "FAIL frozen red test changed: tests/test_refund.py. Make it pass by changing production code, and put the"
        " test back as it was."
    )


def test_a_later_commit_changing_only_production_code_passes(repo: Repo, environ: dict[str, str]) -> None:
    frozen = frozen_repo(repo, environ)
    repo.commit("make it green", {"shop.py": "def refund(amount):\n    return f'logged {amount}'\n"})
    code, out = evidence_gate("inventory", "--repo", repo.path, "--base", frozen)
    assert code == 0
    assert "FAIL" not in out


def test_a_pull_request_dropping_a_frozen_test_from_the_record_fails(repo: Repo, environ: dict[str, str]) -> None:
    frozen = frozen_repo(repo, environ)
    record = repo.path / ".evidence-gate" / "red-tests.json"
    document = json.loads(record.read_text(encoding="utf-8"))
    document["frozen"] = []
    repo.commit("unfreeze", {".evidence-gate/red-tests.json": json.dumps(document)})
    _, out = evidence_gate("inventory", "--repo", repo.path, "--base", frozen)
    assert out.splitlines()[-1] == (
        "FAIL the pull request removes frozen tests from .evidence-gate/red-tests.json: tests/test_refund.py"
    )


@pytest.mark.parametrize(
    ("test", "reason"),
    [
        (
            "def test_refund():\n    assert True\n",
            "not red: `python -m pytest -rA tests/test_refund.py` ran 1 tests and none failed",
        ),
        (
            "def test_refund(:\n    assert False\n",
            "unjudged: it did not load (SyntaxError: ",
        ),
        (
            "import missing_module\n\n\ndef test_refund():\n    assert False\n",
            "unjudged: it did not load (ModuleNotFoundError: No module named 'missing_module');"
            " `missing_module` is named by pyproject.toml, so it exists: a missing dependency or another error,"
            " not a name still to write",
        ),
    ],
    ids=["a passing test", "a syntax error", "a missing dependency"],
)
def test_a_test_that_is_not_red_is_refused_and_nothing_written(
    repo: Repo, environ: dict[str, str], test: str, reason: str
) -> None:
    pyproject = PYPROJECT + "dependencies = ['missing_module']\n"
    repo.commit("tests", {"pyproject.toml": pyproject, "tests/test_refund.py": test})
    code, out = evidence_gate("freeze", "--repo", repo.path, repo.path / "tests/test_refund.py", environ=environ)
    assert code == 1
    assert out.startswith(f"not frozen: tests/test_refund.py: {reason}")
    assert not (repo.path / ".evidence-gate").exists()


UNWRITTEN = "from shop import refund\n\n\ndef test_refund_is_logged():\n    assert refund(5) == 'logged 5'\n"
CHARGE = "def charge(amount):\n    return amount\n"
REFUND = CHARGE + "\n\ndef refund(amount):\n    return f'logged {amount}'\n"


def test_a_red_test_importing_a_function_not_yet_written_is_frozen_as_not_loading_yet(
    repo: Repo, environ: dict[str, str]
) -> None:
    repo.commit("red tests", {"pyproject.toml": PYPROJECT, "shop.py": CHARGE, "tests/test_refund.py": UNWRITTEN})
    code, out = evidence_gate("freeze", "--repo", repo.path, repo.path / "tests/test_refund.py", environ=environ)
    assert code == 0, out
    assert "tests/test_refund.py: red: does not load yet: `refund` is not written" in out
    record = json.loads((repo.path / ".evidence-gate" / "red-tests.json").read_text(encoding="utf-8"))
    assert record["frozen"] == ["tests/test_refund.py"]
    assert record["kinds"] == {"tests/test_refund.py": "does not load yet"}
    frozen = repo.commit("freeze the red tests")
    repo.commit("write refund", {"shop.py": REFUND})
    _, out = evidence_gate("inventory", "--repo", repo.path, "--base", frozen)
    assert "FAIL" not in out
    repo.commit("make it green", {"tests/test_refund.py": UNWRITTEN.replace("== 'logged 5'", "is not None")})
    _, out = evidence_gate("inventory", "--repo", repo.path, "--base", frozen)
    assert out.splitlines()[-1].startswith("FAIL frozen red test changed: tests/test_refund.py.")


def test_red_tests_frozen_inside_the_pull_request_are_held_from_their_record_on(
    repo: Repo, environ: dict[str, str]
) -> None:
    """Test-first on the feature branch: the red test, its record, the fix, all commits of one pull
    request. The fix passes; an edit to the test that also drops it from the record fails on both."""
    base = repo.commit("base", {"pyproject.toml": PYPROJECT, "shop.py": CHARGE})
    repo.commit("red tests", {"tests/test_refund.py": UNWRITTEN})
    code, out = evidence_gate("freeze", "--repo", repo.path, repo.path / "tests/test_refund.py", environ=environ)
    assert code == 0, out
    repo.commit("freeze the red tests")
    repo.commit("write refund", {"shop.py": REFUND})
    _, out = evidence_gate("inventory", "--repo", repo.path, "--base", base)
    assert "FAIL" not in out
    record = json.loads((repo.path / ".evidence-gate" / "red-tests.json").read_text(encoding="utf-8"))
    repo.commit(
        "make it green",
        {
            "tests/test_refund.py": UNWRITTEN.replace("== 'logged 5'", "is not None"),
            ".evidence-gate/red-tests.json": json.dumps({**record, "frozen": [], "kinds": {}}),
        },
    )
    _, out = evidence_gate("inventory", "--repo", repo.path, "--base", base)
    failures = [line for line in out.splitlines() if line.startswith("FAIL ")]
    assert failures == [
        "FAIL the pull request removes frozen tests from .evidence-gate/red-tests.json: tests/test_refund.py",
        "FAIL frozen red test changed: tests/test_refund.py. Make it pass by changing production code, and put the"
        " test back as it was.",
    ]


def test_a_record_deleted_later_in_the_pull_request_fails(repo: Repo, environ: dict[str, str]) -> None:
    base = repo.commit("base", {"pyproject.toml": PYPROJECT, "shop.py": CHARGE})
    repo.commit("red tests", {"tests/test_refund.py": UNWRITTEN})
    assert evidence_gate("freeze", "--repo", repo.path, repo.path / "tests/test_refund.py", environ=environ)[0] == 0
    repo.commit("freeze the red tests")
    (repo.path / ".evidence-gate" / "red-tests.json").unlink()
    deleted = repo.commit("drop the record")
    _, out = evidence_gate("inventory", "--repo", repo.path, "--base", base)
    assert out.splitlines()[-1] == (
        f"FAIL commit {deleted[:12]} deletes .evidence-gate/red-tests.json, which froze 1 red tests"
    )


COMPILED = {
    "go": {
        "go.mod": "module example.com/shop\n\ngo 1.19\n",
        "shop.go": "package shop\n\nfunc Charge(a int) int { return a }\n",
        "shop_test.go": 'package shop\n\nimport "testing"\n\nfunc TestRefund(t *testing.T) {\n'
        '\tif Refund(5) != "logged 5" {\n\t\tt.Fatal("no")\n\t}\n}\n',
    },
    "rust": {
        "Cargo.toml": '[package]\nname = "shop"\nversion = "0.1.0"\nedition = "2021"\n',
        "src/lib.rs": "pub fn charge(a: u32) -> u32 {\n    a\n}\n",
        "tests/refund.rs": (
            'use shop::refund;\n\n#[test]\nfn refund_is_logged() {\n    assert_eq!(refund(5), "logged 5");\n}\n'
        ),
    },
}


@pytest.mark.parametrize(
    ("stack", "test", "name"), [("go", "shop_test.go", "Refund"), ("rust", "tests/refund.rs", "refund")]
)
def test_a_compiled_red_test_calling_a_function_not_yet_written_is_frozen(
    repo: Repo, tmp_path: Path, stack: str, test: str, name: str
) -> None:
    require_tool(
        "go" if stack == "go" else "cargo",
        hint="go is installed by scripts/test.sh as root; cargo comes with the machine",
    )
    environ = local_environment()
    environ["CARGO_TARGET_DIR"] = str(tmp_path / "target")
    repo.commit("red tests", COMPILED[stack])
    code, out = evidence_gate("freeze", "--repo", repo.path, repo.path / test, environ=environ)
    assert code == 0, out
    assert f"{test}: red: does not load yet: `{name}` is not written" in out


def test_a_criterion_tagged_on_no_failing_test_is_parked(repo: Repo, environ: dict[str, str]) -> None:
    tests = (
        "import pytest\n\n\n@pytest.mark.parametrize('c', ['[S-1#1] refunds are logged'])\n"
        "def test_refund(c):\n    assert False\n\n\n# [S-1#2] is written, but no test runs it yet\n"
    )
    repo.commit("red tests", {"pyproject.toml": PYPROJECT, "tests/test_refund.py": tests})
    code, out = evidence_gate(
        "freeze", "--story", "S-1", "--repo", repo.path, repo.path / "tests/test_refund.py", environ=environ
    )
    assert code == 0, out
    record = json.loads((repo.path / ".evidence-gate" / "red-tests.json").read_text(encoding="utf-8"))
    assert record["parked"] == [
        {"criterion": "[S-1#2]", "why": "no failing test carries the tag: it is not proven red"}
    ]


def test_a_later_commit_deleting_a_frozen_test_fails_too(repo: Repo, environ: dict[str, str]) -> None:
    frozen = frozen_repo(repo, environ)
    (repo.path / "tests" / "test_refund.py").unlink()
    repo.commit("drop the red test")
    code, out = evidence_gate("inventory", "--repo", repo.path, "--base", frozen)
    assert code == 0
    assert "[H1] RH-3,RH-14 tests/test_refund.py @@@ -1,3 +0,0 @@" in out
    assert out.splitlines()[-1].startswith("FAIL frozen red test changed: tests/test_refund.py.")


def test_a_parked_criterion_is_shown_as_parked_never_as_proven(repo: Repo) -> None:
    """The freeze could not prove [S-1#2] red: a passing test carrying it later does not make it proven."""
    first = repo.commit("tests", {"pyproject.toml": PYPROJECT, "tests/test_refund.py": RED})
    record = {
        "version": 1,
        "frozen": ["tests/test_refund.py"],
        "commit": first,
        "parked": [{"criterion": "[S-1#2]", "why": "no failing test carries the tag: it is not proven red"}],
    }
    repo.commit("freeze", {".evidence-gate/red-tests.json": json.dumps(record)})
    report = repo.path / "build" / "junit.xml"
    report.parent.mkdir()
    report.write_text(
        '<testsuite name="pytest" tests="2"><testcase classname="t" name="test_a[S-1#1]"/>'
        '<testcase classname="t" name="test_b[S-1#2]"/></testsuite>\n',
        encoding="utf-8",
    )
    body = "## Acceptance criteria\n- [ ] refunds are logged\n- [ ] refunds are mailed\n"
    pull = PullRequest(number=1, base_sha="HEAD", head_sha="HEAD", body=body)
    ledger = judge_repo(Settings(repo=repo.path, reports=("build/*.xml",), story="S-1"), pull_request=pull, in_ci=True)
    gate = ledger.gate("criteria")
    assert gate is not None
    assert (gate.verdict, gate.headline) == (GateVerdict.FAIL, "1 of 2 acceptance criteria proven by passing tests")
    assert "parked: [S-1#2] refunds are mailed: parked by the freeze: no failing test carries the tag" in " ".join(
        gate.details
    )
    assert "⏸ parked" in render_comment(ledger)


def test_a_freeze_record_past_the_cap_in_a_commit_of_the_pull_request_is_refused_unread(repo: Repo) -> None:
    """Each version of the record a pull request writes is read; one past the cap is a failure said in
    one line, never read whole: a 64 MiB version costs no 64 MiB."""
    base = repo.commit("base", {"pyproject.toml": PYPROJECT, "shop.py": CHARGE})
    repo.commit("huge", {".evidence-gate/red-tests.json": " " * (64 * 1024 * 1024)})
    head = repo.commit("small again", {".evidence-gate/red-tests.json": "{}"})
    tracemalloc.start()
    try:
        found = check_frozen(Git(repo.path, local_environment()), base, head)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 16 * 1024 * 1024, f"{peak:,} bytes held"
    assert found.failures[0].startswith("the freeze record cannot be read: .evidence-gate/red-tests.json at commit ")
    assert found.failures[0].endswith(f"larger than {MAX_RECORD_BYTES:,} bytes; not a freeze record")
    assert "not a freeze record: (top level)" in found.failures[1]
