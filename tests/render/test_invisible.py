"""Invisible characters (bidirectional overrides and isolates, zero-width characters, the byte-order
mark) in a pull request's test names, paths and messages are shown by their code points in every
output, read through GitHub's renderer: `test_refund` cannot be made to read as another name."""

from __future__ import annotations

import re

from evidence_gate.ledger.model import Annotation, Excerpt, FailedTest, GateVerdict
from evidence_gate.render import (
    ZERO_WIDTH_SPACE,
    code_block,
    escape_html,
    escape_markdown,
    render_check_run,
    render_comment,
    render_job_summary,
    render_pr_section,
    render_report,
    reveal_invisible,
)
from tests.render.gfm import parse, to_html
from tests.render.ledgers import gate, ledger

# Each code point the issue names, and a name that reads as `test_refund` while it is another.
INVISIBLE = (
    [chr(code) for code in range(0x202A, 0x202F)]
    + [chr(code) for code in range(0x2066, 0x206A)]
    + [chr(code) for code in range(0x200B, 0x2010)]
    + ["\u2060", "\ufeff", "\u061c"]
)
DISGUISED = "test_\u202ednufer\u202c"  # shown right to left: test_refund
ANY_INVISIBLE = re.compile("[\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]")


def test_each_invisible_character_is_shown_as_its_code_point() -> None:
    for character in INVISIBLE:
        shown = f"<U+{ord(character):04X}>"
        assert reveal_invisible(f"a{character}b") == f"a{shown}b"
        assert escape_markdown(f"a{character}b") == f"a&lt;{shown[1:-1]}&gt;b"
        assert escape_html(f"a{character}b") == f"a&lt;{shown[1:-1]}&gt;b"
        assert code_block(f"a{character}b") == f"```\na{shown}b\n```"


def test_tag_characters_are_shown_too() -> None:
    assert reveal_invisible("refund\U000e0041") == "refund<U+E0041>"


def test_every_output_shows_a_disguised_name_as_what_it_is() -> None:
    text = f"{DISGUISED} in tests/\u2066refund\u2069.py: expected \ufeff1\u200b"
    subject = ledger(
        failed_tests=(FailedTest(name=DISGUISED, message=text, path=f"tests/{DISGUISED}.py", line=3),),
        gates=(
            gate(
                "tests",
                GateVerdict.FAIL,
                title=f"Tests {DISGUISED}",
                headline=text,
                details=(text,),
                excerpts=(Excerpt(source=text, exit_code=1, output=text),),
                annotations=(Annotation(path="tests/test_a.py", line=3, end_line=3, level="failure", message=text),),
            ),
        ),
    )
    check_run = render_check_run(subject)
    outputs = {
        "comment": render_comment(subject),
        "check title": check_run.title,
        "check summary": check_run.summary,
        "check text": check_run.text,
        "pr section": render_pr_section(subject, 65_000),
        "job summary": render_job_summary(subject),
        "report": render_report(subject),
    }
    markdown = [name for name in outputs if name != "check title"]
    htmls = dict(zip(markdown, to_html(*(outputs[name] for name in markdown)), strict=True))
    for name, output in outputs.items():
        assert not ANY_INVISIBLE.search(output.replace(ZERO_WIDTH_SPACE, "")), name
        if name in htmls:
            read = str(parse(htmls[name]).text_content()).replace(ZERO_WIDTH_SPACE, "")
            assert not ANY_INVISIBLE.search(read), name
            assert "test_<U+202E>dnufer<U+202C>" in read, name
