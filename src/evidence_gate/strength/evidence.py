"""What one run of a test file showed: the command, its exit code, the counts the summary parsers
read, the first load error, the first runtime error on a symbol the change adds (and whether an
assertion failed before it), the line that says why a failing run failed, and the head and tail of
its output. Read from the run's log once.
"""

from __future__ import annotations

import functools
import re
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from evidence_gate.documents import shipped_table
from evidence_gate.errors import ConfigError
from evidence_gate.markers import MarkerKind, MarkerSet, scan_log
from evidence_gate.model import Counts
from evidence_gate.runner import CommandRun
from evidence_gate.summary.read import numbered_lines, read_source

EXCERPT_LINES = 15
EXCERPT_CHARS = 300
ERROR_CHARS = 200  # the error line quoted in a reason
MAX_NAMED = 20  # missing names kept from one run's output
_WORD = re.compile(r"[A-Za-z_$][\w$]*")


@dataclass(frozen=True, kw_only=True)
class RuntimeErrors:
    missing: tuple[re.Pattern[str], ...]  # with a `symbol` group
    assertion: tuple[re.Pattern[str], ...]
    load: tuple[re.Pattern[str], ...] = ()  # the line that says why a run did not load, from its match
    fallback: re.Pattern[str] | None = None  # any error-looking line, for a language with no `load` match
    coverage_threshold: tuple[re.Pattern[str], ...] = ()  # a runner's own coverage threshold failing the run


@dataclass(frozen=True, kw_only=True)
class RunEvidence:
    command: str
    exit_code: int
    timed_out: bool
    seconds: float
    counts: Counts | None
    count_reason: str | None  # why no counts were read
    load_error: str | None  # the first line a load-error marker matched
    missing_symbol: str | None  # the new symbol a runtime error named, before any assertion failed
    head: tuple[str, ...]
    tail: tuple[str, ...]
    error_line: str | None = None  # a failing run's line that says why (see `_ErrorLine`), else None
    threshold_line: str | None = None  # a failing run's coverage-threshold line, the only failure it printed

    @property
    def passed_but_for_coverage(self) -> bool:
        """Every test it counted passed, and only the runner's coverage threshold failed it: one test
        file alone covers too little for a project's global threshold, which says nothing of it."""
        counts = self.counts
        return (
            self.exit_code != 0
            and not self.timed_out
            and self.threshold_line is not None
            and counts is not None
            and counts.executed > 0
            and counts.failed == 0
            and self.load_error is None
        )

    def document(self) -> dict[str, object]:
        counts = self.counts
        return {
            "command": self.command,
            "exit_code": self.exit_code,
            "timed_out": self.timed_out,
            "seconds": round(self.seconds, 3),
            "counts": None
            if counts is None
            else {"passed": counts.passed, "failed": counts.failed, "skipped": counts.skipped},
            "count_reason": self.count_reason,
            "load_error": self.load_error,
            "missing_symbol": self.missing_symbol,
            "error_line": self.error_line,
            "threshold_line": self.threshold_line,
            "head": list(self.head),
            "tail": list(self.tail),
        }


def read_run(
    run: CommandRun,
    parsers: tuple[str, ...],
    markers: MarkerSet,
    errors: RuntimeErrors | None,
    new_symbols: frozenset[str],
    *,
    command: str,
) -> RunEvidence:
    """`command` is what ran, as the user would type it (the runner's argument vector wraps it in a shell)."""
    summary = read_source(run.output, parsers)
    loads = scan_log(run.output, markers).of(MarkerKind.LOAD_ERROR)
    head: list[str] = []
    tail: deque[str] = deque(maxlen=EXCERPT_LINES)
    missing: str | None = None
    asserted = False
    why = _ErrorLine(errors) if run.exit_code != 0 and errors is not None else None
    thresholds = errors.coverage_threshold if run.exit_code != 0 and errors is not None else ()
    threshold: str | None = None
    for number, line in numbered_lines(run.output):
        shown = line[:EXCERPT_CHARS]
        if number <= EXCERPT_LINES:
            head.append(shown)
        else:
            tail.append(shown)
        if errors is not None and missing is None and not asserted:
            asserted = any(pattern.search(line) for pattern in errors.assertion)
            missing = None if asserted else _missing(line, errors, new_symbols)
        if why is not None:
            why.read(line)
        if threshold is None and any(pattern.search(line) for pattern in thresholds):
            threshold = line.strip()[:EXCERPT_CHARS]
    return RunEvidence(
        command=command,
        exit_code=run.exit_code,
        timed_out=run.timed_out,
        seconds=run.seconds,
        counts=summary.counts,
        count_reason=summary.reason,
        load_error=loads[0].line.strip()[:EXCERPT_CHARS] if loads else None,
        missing_symbol=missing,
        head=tuple(head),
        tail=tuple(tail),
        error_line=None if why is None else why.line(),
        threshold_line=threshold,
    )


