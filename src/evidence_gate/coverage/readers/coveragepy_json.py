"""coverage.py's JSON report (`coverage json`, with `--show-contexts` for the contexts).

`files` maps each file (as coverage.py names it: relative to where it ran, or absolute) to its
`executed_lines` and `missing_lines`; excluded lines are not measured. With `--show-contexts`, each
executed line lists the contexts that ran it: the test (`tests/test_cart.py::test_total|run` from
pytest-cov's `--cov-context=test`, `tests.test_cart.test_total` from `dynamic_context =
test_function`), or `""` for code run outside any test (a module's top level, run on import).

The report is streamed (`json_report.py`), never loaded: a file not wanted is skipped unbuilt, a
wanted one's lines go straight into its sieve, so a report of any size up to `MAX_JSON_BYTES` costs
the memory of the change's lines. Its per-function and per-class sections (coverage.py 7.5) repeat
the file's lines and are skipped.
"""

from __future__ import annotations

import re
from pathlib import Path

from evidence_gate.coverage.model import Events, FileHits, Keep, Sieve, UnreadableReport
from evidence_gate.coverage.readers.base import Reader
from evidence_gate.coverage.readers.json_report import (
    entries,
    expect_object,
    kind,
    line_number,
    numbers,
    skip_value,
    streamed,
)
from evidence_gate.summary.json_stream import JsonEvents, skip

# coverage.py writes `meta` first: `{"meta": {"format": 3, "version": "7.6.1", ...`. A log of JSON
# lines (go test -json) that merely mentions these words starts otherwise.
_START = re.compile(rb'\A\s*\{\s*"meta"\s*:\s*\{[^{}]*"version"\s*:')
# A context's line, as coverage.py writes it: a JSON key of ASCII digits (str.isdigit() also takes
# "²", which int() refuses, and int() refuses more than 4,300 digits).
_LINE = re.compile(r"[0-9]{1,10}")
_LINES = {"missing_lines": 0, "executed_lines": 1}  # a listed line's hit count


def recognises(head: bytes) -> bool:
    return _START.match(head.lstrip(b"\xef\xbb\xbf")) is not None and b'"files"' in head


def read(path: Path, keep: Keep) -> Events:
    with streamed(path) as events:
        expect_object(kind(events), "the JSON report")
        seen = False
        for key in entries(events):
            opened = kind(events)
            if key != "files":
                skip_value(events, opened)
                continue
            expect_object(opened, "`files`")
            seen = True
            for name in entries(events):
                expect_object(kind(events), f"the entry of {name[:100]!r}")
                yield _file(events, name, keep(name))
        if not seen:
            raise UnreadableReport("`files` is not an object")


def _file(events: JsonEvents, name: str, sieve: Sieve | None) -> FileHits:
    """One file's entry, its start read: the lines its sieve keeps, with the contexts that ran them,
    and every context that ran any of its lines. A file not wanted is skipped unread."""
    hits = FileHits(name=name, sieve=sieve)
    if sieve is None:
        skip(events)
        return hits
    shown = name[:100]
    for key in entries(events):
        opened = kind(events)
        if key in _LINES:
            if opened != "start_array":
                raise UnreadableReport(f"{key} of {shown!r} is not a list")
            for line in numbers(events, f"a line of {shown!r}"):
                hits.add(line, _LINES[key])
        elif key == "contexts" and opened != "null":  # null: recorded without contexts
            expect_object(opened, f"contexts of {shown!r}")
            hits.contexts = hits.contexts or {}
            _contexts(events, hits, hits.contexts)
        else:
            skip_value(events, opened)  # `summary`, `excluded_lines`, and 7.5's `functions` and `classes`
    return hits


def _contexts(events: JsonEvents, hits: FileHits, contexts: dict[int, frozenset[str]]) -> None:
    """The file's `contexts`, its start read: each line's names, kept for a line its sieve kept
    (coverage.py writes them after the lines), and every name in `all_contexts`."""
    shown = hits.name[:100]
    for key in entries(events):
        line = line_number(int(key) if _LINE.fullmatch(key) else -1, f"a context line of {shown!r}")
        if kind(events) != "start_array":
            raise UnreadableReport(f"a line's contexts in {shown!r} are not a list of names")
        names: set[str] = set()
        for event, value in events:
            if event == "end_array":
                break
            if event != "string":
                raise UnreadableReport(f"a line's contexts in {shown!r} are not a list of names")
            names.add(str(value))
        hits.all_contexts.update(names)
        if line in hits.hits:
            contexts[line] = frozenset(names)


READER = Reader(name="coveragepy-json", title="coverage.py JSON", recognises=recognises, read=read)
