"""The parsers, by name. Adding a runner is adding one module under `parsers/` and one line here.

The order of `LINE_PARSERS` is the order in which content is recognised when no `--parser` or
`--stack` narrows it: the first parser in this order that reads counts wins, so more specific
formats come before the generic ones (node's TAP before plain TAP, `go test -json` before `-v`).

A line parser also names the lines it reads (`LineParser.reads`, a `LineFilter`): the log reader
hands it only those (see `line_scan`), and the tests hold that to the reading it gives when fed
every line, on every captured log and on fuzzed ones.
"""

from __future__ import annotations

import importlib

from evidence_gate.errors import UsageError
from evidence_gate.summary.base import DocumentParser, LineParser
from evidence_gate.summary.encoding import decoded_head, detect_encoding, is_wide

# The .NET readers recognise a report by its root element alone, so they come before JUnit, which
# looks for `<testsuite` anywhere in the first bytes (where a .NET report's output may hold it).
DOCUMENT_PARSERS: dict[str, str] = {
    "nunit": "nunit",
    "xunit-net": "xunit_net",
    "trx": "trx",
    "junit": "junit",
    "xcresult": "xcresult",
    "jest-json": "jest_json",
    "mocha-json": "mocha_json",
    "dart-json": "dart_json",
    "rspec-json": "rspec_json",
}

LINE_PARSERS: dict[str, str] = {
    "go-test-json": "go_test_json",
    "cargo-test": "cargo_test",
    "pytest": "pytest",
    "unittest": "unittest",
    "jest": "jest",
    "vitest": "vitest",
    "node-test": "node_test",
    "mocha": "mocha",
    "uvu": "uvu",
    "rspec": "rspec",
    "minitest": "minitest",
    "phpunit": "phpunit",
    "ctest": "ctest",
    "check": "check",
    "cmocka": "cmocka",
    "maven": "maven",
    "gradle": "gradle",
    "xcodebuild": "xcodebuild",
    "tap": "tap",
    "go-test": "go_test",
}

ALL_PARSERS = (*DOCUMENT_PARSERS, *LINE_PARSERS)


def _exported(module: str) -> object:
    """A parser module's one export, `PARSER`; imported on first use, so a run loads only what it reads."""
    exported: object = importlib.import_module(f"evidence_gate.summary.parsers.{module}").PARSER
    return exported


def document_parser(name: str) -> DocumentParser:
    parser = _exported(DOCUMENT_PARSERS[name])
    if not isinstance(parser, DocumentParser):
        raise TypeError(f"parsers/{DOCUMENT_PARSERS[name]}.py: PARSER is not a DocumentParser")
    return parser


def document_format(head: bytes) -> str | None:
    """The document format whose own parser recognises a file's first bytes, None for a log: how a
    report is told from a log, so a new report format is one module and one line above. A head in
    UTF-16 or UTF-32 (a report Windows wrote) is decoded first, as the parsers read UTF-8."""
    encoding = detect_encoding(head)
    text = decoded_head(head, encoding).encode("utf-8") if is_wide(encoding) else head
    return next((name for name in DOCUMENT_PARSERS if document_parser(name).recognises(text)), None)


def line_parser(name: str) -> LineParser:
    """A fresh parser instance (line parsers keep state while they read)."""
    parser_class = _exported(LINE_PARSERS[name])
    if not (isinstance(parser_class, type) and issubclass(parser_class, LineParser)):
        raise TypeError(f"parsers/{LINE_PARSERS[name]}.py: PARSER is not a LineParser class")
    return parser_class()


def check_names(names: tuple[str, ...] | list[str], where: str) -> None:
    unknown = [name for name in names if name not in DOCUMENT_PARSERS and name not in LINE_PARSERS]
    if unknown:
        raise UsageError(f"{where}: unknown parser {unknown[0]!r} (known: {', '.join(sorted(ALL_PARSERS))})")
