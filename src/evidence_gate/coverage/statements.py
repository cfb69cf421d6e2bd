"""A changed line inside a multi-line statement, judged by the line the reports measure it on.

Coverage tools measure a statement on one line: coverage.py (Cobertura, JSON, LCOV) on its first.
A fix that edits only the continuation lines of a multi-line `if` (its condition's operands) or of
a call (its arguments) changes no line a report measures, and so would count as nothing executable:
a check skipped for code the tests run. So a changed line no report measures, that lies inside a
multi-line statement a report measures, is measured as that statement: run when it ran, by the
tests that ran it, and shown and counted as the changed line it is.

A statement's extent comes from:

- the head's source, for the languages read here by suffix (`SOURCE_STATEMENTS`; Python, as
  coverage.py reads it: `python_statements.py`), each file at most `MAX_SOURCE_BYTES` and all of
  them at most `MAX_SOURCES_BYTES`;
- else the report, where it gives each statement's extent (istanbul's statementMap: its reader
  gives a statement's continuation lines). The report knows no comments, so a changed line there
  is judged by its statement only when its text holds code, by the comment syntax of the file's
  suffix (`code_lines.py`), and does not start as a block comment's line does (`/*`, `*`: a
  multiplication continued on a new line is then left as the report has it, too).

Any other line keeps its lines as the reports have them: nothing is guessed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace
from pathlib import PurePosixPath

from evidence_gate.code_lines import line_code
from evidence_gate.coverage.collect import CoverageMap
from evidence_gate.coverage.model import Lines, Statement
from evidence_gate.coverage.python_statements import MAX_SOURCE_BYTES, statement_lines

# A source's continuation lines -> the first line of their statement; None: it cannot be read as one.
SourceStatements = Callable[[bytes], dict[int, int] | None]
SOURCE_STATEMENTS: Mapping[str, SourceStatements] = {".py": statement_lines}
MAX_SOURCES_BYTES = 64 * 1024 * 1024  # the sources read for one change, together
# A repository file's content at the head, at most the given number of bytes; None: none, or refused.
ReadSource = Callable[[str, int], bytes | None]


def with_statements(found: CoverageMap, changed: Mapping[str, Mapping[int, str]], read: ReadSource) -> CoverageMap:
    """The reports' coverage, each `changed` line (number -> text) they do not measure judged by the
    statement that holds it, where the file's source or a report says which one that is."""
    files = dict(found.files)
    budget = MAX_SOURCES_BYTES
    for path, lines in found.files.items():
        added = changed.get(path, {})
        loose = [line for line in added if line not in lines.measured]
        if not loose:
            continue
        reported = found.statements.get(path, {})
        statements = {line: reported[line] for line in loose if line in reported and _holds_code(path, added[line])}
        parse = SOURCE_STATEMENTS.get(PurePosixPath(path).suffix)
        source = read(path, MAX_SOURCE_BYTES + 1) if parse is not None and budget > 0 else None
        if parse is not None and source is not None:  # one byte past the cap: the parser refuses it
            budget -= len(source)
            read_here = parse(source) or {}  # the source's reading goes before the report's
            statements.update((line, Statement(read_here[line])) for line in loose if line in read_here)
        if statements:
            files[path] = judged_by_statement(lines, loose, statements)
    return replace(found, files=files)


def _holds_code(path: str, text: str) -> bool:
    code = line_code(path, text) or ""
    return bool(code) and not code.startswith(("/*", "*"))


def judged_by_statement(lines: Lines, changed: Iterable[int], statements: Mapping[int, Statement]) -> Lines:
    """`lines` with each of the `changed` lines it does not measure that `statements` places in a
    statement it measures (on another line) measured as that statement: executed when it was (by
    the statement's own count where a report gives one, else by its line's), with its contexts."""
    continued: dict[int, int] = {}
    ran: set[int] = set()
    for line in changed:
        held = statements.get(line)
        if line in lines.measured or held is None or held.line not in lines.measured:
            continue
        continued[line] = held.line
        executed = held.line in lines.covered if held.count is None else held.count > 0
        if executed:
            ran.add(line)
    if not continued:
        return lines
    contexts = lines.contexts
    if contexts is not None:
        contexts = {**contexts, **{line: contexts[first] for line, first in continued.items() if first in contexts}}
    return Lines(
        measured=lines.measured | continued.keys(),
        covered=lines.covered | ran,
        contexts=contexts,
        continued={**lines.continued, **continued},
        all_contexts=lines.all_contexts,
    )
