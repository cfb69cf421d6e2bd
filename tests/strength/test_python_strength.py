"""Test strength on real Python repositories, run by the real pytest and unittest."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from evidence_gate.strength.sandbox import PREFIX

from ..conftest import CliResult, Repo, local_environment
from .leftovers import assert_nothing_left

CART = "def total(prices):\n    return sum(prices)\n"
CART_TAXED = (
    "def total(prices):\n    return round(sum(prices) * 1.2, 2)\n\n\n"
    "def discount(price):\n    return round(price * 0.9, 2)\n"
)
BASE = {
    "pyproject.toml": (
        "[project]\nname = 'shop'\nversion = '1'\n\n[tool.pytest.ini_options]\naddopts = '-p no:cacheprovider'\n"
    ),
    "src/shop/__init__.py": "",
    "src/shop/cart.py": CART,
    "tests/test_old.py": "from shop.cart import total\n\n\ndef test_old():\n    assert total([1]) == total([1])\n",
}
HEAD_TESTS = {
    # red: it needs the tax
    "tests/test_strong.py": "from shop.cart import total\n\n\ndef test_taxed():\n    assert total([10]) == 12.0\n",
    # still-green: it passes with or without the change
    "tests/test_weak.py": "from shop.cart import total\n\n\ndef test_callable():\n    assert callable(total)\n",
    # unjudged: the module it imports is new
    "tests/test_new_module.py": "from shop.refund import refund\n\n\ndef test_refund():\n    assert refund(5) == -5\n",
    # unjudged: a function the change adds, called at run time
    "tests/test_new_symbol.py": (
        "import shop.cart\n\n\ndef test_discount():\n    assert shop.cart.discount(10) == 9.0\n"
    ),
    # not-run: it fails at the head
    "tests/test_broken.py": "from shop.cart import total\n\n\ndef test_wrong():\n    assert total([10]) == 99\n",
    # not-run: no test in it
    "tests/test_empty.py": "from shop.cart import total\n\nHELPER = total\n",
}
HEAD = {"src/shop/cart.py": CART_TAXED, "src/shop/refund.py": "def refund(amount):\n    return -amount\n", **HEAD_TESTS}


def strength(cli: Callable[..., CliResult], repo: Repo, base: str, *extra: str) -> tuple[int, dict[str, Any]]:
    result = cli("strength", "--repo", repo.path, "--base", base, "--json", *extra)
    assert result.code in (0, 1, 4), result.err
    return result.code, json.loads(result.out)


def verdicts(document: dict[str, Any]) -> dict[str, str]:
    return {test["path"]: test["verdict"] for test in document["tests"]}


def test_each_kind_of_changed_test_gets_its_verdict(repo: Repo, cli: Callable[..., CliResult]) -> None:
    base = repo.commit("base", BASE)
    repo.commit("head", HEAD)
    before = assert_nothing_left.snapshot(repo)

    code, document = strength(cli, repo, base)

    assert verdicts(document) == {
        "tests/test_strong.py": "red",
        "tests/test_weak.py": "still-green",
        "tests/test_new_module.py": "unjudged",
        "tests/test_new_symbol.py": "unjudged",
        "tests/test_broken.py": "not-run",
        "tests/test_empty.py": "not-run",
    }
    assert code == 1  # a still-green test
    reasons = {test["path"]: test["reason"] for test in document["tests"]}
    assert "`discount`, a name the change adds" in reasons["tests/test_new_symbol.py"]
    assert "does not load without the change" in reasons["tests/test_new_module.py"]
    assert "fails at the head" in reasons["tests/test_broken.py"]
    assert "zero tests" in reasons["tests/test_empty.py"] or "no test count" in reasons["tests/test_empty.py"]
    strong = next(test for test in document["tests"] if test["path"] == "tests/test_strong.py")
    assert strong["head"]["counts"] == {"passed": 1, "failed": 0, "skipped": 0}
    assert strong["base"]["counts"]["failed"] == 1 and strong["base"]["exit_code"] == 1
    assert strong["rerun"]["counts"]["passed"] == 1
    assert strong["base"]["command"] == "python -m pytest -rA tests/test_strong.py"
    assert any("assert 12.0 == 12.0" in line or "12.0" in line for line in strong["base"]["tail"])
    assert document["summary"]["limit"] is not None  # unjudged ones: the limit is said
    assert_nothing_left(repo, before)


def test_a_change_of_tests_only_has_no_production_change_to_revert(repo: Repo, cli: Callable[..., CliResult]) -> None:
    base = repo.commit("base", BASE)
    repo.commit("head", {"tests/test_weak.py": HEAD_TESTS["tests/test_weak.py"]})
    code, document = strength(cli, repo, base)
    assert code == 4
    assert verdicts(document) == {"tests/test_weak.py": "not-run"}
    assert "no production change to revert" in document["tests"][0]["reason"]


def test_a_change_of_production_code_only_says_there_is_nothing_to_judge(
    repo: Repo, cli: Callable[..., CliResult]
) -> None:
    base = repo.commit("base", BASE)
    repo.commit("head", {"src/shop/cart.py": CART_TAXED})
    code, document = strength(cli, repo, base)
    assert code == 4 and document["tests"] == []
    assert document["summary"]["note"] == "the change touches production code and no test: nothing to judge"


def test_all_red_exits_zero_and_the_human_output_lists_each_file(repo: Repo, cli: Callable[..., CliResult]) -> None:
    base = repo.commit("base", BASE)
    repo.commit("head", {"src/shop/cart.py": CART_TAXED, "tests/test_strong.py": HEAD_TESTS["tests/test_strong.py"]})
    result = cli("strength", "--repo", repo.path, "--base", base)
    assert result.code == 0, result.err
    assert result.out.splitlines()[0].startswith("red          tests/test_strong.py: fails without the change")
    assert "strength [1/1] red: tests/test_strong.py (red 1, still-green 0, unjudged 0, not-run 0)" in result.err


def test_a_test_that_hangs_without_the_change_is_killed_at_the_timeout(
    repo: Repo, cli: Callable[..., CliResult]
) -> None:
    base = repo.commit("base", BASE)
    hangs = (
        "import time\n\nfrom shop.cart import total\n\n\ndef test_waits():\n"
        "    while total([10]) != 12.0:\n        time.sleep(0.01)\n"
    )
    repo.commit("head", {"src/shop/cart.py": CART_TAXED, "tests/test_hangs.py": hangs})
    before = assert_nothing_left.snapshot(repo)
    # long enough for the head run on a loaded machine; the hang waits, so the timeout costs no CPU
    code, document = strength(cli, repo, base, "--timeout-ms", "8000")
    assert code == 4
    (test,) = document["tests"]
    assert test["verdict"] == "not-run" and test["reason"].startswith("timed out without the change")
    assert test["base"]["timed_out"] is True
    assert_nothing_left(repo, before)


def test_unittest_files_are_judged_through_the_unittest_runner(repo: Repo, cli: Callable[..., CliResult]) -> None:
    files = {key: value for key, value in BASE.items() if key != "tests/test_old.py"}
    files["pyproject.toml"] = "[project]\nname = 'shop'\nversion = '1'\n"
    files[".github/workflows/ci.yml"] = (
        "on: push\njobs:\n  t:\n    runs-on: x\n    steps:\n      - run: python -m unittest\n"
    )
    files["tests/__init__.py"] = ""
    base = repo.commit("base", files)
    test = (
        "import unittest\n\nfrom shop.cart import total\n\n\nclass Taxed(unittest.TestCase):\n"
        "    def test_taxed(self):\n        self.assertEqual(total([10]), 12.0)\n"
    )
    repo.commit("head", {"src/shop/cart.py": CART_TAXED, "tests/test_taxed.py": test})
    code, document = strength(cli, repo, base, "--test-command", "PYTHONPATH=src python -m unittest -v {file}")
    assert verdicts(document) == {"tests/test_taxed.py": "red"}, document
    assert code == 0


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_jobs_give_the_same_verdicts(repo: Repo, cli: Callable[..., CliResult], jobs: str) -> None:
    base = repo.commit("base", BASE)
    repo.commit("head", {key: value for key, value in HEAD.items() if "new_" not in key and "empty" not in key})
    _, document = strength(cli, repo, base, "--jobs", jobs)
    assert verdicts(document) == {
        "tests/test_strong.py": "red",
        "tests/test_weak.py": "still-green",
        "tests/test_broken.py": "not-run",
    }


def test_the_worktree_source_is_what_the_tests_import_and_the_evidence_says_so(
    repo: Repo, cli: Callable[..., CliResult], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The caller's own src on PYTHONPATH (an editable install's effect) is not what runs."""
    monkeypatch.setenv("PYTHONPATH", str(repo.path / "src"))
    base = repo.commit("base", BASE)
    repo.commit("head", {"src/shop/cart.py": CART_TAXED, "tests/test_strong.py": HEAD_TESTS["tests/test_strong.py"]})
    _, document = strength(cli, repo, base)
    (test,) = document["tests"]
    assert test["verdict"] == "red"
    assert test["loaded_from"]["shop.cart"] == "src/shop/cart.py"


