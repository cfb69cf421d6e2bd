"""`evidence-gate demo` end to end: a real example repository, its tests run for real (pytest, and
unittest as on a machine without pytest), the pipeline, the printed comment, and the HTML preview,
read with lxml and as headless Chromium builds it."""

from __future__ import annotations

import importlib.util
import io
import subprocess
from collections.abc import Callable
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import lxml.html
import pytest
from lxml.html import HtmlElement

from evidence_gate import demo, demo_example
from evidence_gate.cli import main
from evidence_gate.render import preview, render_comment
from tests.render.checks import OURS
from tests.render.gfm import to_html
from tests.render.ledgers import hostile_ledger
from tests.tools import require_tool

from .conftest import CliResult, git

# Its tests share a module-scoped run: in a parallel run they go to one worker (`--dist=loadgroup`).
pytestmark = pytest.mark.xdist_group("test_demo")

COUNTS_LINE = "**Tests:** 6 executed (5 passed, 1 failed), 1 skipped."
CRITERIA = ("a discount code lowers the cart's total", "an unknown discount code is refused with a message")
# The page around the rendered Markdown.
PAGE = frozenset({"html", "head", "meta", "title", "style", "body", "article", "header", "div"})
CHROMIUM_FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
)


# The example's type checker and linter are this machine's mypy and ruff, where it has them.
TOOL_VERDICT = "PASS" if importlib.util.find_spec("mypy") and importlib.util.find_spec("ruff") else "MISSING"


def run_demo(cli: Callable[..., CliResult], tmp_path: Path, *args: str | Path) -> tuple[CliResult, Path]:
    preview = tmp_path / "preview.html"
    return cli("demo", "--preview", preview, *args), preview


@pytest.fixture(scope="module")
def pytest_demo(tmp_path_factory: pytest.TempPathFactory) -> tuple[CliResult, Path]:
    """`evidence-gate demo --runner pytest`, run once for the tests that read its comment, its
    messages and its preview (none changes them); its output caught as the `cli` fixture catches it."""
    preview = tmp_path_factory.mktemp("demo") / "preview.html"
    out, stray, err = io.StringIO(), io.StringIO(), io.StringIO()
    with redirect_stdout(stray), redirect_stderr(err):
        code = main(["demo", "--preview", str(preview), "--runner", "pytest"], out=out)
    return CliResult(code=code, out=out.getvalue() + stray.getvalue(), err=err.getvalue()), preview


def text(element: HtmlElement) -> str:
    return " ".join(str(element.text_content()).replace("\u200b", "").split())


def check_first_screen(root: HtmlElement) -> None:
    """Above the first fold: the verdict, the counts in one line, and one line for each thing that
    needs the author, each with what to do; nothing else."""
    body = root.xpath("//details")[0].getparent()
    above = []
    for element in body:
        if element.tag == "details":
            break
        if isinstance(element.tag, str):  # the hidden markers are comments
            above.append(element)
    assert [element.tag for element in above] == ["h3", "p", "ul"]
    assert text(above[1]).startswith("Tests: 6 tests ran: 5 passed, 1 failed, 1 skipped")
    items = [text(item) for item in above[2].xpath("./li")]
    assert [item.split(":")[0].split(".")[0] for item in items] == [
        "❌ The test run fails (check 3)",
        "❌ Acceptance criteria no passing test proves (check 6)",
        "❌ A test that passes without your change (still-green)",
        "⚠️ A test skipped (RH-1)",
        "🟨 Changed lines no test runs (check 4)",
    ]
    assert all("What to do:" in item for item in items)
    assert any("test_a_discount_never_makes_the_total_negative: AssertionError: -380 != 0" in item for item in items)


