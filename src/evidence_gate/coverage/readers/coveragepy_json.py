"""coverage.py's JSON report (`coverage json`, with `--show-contexts` for the contexts).

`files` maps each file (as coverage.py names it: relative to where it ran, or absolute) to its
`executed_lines` and `missing_lines`; excluded lines are not measured. With `--show-contexts`, each
executed line lists the contexts that ran it: the test (`tests/test_cart.py::test_total|run` from
pytest-cov's `--cov-context=test`, `tests.test_cart.test_total` from `dynamic_context =
test_function`), or `""` for code run outside any test (a module's top level, run on import).
"""

from __future__ import annotations

import re
from pathlib import Path

from evidence_gate.coverage.model import Events, FileHits, Keep, UnreadableReport
from evidence_gate.coverage.readers.base import Reader
from evidence_gate.coverage.readers.json_report import line_number, load_object, mapping

# coverage.py writes `meta` first: `{"meta": {"format": 3, "version": "7.6.1", ...`. A log of JSON
# lines (go test -json) that merely mentions these words starts otherwise.
_START = re.compile(rb'\A\s*\{\s*"meta"\s*:\s*\{[^{}]*"version"\s*:')
# A context's line, as coverage.py writes it: a JSON key of ASCII digits (str.isdigit() also takes
# "²", which int() refuses, and int() refuses more than 4,300 digits).
_LINE = re.compile(r"[0-9]{1,10}")


def recognises(head: bytes) -> bool:
    return _START.match(head.lstrip(b"\xef\xbb\xbf")) is not None and b'"files"' in head


def read(path: Path, keep: Keep) -> Events:
    report = load_object(path)
    files = mapping(report.get("files"), "`files`")
    for name, entry in files.items():
        entry = mapping(entry, f"the entry of {name[:100]!r}")
        hits = FileHits(name=name)
        if not keep(name):
            yield hits
            continue
        for key, count in (("missing_lines", 0), ("executed_lines", 1)):
            lines = entry.get(key, [])
            if not isinstance(lines, list):
                raise UnreadableReport(f"{key} of {name[:100]!r} is not a list")
            for line in lines:
                hits.add(line_number(line, f"a line of {name[:100]!r}"), count)
        contexts = entry.get("contexts")
        if contexts is not None:
            hits.contexts = {
                line_number(int(line) if _LINE.fullmatch(line) else -1, f"a context line of {name[:100]!r}"): _names(
                    names, name
                )
                for line, names in mapping(contexts, f"contexts of {name[:100]!r}").items()
            }
        yield hits


def _names(value: object, name: str) -> frozenset[str]:
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise UnreadableReport(f"a line's contexts in {name[:100]!r} are not a list of names")
    return frozenset(value)


READER = Reader(name="coveragepy-json", title="coverage.py JSON", recognises=recognises, read=read)
