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

import html
import importlib.util
import os
import shlex
import subprocess
import sys
from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import StrEnum
from pathlib import Path

from markdown_it import MarkdownIt

from evidence_gate.child_env import scrubbed_environment
from evidence_gate.effects import effects_for
from evidence_gate.errors import EvidenceGateError, UsageError
from evidence_gate.facts import RunInputs
from evidence_gate.ledger.model import Ledger
from evidence_gate.model import PullRequest
from evidence_gate.pipeline import run_pipeline
from evidence_gate.settings import Settings
from evidence_gate.stacks.table import AdapterTable
from evidence_gate.workspace import Workspace

STORY = "SHOP-1"
REPORTS = ("build/*.log", "build/*.xml", "build/*.json")
TEST_TIMEOUT_SECONDS = 120
# Fixed, so the example's commits (and the SHAs the comment shows) are the same on every machine.
# Git's reflog takes the committer date too, so the run's start is this moment: reports written
# now are fresh whatever the machine's clock says, as long as it is past 2024.
_BASE_DATE = "2024-01-01T10:00:00+00:00"
_HEAD_DATE = "2024-01-02T10:00:00+00:00"

PR_BODY = """\
Adds discount codes to the cart.

Scope:
- shop/
- tests/

## Acceptance criteria
- [x] a discount code lowers the cart's total
- [ ] an unknown discount code is refused with a message
"""

_BASE_FILES: dict[str, str] = {
    "pyproject.toml": """\
[project]
name = "shop"
version = "0.1.0"
requires-python = ">=3.11"

[tool.pytest.ini_options]
testpaths = ["tests"]
""",
    ".gitignore": "build/\n__pycache__/\n",
    # coverage.py records which test ran each line (a dynamic context per test function).
    ".coveragerc": "[run]\nsource = shop\ndynamic_context = test_function\ndata_file = build/.coverage\n",
    "shop/__init__.py": '"""A tiny shop: the example repository of `evidence-gate demo`."""\n',
    "shop/cart.py": '''\
"""A shopping cart: items and their prices, in cents."""


class Cart:
    def __init__(self) -> None:
        self.items: dict[str, int] = {}

    def add(self, name: str, price: int) -> None:
        self.items[name] = price

    def total(self) -> int:
        return sum(self.items.values())
''',
    "tests/__init__.py": "",
    "tests/test_cart.py": """\
import unittest

from shop.cart import Cart


class CartTest(unittest.TestCase):
    def test_add_puts_the_item_in_the_cart(self) -> None:
        cart = Cart()
        cart.add("apple", 120)
        self.assertEqual(cart.items, {"apple": 120})

    def test_the_total_is_the_sum_of_the_items(self) -> None:
        cart = Cart()
        cart.add("apple", 120)
        cart.add("bread", 250)
        self.assertEqual(cart.total(), 370)

    def test_an_empty_cart_totals_zero(self) -> None:
        self.assertEqual(Cart().total(), 0)
""",
}