def check_page(root: HtmlElement) -> None:
    """The comment as a page: the verdict, the Results table, the folded blocks with what they fold."""
    assert "<!-- QG:VERDICT:BLOCKED -->" in [f"<!--{node.text}-->" for node in root.xpath("//comment()")]
    assert text(root.xpath("//h3")[0]).endswith("Evidence Gate: Blocked")
    check_first_screen(root)
    rows = [[text(cell) for cell in row.xpath("./th|./td")] for row in root.xpath("(//table)[1]//tr")]
    assert [(row[1], row[4].split()[-1]) for row in rows] == [
        ("Check", "Verdict"),
        ("Type Checker", TOOL_VERDICT),
        ("Linter", TOOL_VERDICT),
        ("Test Suite", "FAIL"),
        ("Coverage", "PASS"),
        ("Scope", "PASS"),  # the body's Scope: list holds every changed file
        ("Plan Compliance", "FAIL"),
        ("Smoke Test", "INFO"),
        ("Gate integrity", "REVIEW"),  # a skip added: for review, never green
        ("Test strength", "FAIL"),
    ]
    # the checks that do not apply, in one line under the table, each with its reason
    (folded,) = [text(p) for p in root.xpath("//p") if text(p).startswith("\N{HEAVY MINUS SIGN} Not applicable:")]
    assert folded == (
        "\N{HEAVY MINUS SIGN} Not applicable:"
        " 7 Ignore-Comment Audit (the change adds no suppression or coverage exclusion)"
        " · 9 References (the change adds no reference to a truth source (python))"
    )
    details = root.xpath("//details")
    assert text(details[0].xpath("./summary")[0]).startswith("Results (pre-pr): 11 gates: ")
    details = details[1:]
    assert [text(block.xpath("./summary")[0]) for block in details] == [
        "Failing tests (1)",
        "Toolchain",
        "Evidence, check by check",
        "Gate integrity: ⚠️ review",
        "Test strength: ❌ fail",
    ]
    assert "AssertionError: -380 != 0" in text(details[0].xpath(".//pre")[0])
    evidence = details[2]
    assert [text(heading) for heading in evidence.xpath(".//h4")] == [
        f"Check {number}: {title}"
        for number, title in enumerate(
            [
                "Type Checker",
                "Linter",
                "Test Suite",
                "Coverage",
                "Scope",
                "Plan Compliance",
                "Ignore-Comment Audit",
                "Smoke Test",
                "References",
            ],
            start=1,
        )
    ]
    # Beside its JUnit report, the console log's missing exit code is moot: one line, and no dump.
    assert not any("1 failed, 5 passed, 1 skipped" in text(pre) for pre in evidence.xpath(".//pre"))
    assert text(evidence).count("build/pytest.log records no exit code") == 1
    tables = [
        [[text(cell) for cell in row.xpath("./td")] for row in table.xpath(".//tbody/tr")]
        for table in evidence.xpath(".//table")
    ]
    assert [
        ["build/pytest.log", "pytest", "1 of 6 tests failed, 1 skipped"],
        ["build/junit.xml", "junit", "1 of 6 tests failed, 1 skipped"],
    ] in tables
    assert [
        [f"[SHOP-1#1] {CRITERIA[0]}", "✅ green", "1 test passed"],
        [f"[SHOP-1#2] {CRITERIA[1]}", "⚠️ missing", "no test names it"],
    ] in tables
    # Coverage weighs each changed line by its tests' strength: every line that ran, ran under the
    # discount tests, which strength could not judge (one fails at the head), so it is any test's
    # coverage, and said why; one method runs in no test.
    assert "Coverage: 85.71% (85.71% including 0 weakly covered paths), 1 gaps." in text(evidence)
    assert "strength did not judge the tests that run these lines (tests/test_discount.py: not-run" in text(evidence)
    assert "shop/cart.py line 18" in text(evidence)  # `del self.items[name]`: a proposed test
    edits = [[text(cell) for cell in row.xpath("./td")] for row in details[3].xpath(".//tbody/tr")]
    assert edits == [["H1", "RH-1 test-skipped", "tests/test_discount.py @@ -0,0 +1,28 @@"]]  # a skipped test added
    strength = [[text(cell) for cell in row.xpath("./td")][:2] for row in details[4].xpath(".//tbody/tr")]
    assert strength == [["tests/test_cart.py", "❌ still-green"], ["tests/test_discount.py", "⚠️ not-run"]]
    assert not root.xpath("//script|//link|//img|//iframe")


def test_the_demo_prints_the_comment_and_writes_its_preview(pytest_demo: tuple[CliResult, Path]) -> None:
    result, preview = pytest_demo
    assert result.code == 0, result.err
    comment = result.out
    first, history, title = comment.splitlines()[:3]
    assert (first, title) == ("<!-- evidence-gate:comment:evidence-gate -->", "### ❌ Evidence Gate: Blocked")
    assert history.startswith("<!-- evidence-gate:history:evidence-gate:3:")  # the failed checks, for the next run
    assert "\n<!-- QG:VERDICT:BLOCKED -->\n" in comment
    assert "<!-- QG:CHECK:3:FAIL -->" in comment
    assert "<!-- QG:CHECK:6:FAIL -->" in comment
    assert COUNTS_LINE in comment
    assert "- Check 6 (Plan Compliance): FAIL: 1 of 2 acceptance criteria proven by passing tests" in comment
    for criterion in CRITERIA:
        assert criterion in comment
    assert result.err.splitlines()[-1].startswith("evidence-gate demo: verdict BLOCKED")
    assert "The demo exits 0 whatever the verdict" in result.err

    page = preview.read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>\n")
    root = lxml.html.document_fromstring(page)
    assert root.xpath("//title")[0].text == "Evidence Gate demo: BLOCKED"
    check_page(root)
    # Offline and inert: no request to anywhere, and no script may run.
    assert not root.xpath("//*[@src or @href]")
    policy = root.xpath("//meta[@http-equiv='Content-Security-Policy']/@content")
    assert policy == ["default-src 'none'; style-src 'unsafe-inline'"]


