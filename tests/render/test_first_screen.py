"""The comment's first screen, everything above its first fold, as GitHub renders it (cmark-gfm) and
as a person sees it (headless Chromium at 1280x800): the verdict, the counts in one line, and one
line for each thing that needs the author, with what to do and links to the head commit's lines;
nothing else. The demo's is checked in tests/test_demo.py."""

from __future__ import annotations

import re
import struct
import subprocess
from dataclasses import replace
from pathlib import Path

import lxml.html
import pytest
from lxml.html import HtmlElement

from evidence_gate.ledger.model import GateVerdict
from evidence_gate.render import links_for, render_comment
from evidence_gate.render.preview import page_html
from tests.render.checks import check_structure, quality_markers, seen
from tests.render.first_screen import CASES, HEAD, comment
from tests.render.gfm import to_html
from tests.render.ledgers import gate, hostile_ledger
from tests.test_demo import CHROMIUM_FLAGS, chromium

BLOB = f"https://github.com/octo-org/shop/blob/{HEAD}/"
FIRST_SCREEN_LINES = 12  # the most a passing change's first screen may take


def first_screen(root: HtmlElement) -> list[HtmlElement]:
    """The elements before the first <details>, the hidden markers left out."""
    body = root.xpath("//details")[0].getparent()
    above = []
    for element in body:
        if element.tag == "details":
            break
        if isinstance(element.tag, str):
            above.append(element)
    return above


def lines_of(elements: list[HtmlElement]) -> int:
    """Rendered lines, counting each paragraph, heading and list item as one."""
    return sum(len(element.xpath(".//li")) if element.tag == "ul" else 1 for element in elements)


def links_in(element: HtmlElement) -> list[tuple[str, str]]:
    return [(seen(link), str(link.get("href"))) for link in element.iter("a")]


def rendered(name: str) -> HtmlElement:
    ledger = CASES[name]()
    markdown = comment(name)
    return check_structure(markdown, quality_markers(ledger, "comment"))


def test_a_passing_fix_says_so_in_three_lines() -> None:
    above = first_screen(rendered("passing-fix"))
    assert [element.tag for element in above] == ["h3", "p", "p"]
    assert [seen(element) for element in above] == [
        "✅ Evidence Gate: Passed",
        "Tests: 121 tests ran: 121 passed, 0 failed (+1 against the base)",
        "Nothing needs your attention.",
    ]
    assert lines_of(above) <= FIRST_SCREEN_LINES


def test_a_relaxing_change_is_for_review_never_green_with_a_line_and_a_link_for_each_relaxation() -> None:
    root = rendered("relaxing-change")
    above = first_screen(root)
    assert [element.tag for element in above] == ["h3", "p", "ul"]
    assert seen(above[0]) == "✅ Evidence Gate: Passed"  # a review never blocks: the check run stays green
    items = above[2].findall("li")
    assert [seen(item).split(". What to do")[0] for item in items] == [
        "⚠️ A test skipped (RH-1)",
        "⚠️ An assertion removed (RH-4)",
        "⚠️ A threshold lowered (RH-8)",
        "🟨 Changed lines no test runs (check 4)",
    ]
    assert [links_in(item) for item in items] == [
        [("tests/test_cart.py line 14", BLOB + "tests/test_cart.py#L14")],
        [("tests/test_cart.py line 31", BLOB + "tests/test_cart.py#L31")],
        [("pyproject.toml line 40", BLOB + "pyproject.toml#L40")],
        [("shop/cart.py lines 22-24", BLOB + "shop/cart.py#L22-L24")],
    ]
    integrity = [row for row in root.iter("tr") if "Gate integrity" in seen(row)]
    assert [seen(row.findall("td")[-1]) for row in integrity] == ["⚠️ REVIEW"]
    assert "✅ pass" not in seen(root).split("Gate integrity")[-1][:40]


