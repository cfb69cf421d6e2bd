"""Check 9, references: every symbol the change's added lines reference through the stack
adapter's reference patterns (a localisation key, a string resource, an i18n key, a generated
endpoint) exists in the adapter's truth-source files at head. A dangling reference fails, with its
file and line: `NSLocalizedString("greeting", …)` against `Localizable.strings`,
`R.string.app_name` or `@string/app_name` against `strings.xml`, `t('home.title')` against the
i18n JSON.

Mandatory when an adapter of the project has truth sources and the change adds references; not
applicable otherwise, saying which. A repository with no truth-source file at all (an app that is
not localised) has nothing to check against: not applicable too, saying so.

Every reference the change adds is judged, however many: the payload lists the first
MAX_REFERENCES (the dangling ones first) and counts them all, and the counts decide.
"""

from __future__ import annotations

from dataclasses import dataclass

import pathspec

from evidence_gate.effects import Effects
from evidence_gate.facts import Facts
from evidence_gate.gates.gate import Earlier, Gate
from evidence_gate.ledger.model import Annotation, GateResult, GateVerdict
from evidence_gate.ledger.payloads.references import MAX_REFERENCES, Reference, ReferencesData
from evidence_gate.model import FileKind
from evidence_gate.quality.truth_sources import MAX_SOURCE_BYTES, Unreadable, keys
from evidence_gate.settings import Settings
from evidence_gate.stacks.table import Adapter, TruthSources
from evidence_gate.wording import plural

ID = "references"
TITLE = "References"
MAX_SOURCES = 2_000
_SKIPPED_KINDS = frozenset({FileKind.DOCS, FileKind.SNAPSHOT})


@dataclass(frozen=True, kw_only=True)
class ReferencesFacts:
    data: ReferencesData | None
    reason: str = ""  # why there is nothing to check


def _adapters(facts: Facts) -> list[tuple[Adapter, str, TruthSources]]:
    """The project's adapters that have truth sources, each with its root."""
    found = [(facts.adapter, facts.detection.primary.root)]
    found += [
        (adapter, match.root)
        for match in facts.detection.matches
        if (adapter := facts.classifier.table.adapters.get(match.adapter_id)) is not None
    ]
    unique = {
        (adapter.id, root): (adapter, root, adapter.truth_sources)
        for adapter, root in found
        if adapter.truth_sources is not None
    }
    return list(unique.values())


def _within(path: str, root: str) -> bool:
    return root in ("", ".") or path == root or path.startswith(root.rstrip("/") + "/")


def gather(facts: Facts, settings: Settings, effects: Effects, earlier: Earlier) -> ReferencesFacts:
    if facts.change is None:
        return ReferencesFacts(data=None, reason="no base was given, so there is no change whose references to check")
    adapters = _adapters(facts)
    if not adapters:
        return ReferencesFacts(
            data=None,
            reason=f"the {facts.adapter.id} stack has no truth sources (localisation files, string resources)",
        )
    added: list[tuple[str, int, str, str]] = []  # path, line, key, adapter id
    for changed in facts.change.files:
        if changed.kind in _SKIPPED_KINDS:
            continue
        for adapter, root, truth in adapters:
            if not _within(changed.path, root):
                continue
            for line in changed.added_lines:
                for pattern in truth.references:
                    for found in pattern.finditer(line.text):
                        added.append((changed.path, line.number, found.group("ref"), adapter.id))
    if not added:
        names = ", ".join(sorted({adapter.id for adapter, _, _ in adapters}))
        return ReferencesFacts(data=None, reason=f"the change adds no reference to a truth source ({names})")
    git, head = effects.checkout(), facts.change.head
    files = git.files_at(head)
    defined: set[str] = set()
    sources: list[str] = []
    unreadable: list[str] = []
    used = {adapter for *_, adapter in added}
    referred = {key for _, _, key, _ in added}  # of each source's keys, only these are kept
    skipped: set[str] = set()  # truth sources past MAX_SOURCES: a key they define is not known
    for adapter, root, truth in adapters:
        if adapter.id not in used:
            continue
        spec = pathspec.GitIgnoreSpec.from_lines(_anywhere(truth))
        for path in files:
            if not _within(path, root) or path in sources or not spec.match_file(path):
                continue
            if len(sources) >= MAX_SOURCES:
                skipped.add(path)
                continue
            content = git.read_at(head, path, MAX_SOURCE_BYTES + 1)  # one past the cap: keys() refuses it
            if content is None:
                continue
            try:
                defined |= keys(path, content, referred)
                sources.append(path)
            except Unreadable as problem:
                unreadable.append(f"{path}: {problem}")
    if skipped:  # a reference to none of those read is then not known to dangle
        unreadable.append(f"{plural(len(skipped), 'more truth source')}: not read, past the first {MAX_SOURCES:,}")
    if not sources and not unreadable:
        return ReferencesFacts(
            data=None,
            reason="the repository has no truth-source file to check the change's references against"
            " (it is not localised)",
        )
    references = [
        Reference(path=path, line=number, key=key, found=key in defined)
        for path, number, key, _ in dict.fromkeys(added)
    ]
    return ReferencesFacts(
        data=ReferencesData(
            sources=tuple(sources),
            unreadable=tuple(unreadable),
            references=_listed(references),
            total=len(references),
            dangling_total=sum(1 for item in references if not item.found),
        )
    )


