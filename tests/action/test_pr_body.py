"""The PR body's `## Test Coverage` section: replaced between its check name's markers, the author's
text kept byte for byte; an earlier release's unkeyed section taken over."""

from __future__ import annotations

from evidence_gate.github.pr_body import (
    BODY_LIMIT,
    UNKEYED_END,
    UNKEYED_START,
    replace_section,
    room_for_section,
    section_markers,
)
from evidence_gate.settings import DEFAULT_CHECK_NAME

CHECK = DEFAULT_CHECK_NAME
START = section_markers(CHECK).start
END = section_markers(CHECK).end


def test_a_missing_section_is_appended_under_its_heading() -> None:
    body = "Fixes the cart.\n\nCloses a bug."
    updated = replace_section(body, "**PASS**: 12 tests", CHECK)
    assert updated == f"{body}\n\n## Test Coverage\n{START}\n**PASS**: 12 tests\n{END}\n"


def test_an_empty_body_gets_only_the_section() -> None:
    assert replace_section("", "x", CHECK) == f"## Test Coverage\n{START}\nx\n{END}\n"


def test_an_existing_section_is_replaced_and_everything_else_kept_byte_for_byte() -> None:
    before = "Intro with trailing spaces   \n\n## Test Coverage\n"
    after = "\n\n## Notes\n  - keep *this*  \n"
    body = f"{before}{START}\nold result\n{END}{after}"
    assert replace_section(body, "new result", CHECK) == f"{before}{START}\nnew result\n{END}{after}"


def test_crlf_bodies_keep_crlf() -> None:
    body = f"Intro\r\n\r\n## Test Coverage\r\n{START}\r\nold\r\n{END}\r\nOutro\r\n"
    updated = replace_section(body, "line one\nline two", CHECK)
    assert updated == f"Intro\r\n\r\n## Test Coverage\r\n{START}\r\nline one\r\nline two\r\n{END}\r\nOutro\r\n"
    assert "\n" not in updated.replace("\r\n", "")


def test_crlf_body_without_a_section_appends_with_crlf() -> None:
    assert replace_section("Intro\r\n", "x", CHECK) == f"Intro\r\n\r\n## Test Coverage\r\n{START}\r\nx\r\n{END}\r\n"


def test_a_body_holding_the_markers_twice_has_only_the_first_pair_replaced() -> None:
    body = f"A\n{START}\none\n{END}\nB\n{START}\ntwo\n{END}\nC"
    assert replace_section(body, "new", CHECK) == f"A\n{START}\nnew\n{END}\nB\n{START}\ntwo\n{END}\nC"


def test_an_end_marker_before_the_start_marker_is_not_a_section() -> None:
    body = f"{END}\ntext\n{START}\n"
    assert replace_section(body, "x", CHECK).startswith(body)


def test_the_room_keeps_the_whole_body_within_the_limit() -> None:
    body = "x" * 60_000
    room = room_for_section(body, "Evidence Gate: web")
    assert len(replace_section(body, "y" * room, "Evidence Gate: web")) <= BODY_LIMIT
    full = "x" * BODY_LIMIT
    assert room_for_section(full, CHECK) == 0


def test_each_check_name_has_its_own_markers_and_heading() -> None:
    web = section_markers("Evidence Gate: web")
    assert (web.start, web.end) == (
        "<!-- evidence-gate:coverage:evidence-gate-web:start -->",
        "<!-- evidence-gate:coverage:evidence-gate-web:end -->",
    )
    assert web.heading == "## Test Coverage: Evidence Gate: web"
    assert section_markers(CHECK).heading == "## Test Coverage"


def test_another_check_names_section_is_kept_and_ours_appended() -> None:
    body = replace_section("Intro\n", "api result", "api")
    updated = replace_section(body, "web result", "web")
    web = section_markers("web")
    assert updated == f"{body}\n## Test Coverage: web\n{web.start}\nweb result\n{web.end}\n"


def test_an_unkeyed_section_is_taken_over_by_the_first_check_name_to_run() -> None:
    body = f"Intro\n\n## Test Coverage\n{UNKEYED_START}\nold result\n{UNKEYED_END}\nOutro\n"
    assert replace_section(body, "new", "web") == (
        f"Intro\n\n## Test Coverage\n{section_markers('web').start}\nnew\n{section_markers('web').end}\nOutro\n"
    )


def test_a_check_names_own_section_wins_over_an_unkeyed_one() -> None:
    body = f"{UNKEYED_START}\nold\n{UNKEYED_END}\n{START}\nours\n{END}\n"
    assert replace_section(body, "new", CHECK) == f"{UNKEYED_START}\nold\n{UNKEYED_END}\n{START}\nnew\n{END}\n"


def test_a_check_name_that_looks_like_markdown_gives_a_plain_heading() -> None:
    heading = section_markers("web\n# <!-- x -->").heading
    assert heading.startswith("## Test Coverage: web ")
    assert "\n" not in heading
    assert "<!--" not in heading