def test_two_hundred_failures_show_five_linked_and_count_the_rest() -> None:
    root = rendered("failing-run")
    above = first_screen(root)
    assert [element.tag for element in above] == ["h3", "p", "ul"]
    assert seen(above[1]) == "Tests: 240 tests ran: 40 passed, 200 failed"
    (item,) = above[2].findall("li")
    assert seen(item).startswith(
        "❌ The test run fails (check 3): 200 of 240 tests failed. What to do: fix the failing tests"
    )
    places = item.findall("ul/li")
    assert len(places) == 6
    assert links_in(places[0]) == [("tests/test_orders.py::test_order_000", BLOB + "tests/test_orders.py#L10")]
    assert seen(places[0]).endswith(": AssertionError: expected status 200, got 500 (order 0)")
    assert seen(places[5]) == "… 195 more in the full report"


def test_without_links_places_are_named_and_a_hostile_path_links_nowhere_else() -> None:
    ledger = CASES["failing-run"]()
    plain = render_comment(ledger)
    root = check_structure(plain, quality_markers(ledger, "comment"))
    assert not list(first_screen(root)[2].iter("a"))
    hostile = hostile_ledger()
    hostile = replace(hostile, gates=(gate("evidence", GateVerdict.FAIL, headline="tests failed"), *hostile.gates))
    markdown = render_comment(hostile, links=links_for("https://ghe.example.com/", "octo-org/shop", "a" * 40))
    root = check_structure(markdown, quality_markers(hostile, "comment"))  # only our links to the head commit
    hrefs = [str(link.get("href")) for link in root.iter("a")]
    assert len(hrefs) == 5  # the first five hostile paths, each encoded into a link of its own
    assert all(href.startswith("https://ghe.example.com/octo-org/shop/blob/" + "a" * 40 + "/") for href in hrefs)


@pytest.mark.parametrize(
    ("server", "repository", "head"),
    [
        (None, "octo-org/shop", HEAD),
        ("javascript:alert(1)", "octo-org/shop", HEAD),
        ("https://github.com", "octo-org/../shop", HEAD),
        ("https://github.com", "octo-org/shop) [x](y", HEAD),
        ("https://github.com", "octo-org/shop", "main"),
    ],
)
def test_links_need_every_part_of_its_shape(server: str | None, repository: str, head: str) -> None:
    assert links_for(server, repository, head) is None


def _png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


@pytest.mark.parametrize("name", sorted(CASES))
def test_chromium_shows_the_first_screen_at_1280_by_800(name: str, tmp_path: Path) -> None:
    """cmark-gfm's HTML in the preview's page, opened in headless Chromium: the page it built holds
    the same first screen, and a screenshot of the window is taken (scripts/screenshots.py writes
    docs/images/ the same way)."""
    browser = chromium()
    (html,) = to_html(comment(name))
    page = tmp_path / f"{name}.html"
    page.write_text(page_html(html, f"Evidence Gate: {name}"), encoding="utf-8")
    profile = tmp_path / "profile"
    profile.mkdir()
    base = [browser, *CHROMIUM_FLAGS, f"--user-data-dir={profile}", "--window-size=1280,800"]
    dumped = subprocess.run([*base, "--dump-dom", page.as_uri()], capture_output=True, timeout=120, check=False)
    assert dumped.returncode == 0, dumped.stderr.decode("utf-8", "replace")[-2000:]
    seen_page = lxml.html.document_fromstring(dumped.stdout.decode("utf-8"))
    above = first_screen(seen_page)
    assert [element.tag for element in above][:2] == ["h3", "p"]
    assert [seen(element) for element in above] == [seen(element) for element in first_screen(rendered(name))]
    shot = tmp_path / f"{name}.png"
    taken = subprocess.run(
        [*base, f"--screenshot={shot}", page.as_uri()], capture_output=True, timeout=120, check=False
    )
    assert taken.returncode == 0, taken.stderr.decode("utf-8", "replace")[-2000:]
    assert _png_size(shot) == (1280, 800)


def test_the_readme_shows_two_screenshots_of_the_first_screen_and_each_case_has_one() -> None:
    root = Path(__file__).resolve().parent.parent.parent
    shown = re.findall(r"!\[[^\]]+\]\((docs/images/[^)]+\.png)\)", (root / "README.md").read_text(encoding="utf-8"))
    assert len(shown) == 2
    for name in [*CASES, "demo"]:
        assert _png_size(root / "docs" / "images" / f"first-screen-{name}.png") == (1280, 800)
    assert all((root / path).is_file() for path in shown)