def _listed(references: list[Reference]) -> tuple[Reference, ...]:
    """The references the payload lists, in the change's order: each dangling one first, then
    defined ones up to MAX_REFERENCES. The cap bounds what is shown; the totals are judged."""
    dangling = [index for index, item in enumerate(references) if not item.found][:MAX_REFERENCES]
    defined = [index for index, item in enumerate(references) if item.found][: MAX_REFERENCES - len(dangling)]
    return tuple(references[index] for index in sorted(dangling + defined))


def _anywhere(truth: TruthSources) -> list[str]:
    """The adapter's truth-source globs, matched at any depth: an app's `res/values/strings.xml`
    sits under `app/src/main/`."""
    return [glob if glob.startswith(("/", "**/")) else f"**/{glob}" for glob in truth.patterns]


def judge(facts: ReferencesFacts, settings: Settings) -> GateResult:
    data = facts.data
    if data is None:
        return GateResult(id=ID, title=TITLE, verdict=GateVerdict.NOT_APPLICABLE, headline=facts.reason)
    dangling = data.dangling
    # the counts are over every reference the change adds; the list may hold only the first of them
    total, dangling_total = max(data.total, len(data.references)), max(data.dangling_total, len(dangling))
    unlisted = dangling_total - len(dangling)
    details = tuple(f"{item.path}:{item.line}: {item.key!r} is not defined in any truth source" for item in dangling)
    if unlisted:
        details += (f"\N{HORIZONTAL ELLIPSIS} {plural(unlisted, 'more dangling reference')} not listed",)
    annotations = tuple(
        Annotation(
            path=item.path,
            line=item.line,
            end_line=item.line,
            level="failure",
            message=f"{item.key!r} is not defined in any truth source at head",
            title="Check 9: dangling reference",
        )
        for item in dangling
    )
    if dangling_total and data.unreadable:
        unread = plural(len(data.unreadable), "truth source")
        headline = f"{plural(dangling_total, 'reference')} not found, and {unread} could not be read"
        return GateResult(
            id=ID,
            title=TITLE,
            verdict=GateVerdict.UNAVAILABLE,
            headline=headline,
            details=details + data.unreadable,
            annotations=annotations,
            data=data,
        )
    if dangling_total:
        headline = f"{plural(dangling_total, 'dangling reference')} of {total:,}"
        return GateResult(
            id=ID,
            title=TITLE,
            verdict=GateVerdict.FAIL,
            headline=headline,
            details=details,
            annotations=annotations,
            data=data,
        )
    headline = f"all {plural(total, 'reference')} defined in {plural(len(data.sources), 'truth source')}"
    return GateResult(id=ID, title=TITLE, verdict=GateVerdict.PASS, headline=headline, data=data)


GATE: Gate[ReferencesFacts] = Gate(id=ID, title=TITLE, gather=gather, judge=judge, data=ReferencesData)
