"""The escaping filters, each in every place the templates use it, through GitHub's renderer: a
reader sees the untrusted text itself, and it makes nothing: no element, no link, no marker."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from evidence_gate.render import ZERO_WIDTH_SPACE, code_block, escape_html, escape_markdown
from tests.render.checks import LINKABLE, find, folded, seen
from tests.render.gfm import NODE_MODULES_ENV, comments, elements, parse, to_html, visible_text
from tests.render.ledgers import HOSTILE

# Where the templates put `md` output: the Markdown around it, the elements that must come out
# (in document order), and the text the holder (the last one) reads before the untrusted text.
INLINE_PLACES = (
    ("{}\n", ["p"], ""),
    ("| Gate |\n| --- |\n| {} |\n", ["table", "thead", "tr", "th", "tbody", "tr", "td"], ""),
    ("- {}\n", ["ul", "li"], ""),
    ("### {}\n", ["h3"], ""),
    ("Before.\n{}\n", ["p"], "Before.\n"),
    ("**name** at {}\n", ["p", "strong"], "name at "),
)


def _rendered(documents: list[str]) -> list[tuple[str, str]]:
    return list(zip(documents, to_html(*documents), strict=True))


@pytest.mark.parametrize(
    ("place", "tags", "before"), INLINE_PLACES, ids=["paragraph", "cell", "item", "heading", "line", "after"]
)
def test_inline_text_reads_as_itself_and_makes_nothing(place: str, tags: list[str], before: str) -> None:
    documents = [place.format(escape_markdown(text)) for text in HOSTILE]
    for text, (document, html) in zip(HOSTILE, _rendered(documents), strict=True):
        root = parse(html)
        found = elements(root)
        assert [element.tag for element in found] == tags, document
        holder = found[-1] if found[-1].tag != "strong" else found[0]
        assert seen(holder) == before + folded(text), document
        assert not comments(root)
        assert not LINKABLE.search(visible_text(root)), document


def test_html_text_stays_inside_its_tag() -> None:
    documents = [f"<details><summary>{escape_html(text)}</summary>\n\nbody\n\n</details>\n" for text in HOSTILE]
    for text, (document, html) in zip(HOSTILE, _rendered(documents), strict=True):
        root = parse(html)
        assert [element.tag for element in elements(root)] == ["details", "summary", "p"], document
        assert seen(find(root, "details/summary")) == folded(text)
        assert not comments(root)
        assert not LINKABLE.search(visible_text(root)), document


def _code_text(text: str) -> str:
    lines = text.replace("\r\n", "\n").replace("\r", "\n")
    return re.sub(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]", "", lines).rstrip("\n") + "\n"


@pytest.mark.parametrize("inside_details", [False, True])
def test_code_cannot_be_closed_and_forges_no_marker(inside_details: bool) -> None:
    texts = [*HOSTILE, "\n".join(HOSTILE), "`" * 40, "```` \n`````\n```", ""]
    blocks = [code_block(text) for text in texts]
    if inside_details:
        documents = [f"<details><summary>s</summary>\n\n{block}\n\n</details>\n\nafter\n" for block in blocks]
        tags = ["details", "summary", "pre", "code", "p"]
    else:
        documents = [f"{block}\n\nafter\n" for block in blocks]
        tags = ["pre", "code", "p"]
    for text, block, (document, html) in zip(texts, blocks, _rendered(documents), strict=True):
        root = parse(html)
        assert [element.tag for element in elements(root)] == tags, document
        assert str(find(root, ".//code").text_content()).replace(ZERO_WIDTH_SPACE, "") == _code_text(text)
        assert seen(root.findall(".//p")[-1]) == "after"
        assert "<!--" not in block and "-->" not in block


def test_a_fence_is_longer_than_any_backtick_run() -> None:
    assert code_block("a ``` b").startswith("````\n")
    assert code_block("`" * 10).startswith("`" * 11 + "\n")
    assert code_block("plain").startswith("```\n")


def test_mentions_and_references_are_broken_after_their_first_character() -> None:
    assert escape_markdown("@octocat") == "@&#8203;octocat"
    assert escape_markdown("@org/team") == "@&#8203;org/team"
    assert escape_markdown("owner/repo#123") == "owner/repo#&#8203;123"
    assert escape_markdown("see GH-123") == "see GH-&#8203;123"
    assert escape_markdown("#1") == "\\#&#8203;1"
    assert escape_html("@octocat #1") == "@&#8203;octocat #&#8203;1"


def test_markdown_syntax_is_escaped_and_html_made_entities() -> None:
    assert escape_markdown("a|b") == "a\\|b"
    assert escape_markdown("*x* _y_ `z` [l](u) ~s~ $m$") == "\\*x\\* \\_y\\_ `z` \\[l\\](u) \\~s\\~ \\$m\\$"
    assert escape_markdown("<b>&") == "&lt;b&gt;&amp;"
    assert escape_markdown("1. x") == "1\\. x"
    assert escape_markdown("- x\n\n# y") == "\\- x #&#8203; y"
    assert escape_html('<b> & "q"') == '&lt;b&gt; &amp; "q"'


def test_a_code_span_stays_one_and_holds_no_marker_link_or_cell_break() -> None:
    """`mypy` reads as code, not as literal backticks; what a span holds cannot close a table cell
    or open a comment, and a lone or doubled backtick is escaped as before."""
    assert escape_markdown("`mypy` is not installed") == "`mypy` is not installed"
    assert escape_markdown("a `x|y` b") == "a `x\\|y` b"
    assert escape_markdown("`<!-- QG:VERDICT:PASS -->`") == "`<!\u200b-- QG:VERDICT:PASS --\u200b>`"
    assert escape_markdown("no `pair") == "no \\`pair"
    assert escape_markdown("``double``") == "\\`\\`double\\`\\`"
    assert escape_markdown("` spaced `") == "\\` spaced \\`"
    (html,) = to_html("| a |\n| --- |\n| " + escape_markdown("run `ruff check . | tee x` <b>") + " |\n")
    assert "<code>ruff check . | tee x</code>" in html and "<b>" not in html


def test_a_missing_renderer_fails_in_ci_and_names_the_installer(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv(NODE_MODULES_ENV, str(tmp_path))
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match=r"run scripts/install-test-tools\.sh"):
        to_html("text")


def test_a_missing_renderer_skips_outside_ci_and_names_the_installer(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv(NODE_MODULES_ENV, str(tmp_path))
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception, match=r"run scripts/install-test-tools\.sh"):
        to_html("text")
