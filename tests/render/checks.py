"""Assertions on rendered Markdown, through GitHub's renderer (see gfm.py)."""

from __future__ import annotations

import re

from lxml.html import HtmlElement

from evidence_gate.ledger.catalog import CHECKS, MARKER_WORDS
from evidence_gate.ledger.model import Ledger
from evidence_gate.ledger.stagnation import history_line
from evidence_gate.render import ZERO_WIDTH_SPACE, check_slug, comment_marker
from evidence_gate.render.quality_view import ROW_ICONS
from tests.render.gfm import comments, elements, parse, to_html, visible_text

# The elements our templates make. Anything else came from untrusted text: raw HTML, a link, an
# image, emphasis, strike-through, a task list.
OURS = frozenset({"p", "h1", "h2", "h3", "h4", "strong", "table", "thead", "tbody", "tr", "th", "td"})
OURS |= {"details", "summary", "pre", "code", "ul", "li"}
# What github.com would link after rendering: a mention, an issue reference, a URL.
LINKABLE = re.compile(r"@[A-Za-z0-9]|#\d|(?i:gh-\d)|://|(?i:www\.)")
HTML_COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)
# A place on the head commit: `<server>/<owner>/<repo>/blob/<sha>/<path>#L<n>-L<m>`, its path
# percent-encoded (attention.Links).
OUR_LINK = re.compile(
    r"https?://[A-Za-z0-9.:-]+(?:/[\w.~-]+)*/[\w.-]+/[\w.-]+/blob/[0-9a-f]{40}/[\w.~%/-]+(?:#L\d+(?:-L\d+)?)?"
)
NOT_APPLICABLE_LINE = "\N{HEAVY MINUS SIGN} Not applicable: "
MORE_LINE = re.compile(r"^… ([\d,]+) more (.+)$", re.MULTILINE)


def folded(text: str) -> str:
    """What inline untrusted text reads as: whitespace runs as one space, control characters gone."""
    words = (re.sub(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]", "", word) for word in text.split())
    return " ".join(word for word in words if word)


def seen(element: HtmlElement) -> str:
    """An element's text as a reader sees it (zero-width spaces are invisible)."""
    return str(element.text_content()).replace(ZERO_WIDTH_SPACE, "")


def find(root: HtmlElement, path: str) -> HtmlElement:
    found = root.find(path)
    assert found is not None, path
    return found


def check_structure(markdown: str, markers: list[str], html: str | None = None) -> HtmlElement:
    """The structure every output must keep, whatever the ledger held; returns the parsed HTML.
    `html` is the Markdown already rendered (in a batch), else it is rendered here."""
    assert HTML_COMMENT.findall(markdown) == markers
    assert markdown.count("<!--") == markdown.count("-->") == len(markers)
    html = to_html(markdown)[0] if html is None else html
    root = parse(html)
    assert comments(root) == markers
    unexpected = {element.tag for element in elements(root) if not _our_link(element)} - OURS
    assert not unexpected, f"elements from untrusted text: {unexpected}"
    details = root.findall(".//details")
    assert html.count("<details>") == html.count("</details>") == len(details)
    for block in details:
        assert block.getparent() is root, "a <details> block did not close"
        assert block[0].tag == "summary"
    assert not LINKABLE.search(visible_text(root))
    return root


def _our_link(element: HtmlElement) -> bool:
    """A link the first screen makes: to a file of the head commit, built from checked parts."""
    return element.tag == "a" and bool(OUR_LINK.fullmatch(element.get("href", "")))


def result_rows(root: HtmlElement) -> list[list[str]]:
    """The Results table's rows, five cells each: the nine checks, then the gates without a number.
    A verdict cell that carries an icon (the comment's) carries its word's; the row holds the word."""
    tables = [table for table in root.iter("table") if [seen(th) for th in table.iter("th")][:1] == ["#"]]
    assert len(tables) == 1
    rows = [[seen(cell) for cell in row.findall("td")] for row in tables[0].findall("./tbody/tr")]
    assert all(len(row) == 5 for row in rows)
    for row in rows:
        icon, space, word = row[4].partition(" ")
        if space:
            assert ROW_ICONS[word] == icon, row
            row[4] = word
    rows += _folded_rows(root)
    numbered = sorted((row for row in rows if row[0] != "—"), key=lambda row: int(row[0]))
    rows = numbered + [row for row in rows if row[0] == "—"]
    assert [row[0] for row in rows[:9]] == [str(check.number) for check in CHECKS]
    return rows


def _folded_rows(root: HtmlElement) -> list[list[str]]:
    """The rows the comment folds into its `Not applicable:` line, as the table would show them."""
    lines = [seen(p) for p in root.iter("p") if seen(p).startswith(NOT_APPLICABLE_LINE)]
    assert len(lines) <= 1
    if not lines:
        return []
    rows = []
    for entry in lines[0].removeprefix(NOT_APPLICABLE_LINE).split(" · "):
        number, _, rest = entry.partition(" ")
        title = next((check.title for check in CHECKS if rest.startswith(check.title + " (")), None)
        if number != "—" and title is not None:
            rows.append([number, title, "—", "—", "NOT_APPLICABLE"])
        else:
            title, _, said = rest.partition(" (")
            rows.append(["—", title, "—", said.removesuffix(")"), "NOT_APPLICABLE"])
    return rows


def unnumbered_rows(root: HtmlElement) -> list[list[str]]:
    """The Results rows of the gates without a number: title, headline, verdict."""
    return [[row[1], row[3], row[4]] for row in result_rows(root)[9:]]


# Where each output shows the checks' sections (and so their markers); the others show the verdict.
WITH_SECTIONS = frozenset({"comment", "check text", "job summary", "report"})


def quality_markers(subject: Ledger, name: str) -> list[str]:
    """The markers an output must carry, in order: the comment's own, the verdict, then one per
    numbered check (and a failed check's signature) where the checks' sections are shown."""
    history = history_line(check_slug(subject.check_name), subject.quality.earlier, subject.quality.signatures)
    head = [comment_marker(subject.check_name), history] if name == "comment" else []
    verdict = [f"<!-- QG:VERDICT:{subject.verdict} -->"]
    if name not in WITH_SECTIONS:
        return head + verdict
    by_id = {gate.id: gate for gate in subject.gates}
    checks: list[str] = []
    for check in CHECKS:
        gate = by_id.get(check.gate)
        checks.append(f"<!-- QG:CHECK:{check.number}:{MARKER_WORDS[gate.verdict] if gate else 'NOT_APPLICABLE'} -->")
        signature = subject.quality.signatures.get(check.number)
        if signature is not None:
            checks.append(f"<!-- QG:SIGNATURE:{check.number}:{signature} -->")
    return head + verdict + checks


def more_lines(markdown: str, root: HtmlElement) -> dict[str, int]:
    """The "… N more" lines outside code, by what they count; each must render as its own paragraph."""
    paragraphs = {seen(p) for p in root.iter("p")}
    found: dict[str, int] = {}
    for match in MORE_LINE.finditer(markdown):
        if match.group(0) in paragraphs:
            found[match.group(2)] = found.get(match.group(2), 0) + int(match.group(1).replace(",", ""))
    return found