_HEAD_FILES: dict[str, str] = {
    "shop/cart.py": '''\
"""A shopping cart: items and their prices, in cents, and discount codes."""

DISCOUNTS = {"SAVE5": 500}  # code -> cents off


class Cart:
    def __init__(self) -> None:
        self.items: dict[str, int] = {}
        self.discount = 0

    def add(self, name: str, price: int) -> None:
        self.items[name] = price

    def apply_discount(self, code: str) -> None:
        self.discount = DISCOUNTS[code]

    def remove(self, name: str) -> None:
        del self.items[name]

    def total(self) -> int:
        return sum(self.items.values()) - self.discount
''',
    # One more cart test, which passes with or without the discount code: the strength gate finds it still-green.
    "tests/test_cart.py": _BASE_FILES["tests/test_cart.py"]
    + """
    def test_one_item_totals_its_price(self) -> None:
        cart = Cart()
        cart.add("apple", 120)
        self.assertEqual(cart.total(), 120)
""",
    "tests/test_discount.py": '''\
"""Discount codes. A test proves acceptance criterion n of story SHOP-1 when its name carries the
tag [SHOP-1#n]. A `def` cannot hold brackets, so the tagged test gets its name with setattr below:
unittest and pytest both name a test by the attribute it is stored under."""

import unittest

from shop.cart import Cart


class DiscountTest(unittest.TestCase):
    def lowers_the_total(self) -> None:
        cart = Cart()
        cart.add("apple", 1200)
        cart.apply_discount("SAVE5")
        self.assertEqual(cart.total(), 700)

    def test_a_discount_never_makes_the_total_negative(self) -> None:
        cart = Cart()
        cart.add("apple", 120)
        cart.apply_discount("SAVE5")
        self.assertEqual(cart.total(), 0)

    @unittest.skip("needs the payment provider's sandbox, which this machine cannot reach")
    def test_checkout_charges_the_discounted_total(self) -> None:
        raise AssertionError("not reached")


setattr(DiscountTest, "test_a_discount_code_lowers_the_total[SHOP-1#1]", DiscountTest.lowers_the_total)
''',
}


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
    """The example repository: the base commit, then the pull request's head commit on top."""
    repo.mkdir(parents=True, exist_ok=True)
    _git(environ, repo, _BASE_DATE, "init", "--quiet", "--initial-branch=main")
    base = _commit(environ, repo, _BASE_DATE, "Add the cart", _BASE_FILES)
    head = _commit(environ, repo, _HEAD_DATE, "Add discount codes", _HEAD_FILES)
    return PullRequest(number=1, base_sha=base, head_sha=head, body=PR_BODY)


def _commit(environ: Mapping[str, str], repo: Path, date: str, message: str, files: dict[str, str]) -> str:
    for relative, content in files.items():
        path = repo / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(content, encoding="utf-8")
    _git(environ, repo, date, "add", "--all")
    _git(environ, repo, date, "commit", "--quiet", "--no-verify", "-m", message)
    return _git(environ, repo, date, "rev-parse", "HEAD")


def _git(environ: Mapping[str, str], repo: Path, date: str, *args: str) -> str:
    """Git with no user or system configuration (no signing, hooks or identity needed) and a fixed
    identity and date."""
    env = {
        **scrubbed_environment(environ),
        "GIT_CONFIG_GLOBAL": os.devnull,
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_AUTHOR_NAME": "Evidence Gate demo",
        "GIT_AUTHOR_EMAIL": "demo@example.invalid",
        "GIT_COMMITTER_NAME": "Evidence Gate demo",
        "GIT_COMMITTER_EMAIL": "demo@example.invalid",
        "GIT_AUTHOR_DATE": date,
        "GIT_COMMITTER_DATE": date,
    }
    for name in ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE"):
        env.pop(name, None)
    try:
        result = subprocess.run(["git", *args], cwd=repo, env=env, capture_output=True, check=False)
    except OSError as error:
        raise DemoError(f"cannot run git ({error.strerror or error}); the demo builds its example with git") from error
    if result.returncode != 0:
        message = " ".join(result.stderr.decode("utf-8", "replace").split()) or f"exit {result.returncode}"
        raise DemoError(f"git {args[0]} failed in the example repository {repo}: {message}")
    return result.stdout.decode("utf-8", "replace").strip()


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
    env = scrubbed_environment(environ)
    for name in ("PYTEST_ADDOPTS", "PYTHONSAFEPATH"):  # a user's options, or no cwd on sys.path, would change the run
        env.pop(name, None)
    env.update(PYTEST_DISABLE_PLUGIN_AUTOLOAD="1", PYTHONDONTWRITEBYTECODE="1")
    try:
        with log.open("wb") as sink:
            completed = subprocess.run(
                command,
                cwd=repo,
                stdin=subprocess.DEVNULL,
                stdout=sink,
                stderr=subprocess.STDOUT,
                env=env,
                timeout=TEST_TIMEOUT_SECONDS,
                check=False,
            )
    except subprocess.TimeoutExpired as error:
        raise DemoError(f"the example's tests ran over {TEST_TIMEOUT_SECONDS} s; see {log}") from error
    except OSError as error:
        raise DemoError(f"cannot run {sys.executable} ({error.strerror or error})") from error
    if completed.returncode not in (0, 1):
        raise DemoError(f"{runner} exited {completed.returncode} on the example's tests, not 0 or 1: see {log}")
    report = [sys.executable, "-m", "coverage", "json", "--show-contexts", "-q", "-o", str(build / "coverage.json")]
    written = subprocess.run(report, cwd=repo, env=env, capture_output=True, timeout=TEST_TIMEOUT_SECONDS, check=False)
    if written.returncode != 0:
        reason = " ".join(written.stderr.decode("utf-8", "replace").split())
        raise DemoError(f"coverage.py could not write the example's coverage report: {reason}")


