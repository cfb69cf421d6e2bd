"""Rendering: every text a ledger is shown as on GitHub, from Jinja2 templates a user may override.

The ledger is the only input, and every string in it is untrusted: a ledger can come from a fork's
run, and test names, failure messages and logs are written by whoever wrote the pull request. So:

- The environment is sandboxed, with undefined names an error, and autoescape off (the outputs are
  Markdown, which HTML escaping would not make safe). Escaping is explicit, through three filters:
  `md` (inline Markdown, table cells included), `html` (text inside an HTML block, such as a
  `<summary>`) and `fence` (a fenced code block). Untrusted values reach templates wrapped, and a
  template that prints one without a filter is an error, not a leak.
- Templates hold presentation only: every number, label and verdict word is computed here.
- Machine-readable markers are written by the templates, from values computed here that untrusted
  text cannot forge: `<!-- QG:VERDICT:<PASS|BLOCKED|STAGNATION> -->`, one
  `<!-- QG:CHECK:<gate id>:<PASS|FAIL|NOT-APPLICABLE|UNAVAILABLE> -->` per gate shown, and in the
  comment `comment_marker(check_name)`, by which the publisher finds its own comment.
- GitHub's size limits hold whatever the ledger holds. Each output first shows a bounded amount of
  each value (`_Sizes`: presentation), then, if the rendered text is still over its limit, detail
  is dropped from the data in a planned order (`_drop_order`) and the template rendered again;
  rendered text is never cut. Whatever is dropped is counted on a visible "… N more" line.

Template context (one shape for every template, so a user's template can show anything):
`check_name`, `comment_marker`, `verdict` (marker word), `verdict_label`, `verdict_icon`,
`verdict_reason`, `gates_label`, `counts` (dict or None), `counts_label`, `deltas_label`,
`baseline` (when there are no deltas, else None), `head`, `base`, `stack`, `tool_version`, `gates`
(each: `id`, `verdict` (marker word), `verdict_label`, `title`, `summary`, `details`, `evidence`
(each: `label`, `text`), `annotations` (report only; each: `level`, `location`, `title`,
`message`), `notes`, `has_detail`), `gates_notes`, `failed_tests` (each: `name`, `location`,
`message`), `failed_tests_label`, `failed_tests_notes`. Notes are "… N more" lines. Untrusted
values print only through `md`, `html` or `fence`.
"""

from __future__ import annotations

import hashlib
import html
import os
import re
import stat
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from importlib import resources
from pathlib import Path
from typing import Literal, TypeVar

import jinja2
from jinja2.sandbox import SandboxedEnvironment

from evidence_gate.errors import EvidenceGateError
from evidence_gate.ledger import Annotation, Evidence, FailedTest, GateResult, GateVerdict, Ledger, Verdict

COMMENT_LIMIT = 65_536  # characters: an issue or pull-request comment body
CHECK_RUN_LIMIT = 65_535  # bytes (UTF-8): a check run's output summary, and its output text, each
ANNOTATION_TITLE_LIMIT = 255  # characters
ANNOTATION_MESSAGE_LIMIT = 64 * 1024  # bytes (UTF-8)
JOB_SUMMARY_LIMIT = 1024 * 1024  # bytes (UTF-8): one step's $GITHUB_STEP_SUMMARY

ZERO_WIDTH_SPACE = "\u200b"
_GATE_ID = re.compile(r"[a-z][a-z0-9-]{0,63}")
_TEMPLATE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*\.j2")
_MAX_TEMPLATE_BYTES = 1024 * 1024

_T = TypeVar("_T")


class TemplateError(EvidenceGateError):
    """A template (ours, or one from templates-dir) that does not load or render."""


class MissingCommentMarker(TemplateError):
    """A comment template whose output lacks the comment marker: the action could not find its
    comment again and would post a new one on every run, so it refuses to post at all."""


class LimitError(EvidenceGateError):
    """An output that is over GitHub's limit even with every droppable detail dropped."""


