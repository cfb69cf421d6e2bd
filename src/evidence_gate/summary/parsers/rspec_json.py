"""The report RSpec's JSON formatter writes (`rspec --format json`, to stdout or with `--out FILE`):
`version`, `messages` (what RSpec said outside any example: a file that failed to load, "No
examples found."), `examples`, one entry per example with its `status`, and `summary`
(`example_count`, `failure_count`, `pending_count`, `errors_outside_of_examples_count`).

Counting is per example, from `examples[].status`:

- `passed` is passed;
- `failed` is failed: a failed expectation, an error raised in the example (RSpec has no separate
  error status), and a `pending` example whose body passed (RSpec fails it as "FIXED", like a
  strict xfail that passed);
- `pending` is skipped: `skip`, `xit`, an example without a block, and a `pending` example whose
  body failed as expected (an xfail);
- any other status, or none, makes the report unparsed.

`summary.errors_outside_of_examples_count` adds that many failed tests: a spec file that failed to
load (after which RSpec runs no example at all) or a failing `after(:context)` hook fails the run
without failing an example, and counting it is what keeps such a run from reading as a pass. The
first of `messages` is noted as the reason.

`summary`'s counts are cross-checked with the examples and any disagreement is noted; the examples
win, except that `failure_count` beyond the failed examples counts as that many more failed tests.
The report is streamed (see `json_stream`), one example at a time.
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

_START = re.compile(rb'\A\s*\{\s*"version"\s*:\s*"\d[^"]{0,40}"\s*,')
_OUTCOMES = {"passed": "passed", "failed": "failed", "pending": "skipped"}
_SUMMARY = ("example_count", "failure_count", "pending_count", "errors_outside_of_examples_count")
_EXAMPLE = ("examples", ITEM)
_WANTED: tuple[JsonPath, ...] = (
    (),
    ("messages", ITEM),
    ("examples",),
    _EXAMPLE,
    (*_EXAMPLE, "status"),
    (*_EXAMPLE, "description"),
    (*_EXAMPLE, "full_description"),
    (*_EXAMPLE, "file_path"),
    (*_EXAMPLE, "line_number"),
    (*_EXAMPLE, "exception", "message"),
    ("summary",),
    *(("summary", key) for key in _SUMMARY),
)
_MAX_NOTES = 20


@dataclass
class _Example:
    status: str | None = None
    description: str = ""
    full_description: str = ""
    file: str | None = None
    line: int | None = None
    message: str | None = None


@dataclass
class _Scan:
    """What the stream has shown so far; `value` and `close` are the `json_stream.Reader`."""

    on_case: Callable[[CaseResult], None] | None
    first_message: str | None = None
    saw_examples: bool = False
    saw_summary: bool = False
    declared: dict[str, int] = field(default_factory=dict)
    tally: dict[str, int] = field(default_factory=lambda: dict.fromkeys(_OUTCOMES.values(), 0))
    example: _Example = field(default_factory=_Example)
    notes: list[str] = field(default_factory=list)

    def value(self, path: JsonPath, value: Scalar | Opened) -> None:
        if path == ():
            if value is not OBJECT:
                raise Malformed("the JSON is not an object: not RSpec's JSON formatter")
        elif path == ("messages", ITEM):
            message = text(value)
            if self.first_message is None and message and message.strip():
                self.first_message = clip(" ".join(message[:2_000].split()))
        elif path == ("examples",):
            if value is not ARRAY:
                raise Malformed("`examples` is not an array")
            self.saw_examples = True
        elif path == ("summary",):
            if value is not OBJECT:
                raise Malformed("`summary` is not an object")
            self.saw_summary = True
        elif path[0] == "summary":
            self.declared[path[1]] = count(value, f"`summary.{path[1]}`")
        elif path == _EXAMPLE:
            if value is not OBJECT:
                raise Malformed("an `examples` entry is not an object")
            self.example = _Example()
        else:
            self._field(path[2:], value)

    def _field(self, key: JsonPath, value: Scalar | Opened) -> None:
        example = self.example
        if key == ("status",):
            example.status = text(value)
        elif key == ("description",):
            example.description = text(value) or ""
        elif key == ("full_description",):
            example.full_description = text(value) or ""
        elif key == ("file_path",):
            example.file = text(value)
        elif key == ("line_number",):
            valid = isinstance(value, int) and not isinstance(value, bool) and value > 0
            example.line = value if valid and isinstance(value, int) else None
        else:
            example.message = text(value)

    def close(self, path: JsonPath) -> None:
        example = self.example
        shown = clip(example.full_description or example.description)
        if example.status is None:
            raise Malformed(f"the example {shown!r} has no `status`")
        outcome = _OUTCOMES.get(example.status)
        if outcome is None:
            raise Malformed(f"the example {shown!r} has an unknown status {clip(example.status, 40)!r}")
        self.tally[outcome] += 1
        if self.on_case is None:
            return
        name, full = example.description, example.full_description or example.description
        group = full[: -len(name)].strip() if name and full.endswith(name) else ""
        self.on_case(
            CaseResult(
                name=clip(name or full),
                classname=clip(group),
                file=clip(example.file) if example.file else None,
                line=example.line,
                outcome=outcome,
                message=clip(example.message) if example.message and outcome == "failed" else None,
            )
        )

    def _note(self, note: str) -> None:
        if len(self.notes) < _MAX_NOTES:
            self.notes.append(note)

    def reading(self) -> Reading:
        if not self.saw_examples or not self.saw_summary:
            raise Malformed(f"no `{'examples' if not self.saw_examples else 'summary'}`: not RSpec's JSON formatter")
        passed, failed, skipped = self.tally["passed"], self.tally["failed"], self.tally["skipped"]
        declared = self.declared
        seen = {"example_count": passed + failed + skipped, "failure_count": failed, "pending_count": skipped}
        for key, number in seen.items():
            if key in declared and declared[key] != number:
                self._note(
                    f"`summary.{key}` is {declared[key]} but the examples show {number}; the examples were counted"
                )
        unlisted = max(0, declared.get("failure_count", 0) - failed)
        if unlisted:
            failed += unlisted
            self._note(f"`summary.failure_count` declares {unlisted} failures no example shows; counted as failed")
        outside = declared.get("errors_outside_of_examples_count", 0)
        if outside:
            failed += outside
            said = f": {clip(self.first_message)}" if self.first_message else ""
            self._note(f"errors outside of examples: {outside}, each counted as 1 failed test{said}")
        counts = Counts(passed=passed, failed=failed, skipped=skipped)
        return Reading(parser=PARSER.name, counts=counts, notes=tuple(self.notes))


class RspecJsonParser(DocumentParser):
    """Reads RSpec's JSON formatter output, example by example."""

    name: ClassVar[str] = "rspec-json"
    names_cases: ClassVar[bool] = True
    trusts: ClassVar[str] = (
        "`examples[].status`, plus `summary.errors_outside_of_examples_count` as failed; the rest of "
        "`summary` only cross-checks (failures it declares beyond the examples count)"
    )

    def recognises(self, head: bytes) -> bool:
        return _START.match(head.lstrip(b"\xef\xbb\xbf")) is not None and b'"examples"' in head

    def parse(self, path: Path, on_case: Callable[[CaseResult], None] | None = None) -> Reading:
        scan = _Scan(on_case=on_case)
        try:
            read_json(path, scan, _WANTED, (_EXAMPLE,))
            return scan.reading()
        except (Malformed, Refused) as error:
            return unread(self.name, error)


PARSER = RspecJsonParser()