def test_a_module_that_loads_from_the_callers_checkout_is_not_run(
    repo: Repo, cli: Callable[..., CliResult], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A legacy editable install: a .pth file in site-packages naming the caller's `lib/` folder."""
    files = {path.replace("src/", "lib/"): text for path, text in BASE.items()}
    base = repo.commit("base", files)
    repo.commit("head", {"lib/shop/cart.py": CART_TAXED, "tests/test_strong.py": HEAD_TESTS["tests/test_strong.py"]})
    user_base = tmp_path / "user"
    monkeypatch.setenv("PYTHONUSERBASE", str(user_base))
    monkeypatch.delenv("PYTHONNOUSERSITE", raising=False)
    site = subprocess.run(
        ["python", "-c", "import site; print(site.getusersitepackages())"], capture_output=True, text=True, check=True
    ).stdout.strip()
    Path(site).mkdir(parents=True)
    (Path(site) / "shop-editable.pth").write_text(str(repo.path / "lib") + "\n")

    code, document = strength(cli, repo, base)
    (test,) = document["tests"]
    assert test["verdict"] == "not-run" and code == 4
    assert test["reason"].startswith("the module `shop.cart` is loaded from")
    assert str(repo.path / "lib") in test["reason"] and "outside the worktree" in test["reason"]


def test_the_uncommitted_working_tree_is_judged_without_touching_index_head_or_refs(
    repo: Repo, cli: Callable[..., CliResult]
) -> None:
    base = repo.commit("base", BASE)
    repo.write({"src/shop/cart.py": CART_TAXED, "tests/test_strong.py": HEAD_TESTS["tests/test_strong.py"]})
    repo.git("add", "src/shop/cart.py")  # one change staged, the new test untracked
    repo.git("stash", "list")
    before = assert_nothing_left.snapshot(repo)
    code, document = strength(cli, repo, base, "--head", "worktree")
    assert verdicts(document) == {"tests/test_strong.py": "red"} and code == 0
    assert_nothing_left(repo, before)


def test_shards_split_the_changed_tests_between_them_stably(repo: Repo, cli: Callable[..., CliResult]) -> None:
    base = repo.commit("base", BASE)
    repo.commit("head", {key: value for key, value in HEAD.items() if "new_" not in key})
    halves = [verdicts(strength(cli, repo, base, "--shard", f"{index}/2")[1]) for index in (1, 2)]
    assert not halves[0].keys() & halves[1].keys()
    assert halves[0].keys() | halves[1].keys() == {
        "tests/test_strong.py",
        "tests/test_weak.py",
        "tests/test_broken.py",
        "tests/test_empty.py",
    }
    assert halves == [verdicts(strength(cli, repo, base, "--shard", f"{index}/2")[1]) for index in (1, 2)]


def test_what_an_interrupted_run_left_behind_is_swept_at_the_start(repo: Repo, cli: Callable[..., CliResult]) -> None:
    base = repo.commit("base", BASE)
    repo.commit("head", {"tests/test_weak.py": HEAD_TESTS["tests/test_weak.py"]})
    old, fresh = (Path(tempfile.mkdtemp(prefix=PREFIX)) for _ in range(2))
    repo.git("worktree", "add", "--detach", "--quiet", str(old / "job-1"), base)
    long_ago = time.time() - 3600
    os.utime(old, (long_ago, long_ago))
    try:
        strength(cli, repo, base)
        assert not old.exists() and fresh.exists()
        assert str(old) not in repo.git("worktree", "list")
    finally:
        shutil.rmtree(fresh, ignore_errors=True)


def test_a_sigterm_mid_run_leaves_no_worktree_process_or_temp_dir(repo: Repo, tmp_path: Path) -> None:
    base = repo.commit("base", BASE)
    sleeper = (
        "import time\n\nfrom shop.cart import total\n\n\ndef test_slow():\n    time.sleep(120)\n"
        "    assert total([10]) == 12.0\n"
    )
    repo.commit("head", {"src/shop/cart.py": CART_TAXED, "tests/test_slow.py": sleeper})
    before = assert_nothing_left.snapshot(repo)
    command = [sys.executable, "-m", "evidence_gate", "strength", "--repo", str(repo.path), "--base", base]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=local_environment())
    deadline = time.monotonic() + 300  # the strength run installs the package first: slow on a loaded machine
    while not running_tests(b"test_slow.py") and time.monotonic() < deadline:
        time.sleep(0.1)
    assert running_tests(b"test_slow.py"), "the test never started"
    process.send_signal(signal.SIGTERM)
    _, err = process.communicate(timeout=60)
    assert process.returncode == 130, err
    assert b"Traceback" not in err
    assert_nothing_left(repo, before)


