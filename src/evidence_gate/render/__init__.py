"""Rendering: every text a ledger is shown as on GitHub, from Jinja2 templates a user may override.

The ledger is the only input, and every string in it is untrusted: a ledger can come from a fork's
run, and test names, failure messages and logs are written by whoever wrote the pull request. One
module per defence:

- `escaping`: the `md`, `html` and `fence` filters, and the wrapper that forces a template to use one.
- `environment`: the sandboxed Jinja2 environment, with a user's templates-dir over ours, and its errors.
- `bounds`: what a template may make: one budget per rendering that every value it makes is paid from.
- `context`: every number, label, verdict word and marker, computed so templates hold presentation
  only; the template context is documented there.
- `fitting`: GitHub's size limits, held by dropping detail in a planned order, never by cutting text.

Here are the outputs, one function each, and every name the rest of the tool imports.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

from evidence_gate.escaping import (
    ZERO_WIDTH_SPACE,
    code_block,
    escape_html,
    escape_markdown,
    reveal_invisible,
)
from evidence_gate.ledger.model import Ledger
from evidence_gate.render.attention import Links, links_for
from evidence_gate.render.context import (
    _COMMENT_SIZES,
    _JOB_SUMMARY_SIZES,
    _PR_SIZES,
    _REPORT_SIZES,
    _context,
    check_slug,
    comment_marker,
)
from evidence_gate.render.environment import MissingCommentMarker, TemplateError, _environment, _render
from evidence_gate.render.fitting import (
    ANNOTATION_MESSAGE_LIMIT,
    ANNOTATION_TITLE_LIMIT,
    CHECK_RUN_LIMIT,
    COMMENT_LIMIT,
    JOB_SUMMARY_LIMIT,
    LimitError,
    _fit,
    fit_annotation,
)

# What `from evidence_gate.render import ...` gives the rest of the tool (mypy --strict re-exports only these).
__all__ = [
    "ANNOTATION_MESSAGE_LIMIT",
    "ANNOTATION_TITLE_LIMIT",
    "CHECK_RUN_LIMIT",
    "COMMENT_LIMIT",
    "JOB_SUMMARY_LIMIT",
    "ZERO_WIDTH_SPACE",
    "CheckRunText",
    "LimitError",
    "Links",
    "MissingCommentMarker",
    "TemplateError",
    "check_slug",
    "code_block",
    "comment_marker",
    "escape_html",
    "escape_markdown",
    "fit_annotation",
    "links_for",
    "render_check_run",
    "render_comment",
    "render_job_summary",
    "render_pr_section",
    "render_report",
    "reveal_invisible",
]


@dataclass(frozen=True, kw_only=True)
class CheckRunText:
    title: str
    summary: str
    text: str

    def with_summary(self, summary: str) -> CheckRunText:
        """The same output with the summary the publisher completed (the baseline digest appended)."""
        return replace(self, summary=summary)


def render_comment(ledger: Ledger, templates_dir: Path | None = None, links: Links | None = None) -> str:
    """The sticky pull-request comment (`comment.md.j2`), within 65,536 characters; `links` makes
    each place its first screen names a link to the head commit's file (`links_for`)."""
    name = "comment.md.j2"
    text = _fit(
        _environment(templates_dir), name, ledger, _COMMENT_SIZES, limit=COMMENT_LIMIT, in_bytes=False, links=links
    )
    marker = comment_marker(ledger.check_name)
    if marker not in text:
        raise MissingCommentMarker(
            f"{name}: the comment lacks its marker {marker}; keep {{{{ comment_marker }}}} in the template,"
            " by which the action finds and updates its own comment"
        )
    return text


def render_check_run(ledger: Ledger, templates_dir: Path | None = None, reserve: int = 0) -> CheckRunText:
    """The check run's output: a one-line title (`check_title.txt.j2`), a summary
    (`check_summary.md.j2`) within 65,535 bytes less `reserve` (what the publisher appends to it:
    the baseline digest) and a text (`check_text.md.j2`) within 65,535 bytes."""
    environment = _environment(templates_dir)
    title = _render(environment, "check_title.txt.j2", _context(ledger, _COMMENT_SIZES).variables())
    summary_limit = CHECK_RUN_LIMIT - reserve
    return CheckRunText(
        title=" ".join(title.split()),
        summary=_fit(environment, "check_summary.md.j2", ledger, _COMMENT_SIZES, limit=summary_limit, in_bytes=True),
        text=_fit(environment, "check_text.md.j2", ledger, _COMMENT_SIZES, limit=CHECK_RUN_LIMIT, in_bytes=True),
    )


def render_pr_section(ledger: Ledger, room: int, templates_dir: Path | None = None) -> str:
    """The content of the pull request body's `## Test Coverage` section (`pr_body_section.md.j2`),
    within `room` characters: what the body's limit (65,536 characters) leaves once the author's
    text and the publisher's own heading and markers are counted (`pr_body.room_for_section`)."""
    return _fit(
        _environment(templates_dir),
        "pr_body_section.md.j2",
        ledger,
        _PR_SIZES,
        limit=room,
        in_bytes=False,
        too_big=lambda size: (
            f"the pull request body leaves {room:,} characters for the Test Coverage section, and its shortest form"
            f" needs {size:,}: the description is too long to add the section"
        ),
    )


def render_job_summary(ledger: Ledger, templates_dir: Path | None = None, links: Links | None = None) -> str:
    """The step's job summary (`job_summary.md.j2`), within 1 MiB."""
    return _fit(
        _environment(templates_dir),
        "job_summary.md.j2",
        ledger,
        _JOB_SUMMARY_SIZES,
        limit=JOB_SUMMARY_LIMIT,
        in_bytes=True,
        links=links,
    )


def render_report(ledger: Ledger, templates_dir: Path | None = None) -> str:
    """The full quality-gate report (`report.md.j2`): every gate with all its evidence and
    annotations, every failing test with its whole message. A file, not a GitHub field: no limit."""
    return _render(_environment(templates_dir), "report.md.j2", _context(ledger, _REPORT_SIZES).variables())