@dataclass(frozen=True, kw_only=True)
class CheckRunText:
    title: str
    summary: str
    text: str

    def with_summary(self, summary: str) -> CheckRunText:
        """The same output with the summary the publisher completed (the baseline digest appended)."""
        return replace(self, summary=summary)


class _Untrusted(str):
    """Text from the ledger. The finalizer refuses to print it, so a forgotten filter is an error.
    A guard against forgetting, not a wall: `~` or another filter gives back plain text."""

    __slots__ = ()


class _UnescapedText(Exception):
    """Raised by the finalizer; turned into a TemplateError naming the template."""


# --- escaping -------------------------------------------------------------------------------------

# Everything that is not a tab, a newline or printable: terminal colours, NUL, C1 controls.
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
# GitHub links these on github.com after Markdown is rendered, in any text node: mentions (`@user`,
# `@org/team`, `owner/repo@sha`), references (`#1`, `owner/repo#1`, `GH-1`) and, through cmark-gfm's
# autolink extension, bare URLs (an issue URL cross-links too). A zero-width space after the
# character that starts each of them breaks every pattern, whatever precedes or follows.
_LINKISH = re.compile(r"[@#]|(?i:gh-)(?=\d)|:(?=//)|(?i:www)(?=\.)")
_MD_CHARS = {"&": "&amp;", "<": "&lt;", ">": "&gt;"} | {c: "\\" + c for c in "\\`*_[]|~$"}
_MD_SPECIAL = re.compile(r"[&<>\\`*_\[\]|~$]")
# At the start of a block, these open a heading, a list, a setext underline or an ordered list.
_MD_LINE_START = re.compile(r"^(?:[#+=-]|\d{1,9}(?=[.)]))")
_BACKTICKS = re.compile(r"`+")
_COMMENT_OPEN = re.compile(r"<!--")
_COMMENT_CLOSE = re.compile(r"-->")


def _fold(text: str) -> str:
    """One line: every run of whitespace (newlines included) becomes one space, controls go."""
    return " ".join(word for word in (_CONTROL.sub("", word) for word in text.split()) if word)


def escape_markdown(text: str) -> str:
    """Untrusted text as inline Markdown, safe in a paragraph, a list item and a table cell: no HTML
    (`<`, `>`, `&` become entities, so no `<!--` marker either), no emphasis, code, link, strike,
    math or cell break (backslash escapes), no block opened at its start, one line, and nothing
    GitHub would turn into a mention, a reference or a link."""
    neutral = _LINKISH.sub(lambda match: match.group(0) + ZERO_WIDTH_SPACE, _fold(text))
    escaped = _MD_SPECIAL.sub(lambda match: _MD_CHARS[match.group(0)], neutral)
    escaped = _MD_LINE_START.sub(_escape_line_start, escaped)
    return escaped.replace(ZERO_WIDTH_SPACE, "&#8203;")


def _escape_line_start(match: re.Match[str]) -> str:
    """`#` -> `\\#`; the number of `1.` keeps its digits and escapes what follows them."""
    start = match.group(0)
    return start + "\\" if start[0].isdigit() else "\\" + start


def escape_html(text: str) -> str:
    """Untrusted text inside an HTML block (a `<summary>`), where Markdown is not parsed: entities
    for `<`, `>`, `&`, one line (a blank line would end the HTML block), and no mention, reference
    or link."""
    neutral = _LINKISH.sub(lambda match: match.group(0) + ZERO_WIDTH_SPACE, _fold(text))
    return html.escape(neutral, quote=False).replace(ZERO_WIDTH_SPACE, "&#8203;")