def running_tests(test_file: bytes) -> bool:
    """Whether the run of `test_file` works in a strength worktree of this test process's temp folder
    (a parallel worker's runs have a folder of their own); a short step before it there (git, the
    install, the import check) is not the test."""
    ours = str(Path(tempfile.gettempdir()) / PREFIX)
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if str((entry / "cwd").readlink()).startswith(ours) and test_file in (entry / "cmdline").read_bytes():
                    return True
            except OSError:
                continue
    return False


def test_in_actions_progress_is_folded_and_hostile_names_stay_text(
    repo: Repo, cli: Callable[..., CliResult], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    base = repo.commit("base", BASE)
    hostile = "tests/test_x##[error]forged.py"  # pytest refuses a path with brackets: not-run, and said safely
    repo.commit("head", {"src/shop/cart.py": CART_TAXED, hostile: HEAD_TESTS["tests/test_strong.py"]})
    result = cli("strength", "--repo", repo.path, "--base", base)
    assert result.code == 4, result.err
    lines = result.err.splitlines()
    assert lines[0] == "::group::evidence-gate strength: progress" and lines[-1] == "::endgroup::"
    assert "##[" not in result.out + result.err and "::stop-commands::" not in result.out
    assert "strength [1/1] not-run: tests/test_x## [error]forged.py" in result.err


def test_a_project_in_a_subfolder_runs_from_its_folder_with_its_own_src_first(
    repo: Repo, cli: Callable[..., CliResult]
) -> None:
    files = {f"backend/{path}": text for path, text in BASE.items()}
    base = repo.commit("base", {**files, "README.md": "shop\n"})
    repo.commit(
        "head",
        {"backend/src/shop/cart.py": CART_TAXED, "backend/tests/test_strong.py": HEAD_TESTS["tests/test_strong.py"]},
    )
    code, document = strength(cli, repo, base)
    (test,) = document["tests"]
    assert (test["path"], test["verdict"]) == ("backend/tests/test_strong.py", "red"), test["reason"]
    assert test["base"]["command"] == "python -m pytest -rA tests/test_strong.py"
    assert test["loaded_from"]["shop.cart"] == "backend/src/shop/cart.py"
    assert code == 0


def test_a_test_file_that_is_a_symlink_is_neither_read_nor_run(
    repo: Repo, cli: Callable[..., CliResult], tmp_path: Path
) -> None:
    outside = tmp_path / "outside.py"
    outside.write_text("def test_outside():\n    assert True\n")
    base = repo.commit("base", BASE)
    repo.write({"src/shop/cart.py": CART_TAXED})
    (repo.path / "tests" / "test_link.py").symlink_to(outside)
    repo.commit("head")
    code, document = strength(cli, repo, base)
    (test,) = document["tests"]
    assert (test["verdict"], code) == ("not-run", 4)
    assert test["reason"] == "it is a symbolic link: strength runs no test file that leads elsewhere"
    assert test["head"] is None
