"""The coverage readers fuzzed: every reader of `coverage/registry.py`, whether or not it recognises
the content, and `coverage/collect.py`'s merge of their events.

Telling the format never raises; a reader raises only `UnreadableReport`, with a one-line reason;
random bytes never give a measured, let alone a covered, line of a changed file; and a large
report of files nobody asked for is read in memory bounded by a fixed cap, not by its size."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evidence_gate.coverage.collect import CoverageReport, collect
from evidence_gate.coverage.model import FileHits, Sieve, UnreadableReport
from evidence_gate.coverage.paths import PathMapper
from evidence_gate.coverage.registry import READERS, coverage_format, reader

from .inputs import (
    LARGE_EXAMPLES,
    LARGE_PIECE_BYTES,
    fixture_files,
    garbage,
    json_texts,
    json_values,
    mutated,
    odd_keys,
    peak_memory,
    random_bytes,
    random_text,
)

pytestmark = pytest.mark.fuzz

REPORT_NAMES = (".xml", "lcov.info", ".out", "coverage-final.json", "coverage.json", "coverage-dynamic.json")
XML = fixture_files("coverage", ".xml")
TEXT = fixture_files("coverage", "lcov.info", ".out")
JSON = fixture_files("coverage", "coverage-final.json", "coverage.json", "coverage-dynamic.json")
FORMATS = [each.name for each in READERS]

# Reports built from the formats' own grammars, with values of every kind where numbers belong.
line_numbers = st.integers(0, 5_000)  # valid, so a report reaches its contexts; the other fields vary the rest
line_keys = st.one_of(st.integers(0, 10**6).map(str), odd_keys)
coveragepy_reports = st.dictionaries(
    st.sampled_from(["src/app.py", "a", "/abs/src/app.py"]),
    st.fixed_dictionaries(
        {"executed_lines": st.lists(line_numbers, max_size=5), "missing_lines": st.lists(line_numbers, max_size=5)},
        optional={"contexts": st.dictionaries(line_keys, st.lists(st.text(max_size=8)) | json_values)},
    ),
    max_size=3,
).map(lambda files: json.dumps({"meta": {"version": "7.6.1", "format": 3}, "files": files}).encode())
istanbul_reports = st.dictionaries(
    st.sampled_from(["/abs/src/app.js", "a"]),
    st.fixed_dictionaries(
        {
            "path": st.sampled_from(["/abs/src/app.js", "a", ""]),
            "statementMap": st.dictionaries(
                line_keys, st.fixed_dictionaries({"start": st.fixed_dictionaries({"line": line_numbers | json_values})})
            ),
            "s": st.dictionaries(line_keys, line_numbers | json_values),
        }
    ),
    max_size=3,
).map(lambda files: json.dumps(files).encode())

inputs = st.one_of(
    coveragepy_reports,
    istanbul_reports,
    garbage,
    mutated(XML, xml=True),
    mutated(TEXT),
    mutated(JSON, json=True),
    json_texts(tuple(json.loads(each) for each in JSON)),
)


@pytest.fixture(scope="module")
def scratch(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("coverage") / "report"


def events(path: Path, name: str, *, keep: bool = True) -> list[FileHits] | str:
    """The files a reader yields, or why it says the report is unreadable."""
    try:
        wanted = Sieve(changed=None) if keep else None
        return [event for event in reader(name).read(path, lambda _: wanted) if isinstance(event, FileHits)]
    except UnreadableReport as error:
        assert str(error), "an unreadable report says why"
        assert "\n" not in str(error), str(error)
        return str(error)


@pytest.mark.parametrize("name", FORMATS)
@given(data=inputs)
def test_a_reader_yields_files_or_says_the_report_is_unreadable(scratch: Path, name: str, data: bytes) -> None:
    scratch.write_bytes(data)
    coverage_format(data[:65_536])
    read = events(scratch, name)
    if isinstance(read, list):
        for file in read:
            assert all(line >= 0 for line in file.hits), file.name
            assert all(count >= 0 for count in file.hits.values()), file.name


@pytest.mark.parametrize("name", FORMATS)
@given(data=st.one_of(random_bytes, random_text))
def test_random_bytes_never_cover_a_changed_line(scratch: Path, name: str, data: bytes) -> None:
    """Whatever garbage names, the merge holds no measured line: nothing of it reads as coverage."""
    scratch.write_bytes(data)
    read = events(scratch, name)
    assert isinstance(read, str) or not any(file.hits for file in read)
    mapper = PathMapper(files=frozenset({"src/app.py", "app.go", "a"}), top="/w")
    found = collect([CoverageReport(path=scratch, format=name, shown="report", directory="")], mapper, mapper.files)
    assert not any(lines.measured for lines in found.files.values()), found


# Large inputs, measured under tracemalloc: the bound is what is tested, not variety or speed.
@settings(max_examples=LARGE_EXAMPLES, deadline=None)
@pytest.mark.parametrize("name", FORMATS)
@given(
    data=st.one_of(*(mutated(corpus, max_bytes=LARGE_PIECE_BYTES) for corpus in (XML, TEXT, JSON))),
    copies=st.integers(100, 200),
)
def test_a_large_report_of_unwanted_files_is_read_in_bounded_memory(
    scratch: Path, name: str, data: bytes, copies: int
) -> None:
    """A report's lines are kept only for the files wanted, so a large one of other files costs a
    fixed amount."""
    big = data * copies
    scratch.write_bytes(big)
    with peak_memory() as peak:
        events(scratch, name, keep=False)
    # The XML readers stream through 4 MiB chunks (`xml_documents.CHUNK_BYTES`), the text ones by
    # line, the JSON ones through 256 KiB reads.
    cap = 32 * 1024 * 1024
    assert peak() < cap, f"{peak():,} bytes held reading {len(big):,}"