class _ErrorLine:
    """The line a failing run's reason quotes: the first a `load` pattern of its language matches,
    else the last the `fallback` matches, else its last line; from where the match starts (no
    `E   ` or `node:internal` prefix), and bounded. A run that printed nothing has none."""

    def __init__(self, errors: RuntimeErrors) -> None:
        self._errors = errors
        self._first: str | None = None
        self._fallback: str | None = None
        self._last: str | None = None

    def read(self, line: str) -> None:
        if self._first is not None:
            return
        text = line.strip()
        if not text:
            return
        self._last = text
        for pattern in self._errors.load:
            found = pattern.search(text)
            if found:
                self._first = text[found.start() :]
                return
        found = self._errors.fallback.search(text) if self._errors.fallback is not None else None
        if found:
            self._fallback = text[found.start() :]

    def line(self) -> str | None:
        chosen = (self._first or self._fallback or self._last or "").strip()
        if not chosen:
            return None
        return chosen if len(chosen) <= ERROR_CHARS else chosen[: ERROR_CHARS - 1].rstrip() + "…"


def why_not_loaded(output: Path, errors: RuntimeErrors) -> tuple[str | None, tuple[str, ...]]:
    """Of a run that did not load: the line that says why (as a failing run's `error_line`), and the
    names its `missing` patterns found, each once, in the order the run printed them."""
    why = _ErrorLine(errors)
    named: dict[str, None] = {}
    for _, line in numbered_lines(output):
        why.read(line)
        for pattern in errors.missing:
            found = pattern.search(line)
            if found and len(named) < MAX_NAMED:
                named[found.group("symbol")] = None
    return why.line(), tuple(named)


def _missing(line: str, errors: RuntimeErrors, new_symbols: frozenset[str]) -> str | None:
    for pattern in errors.missing:
        found = pattern.search(line)
        if found and found.group("symbol") in new_symbols:
            return found.group("symbol")
    return None


def new_symbols(head_texts: Mapping[str, str], base_texts: Mapping[str, str]) -> frozenset[str]:
    """The names the change adds to its production files: words of their head content that none of
    their base content holds (a file the change adds counts by its name too: `import shop.tax`)."""
    before = {word for text in base_texts.values() for word in _WORD.findall(text)}
    after = {word for text in head_texts.values() for word in _WORD.findall(text)}
    after |= {path.rsplit("/", 1)[-1].split(".", 1)[0] for path in head_texts if path not in base_texts}
    return frozenset(after - before)


def errors_for(language: str) -> RuntimeErrors:
    """A language's entry of the table; for a language it does not name, the fallback alone."""
    fallback, languages = _table()
    return languages.get(language) or RuntimeErrors(missing=(), assertion=(), fallback=fallback)


def runtime_errors() -> Mapping[str, RuntimeErrors]:
    return _table()[1]


@functools.cache
def _table() -> tuple[re.Pattern[str], Mapping[str, RuntimeErrors]]:
    source = "runtime_errors.yaml"
    document = shipped_table("evidence_gate.strength", source)
    try:
        fallback = re.compile(document["fallback"])
        thresholds = tuple(re.compile(pattern) for pattern in document.get("coverage_threshold", ()))
        return fallback, {
            language: RuntimeErrors(
                missing=tuple(re.compile(pattern) for pattern in entry.get("missing", ())),
                assertion=tuple(re.compile(pattern) for pattern in entry.get("assertion", ())),
                load=tuple(re.compile(pattern) for pattern in entry.get("load", ())),
                fallback=fallback,
                coverage_threshold=thresholds,
            )
            for language, entry in document["languages"].items()
        }
    except re.error as error:
        raise ConfigError(f"{source}: {error}") from error
