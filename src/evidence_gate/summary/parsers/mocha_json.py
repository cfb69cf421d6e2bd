"""The report mocha's `json` reporter writes (`mocha --reporter json`, to stdout or with
`--reporter-option output=FILE`): `stats` (the run's totals), then `tests` (every test that ended,
pending ones included), `pending`, `failures` and `passes`, each entry a test with `title`,
`fullTitle`, `file` and `err`.

Counting is per entry of the three outcome lists: each of `passes` is passed, each of `pending`
(`it.skip`, `xit`, an `it` without a body, `this.skip()`, a test in a `describe.skip`) is skipped,
and each of `failures` is failed. `failures` also lists a failing hook (`"before all" hook for
"..."`), which is not a test: it counts as one failed test, as mocha's console counts it, since the
tests it kept from running appear nowhere in the report.

The declared totals (`stats.passes`, `stats.pending`, `stats.failures`, `stats.tests`) and the length
of `tests` (which leaves hooks out) are cross-checked with the lists; a disagreement is noted and the
lists win, except that `stats.failures` beyond the listed failures counts as that many more failed
tests (a failure the totals declare is never dropped).

Mocha writes no report at all when a spec file fails to load (its console says why): a missing
report is the caller's to notice. Without `output=FILE` the report goes to stdout, where whatever
the tests print lands too: such a mix is not JSON, is not recognised, and is read as a console log.

The report is streamed (see `json_stream`), one entry at a time.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar

from evidence_gate.model import Counts
from evidence_gate.summary.base import CaseResult, DocumentParser, Reading, clip
from evidence_gate.summary.json_stream import (
    ARRAY,
    ITEM,
    OBJECT,
    JsonPath,
    Malformed,
    Opened,
    Scalar,
    count,
    read_json,
    text,
    unread,
)
from evidence_gate.workspace import Refused

# The reporter's own layout: `stats` first, an object of plain numbers and dates, then `tests`.
# (mochawesome's JSON also opens with `stats`, but its tests are under `results`.)
_START = re.compile(rb'\A\s*\{\s*"stats"\s*:\s*\{[^{}]*"passes"\s*:[^{}]*\}\s*,\s*"tests"\s*:\s*\[')
_HOOK = re.compile(r'\A"(?:before|after) (?:all|each)" hook')
_LISTS = {"passes": "passed", "failures": "failed", "pending": "skipped"}
_STATS = ("tests", "passes", "pending", "failures")
_MAX_NOTES = 20


def _wanted() -> tuple[JsonPath, ...]:
    paths: list[JsonPath] = [(), ("stats",), *(("stats", key) for key in _STATS), ("tests",)]
    for name in _LISTS:
        entry = (name, ITEM)
        paths += [(name,), entry, (*entry, "title"), (*entry, "fullTitle"), (*entry, "file")]
        paths.append((*entry, "err", "message"))
    return tuple(paths)


_WANTED = _wanted()
_CLOSING = (("tests", ITEM), *((name, ITEM) for name in _LISTS))


@dataclass
class _Entry:
    title: str = ""
    full_title: str = ""
    file: str | None = None
    message: str | None = None


@dataclass
class _Scan:
    """What the stream has shown so far; `value` and `close` are the `json_stream.Reader`."""

    on_case: Callable[[CaseResult], None] | None
    declared: dict[str, int] = field(default_factory=dict)
    listed: dict[str, int] = field(default_factory=lambda: dict.fromkeys((*_LISTS, "tests"), 0))
    lists_seen: set[str] = field(default_factory=set)
    hooks: int = 0
    entry: _Entry = field(default_factory=_Entry)
    notes: list[str] = field(default_factory=list)

    def value(self, path: JsonPath, value: Scalar | Opened) -> None:
        if path == ():
            if value is not OBJECT:
                raise Malformed("the JSON is not an object: not mocha's json reporter")
        elif path == ("stats",):
            if value is not OBJECT:
                raise Malformed("`stats` is not an object")
        elif path[0] == "stats":
            self.declared[path[1]] = count(value, f"`stats.{path[1]}`")
        elif len(path) == 1:
            if value is not ARRAY:
                raise Malformed(f"`{path[0]}` is not an array")
            self.lists_seen.add(path[0])
        elif len(path) == 2:
            if value is not OBJECT:
                raise Malformed(f"a `{path[0]}` entry is not an object")
            self.entry = _Entry()
        elif path[2] == "title":
            self.entry.title = text(value) or ""
        elif path[2] == "fullTitle":
            self.entry.full_title = text(value) or ""
        elif path[2] == "file":
            self.entry.file = text(value)
        else:
            self.entry.message = text(value)

    def close(self, path: JsonPath) -> None:
        name = path[0]
        self.listed[name] += 1
        if name == "tests":
            return
        entry = self.entry
        outcome = _LISTS[name]
        if outcome == "failed" and _HOOK.match(entry.title):
            self.hooks += 1
        if self.on_case is not None:
            title, full = entry.title, entry.full_title or entry.title
            suite = full[: -len(title)].strip() if title and full.endswith(title) else ""
            self.on_case(
                CaseResult(
                    name=clip(title or full),
                    classname=clip(suite),
                    file=clip(entry.file) if entry.file else None,
                    line=None,
                    outcome=outcome,
                    message=clip(entry.message) if entry.message and outcome == "failed" else None,
                )
            )

    def _note(self, note: str) -> None:
        if len(self.notes) < _MAX_NOTES:
            self.notes.append(note)

    def reading(self) -> Reading:
        missing = [name for name in _LISTS if name not in self.lists_seen]
        if missing:
            raise Malformed(f"no `{missing[0]}` list: not mocha's json reporter")
        passed, failed, skipped = (self.listed[name] for name in _LISTS)
        if self.hooks:
            self._note(f"failing hooks among the failures: {self.hooks}, each counted as 1 failed test")
        listed_tests = passed + failed - self.hooks + skipped
        if "tests" in self.lists_seen and self.listed["tests"] != listed_tests:
            self._note(
                f"`tests` lists {self.listed['tests']} tests but passes, pending and failures (hooks left out) "
                f"list {listed_tests}; the three lists were counted"
            )
        for key, number in (("passes", passed), ("pending", skipped), ("failures", failed)):
            if key in self.declared and self.declared[key] != number:
                self._note(f"`stats.{key}` is {self.declared[key]} but the report lists {number}; the list was counted")
        if "tests" in self.declared and self.declared["tests"] != self.listed["tests"]:
            self._note(f"`stats.tests` is {self.declared['tests']} but `tests` lists {self.listed['tests']}")
        unlisted = max(0, self.declared.get("failures", 0) - failed)
        if unlisted:
            failed += unlisted
            self._note(f"`stats.failures` declares {unlisted} failures the report does not list; counted as failed")
        return Reading(
            parser=PARSER.name, counts=Counts(passed=passed, failed=failed, skipped=skipped), notes=tuple(self.notes)
        )


class MochaJsonParser(DocumentParser):
    """Reads mocha's json reporter output, entry by entry."""

    name: ClassVar[str] = "mocha-json"
    names_cases: ClassVar[bool] = True
    trusts: ClassVar[str] = (
        "the entries of `passes`, `pending` and `failures` (a failing hook counts as a failed test); "
        "`stats` and `tests` only cross-check (failures `stats` declares beyond the list count)"
    )

    def recognises(self, head: bytes) -> bool:
        return _START.match(head.lstrip(b"\xef\xbb\xbf")) is not None

    def parse(self, path: Path, on_case: Callable[[CaseResult], None] | None = None) -> Reading:
        scan = _Scan(on_case=on_case)
        try:
            read_json(path, scan, _WANTED, _CLOSING)
            return scan.reading()
        except (Malformed, Refused) as error:
            return unread(self.name, error)


PARSER = MochaJsonParser()
