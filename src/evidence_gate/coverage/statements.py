"""A changed line inside a multi-line statement, judged by the line the reports measure it on.

Coverage tools measure a statement on one line: coverage.py (Cobertura, JSON, LCOV) on its first.
A fix that edits only the continuation lines of a multi-line `if` (its condition's operands) or of
a call (its arguments) changes no line a report measures, and so would count as nothing executable:
a check skipped for code the tests run. So a changed line no report measures, that lies inside a
multi-line statement a report measures, is measured as that statement: run when it ran, by the
tests that ran it, and shown and counted as the changed line it is.

A statement's extent is read from the head's source, for the languages read here by suffix
(`SOURCE_STATEMENTS`; Python, as coverage.py reads it: `python_statements.py`), each file at most
`MAX_SOURCE_BYTES` and all of them at most `MAX_SOURCES_BYTES`. Any other file keeps its lines as
the reports have them: nothing is guessed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace
from pathlib import PurePosixPath

from evidence_gate.coverage.collect import CoverageMap
from evidence_gate.coverage.model import Lines
from evidence_gate.coverage.python_statements import MAX_SOURCE_BYTES, statement_lines

# A source's continuation lines -> the first line of their statement; None: it cannot be read as one.
SourceStatements = Callable[[bytes], dict[int, int] | None]
SOURCE_STATEMENTS: Mapping[str, SourceStatements] = {".py": statement_lines}
MAX_SOURCES_BYTES = 64 * 1024 * 1024  # the sources read for one change, together
# A repository file's content at the head, at most the given number of bytes; None: none, or refused.
ReadSource = Callable[[str, int], bytes | None]


def with_statements(found: CoverageMap, changed: Mapping[str, tuple[int, ...]], read: ReadSource) -> CoverageMap:
    """The reports' coverage, each changed line they do not measure judged by the statement that
    holds it, where the file's source says which one that is."""
    files = dict(found.files)
    budget = MAX_SOURCES_BYTES
    for path, lines in found.files.items():
        loose = [line for line in changed.get(path, ()) if line not in lines.measured]
        parse = SOURCE_STATEMENTS.get(PurePosixPath(path).suffix)
        if not loose or parse is None or budget <= 0:
            continue
        source = read(path, MAX_SOURCE_BYTES + 1)  # one past the cap: the parser refuses it
        if source is None:
            continue
        budget -= len(source)
        statements = parse(source)
        if statements:
            files[path] = judged_by_statement(lines, loose, statements)
    return replace(found, files=files)


def judged_by_statement(lines: Lines, changed: Iterable[int], statements: Mapping[int, int]) -> Lines:
    """`lines` with each of the `changed` lines it does not measure that `statements` places in a
    statement it measures (on another line) measured as that line: executed when it was, with its
    contexts."""
    continued = {
        line: first
        for line in changed
        if line not in lines.measured and (first := statements.get(line)) is not None and first in lines.measured
    }
    if not continued:
        return lines
    contexts = lines.contexts
    if contexts is not None:
        contexts = {**contexts, **{line: contexts[first] for line, first in continued.items() if first in contexts}}
    return Lines(
        measured=lines.measured | continued.keys(),
        covered=lines.covered | {line for line, first in continued.items() if first in lines.covered},
        contexts=contexts,
        continued={**lines.continued, **continued},
    )
