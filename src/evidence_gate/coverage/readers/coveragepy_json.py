"""coverage.py's JSON report (`coverage json`, with `--show-contexts` for the contexts).

`files` maps each file (as coverage.py names it: relative to where it ran, or absolute) to its
`executed_lines` and `missing_lines`; excluded lines are not measured. With `--show-contexts`, each
executed line lists the contexts that ran it: the test (`tests/test_cart.py::test_total|run` from
pytest-cov's `--cov-context=test`, `tests.test_cart.test_total` from `dynamic_context =
test_function`), or `""` for code run outside any test (a module's top level, run on import).

The report is streamed through ijson, never loaded: a file's lines go straight into its sieve, so
a report of any size (up to `MAX_JSON_BYTES`, as the other JSON reports) costs the change's lines.
Its per-function and per-class sections (coverage.py 7.5) repeat the file's lines and are skipped.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path

import ijson  # type: ignore[import-untyped]  # ijson ships no type information; the events it yields are checked here

from evidence_gate.coverage.model import Events, FileHits, Keep, UnreadableReport
from evidence_gate.coverage.readers.base import Reader
from evidence_gate.coverage.readers.json_report import MAX_JSON_BYTES, line_number
from evidence_gate.summary.encoding import UTF8, detect_encoding
from evidence_gate.workspace import open_resolved

# coverage.py writes `meta` first: `{"meta": {"format": 3, "version": "7.6.1", ...`. A log of JSON
# lines (go test -json) that merely mentions these words starts otherwise.
_START = re.compile(rb'\A\s*\{\s*"meta"\s*:\s*\{[^{}]*"version"\s*:')
# A context's line, as coverage.py writes it: a JSON key of ASCII digits (str.isdigit() also takes
# "²", which int() refuses, and int() refuses more than 4,300 digits).
_LINE = re.compile(r"[0-9]{1,10}")
_LINES = {"missing_lines": 0, "executed_lines": 1}  # a listed line's hit count
_OPENS = {"start_map": "an object", "start_array": "a list"}
_BUFFER_BYTES = 256 * 1024
_MAX_DEPTH = 64
_BOM = b"\xef\xbb\xbf"

JsonEvents = Iterator[tuple[str, object]]


def recognises(head: bytes) -> bool:
    return _START.match(head.lstrip(b"\xef\xbb\xbf")) is not None and b'"files"' in head


def read(path: Path, keep: Keep) -> Events:
    try:
        with open_resolved(path) as handle:
            head = handle.read(4)
            if os.fstat(handle.fileno()).st_size > MAX_JSON_BYTES:
                raise UnreadableReport(f"a JSON report over {MAX_JSON_BYTES // 2**20} MiB; use the XML or LCOV form")
            if detect_encoding(head) != UTF8 and not head.startswith(_BOM):
                raise UnreadableReport("not UTF-8, which coverage.py writes")
            handle.seek(len(_BOM) if head.startswith(_BOM) else 0)
            yield from _files(ijson.basic_parse(handle, buf_size=_BUFFER_BYTES), keep)
    except ijson.JSONError as error:
        raise UnreadableReport(f"malformed JSON ({_first_line(error)})") from None
    except UnicodeDecodeError:
        raise UnreadableReport("malformed JSON (not UTF-8)") from None
    except OSError as error:
        raise UnreadableReport(f"cannot read ({error.strerror or error})") from error


def _files(events: JsonEvents, keep: Keep) -> Events:
    """Each entry of the top-level `files` object, as it streams past; every other value skipped."""
    if next(events, ("", None))[0] != "start_map":
        raise UnreadableReport("the JSON report is not an object")
    seen = False
    for event, key in events:
        if event == "end_map":
            break
        value = _next(events)
        if key != "files":
            _skip(events, value, 1)
            continue
        if value != "start_map":
            raise UnreadableReport("`files` is not an object")
        seen = True
        for event, name in events:
            if event == "end_map":
                break
            name = str(name)
            if _next(events) != "start_map":
                raise UnreadableReport(f"the entry of {name[:100]!r} is not an object")
            yield _file(events, name, keep)
    if not seen:
        raise UnreadableReport("`files` is not an object")


def _file(events: JsonEvents, name: str, keep: Keep) -> FileHits:
    """One file's entry, its start read: the lines its sieve keeps, and every context that ran it."""
    hits = FileHits(name=name, sieve=keep(name))
    if hits.sieve is None:
        _skip(events, "start_map", 2)
        return hits
    for event, key in events:
        if event == "end_map":
            break
        opened = _next(events)
        if key in _LINES:
            if opened != "start_array":
                raise UnreadableReport(f"{key} of {name[:100]!r} is not a list")
            count = _LINES[str(key)]
            for event, value in events:
                if event == "end_array":
                    break
                if event in _OPENS:
                    raise UnreadableReport(f"a line of {name[:100]!r} is not a line number: {_OPENS[event]!r}")
                hits.add(line_number(value, f"a line of {name[:100]!r}"), count)
        elif key == "contexts":
            if opened != "start_map":
                raise UnreadableReport(f"contexts of {name[:100]!r} is not an object")
            hits.contexts = {}
            _contexts(events, hits, hits.contexts)
        else:
            _skip(events, opened, 3)
    return hits


def _contexts(events: JsonEvents, hits: FileHits, contexts: dict[int, frozenset[str]]) -> None:
    """`contexts` (the file's, its start read): each line's names, kept where the sieve keeps the line."""
    name = hits.name[:100]
    for event, key in events:
        if event == "end_map":
            return
        text = str(key)
        line = line_number(int(text) if _LINE.fullmatch(text) else -1, f"a context line of {name!r}")
        if _next(events) != "start_array":
            raise UnreadableReport(f"a line's contexts in {name!r} are not a list of names")
        names: set[str] = set()
        for event, value in events:
            if event == "end_array":
                break
            if event != "string":
                raise UnreadableReport(f"a line's contexts in {name!r} are not a list of names")
            names.add(str(value))
        hits.all_contexts.update(names)
        if hits.sieve is None or hits.sieve.admit(line, hits.hits, contexts):
            contexts[line] = frozenset(names)


def _next(events: JsonEvents) -> str:
    """The next event's kind; yajl ends the stream with an error, never after a key."""
    return next(events, ("end", None))[0]


def _skip(events: JsonEvents, opened: str, depth: int) -> None:
    """Consume a value whose first event was `opened` (a scalar is already whole)."""
    if opened not in _OPENS:
        return
    nested = 1
    for event, _ in events:
        if event in _OPENS:
            nested += 1
            if depth + nested > _MAX_DEPTH:
                raise UnreadableReport(f"malformed JSON (nested deeper than {_MAX_DEPTH} levels)")
        elif event in ("end_map", "end_array"):
            nested -= 1
            if not nested:
                return


def _first_line(error: Exception) -> str:
    """yajl's message, whose later lines quote the input around the error, cut to its first line."""
    message = error.args[0] if error.args else ""
    text = message.decode("utf-8", "replace") if isinstance(message, bytes) else str(message)
    return (text.strip().splitlines() or ["unknown error"])[0].strip()


READER = Reader(name="coveragepy-json", title="coverage.py JSON", recognises=recognises, read=read)
