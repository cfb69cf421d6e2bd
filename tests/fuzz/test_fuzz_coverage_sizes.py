"""The coverage readers at adversarial sizes: reports of a few megabytes at most, in each format's own
grammar, whose numbers claim the most they can (line numbers up to a million, blocks and statements
spanning up to a million lines, counts past 64 bits, the same file and line over and over). Whatever
the numbers claim, a reader keeps of a wanted file only what its sieve keeps (the changed lines, and
one line per gap between two), so each reading ends within the example's deadline and holds at most
256 MB, however many lines the report says it measured."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evidence_gate.coverage.model import FileHits, Sieve, UnreadableReport
from evidence_gate.coverage.registry import READERS, reader

from .inputs import examples, peak_memory

pytestmark = pytest.mark.fuzz

MAX_HELD_BYTES = 256 * 1024 * 1024  # issue 24's bound for every reader
MILLION = 1_000_000
FORMATS = [each.name for each in READERS]


@dataclass(frozen=True)
class Entry:
    """One measured stretch of a report: a file, the lines from `first` to `last`, hit `count` times."""

    file: str
    first: int
    last: int
    count: int


def _xml_files(entries: list[Entry], opening: str, line: str, closing: str) -> str:
    """Each entry as an XML element of its file (`opening` names it as `{file}`) holding an element
    per line (`line`, with `{n}` and `{count}`): the shape of the three XML formats."""
    return "".join(
        opening.format(file=e.file) + "".join(line.format(n=n, count=e.count) for n in {e.first, e.last}) + closing
        for e in entries
    )


def _cobertura(entries: list[Entry]) -> str:
    lines = _xml_files(
        entries, '<class name="c" filename="{file}"><lines>', '<line number="{n}" hits="{count}"/>', "</lines></class>"
    )
    packages = f'<packages><package name="p"><classes>{lines}</classes></package></packages>'
    return f'<?xml version="1.0"?><coverage>{packages}</coverage>'


def _clover(entries: list[Entry]) -> str:
    files = _xml_files(
        entries, '<file name="{file}" path="{file}">', '<line num="{n}" count="{count}" type="stmt"/>', "</file>"
    )
    return f'<?xml version="1.0"?><coverage><project>{files}</project></coverage>'


def _jacoco(entries: list[Entry]) -> str:
    files = _xml_files(
        entries, '<sourcefile name="{file}">', '<line nr="{n}" mi="0" ci="{count}" mb="0" cb="0"/>', "</sourcefile>"
    )
    return f'<?xml version="1.0"?><report name="r"><package name="p">{files}</package></report>'


def _lcov(entries: list[Entry]) -> str:
    return "".join(f"SF:{e.file}\nDA:{e.first},{e.count}\nDA:{e.last},{e.count}\nend_of_record\n" for e in entries)


def _gocover(entries: list[Entry]) -> str:
    return "mode: count\n" + "".join(f"example.com/m/{e.file}:{e.first}.1,{e.last}.2 1 {e.count}\n" for e in entries)


def _coveragepy(entries: list[Entry]) -> str:
    files: dict[str, dict[str, list[int]]] = {}
    for e in entries:
        lines = files.setdefault(e.file, {"executed_lines": [], "missing_lines": []})
        lines["executed_lines" if e.count else "missing_lines"].extend((e.first, e.last))
    return json.dumps({"meta": {"version": "7.6.1", "format": 3}, "files": files})


def _istanbul(entries: list[Entry]) -> str:
    files: dict[str, dict[str, dict[str, object]]] = {}
    for index, e in enumerate(entries):
        file = files.setdefault(e.file, {"statementMap": {}, "s": {}})
        file["statementMap"][str(index)] = {
            "start": {"line": e.first, "column": 0},
            "end": {"line": e.last, "column": 1},
        }
        file["s"][str(index)] = e.count
    return json.dumps({name: {"path": name, **body} for name, body in files.items()})


WRITERS: dict[str, Callable[[list[Entry]], str]] = {
    "cobertura": _cobertura,
    "clover": _clover,
    "jacoco": _jacoco,
    "lcov": _lcov,
    "gocover": _gocover,
    "coveragepy-json": _coveragepy,
    "istanbul": _istanbul,
}

lines = st.one_of(st.integers(1, 50), st.integers(1, MILLION), st.just(MILLION))
counts = st.sampled_from([0, 1, 2**31, 2**63 + 1, 10**30])
entries = st.builds(
    lambda file, first, span, count: Entry(file, first, min(first + span, MILLION), count),
    st.sampled_from(["app.go", "src/app.py", "/abs/src/app.js", "A.java"]),
    lines,
    st.one_of(st.integers(0, 10), st.integers(0, MILLION)),
    counts,
)
reports = st.tuples(st.lists(entries, min_size=1, max_size=50), st.integers(1, 500))
changed_lines = st.lists(st.integers(1, MILLION), min_size=1, max_size=200, unique=True).map(sorted)


def test_the_writers_cover_every_reader() -> None:
    assert sorted(WRITERS) == sorted(FORMATS)


@settings(max_examples=examples(0.2))
@pytest.mark.parametrize("name", FORMATS)
@given(report=reports, changed=changed_lines)
def test_a_report_claiming_a_million_lines_is_read_in_bounded_memory(
    tmp_path_factory: pytest.TempPathFactory, name: str, report: tuple[list[Entry], int], changed: list[int]
) -> None:
    """The entries, repeated up to 500 times (the same lines again and again, as a merged or
    hostile report has them): what is held is the sieve's, not the report's claim."""
    stretch, copies = report
    path = tmp_path_factory.mktemp("sizes") / "report"
    path.write_text(WRITERS[name](stretch * copies), encoding="utf-8")
    sieve = tuple(changed)
    with peak_memory() as peak:
        try:
            read = [
                event
                for event in reader(name).read(path, lambda _: Sieve(changed=sieve))
                if isinstance(event, FileHits)
            ]
        except UnreadableReport as error:
            assert "\n" not in str(error)
            read = []
    assert peak() < MAX_HELD_BYTES, f"{peak():,} bytes held reading {path.stat().st_size:,}"
    # A block spanning a million lines leaves no more than the sieve's lines, beside the lines the
    # report names one by one (a reader may leave those to the merge's sieve).
    named = 2 * len(stretch)
    for file in read:
        kept = len(file.hits)
        assert kept <= 2 * len(sieve) + 1 + named, f"{file.name}: {kept:,} lines kept for {len(sieve)} changed"
