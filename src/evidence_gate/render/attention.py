"""The comment's first screen: the verdict's glance line (the counts, with the changes against the
baseline) and one line for each thing that needs the pull request's author, in plain words first
with the tool's id beside them, what to do, and links to the places on the head commit.

What needs the author, in this order: each failed, missing or unavailable check and gate (the
numbered checks by number, then the others); each kind of relaxing edit gate integrity tagged for
review; the changed lines no test runs, when the coverage gate did not already say so. The words
and what to do are `remedies.yaml`'s; places come from the ledger (a failing test's file and line,
a gate's annotations), at most PLACES of each line, the rest counted.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from urllib.parse import quote

from evidence_gate.escaping import _Untrusted
from evidence_gate.ledger.catalog import CHECKS, Check, first_error
from evidence_gate.ledger.model import BLOCKING, Annotation, FailedTest, GateResult, GateVerdict, Ledger
from evidence_gate.render.remedies import Remedies
from evidence_gate.wording import plural

PLACES = 5  # places listed under one line of the first screen; the full report has the rest
UNCOVERED_TITLE = "Not run by any test"  # the coverage gate's annotation title for a changed line no test ran

_SERVER = re.compile(r"https?://[A-Za-z0-9.-]+(?::\d{1,5})?(?:/[A-Za-z0-9._~-]+)*")
_REPOSITORY = re.compile(r"[A-Za-z0-9_.-]{1,100}/[A-Za-z0-9_.-]{1,100}")
_GATE_ID = re.compile(r"[a-z][a-z0-9-]{0,63}")
_SHA = re.compile(r"[0-9a-f]{40}|[0-9a-f]{64}")


@dataclass(frozen=True, kw_only=True)
class Links:
    """Where GitHub shows a file of the head commit: `<server>/<owner>/<repo>/blob/<sha>/<path>`
    (the server's URL, so GitHub Enterprise Server works too)."""

    server: str
    repository: str
    head: str

    def blob(self, path: str, start: int | None = None, end: int | None = None) -> str:
        """A link to the file, at its lines when known. Every character of the path a link could
        end at (spaces, parentheses, brackets) is percent-encoded."""
        anchor = "" if start is None else f"#L{start}" if end is None or end == start else f"#L{start}-L{end}"
        return f"{self.server}/{self.repository}/blob/{self.head}/{quote(path, safe='/')}{anchor}"


def links_for(server: str | None, repository: str | None, head: str | None) -> Links | None:
    """Links for a run on GitHub, or None when any part is missing or not of its shape (a local run,
    an environment someone else set): then places are named, not linked."""
    if server is None or repository is None or head is None:
        return None
    server = server.rstrip("/")
    if not (_SERVER.fullmatch(server) and _REPOSITORY.fullmatch(repository) and _SHA.fullmatch(head)):
        return None
    if ".." in repository.split("/"):
        return None
    return Links(server=server, repository=repository, head=head)


@dataclass(frozen=True, kw_only=True)
class PlaceView:
    label: _Untrusted  # `shop/cart.py lines 8-10`, a failing test's name
    url: str | None  # built by `Links` from checked parts; None without links or a path
    note: _Untrusted | None  # a failing test's first message line


@dataclass(frozen=True, kw_only=True)
class AttentionView:
    icon: str
    words: str  # trusted: remedies.yaml's plain words
    ident: str  # trusted: the tool's name for it, beside the words (`check 3`, `still-green`, `RH-1`)
    said: _Untrusted | None  # what the gate said (its first error or headline)
    todo: str  # trusted: what to do, printed as Markdown
    places: list[PlaceView]
    more: int  # places left out, in the full report


def attention(
    ledger: Ledger, remedies: Remedies, links: Links | None, clip: Callable[[str], _Untrusted]
) -> list[AttentionView]:
    """Every line of the first screen below the glance, in order (see the module's docstring)."""
    by_id = {gate.id: gate for gate in ledger.gates}
    numbered = [(check, gate) for check in CHECKS if (gate := by_id.get(check.gate)) is not None]
    numbered_ids = {check.gate for check in CHECKS}
    others = [gate for gate in ledger.gates if gate.id not in numbered_ids]
    lines: list[AttentionView] = []
    for check, gate in [*numbered, *[(None, gate) for gate in others]]:
        if gate.verdict in BLOCKING:
            lines.append(_blocking(gate, check, ledger, remedies, links, clip))
    for gate in others:
        if gate.verdict is GateVerdict.REVIEW:
            lines += _review(gate, remedies, links, clip)
    coverage = by_id.get("coverage")
    if coverage is not None and coverage.verdict not in BLOCKING:
        uncovered = [note for note in coverage.annotations if note.title == UNCOVERED_TITLE]
        if uncovered:
            shown = _places([_annotated(note, links, clip) for note in uncovered])
            lines.append(
                AttentionView(
                    icon="\N{LARGE YELLOW SQUARE}",
                    words=remedies.words("coverage", "uncovered"),
                    ident="check 4",
                    said=None,
                    todo=remedies.todo("coverage", "uncovered"),
                    places=shown,
                    more=len(uncovered) - len(shown),
                )
            )
    return lines


def _blocking(
    gate: GateResult,
    check: Check | None,
    ledger: Ledger,
    remedies: Remedies,
    links: Links | None,
    clip: Callable[[str], _Untrusted],
) -> AttentionView:
    verdict = str(gate.verdict)
    if gate.id == "evidence" and ledger.failed_tests:
        found = [_failed(test, links, clip) for test in ledger.failed_tests]
        total = len(ledger.failed_tests)
    else:
        notes = sorted(gate.annotations, key=lambda note: note.level != "failure")  # failures first, stable
        found = [_annotated(note, links, clip) for note in notes]
        total = len(notes)
    shown = _places(found)
    return AttentionView(
        icon="\N{CROSS MARK}",
        # a numbered check's title is ours; another gate is named by its id, whose shape the ledger's schema fixes
        words=remedies.words(gate.id, verdict, check.title if check is not None else ""),
        ident=f"check {check.number}" if check is not None else remedies.ident(_gate_id(gate.id), verdict),
        # with places listed, the headline says what they add up to; without, the first error is the news
        said=clip((gate.headline if shown else first_error(gate)).rstrip(".")),
        todo=remedies.for_gate(gate.id, gate.verdict),
        places=shown,
        more=total - len(shown),
    )


def _review(
    gate: GateResult, remedies: Remedies, links: Links | None, clip: Callable[[str], _Untrusted]
) -> list[AttentionView]:
    """One line for each set of tags read for review (`RH-1`, `RH-4, RH-5`), with its hunks."""
    by_tags: dict[str, list[Annotation]] = {}
    for note in gate.annotations:
        if note.level == "warning" and note.title:
            by_tags.setdefault(note.title, []).append(note)
    lines = []
    for tags, notes in by_tags.items():
        shown = _places([_annotated(note, links, clip) for note in notes])
        ids = [tag.strip() for tag in tags.split(",")]
        lines.append(
            AttentionView(
                icon="\N{WARNING SIGN}\N{VARIATION SELECTOR-16}",
                words=_sentence(" and ".join(remedies.tag_words(tag) for tag in ids)),
                ident=", ".join(ids),
                said=None,
                todo=remedies.todo(gate.id, "review"),
                places=shown,
                more=len(notes) - len(shown),
            )
        )
    return lines


def _gate_id(gate_id: str) -> str:
    """A gate's id as the first screen may name it: one of the shape the ledger's schema allows, or
    no name (a ledger built without validation could hold a marker in it)."""
    return gate_id if _GATE_ID.fullmatch(gate_id) else "a gate"


def _sentence(words: str) -> str:
    return words[:1].upper() + words[1:]


def _places(found: Sequence[PlaceView]) -> list[PlaceView]:
    return list(found[:PLACES])


def _annotated(note: Annotation, links: Links | None, clip: Callable[[str], _Untrusted]) -> PlaceView:
    lines = f"line {note.line}" if note.end_line == note.line else f"lines {note.line}-{note.end_line}"
    url = None if links is None else links.blob(note.path, note.line, note.end_line)
    return PlaceView(label=clip(f"{note.path} {lines}"), url=url, note=None)


def _failed(test: FailedTest, links: Links | None, clip: Callable[[str], _Untrusted]) -> PlaceView:
    url = None if links is None or test.path is None else links.blob(test.path, test.line)
    first = next((line.strip() for line in (test.message or "").splitlines() if line.strip()), None)
    return PlaceView(label=clip(test.name), url=url, note=None if first is None else clip(first))


def glance(ledger: Ledger) -> str:
    """The counts in one line, with the changes against the baseline where there is one: the tests,
    the changed lines' coverage and the new type errors and warnings. Numbers only: trusted."""
    parts = []
    counts = ledger.counts
    if counts is None:
        parts.append("**Tests:** no counts read")
    else:
        tests = (
            f"**Tests:** {plural(counts.executed, 'test')} ran: {counts.passed:,} passed, {counts.failed:,} failed"
            + (f", {counts.skipped:,} skipped" if counts.skipped else "")
        )
        deltas = ledger.deltas
        if deltas is not None and deltas.executed:
            sign = "+" if deltas.executed > 0 else "\N{MINUS SIGN}"
            tests += f" ({sign}{abs(deltas.executed):,} against the base)"
        parts.append(tests)
    by_id = {gate.id: gate for gate in ledger.gates}
    coverage = by_id.get("coverage")
    number = getattr(coverage.data, "number", None) if coverage is not None else None
    if isinstance(number, str) and re.fullmatch(r"\d{1,3}(?:\.\d{1,2})?", number):
        parts.append(f"**Changed lines covered:** {number}%")
    for gate_id, words in (("type-check", "New type errors"), ("lint", "New warnings")):
        gate = by_id.get(gate_id)
        located = getattr(gate.data, "located", None) if gate is not None else None
        new = getattr(located, "new", None)
        if isinstance(new, int) and not isinstance(new, bool):
            parts.append(f"**{words}:** {new:,}")
    return " \N{MIDDLE DOT} ".join(parts)