def code_block(text: str) -> str:
    """Untrusted text as a fenced code block it cannot close: the fence is longer than any backtick
    run in it. Entities are not decoded in code, so an HTML comment opener or closer is broken with
    a literal zero-width space instead: the raw Markdown then holds no marker but ours. GitHub does
    not link mentions or references in code."""
    body = _CONTROL.sub("", text.replace("\r\n", "\n").replace("\r", "\n")).rstrip("\n")
    body = _COMMENT_CLOSE.sub("--" + ZERO_WIDTH_SPACE + ">", _COMMENT_OPEN.sub("<!" + ZERO_WIDTH_SPACE + "--", body))
    longest = max((len(run) for run in _BACKTICKS.findall(body)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}\n{body}\n{fence}"


# --- the environment ------------------------------------------------------------------------------


class _DirectoryLoader(jinja2.BaseLoader):
    """A user's templates: a regular file in the directory, named like a template, read without
    following a symlink. The directory is in the repository, so a pull request can change it: the
    sandbox keeps its templates from running code, and this keeps them from reading a runner file
    (a symlink to the process environment, say) into a public comment."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory

    def get_source(self, environment: jinja2.Environment, template: str) -> tuple[str, str, Callable[[], bool]]:
        if not _TEMPLATE_NAME.fullmatch(template):
            raise jinja2.TemplateNotFound(template)
        path = self.directory / template
        try:
            descriptor = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
        except FileNotFoundError:
            raise jinja2.TemplateNotFound(template) from None
        except OSError as error:
            raise TemplateError(
                f"{path}: cannot read the template ({error.strerror}); templates must be regular files, not symlinks"
            ) from error
        with os.fdopen(descriptor, "rb") as handle:
            if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
                raise TemplateError(f"{path}: not a regular file; a template must be a regular file")
            data = handle.read(_MAX_TEMPLATE_BYTES + 1)
        if len(data) > _MAX_TEMPLATE_BYTES:
            raise TemplateError(f"{path}: over {_MAX_TEMPLATE_BYTES:,} bytes; a template must be smaller")
        try:
            source = data.decode("utf-8")
        except UnicodeDecodeError as error:
            raise TemplateError(
                f"{path}: not UTF-8 ({error.reason} at byte {error.start}); save it as UTF-8"
            ) from error
        return source, str(path), lambda: False


def _package_template(name: str) -> str | None:
    """One of ours, from the installed package (the repository's templates/ folder)."""
    if not _TEMPLATE_NAME.fullmatch(name):
        return None
    resource = resources.files("evidence_gate.templates").joinpath(name)
    return resource.read_text(encoding="utf-8") if resource.is_file() else None


def _finalize(value: object) -> object:
    """What `{{ ... }}` may print: computed labels and numbers, or text that went through a filter.
    Untrusted text, None and containers (their repr) are template mistakes."""
    if isinstance(value, jinja2.Undefined):
        return value  # printing it raises the undefined-name error, which says which name
    if isinstance(value, _Untrusted):
        raise _UnescapedText("prints untrusted text without a filter: pass it through | md, | html or | fence")
    if not isinstance(value, str | int):
        raise _UnescapedText(f"prints a {type(value).__name__}; print its items, or test it with `is none`")
    return value


def _environment(templates_dir: Path | None) -> SandboxedEnvironment:
    package = jinja2.FunctionLoader(_package_template)
    if templates_dir is not None and not templates_dir.is_dir():
        raise TemplateError(
            f"{templates_dir}: templates-dir is not a directory; point it at the folder of your templates"
        )
    loader = package if templates_dir is None else jinja2.ChoiceLoader([_DirectoryLoader(templates_dir), package])
    environment = SandboxedEnvironment(
        loader=loader,
        undefined=jinja2.StrictUndefined,
        autoescape=False,  # the outputs are Markdown: escaping is explicit, through the md/html/fence filters
        trim_blocks=True,
        lstrip_blocks=True,
        finalize=_finalize,
    )
    environment.filters.update(md=escape_markdown, html=escape_html, fence=code_block)
    return environment


def _render(environment: SandboxedEnvironment, name: str, context: dict[str, object]) -> str:
    try:
        return environment.get_template(name).render(context)
    except _UnescapedText as error:
        raise TemplateError(f"{name}: {error}") from error
    except jinja2.TemplateSyntaxError as error:
        raise TemplateError(f"{error.filename or name}, line {error.lineno}: {error.message}") from error
    except jinja2.TemplateNotFound as error:
        raise TemplateError(
            f"{name}: no template {error.name!r} in templates-dir nor among ours; check its name"
        ) from error
    except jinja2.TemplateError as error:
        raise TemplateError(f"{name}: {error.message or type(error).__name__}") from error
    except (ArithmeticError, LookupError, TypeError, ValueError, RecursionError) as error:
        # What a template's own expressions can raise (the sandbox's range limit is an OverflowError).
        raise TemplateError(f"{name}: {type(error).__name__}: {error}") from error


# --- the context: every decision, as plain values -------------------------------------------------

_VERDICT_TEXT: dict[Verdict, tuple[str, str, str]] = {
    Verdict.PASS: ("✅", "Passed", "Every gate that applies passed, with evidence."),
    Verdict.BLOCKED: ("❌", "Blocked", "A gate failed."),
    Verdict.STAGNATION: (
        "⚠️",
        "Stagnation",
        "Nothing failed, but nothing was proven either: a gate could not run, or none applied.",
    ),
}
_GATE_TEXT: dict[GateVerdict, tuple[str, str]] = {
    GateVerdict.PASS: ("PASS", "✅ pass"),
    GateVerdict.FAIL: ("FAIL", "❌ fail"),
    GateVerdict.NOT_APPLICABLE: ("NOT-APPLICABLE", "\N{HEAVY MINUS SIGN} not applicable"),
    GateVerdict.UNAVAILABLE: ("UNAVAILABLE", "⚠️ unavailable"),
}
# The order gates are counted in a label: what blocks first.
_GATE_COUNT_ORDER = (
    (GateVerdict.FAIL, "failed"),
    (GateVerdict.UNAVAILABLE, "unavailable"),
    (GateVerdict.PASS, "passed"),
    (GateVerdict.NOT_APPLICABLE, "not applicable"),
)
_PASSING = frozenset({GateVerdict.PASS, GateVerdict.NOT_APPLICABLE})


@dataclass(frozen=True, kw_only=True)
class _Sizes:
    """How much of the ledger an output shows before any limit applies (presentation, not limits):
    characters of an inline value, of a failure message and of a command's output, and rows of a
    list (failing tests, gates, a gate's details). None shows everything (the report)."""

    inline: int | None
    message: int | None
    output: int | None
    rows: int | None
    annotations: bool = False  # listed in the report; the other outputs go with check-run annotations


_COMMENT_SIZES = _Sizes(inline=300, message=1_500, output=3_000, rows=100)
_PR_SIZES = _Sizes(inline=200, message=1_000, output=2_000, rows=50)
_JOB_SUMMARY_SIZES = _Sizes(inline=1_000, message=8_000, output=20_000, rows=1_000)
_REPORT_SIZES = _Sizes(inline=None, message=None, output=None, rows=None, annotations=True)

# A detail that can be dropped to fit a limit: (kind, index of its gate or failing test, index in the gate).
_Unit = tuple[Literal["evidence", "detail", "message", "test", "gate"], int, int]


def comment_marker(check_name: str) -> str:
    """The hidden line by which the publisher finds the action's own comment: one per check name,
    so two configurations in one repository keep two comments."""
    return f"<!-- evidence-gate:comment:{_slug(check_name)} -->"


def _slug(name: str) -> str:
    slug = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")[:64].strip("-")
    # A name with no ASCII letter or digit still needs a marker of its own.
    return slug or hashlib.sha256(name.encode("utf-8")).hexdigest()[:12]


def _token(gate_id: str) -> str:
    """A gate id as a marker holds it: an id the schema allows (`[a-z][a-z0-9-]*`) as it is, any other
    (a ledger built without validation) as a slug, which cannot add a `-->` or a second marker."""
    if _GATE_ID.fullmatch(gate_id):
        return gate_id
    return _slug(gate_id)


def _cap(items: Sequence[_T], rows: int | None) -> Sequence[_T]:
    return items if rows is None else items[:rows]


def _clip_inline(text: str, limit: int | None) -> _Untrusted:
    if limit is None or len(text) <= limit:
        return _Untrusted(text)
    return _Untrusted(text[: limit - 1] + "…")


def _clip_block(text: str, limit: int | None) -> _Untrusted:
    """Head and tail, like the ledger's own trimming: a failure's cause is often at the end."""
    if limit is None or len(text) <= limit:
        return _Untrusted(text)
    head, tail = limit * 3 // 4, limit // 4
    return _Untrusted(f"{text[:head]}\n… {len(text) - head - tail:,} more characters …\n{text[len(text) - tail :]}")


def _plural(count: int, singular: str, plural: str) -> str:
    return f"{count:,} {singular if count == 1 else plural}"


def _more(count: int, singular: str, plural: str) -> list[str]:
    return [f"… {_plural(count, singular, plural)}"] if count > 0 else []


def _counts_label(ledger: Ledger) -> str:
    counts = ledger.counts
    if counts is None:
        return "no test counts were read"
    return (
        f"{counts.executed:,} executed ({counts.passed:,} passed, {counts.failed:,} failed), {counts.skipped:,} skipped"
    )


def _deltas_label(ledger: Ledger) -> str:
    deltas = ledger.deltas
    if deltas is None:
        return ""
    parts = []
    if deltas.executed:
        sign = "+" if deltas.executed > 0 else "\N{MINUS SIGN}"  # typographic, and no list item at a line start
        parts.append(sign + _plural(abs(deltas.executed), "test", "tests"))
    for count, words in (
        (deltas.added, "new"),
        (deltas.removed, "removed"),
        (deltas.newly_failing, "newly failing"),
        (deltas.newly_skipped, "newly skipped"),
    ):
        if count:
            parts.append(f"{count:,} {words}")
    return ", ".join(parts) or "no change against the base"


def _gates_label(gates: Sequence[GateResult]) -> str:
    if not gates:
        return "no gate ran"
    parts = [
        f"{count} {words}"
        for verdict, words in _GATE_COUNT_ORDER
        if (count := sum(1 for gate in gates if gate.verdict == verdict))
    ]
    return f"{_plural(len(gates), 'gate', 'gates')}: {', '.join(parts)}"


def _evidence_view(item: Evidence, sizes: _Sizes) -> dict[str, object]:
    exit_code = "unknown" if item.exit_code is None else str(item.exit_code)
    return {"label": f"Exit code {exit_code}", "text": _clip_block(f"$ {item.command}\n{item.output}", sizes.output)}


def _annotation_view(note: Annotation, sizes: _Sizes) -> dict[str, object]:
    lines = f"{note.line}" if note.end_line == note.line else f"{note.line}-{note.end_line}"
    return {
        "level": _clip_inline(note.level, sizes.inline),
        "location": _clip_inline(f"{note.path}:{lines}", sizes.inline),
        "title": None if note.title is None else _clip_inline(note.title, sizes.inline),
        "message": _clip_block(note.message, sizes.message),
    }


def _gate_view(index: int, gate: GateResult, sizes: _Sizes, dropped: frozenset[_Unit]) -> dict[str, object]:
    marker, label = _GATE_TEXT[gate.verdict]
    details = [
        _clip_inline(detail, sizes.inline)
        for number, detail in enumerate(_cap(gate.details, sizes.rows))
        if ("detail", index, number) not in dropped
    ]
    evidence = [
        _evidence_view(item, sizes)
        for number, item in enumerate(_cap(gate.evidence, sizes.rows))
        if ("evidence", index, number) not in dropped
    ]
    annotations = [_annotation_view(note, sizes) for note in gate.annotations] if sizes.annotations else []
    notes = [
        *_more(len(gate.details) - len(details), "more detail", "more details"),
        *_more(len(gate.evidence) - len(evidence), "more command output", "more command outputs"),
    ]
    return {
        "id": _token(gate.id),
        "verdict": marker,
        "verdict_label": label,
        "title": _clip_inline(gate.title, sizes.inline),
        "summary": _clip_inline(gate.summary, sizes.inline),
        "details": details,
        "evidence": evidence,
        "annotations": annotations,
        "notes": notes,
        "has_detail": bool(details or evidence or annotations or notes),
    }


def _test_view(index: int, test: FailedTest, sizes: _Sizes, dropped: frozenset[_Unit]) -> dict[str, object]:
    location = None if test.path is None else test.path if test.line is None else f"{test.path}:{test.line}"
    shown = test.message is not None and ("message", index, 0) not in dropped
    return {
        "name": _clip_inline(test.name, sizes.inline),
        "location": None if location is None else _clip_inline(location, sizes.inline),
        "message": _clip_block(test.message, sizes.message) if shown and test.message is not None else None,
    }


def _context(ledger: Ledger, sizes: _Sizes, dropped: frozenset[_Unit] = frozenset()) -> dict[str, object]:
    icon, label, reason = _VERDICT_TEXT[ledger.verdict]
    gates = [
        _gate_view(index, gate, sizes, dropped)
        for index, gate in enumerate(_cap(ledger.gates, sizes.rows))
        if ("gate", index, 0) not in dropped
    ]
    tests = [
        (index, test)
        for index, test in enumerate(_cap(ledger.failed_tests, sizes.rows))
        if ("test", index, 0) not in dropped
    ]
    hidden_messages = sum(1 for index, test in tests if test.message is not None and ("message", index, 0) in dropped)
    counts = ledger.counts
    return {
        "check_name": _clip_inline(ledger.check_name, sizes.inline),
        "comment_marker": comment_marker(ledger.check_name),
        "verdict": str(ledger.verdict),
        "verdict_label": label,
        "verdict_icon": icon,
        "verdict_reason": reason,
        "gates_label": _gates_label(ledger.gates),
        "counts": None
        if counts is None
        else {"executed": counts.executed, "passed": counts.passed, "failed": counts.failed, "skipped": counts.skipped},
        "counts_label": _counts_label(ledger),
        "deltas_label": _deltas_label(ledger),
        "baseline": _clip_inline(ledger.baseline, sizes.inline) if ledger.deltas is None else None,
        "head": None if ledger.head is None else _clip_inline(ledger.head, sizes.inline),
        "base": None if ledger.base is None else _clip_inline(ledger.base, sizes.inline),
        "stack": _clip_inline(ledger.stack, sizes.inline),
        "tool_version": _clip_inline(ledger.tool_version, sizes.inline),
        "gates": gates,
        "gates_notes": _more(len(ledger.gates) - len(gates), "more gate", "more gates"),
        "failed_tests": [_test_view(index, test, sizes, dropped) for index, test in tests],
        "failed_tests_label": f"Failing tests ({len(ledger.failed_tests):,})",
        "failed_tests_notes": [
            *_more(len(ledger.failed_tests) - len(tests), "more failing test", "more failing tests"),
            *_more(hidden_messages, "more failure message not shown", "more failure messages not shown"),
        ],
    }


def _drop_order(ledger: Ledger, sizes: _Sizes) -> list[_Unit]:
    """What goes first when an output is over its limit: what passing gates ran and said, then
    failure messages, then what failing (and unavailable) gates ran and said, then failing tests'
    rows, then gates' rows; the last of each first."""
    gates = _cap(ledger.gates, sizes.rows)
    tests = _cap(ledger.failed_tests, sizes.rows)

    def gate_detail(passing: bool) -> list[_Unit]:
        chosen = [index for index in reversed(range(len(gates))) if (gates[index].verdict in _PASSING) == passing]
        evidence: list[_Unit] = [
            ("evidence", index, number)
            for index in chosen
            for number in reversed(range(len(_cap(gates[index].evidence, sizes.rows))))
        ]
        details: list[_Unit] = [
            ("detail", index, number)
            for index in chosen
            for number in reversed(range(len(_cap(gates[index].details, sizes.rows))))
        ]
        return evidence + details

    return [
        *gate_detail(passing=True),
        *[("message", index, 0) for index in reversed(range(len(tests))) if tests[index].message is not None],
        *gate_detail(passing=False),
        *[("test", index, 0) for index in reversed(range(len(tests)))],
        *[("gate", index, 0) for index in reversed(range(len(gates)))],
    ]


def _fit(
    environment: SandboxedEnvironment,
    name: str,
    ledger: Ledger,
    sizes: _Sizes,
    *,
    limit: int,
    in_bytes: bool,
    too_big: Callable[[int], str] | None = None,
) -> str:
    """The rendering of `name` with the least detail dropped that is within `limit` (characters, or
    UTF-8 bytes). Binary search over how many units of `_drop_order` are dropped: the rendering with
    all of them dropped must fit, and the search only ever keeps a rendering that fits, so the
    answer fits even where dropping a unit adds a "… N more" line longer than the unit."""

    def measure(text: str) -> int:
        return len(text.encode("utf-8")) if in_bytes else len(text)

    def render(dropped: Sequence[_Unit]) -> str:
        return _render(environment, name, _context(ledger, sizes, frozenset(dropped)))

    text = render(())
    if measure(text) <= limit:
        return text
    order = _drop_order(ledger, sizes)
    best = render(order)
    if measure(best) > limit:
        unit = "bytes" if in_bytes else "characters"
        raise LimitError(
            too_big(measure(best))
            if too_big
            else f"{name} renders {measure(best):,} {unit} with every detail dropped, over GitHub's limit of"
            f" {limit:,}: shorten the template"
        )
    low, high = 0, len(order)  # with `low` units dropped the rendering is over; with `high`, it is `best`
    while high - low > 1:
        middle = (low + high) // 2
        text = render(order[:middle])
        if measure(text) <= limit:
            high, best = middle, text
        else:
            low = middle
    return best


# --- the outputs ----------------------------------------------------------------------------------


def render_comment(ledger: Ledger, templates_dir: Path | None = None) -> str:
    """The sticky pull-request comment (`comment.md.j2`), within 65,536 characters."""
    name = "comment.md.j2"
    text = _fit(_environment(templates_dir), name, ledger, _COMMENT_SIZES, limit=COMMENT_LIMIT, in_bytes=False)
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
    title = _render(environment, "check_title.txt.j2", _context(ledger, _COMMENT_SIZES))
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


def render_job_summary(ledger: Ledger, templates_dir: Path | None = None) -> str:
    """The step's job summary (`job_summary.md.j2`), within 1 MiB."""
    return _fit(
        _environment(templates_dir),
        "job_summary.md.j2",
        ledger,
        _JOB_SUMMARY_SIZES,
        limit=JOB_SUMMARY_LIMIT,
        in_bytes=True,
    )


def render_report(ledger: Ledger, templates_dir: Path | None = None) -> str:
    """The full quality-gate report (`report.md.j2`): every gate with all its evidence and
    annotations, every failing test with its whole message. A file, not a GitHub field: no limit."""
    return _render(_environment(templates_dir), "report.md.j2", _context(ledger, _REPORT_SIZES))


def fit_annotation(annotation: Annotation) -> Annotation:
    """An annotation within GitHub's limits: a title of 255 characters, a message of 64 KB. Both are
    plain text on GitHub (not Markdown), so they are cut, with what was left out counted."""
    title = annotation.title
    if title is not None and len(title) > ANNOTATION_TITLE_LIMIT:
        title = title[: ANNOTATION_TITLE_LIMIT - 1] + "…"
    message = annotation.message
    encoded = message.encode("utf-8")
    if len(encoded) > ANNOTATION_MESSAGE_LIMIT:
        # The note is sized for the most characters that can be left out, so it always fits.
        room = ANNOTATION_MESSAGE_LIMIT - len(f"\n… {len(message):,} more characters".encode())
        kept = encoded[:room].decode("utf-8", "ignore")
        message = f"{kept}\n… {len(message) - len(kept):,} more characters"
    return replace(annotation, title=title, message=message)
