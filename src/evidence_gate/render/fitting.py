"""GitHub's size limits hold whatever the ledger holds. Each output first shows a bounded amount of
each value (`_Sizes` in `context`: presentation), then, if the rendered text is still over its
limit, detail is dropped from the data in a planned order (`_drop_order`) and the template rendered
again; rendered text is never cut. Whatever is dropped is counted on a visible "… N more" line.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

from evidence_gate.errors import EvidenceGateError
from evidence_gate.ledger.model import Annotation, GateVerdict, Ledger
from evidence_gate.render.attention import Links
from evidence_gate.render.context import _cap, _context, _Sizes, _Unit
from evidence_gate.render.coverage_view import COVERAGE
from evidence_gate.render.environment import BoundedSandbox, _render

COMMENT_LIMIT = 65_536  # characters: an issue or pull-request comment body
CHECK_RUN_LIMIT = 65_535  # bytes (UTF-8): a check run's output summary, and its output text, each
ANNOTATION_TITLE_LIMIT = 255  # characters
ANNOTATION_MESSAGE_LIMIT = 64 * 1024  # bytes (UTF-8)
JOB_SUMMARY_LIMIT = 1024 * 1024  # bytes (UTF-8): one step's $GITHUB_STEP_SUMMARY

_PASSING = frozenset(
    {
        GateVerdict.PASS,
        GateVerdict.REVIEW,
        GateVerdict.NOT_APPLICABLE,
        GateVerdict.OFF,
        GateVerdict.INFO,
        GateVerdict.UNVERIFIABLE,
    }
)


class LimitError(EvidenceGateError):
    """An output that is over GitHub's limit even with every droppable detail dropped."""


def _drop_order(ledger: Ledger, sizes: _Sizes) -> list[_Unit]:
    """What goes first when an output is over its limit: what passing gates ran and said, then
    failure messages, then what failing (and unavailable) gates ran and said, then failing tests'
    rows, then gates' rows; the last of each first. Last of all, the paths listed under the author's
    coverage choices; the choices themselves and the coverage decision are never dropped."""
    gates = _cap(ledger.gates, sizes.rows)
    tests = _cap(ledger.failed_tests, sizes.rows)

    def gate_detail(passing: bool) -> list[_Unit]:
        chosen = [index for index in reversed(range(len(gates))) if (gates[index].verdict in _PASSING) == passing]
        excerpts: list[_Unit] = [
            ("excerpt", index, number)
            for index in chosen
            for number in reversed(range(len(_cap(gates[index].excerpts, sizes.rows))))
        ]
        data: list[_Unit] = [("data", index, 0) for index in chosen if gates[index].data is not None]
        details: list[_Unit] = [
            ("detail", index, number)
            for index in chosen
            for number in reversed(range(len(_cap(gates[index].details, sizes.rows))))
        ]
        return excerpts + data + details

    return [
        *gate_detail(passing=True),
        *[("message", index, 0) for index in reversed(range(len(tests))) if tests[index].message is not None],
        *gate_detail(passing=False),
        *[("test", index, 0) for index in reversed(range(len(tests)))],
        *[("gate", index, 0) for index in reversed(range(len(gates)))],
        *[
            ("paths", index, 0)
            for index, gate in enumerate(ledger.gates)
            if gate.id == COVERAGE and gate.data is not None
        ],
    ]


def _fit(
    environment: BoundedSandbox,
    name: str,
    ledger: Ledger,
    sizes: _Sizes,
    *,
    limit: int,
    in_bytes: bool,
    too_big: Callable[[int], str] | None = None,
    links: Links | None = None,
) -> str:
    """The rendering of `name` with the least detail dropped that is within `limit` (characters, or
    UTF-8 bytes). Binary search over how many units of `_drop_order` are dropped: the rendering with
    all of them dropped must fit, and the search only ever keeps a rendering that fits, so the
    answer fits even where dropping a unit adds a "… N more" line longer than the unit."""

    def measure(text: str) -> int:
        return len(text.encode("utf-8")) if in_bytes else len(text)

    def render(dropped: Sequence[_Unit]) -> str:
        return _render(environment, name, _context(ledger, sizes, frozenset(dropped), links).variables())

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
