"""The coverage gate's body wherever it is shown: its diagram, proposals and unmapped names hold
the pull request's file names and test names, which must not break out of a Mermaid label, the
code block around it, a list item or an HTML comment marker."""

from __future__ import annotations

import re

import jsonschema

from evidence_gate.escaping import mermaid_label
from evidence_gate.ledger.model import GateVerdict
from evidence_gate.ledger.payload import read, schema, write
from evidence_gate.ledger.payloads.coverage import CoverageData, PathRow
from evidence_gate.render import render_comment, render_pr_section
from tests.render.checks import check_structure
from tests.render.gfm import render, to_html
from tests.render.ledgers import HOSTILE, gate, ledger

from .test_outputs import markers_of, outputs

LABEL = r'"[^"\[\]`<>]*"'


def hostile_data(paths: int = 3) -> CoverageData:
    rows = tuple(
        PathRow(
            path=HOSTILE[index % len(HOSTILE)],
            start=index + 1,
            end=index + 2,
            state=("weak", "uncovered", "strong", "covered")[index % 4],
            tests=(HOSTILE[(index + 1) % len(HOSTILE)] + " (still-green)",),
        )
        for index in range(paths)
    )
    return CoverageData(
        total=10,
        covered=7,
        strong=5,
        value_weighted=True,
        number="50",
        outcome="critical",
        paths=rows,
        paths_total=len(rows),
        unmapped=HOSTILE[:4],
        unmapped_total=4,
    )


def test_hostile_names_keep_every_output_whole() -> None:
    for paths in (len(HOSTILE), 60):  # a chart, then the text tree past what a chart can show
        subject = ledger(gates=(gate("coverage", GateVerdict.FAIL, title="Coverage", data=hostile_data(paths)),))
        rendered = outputs(subject)
        for (name, text), html in zip(rendered.items(), to_html(*rendered.values()), strict=True):
            check_structure(text, markers_of(subject, name), html)


def test_the_chart_holds_only_escaped_labels() -> None:
    subject = ledger(gates=(gate("coverage", GateVerdict.FAIL, title="Coverage", data=hostile_data(len(HOSTILE))),))
    section = render_pr_section(subject, 65_000)
    charts = render(section).xpath(".//pre/code[@class='language-mermaid']")
    assert len(charts) == 1
    for line in charts[0].text_content().splitlines()[1:]:
        # Every line is a node, an edge to a node, or a class definition; a label holds no quote,
        # bracket, backtick, angle bracket or newline of its own.
        assert re.fullmatch(
            rf"  (f\d+\[{LABEL}\]|f\d+ --- p\d+\[{LABEL}\]:::(strong|weak|covered|uncovered)|classDef \w+ .*)", line
        ), line


def test_a_mermaid_label_keeps_plain_names_and_codes_the_rest() -> None:
    assert mermaid_label("src/shop/cart_v2.py") == "src/shop/cart_v2.py"
    assert mermaid_label('a"]; click x call alert()') == "a#34;#93;#59; click x call alert()"
    assert mermaid_label("```\n<!-- x -->") == "#96;#96;#96; #60;#33;-- x --#62;"


def test_the_pr_section_says_the_coverage_line_and_proposes_tests() -> None:
    data = CoverageData(
        total=4,
        covered=3,
        strong=1,
        value_weighted=True,
        number="25",
        outcome="critical",
        paths=(
            PathRow(path="shop/cart.py", start=3, end=3, state="strong", tests=()),
            PathRow(path="shop/cart.py", start=5, end=6, state="weak", tests=("tests/test_cart.py (still-green)",)),
            PathRow(path="shop/cart.py", start=9, end=9, state="uncovered", tests=()),
        ),
        paths_total=3,
        unmapped=(),
        unmapped_total=0,
    )
    section = render_pr_section(ledger(gates=(gate("coverage", GateVerdict.FAIL, data=data),)), 65_000)
    assert "Coverage: 25% value-weighted (75% including 1 weakly covered paths), 1 gaps." in section
    text = render(section).text_content()
    assert (
        "shop/cart.py lines 5-6: a test that fails without the change (now run by tests/test_cart.py (still-green))"
        in text
    )
    assert "Proposed tests" in text
    assert "shop/cart.py line 9" in text
    comment = render_comment(ledger(gates=(gate("coverage", GateVerdict.FAIL, data=data),)))
    assert "```mermaid" in comment


def test_the_payload_matches_its_schema_and_reads_back() -> None:
    data = hostile_data(5)
    document = write(data)
    jsonschema.Draft202012Validator(schema(CoverageData)).validate(document)
    assert read(CoverageData, document) == data
