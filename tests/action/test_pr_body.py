"""The PR body's `## Test Coverage` section: replaced between our markers, the author's text kept
byte for byte."""

from __future__ import annotations

from evidence_gate.github.pr_body import BODY_LIMIT, END, START, replace_section, room_for_section


def test_a_missing_section_is_appended_under_its_heading() -> None:
    body = "Fixes the cart.\n\nCloses a bug."
    updated = replace_section(body, "**PASS**: 12 tests")
    assert updated == f"{body}\n\n## Test Coverage\n{START}\n**PASS**: 12 tests\n{END}\n"


def test_an_empty_body_gets_only_the_section() -> None:
    assert replace_section("", "x") == f"## Test Coverage\n{START}\nx\n{END}\n"


def test_an_existing_section_is_replaced_and_everything_else_kept_byte_for_byte() -> None:
    before = "Intro with trailing spaces   \n\n## Test Coverage\n"
    after = "\n\n## Notes\n  - keep *this*  \n"
    body = f"{before}{START}\nold result\n{END}{after}"
    assert replace_section(body, "new result") == f"{before}{START}\nnew result\n{END}{after}"


def test_crlf_bodies_keep_crlf() -> None:
    body = f"Intro\r\n\r\n## Test Coverage\r\n{START}\r\nold\r\n{END}\r\nOutro\r\n"
    updated = replace_section(body, "line one\nline two")
    assert updated == f"Intro\r\n\r\n## Test Coverage\r\n{START}\r\nline one\r\nline two\r\n{END}\r\nOutro\r\n"
    assert "\n" not in updated.replace("\r\n", "")


def test_crlf_body_without_a_section_appends_with_crlf() -> None:
    assert replace_section("Intro\r\n", "x") == f"Intro\r\n\r\n## Test Coverage\r\n{START}\r\nx\r\n{END}\r\n"


def test_a_body_holding_the_markers_twice_has_only_the_first_pair_replaced() -> None:
    body = f"A\n{START}\none\n{END}\nB\n{START}\ntwo\n{END}\nC"
    assert replace_section(body, "new") == f"A\n{START}\nnew\n{END}\nB\n{START}\ntwo\n{END}\nC"


def test_an_end_marker_before_the_start_marker_is_not_a_section() -> None:
    body = f"{END}\ntext\n{START}\n"
    assert replace_section(body, "x").startswith(body)


def test_the_room_keeps_the_whole_body_within_the_limit() -> None:
    body = "x" * 60_000
    room = room_for_section(body)
    assert len(replace_section(body, "y" * room)) <= BODY_LIMIT
    full = "x" * BODY_LIMIT
    assert room_for_section(full) == 0