def test_without_pytest_unittest_runs_the_example(
    cli: Callable[..., CliResult], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What a fresh `pip install .` sees: no pytest, so unittest runs the same tests; with no JUnit
    report no test is named, and the criteria gate says so."""
    monkeypatch.setattr(demo, "pytest_available", lambda: False)
    example = tmp_path / "example"
    result, preview = run_demo(cli, tmp_path, "--keep", example, "--json")
    assert result.code == 0, result.err
    assert result.err.splitlines()[0].startswith("evidence-gate demo: pytest is not installed, so unittest ran")
    assert '"verdict": "BLOCKED"' in result.out
    assert "2 acceptance criteria, but no report names test cases (a JUnit XML report does)" in result.out
    assert COUNTS_LINE.replace("**", "") in " ".join(lxml.html.fromstring(preview.read_bytes()).text_content().split())

    assert git(example, "log", "--format=%s").splitlines() == ["Add discount codes", "Add the cart"]
    assert git(example, "status", "--porcelain") == ""  # build/ is ignored, nothing else was left behind
    assert sorted(path.name for path in (example / "build").iterdir()) == [".coverage", "coverage.json", "unittest.log"]
    log = (example / "build" / "unittest.log").read_text(encoding="utf-8")
    assert "test_a_discount_code_lowers_the_total[SHOP-1#1]" in log
    assert log.rstrip().endswith("FAILED (failures=1, skipped=1)")


def test_asking_for_pytest_without_it_is_one_line_and_exit_2(
    cli: Callable[..., CliResult], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(demo, "pytest_available", lambda: False)
    result, preview = run_demo(cli, tmp_path, "--runner", "pytest")
    assert result.code == 2
    assert result.err.startswith("evidence-gate: error: --runner pytest: pytest is not installed")
    assert result.err.count("\n") == 1
    assert not preview.exists()


def test_tests_that_did_not_run_stop_the_demo(
    cli: Callable[..., CliResult], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A runner that did not run the tests (pytest's exit 2: a collection error) is not a demo."""
    monkeypatch.setitem(demo_example.HEAD_FILES, "tests/test_broken.py", "def (:\n")
    result, preview = run_demo(cli, tmp_path, "--runner", "pytest")
    assert result.code == 2
    assert result.err.startswith("evidence-gate: error: pytest exited 2 on the example's tests, not 0 or 1: see ")
    assert not preview.exists()


def test_keep_refuses_a_directory_that_holds_files(cli: Callable[..., CliResult], tmp_path: Path) -> None:
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "notes.txt").write_text("my own file", encoding="utf-8")
    result, _ = run_demo(cli, tmp_path, "--keep", tmp_path / "mine")
    assert result.code == 2
    assert "give a new or empty directory" in result.err
    assert [path.name for path in (tmp_path / "mine").iterdir()] == ["notes.txt"]


def test_the_preview_holds_no_html_but_the_templates_own() -> None:
    """Raw HTML is on in the preview's Markdown renderer for the templates' <details>; every hostile
    string the renderer escapes stays text there too."""
    root = lxml.html.document_fromstring(preview.preview_html(render_comment(hostile_ledger()), "<b>title</b>"))
    tags = {str(element.tag) for element in root.xpath("//*")}
    assert tags <= OURS | PAGE, tags - OURS - PAGE
    markers = [node.text for node in root.xpath("//comment()")]
    ours = (" QG:", " evidence-gate:comment:", " evidence-gate:history:")
    assert all(marker.startswith(ours) for marker in markers), markers
    assert root.xpath("//title")[0].text == "<b>title</b>"


def chromium() -> str:
    return require_tool("chromium", hint="headless Chromium: Debian's `chromium` package, which .ci/run installs")


def test_chromium_renders_the_preview(pytest_demo: tuple[CliResult, Path], tmp_path: Path) -> None:
    browser = chromium()
    result, preview = pytest_demo
    assert result.code == 0, result.err
    profile = tmp_path / "chromium-profile"
    profile.mkdir()
    dumped = subprocess.run(
        [browser, *CHROMIUM_FLAGS, f"--user-data-dir={profile}", "--dump-dom", preview.as_uri()],
        capture_output=True,
        timeout=120,
        check=False,
    )
    assert dumped.returncode == 0, dumped.stderr.decode("utf-8", "replace")[-2000:]
    check_page(lxml.html.document_fromstring(dumped.stdout.decode("utf-8")))


def test_chromium_shows_the_demos_first_screen_as_githubs_renderer_makes_it(
    pytest_demo: tuple[CliResult, Path], tmp_path: Path
) -> None:
    """The demo's comment through cmark-gfm (GitHub's renderer) into the preview's page, in headless
    Chromium at 1280x800: the same first screen as the preview's own renderer gives."""
    browser = chromium()
    result, _ = pytest_demo
    assert result.code == 0, result.err
    (html,) = to_html(result.out)
    page = tmp_path / "gfm.html"
    page.write_text(preview.page_html(html, "Evidence Gate demo"), encoding="utf-8")
    profile = tmp_path / "chromium-profile"
    profile.mkdir()
    dumped = subprocess.run(
        [browser, *CHROMIUM_FLAGS, f"--user-data-dir={profile}", "--window-size=1280,800", "--dump-dom", page.as_uri()],
        capture_output=True,
        timeout=120,
        check=False,
    )
    assert dumped.returncode == 0, dumped.stderr.decode("utf-8", "replace")[-2000:]
    check_first_screen(lxml.html.document_fromstring(dumped.stdout.decode("utf-8")))
