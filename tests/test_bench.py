"""The benchmarks' own parts: the generated logs and reports say the counts the readers must find,
the table shows every row and its notes, and a name picks benchmarks or groups of them. (The
benchmarks themselves are run with `python -m bench`; see bench/README.md.)"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from bench import summary_bench
from bench.__main__ import BENCHMARKS, selected
from bench.table import Row, render

from evidence_gate.summary.read import read_source
from evidence_gate.summary.registry import ALL_PARSERS


@pytest.mark.parametrize(
    ("writer", "name", "parser"),
    [
        (summary_bench.write_junit, "report.xml", "junit"),
        (summary_bench.write_pytest_log, "pytest.log", "pytest"),
        (summary_bench.write_go_log, "go.log", "go-test"),
    ],
    ids=["junit", "pytest", "go-test"],
)
def test_each_generated_file_reads_as_the_counts_its_generator_wrote(
    tmp_path: Path, writer: Callable[[Path, int], tuple[int, int, int]], name: str, parser: str
) -> None:
    path = tmp_path / name
    truth = writer(path, 1)
    summary = read_source(path, ALL_PARSERS)
    assert summary.parser == parser
    assert summary.counts is not None
    assert (summary.counts.passed, summary.counts.failed, summary.counts.skipped) == truth
    assert summary_bench.summarise(path) == truth


def test_the_pytest_log_is_laid_out_as_pytest_prints_it(tmp_path: Path) -> None:
    path = tmp_path / "pytest.log"
    summary_bench.write_pytest_log(path, 1)
    lines = path.read_text().splitlines()
    progress = [line for line in lines if "::" in line]
    assert progress[0].startswith("tests/billing/test_invoice_00.py::test_computes_total[0] PASSED ")
    assert all(len(line) == summary_bench.PYTEST_WIDTH and line.endswith("%]") for line in progress)
    assert progress[-1].endswith("[100%]")
    assert lines[-1].startswith("=") and lines[-1].endswith("=") and len(lines[-1]) == summary_bench.PYTEST_WIDTH


def test_the_table_has_a_line_per_row_and_the_notes_under_it() -> None:
    rows = [
        Row("junit", "CPU time", "1.00 s", "iterparse 1.00 s", 1.0, "<= 1.2x", True, 12.5),
        Row("console", "CPU time", "9.00 s", "line read 1.00 s", 9.0, "<= 3.0x", False, note="the old reader"),
        Row("publish", "requests made", "26"),
    ]
    lines = render(rows).splitlines()
    assert lines[0].split("|")[1:-1] == [
        f" {column.ljust(width)} "
        for column, width in zip(
            ("benchmark", "measure", "ours", "baseline", "ratio", "target", "met?", "peak memory"),
            (9, 13, 6, 16, 5, 7, 4, 11),
            strict=True,
        )
    ]
    assert [line.split("|")[7].strip() for line in lines[2:5]] == ["yes", "NO", "-"]
    assert "12.5 MB" in lines[2] and "9.00x" in lines[3]
    assert lines[5:] == ["", "- console, CPU time: the old reader"]


def test_names_pick_benchmarks_and_groups_in_the_tables_order() -> None:
    assert selected([]) == list(BENCHMARKS)
    assert selected(["publish", "summary"]) == ["junit", "console", "publish"]
    with pytest.raises(SystemExit, match="unknown benchmark 'junitt'"):
        selected(["junitt"])