# --- the preview ----------------------------------------------------------------------------------

# GitHub's markdown body, in small: system fonts only, nothing loaded from anywhere.
_STYLE = """\
:root { color-scheme: light dark; --fg: #1f2328; --muted: #59636e; --bg: #ffffff; --subtle: #f6f8fa;
  --border: #d1d9e0; --code: rgba(129, 139, 152, 0.12); }
@media (prefers-color-scheme: dark) {
  :root { --fg: #f0f6fc; --muted: #9198a1; --bg: #0d1117; --subtle: #151b23; --border: #3d444d;
    --code: rgba(101, 108, 118, 0.2); }
}
body { margin: 0; padding: 32px 16px; background: var(--bg); color: var(--fg);
  font: 14px/1.5 -apple-system, BlinkMacSystemFont, "Segoe UI", "Noto Sans", Helvetica, Arial, sans-serif,
  "Apple Color Emoji", "Segoe UI Emoji"; }
.comment { max-width: 880px; margin: 0 auto; border: 1px solid var(--border); border-radius: 6px; }
.comment > header { padding: 8px 16px; background: var(--subtle); border-bottom: 1px solid var(--border);
  border-radius: 6px 6px 0 0; color: var(--muted); }
.markdown-body { padding: 16px; overflow-wrap: break-word; }
.markdown-body > :first-child { margin-top: 0; }
.markdown-body > :last-child { margin-bottom: 0; }
h1, h2, h3 { margin: 24px 0 16px; font-weight: 600; line-height: 1.25; }
h3 { font-size: 1.25em; }
p, ul, ol, table, pre, details { margin: 0 0 16px; }
ul, ol { padding-left: 2em; }
li + li { margin-top: 0.25em; }
table { display: block; width: max-content; max-width: 100%; overflow: auto; border-collapse: collapse;
  border-spacing: 0; }
th, td { padding: 6px 13px; border: 1px solid var(--border); }
th { font-weight: 600; }
tr { background: var(--bg); border-top: 1px solid var(--border); }
tr:nth-child(2n) { background: var(--subtle); }
code, pre { font-family: ui-monospace, SFMono-Regular, "SF Mono", Menlo, Consolas, "Liberation Mono", monospace;
  font-size: 85%; }
code { padding: 0.2em 0.4em; border-radius: 6px; background: var(--code); }
pre { padding: 16px; overflow: auto; line-height: 1.45; border-radius: 6px; background: var(--subtle); }
pre code { padding: 0; font-size: 100%; background: transparent; white-space: pre; }
summary { cursor: pointer; }
details[open] > summary { margin-bottom: 16px; }
"""


def preview_html(markdown: str, title: str) -> str:
    """`markdown` as a page styled like a GitHub comment, self-contained and safe to open.

    Raw HTML is on because the templates write `<details>` blocks and marker comments, as GitHub
    keeps them; untrusted text in the Markdown is already escaped by evidence_gate.render (entities in text and
    summaries, fenced code for logs), so the only HTML in it is the templates' own. The page's
    Content-Security-Policy allows its inline style and nothing else, no script, no request: if
    anything slipped through, it could neither run nor reach the network."""
    renderer = MarkdownIt("commonmark", {"html": True}).enable(["table", "strikethrough"])
    return page_html(renderer.render(markdown), title)


def page_html(body: str, title: str) -> str:
    """Markdown already rendered to HTML (`body`) as the preview's page: GitHub's comment style, no
    script and no request allowed."""
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">\n"
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{html.escape(title)}</title>\n<style>\n{_STYLE}</style>\n</head>\n<body>\n"
        '<article class="comment">\n'
        "<header>Preview of the pull-request comment, rendered as CommonMark with GitHub's tables</header>\n"
        f'<div class="markdown-body">\n{body}</div>\n</article>\n</body>\n</html>\n'
    )
