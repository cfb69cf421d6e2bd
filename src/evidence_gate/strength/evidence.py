"""What one run of a test file showed: the command, its exit code, the counts the summary parsers
read, the first load error, the first runtime error on a symbol the change adds (and whether an
assertion failed before it), and the head and tail of its output. Read from the run's log once.
"""

from __future__ import annotations

import functools
import json
import re
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources

import jsonschema

from evidence_gate.documents import load_yaml, schema_message
from evidence_gate.errors import ConfigError
from evidence_gate.markers import MarkerKind, MarkerSet, scan_log
from evidence_gate.model import Counts
from evidence_gate.runner import CommandRun
from evidence_gate.summary.read import numbered_lines, read_source

EXCERPT_LINES = 15
EXCERPT_CHARS = 300
_WORD = re.compile(r"[A-Za-z_$][\w$]*")


@dataclass(frozen=True, kw_only=True)
class RuntimeErrors:
    missing: tuple[re.Pattern[str], ...]  # with a `symbol` group
    assertion: tuple[re.Pattern[str], ...]


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
    for number, line in numbered_lines(run.output):
        shown = line[:EXCERPT_CHARS]
        if number <= EXCERPT_LINES:
            head.append(shown)
        else:
            tail.append(shown)
        if errors is not None and missing is None and not asserted:
            asserted = any(pattern.search(line) for pattern in errors.assertion)
            missing = None if asserted else _missing(line, errors, new_symbols)
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
    )


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


@functools.cache
def runtime_errors() -> Mapping[str, RuntimeErrors]:
    source = "runtime_errors.yaml"
    package = resources.files("evidence_gate.strength")
    document = load_yaml(package.joinpath(source).read_bytes(), source, ConfigError)
    schema = json.loads(package.joinpath("runtime_errors.schema.json").read_text("utf-8"))
    failures = sorted(jsonschema.Draft202012Validator(schema).iter_errors(document), key=lambda e: list(e.path))
    if failures:
        raise ConfigError(f"{source}: {schema_message(failures[0])}")
    try:
        return {
            language: RuntimeErrors(
                missing=tuple(re.compile(pattern) for pattern in entry["missing"]),
                assertion=tuple(re.compile(pattern) for pattern in entry["assertion"]),
            )
            for language, entry in document["languages"].items()
        }
    except re.error as error:
        raise ConfigError(f"{source}: {error}") from error
