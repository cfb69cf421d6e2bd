"""Hostile coverage reports within the documented caps cost time linear in their size and the
memory of the change's lines, never of the report: each property is a ratio between two sizes of
one input, measured in this process, so it holds on a slow machine as on a fast one."""

from __future__ import annotations

import itertools
import json
import random
import time
import tracemalloc
from collections.abc import Callable, Iterable
from pathlib import Path

import pytest

from evidence_gate.coverage.collect import CoverageReport, collect
from evidence_gate.coverage.measure import Attribution, measure
from evidence_gate.coverage.model import FileHits, Sieve, Statement, UnreadableReport
from evidence_gate.coverage.paths import PathMapper
from evidence_gate.coverage.readers import lcov
from evidence_gate.coverage.registry import reader
from tests.coverage.test_readers import CASES, FIXTURES, mapper_for


def fastest(work: Callable[[], object], runs: int = 3) -> float:
    """The shortest of a few timings of `work`, in seconds: the least disturbed by the machine's load."""
    best = float("inf")
    for _ in range(runs):
        start = time.process_time()
        work()
        best = min(best, time.process_time() - start)
    return best


def peak_bytes(work: Callable[[], object]) -> int:
    tracemalloc.start()
    try:
        work()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def read_file(path: Path, kind: str, changed: tuple[int, ...] | None) -> FileHits:
    (hits,) = [
        event for event in reader(kind).read(path, lambda _: Sieve(changed=changed)) if isinstance(event, FileHits)
    ]
    return hits


ATTRIBUTION = Attribution(verdicts=None, unavailable="none", paired={}, test_of_context=lambda _: None)


def test_a_sieve_keeps_the_changed_lines_and_the_last_line_of_each_gap() -> None:
    sieve, hits = Sieve(changed=(10, 20)), dict[int, int]()
    for line in (3, 10, 5, 12, 25, 15, 4, 30):
        if sieve.admit(line, hits):
            hits[line] = 1
    assert hits == {5: 1, 10: 1, 15: 1, 30: 1}
    assert list(Sieve(changed=(10, 20)).within(1, 1_000_000)) == [9, 10, 19, 20, 1_000_000]
    assert list(Sieve(changed=(10, 11)).within(11, 40)) == [11, 40]


@pytest.mark.parametrize(("folder", "report", "kind", "source", "executed", "missed"), CASES)
def test_the_measures_of_a_real_report_are_the_same_read_through_the_sieve(
    folder: str, report: str, kind: str, source: str, executed: set[int], missed: set[int]
) -> None:
    """Whatever lines a change touches, the measures are those of the whole report."""
    reports = [CoverageReport(path=FIXTURES / folder / report, format=kind, shown=report, directory="")]
    mapper = mapper_for(folder)
    whole = collect(reports, mapper, {source})
    randomly = random.Random(f"{folder}/{report}")  # noqa: S311  # a repeatable sample of changes, no secret
    for _ in range(20):
        changed = {source: tuple(sorted(randomly.sample(range(1, 30), randomly.randint(1, 8))))}
        sieved = collect(reports, mapper, changed)
        assert measure(changed, sieved.files, ATTRIBUTION) == measure(changed, whole.files, ATTRIBUTION), changed


def _go_profile(path: Path, blocks: int, span: int) -> Path:
    lines = [f"example.com/shop/cart.go:{1 + n % 7}.1,{span}.2 1 {n % 3}" for n in range(blocks)]
    path.write_text("mode: count\n" + "\n".join(lines) + "\n")
    return path


def test_a_go_block_costs_the_changed_lines_it_spans_not_its_every_line(tmp_path: Path) -> None:
    """A block over a million lines reads as fast as one over a thousand: only the lines the change
    can keep are visited (the attack: 30 KB of such blocks ran past a minute)."""
    changed = (5, 500, 900)
    short, long = _go_profile(tmp_path / "short.out", 400, 1_000), _go_profile(tmp_path / "long.out", 400, 1_000_000)
    ratio = fastest(lambda: read_file(long, "gocover", changed)) / fastest(lambda: read_file(short, "gocover", changed))
    assert ratio < 3, f"a block a thousand times longer took {ratio:.1f} times as long"
    hits = read_file(long, "gocover", changed)
    assert sorted(hits.hits) == [4, 5, 499, 500, 899, 900, 1_000_000]
    assert hits.hits[5] == sum(n % 3 for n in range(400) if 1 + n % 7 <= 5)


def test_an_istanbul_statement_costs_the_changed_lines_it_spans_not_its_every_line(tmp_path: Path) -> None:
    """A statement whose end claims a million lines gives the lines it continues onto only where the
    change can keep them (each such statement visited every line it claimed: 1,269 of them ran 16 s)."""
    statements = {
        str(n): {"start": {"line": 1 + n % 7, "column": n}, "end": {"line": 999_999, "column": 1}} for n in range(400)
    }
    report = tmp_path / "coverage-final.json"
    report.write_text(
        json.dumps({"/w/a.js": {"path": "/w/a.js", "statementMap": statements, "s": dict.fromkeys(statements, 1)}})
    )
    hits = read_file(report, "istanbul", (5, 500, 900))
    assert sorted(hits.statements) == [500, 900]
    assert {held.line for held in hits.statements.values()} == {7}


def test_go_and_lcov_through_a_sieve_agree_with_their_whole_reading(tmp_path: Path) -> None:
    """Random blocks and records: each changed line's count, whether anything measured lies between
    two changed lines, and the last line measured before each are those of the whole report."""
    randomly = random.Random(7)  # noqa: S311  # a repeatable sample of reports, no secret
    for attempt in range(20):
        blocks = [(a, a + randomly.randint(0, 20), randomly.randint(0, 2)) for a in randomly.sample(range(1, 200), 40)]
        go = tmp_path / f"{attempt}.out"
        go.write_text("mode: count\n" + "".join(f"x.go:{a}.1,{b}.2 1 {c}\n" for a, b, c in blocks))
        info = tmp_path / f"{attempt}.info"
        info.write_text("SF:x.js\n" + "".join(f"DA:{a},{c}\nDA:{b},{c}\n" for a, b, c in blocks) + "end_of_record\n")
        changed = tuple(sorted(randomly.sample(range(1, 230), 12)))
        for path, kind in ((go, "gocover"), (info, "lcov")):
            whole, sieved = read_file(path, kind, None).hits, read_file(path, kind, changed).hits
            assert {line: whole[line] for line in changed if line in whole} == {
                line: sieved[line] for line in changed if line in sieved
            }
            for line in changed:
                before = [measured for measured in whole if measured < line]
                if before:
                    assert sieved[max(before)] == whole[max(before)], (kind, line)
            for previous, line in itertools.pairwise(changed):
                between = any(previous < measured < line for measured in whole)
                assert between == any(previous < measured < line for measured in sieved)


def _lcov(path: Path, lines: int) -> Path:
    with path.open("w") as handle:
        handle.write("TN:\nSF:src/cart.js\n")
        handle.writelines(f"DA:{line},{line % 2}\n" for line in range(1, lines + 1))
        handle.write("end_of_record\n")
    return path


def test_an_lcov_file_of_a_wanted_file_costs_the_changed_lines(tmp_path: Path) -> None:
    """Four times the lines of a changed file, the same memory (the attack: 50 MB peaked near 640 MB)."""
    changed = (10, 5_000)
    small, large = _lcov(tmp_path / "small.info", 20_000), _lcov(tmp_path / "large.info", 80_000)
    ratio = peak_bytes(lambda: read_file(large, "lcov", changed)) / peak_bytes(
        lambda: read_file(small, "lcov", changed)
    )
    assert ratio < 1.5, f"four times the lines cost {ratio:.1f} times the memory"
    assert read_file(large, "lcov", changed).hits == {9: 1, 10: 0, 4_999: 1, 5_000: 0, 80_000: 0}


def test_an_lcov_file_past_the_cap_is_refused_unread(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(lcov, "MAX_LCOV_BYTES", 1024)
    with pytest.raises(UnreadableReport, match="a report over 0 MiB"):
        read_file(_lcov(tmp_path / "lcov.info", 200), "lcov", (1,))
    assert len(read_file(_lcov(tmp_path / "lcov.info", 50), "lcov", (1,)).hits) == 2


def _coveragepy(path: Path, lines: int) -> Path:
    numbers = range(1, lines + 1)
    entry = {
        "executed_lines": [line for line in numbers if line % 2],
        "missing_lines": [line for line in numbers if not line % 2],
        "contexts": {str(line): [f"tests/test_cart.py::test_{line % 50}|run"] for line in numbers if line % 2},
        "functions": {"f": {"executed_lines": list(numbers)}},
    }
    other = {"executed_lines": list(numbers), "missing_lines": []}
    report = {"meta": {"version": "7.6.1"}, "files": {"shop/cart.py": entry, "shop/other.py": other}, "totals": {}}
    path.write_text(json.dumps(report))
    return path


def test_a_coveragepy_json_report_is_streamed_keeping_the_changed_lines(tmp_path: Path) -> None:
    """Four times the lines, the same memory; the contexts of every line are still known, for a
    line run on import."""
    changed = (11, 400)
    small, large = _coveragepy(tmp_path / "small.json", 20_000), _coveragepy(tmp_path / "large.json", 80_000)

    def first(path: Path) -> list[FileHits]:
        wanted = Sieve(changed=changed)
        events = reader("coveragepy-json").read(path, lambda name: wanted if name == "shop/cart.py" else None)
        return [event for event in events if isinstance(event, FileHits)]

    ratio = peak_bytes(lambda: first(large)) / peak_bytes(lambda: first(small))
    assert ratio < 1.5, f"four times the lines cost {ratio:.1f} times the memory"
    cart, other = first(large)
    assert (other.name, other.hits) == ("shop/other.py", {})
    assert cart.hits == {10: 0, 11: 1, 399: 1, 400: 0, 80_000: 0}
    assert cart.contexts == {
        11: frozenset({"tests/test_cart.py::test_11|run"}),
        399: frozenset({"tests/test_cart.py::test_49|run"}),
    }
    assert len(cart.all_contexts) == 25  # the odd lines ran, under 25 names


# The changed file of `_many_files`' report, as coverage.py writes it.
CART_EXECUTED, CART_MISSING = (1, 3, 5, 11), (2, 10)
CART_CONTEXTS = {"1": [""], "3": ["t1"], "5": ["t2"], "11": ["t3"]}


def _many_files(path: Path, files: int, lines: int) -> Path:
    """A report of `files` files nobody changed, each of `lines` lines with their contexts, and
    then the changed one."""
    numbers = range(1, lines + 1)
    cart = {"executed_lines": CART_EXECUTED, "missing_lines": CART_MISSING, "contexts": CART_CONTEXTS}
    with path.open("w") as handle:
        handle.write('{"meta": {"version": "7.6.1", "format": 3, "show_contexts": true}, "files": {')
        for n in range(files):
            entry = {
                "executed_lines": [line for line in numbers if line % 2],
                "summary": {"covered_lines": lines // 2},
                "missing_lines": [line for line in numbers if not line % 2],
                "excluded_lines": [],
                "contexts": {
                    str(line): [f"tests/test_mod{n}.py::test_{line % 40}|run"] for line in numbers if line % 2
                },
            }
            handle.write(f'"pkg/mod{n}.py": {json.dumps(entry)}, ')
        handle.write(f'"shop/cart.py": {json.dumps(cart)}}}, "totals": {{}}}}')
    return path


def test_a_35_mb_coveragepy_json_report_of_other_files_costs_a_few_mb(tmp_path: Path) -> None:
    """The attack of issue 24: 35 MB of other files' lines peaked near 660 MB loaded whole (220 MiB
    of it Python's objects). The changed file's lines are those of the whole document, through its
    sieve."""
    path = _many_files(tmp_path / "coverage.json", 1_260, 1_000)
    assert path.stat().st_size > 35_000_000

    def changed_file(changed: tuple[int, ...] | None) -> list[FileHits]:
        wanted = Sieve(changed=changed)
        events = reader("coveragepy-json").read(path, lambda name: wanted if name == "shop/cart.py" else None)
        return [event for event in events if isinstance(event, FileHits) and event.hits]

    found: list[FileHits] = []
    peak = peak_bytes(lambda: found.extend(changed_file((3, 11))))
    assert peak < 16 * 2**20, f"{peak:,} bytes held reading {path.stat().st_size:,}"
    (sieved,) = found
    assert sieved.hits == {2: 0, 3: 1, 10: 0, 11: 1}  # the changed lines, and each gap's last line
    assert sieved.contexts == {3: frozenset({"t1"}), 11: frozenset({"t3"})}
    assert sieved.all_contexts == {"", "t1", "t2", "t3"}
    (whole,) = changed_file(None)
    assert whole.hits == dict.fromkeys(CART_EXECUTED, 1) | dict.fromkeys(CART_MISSING, 0)
    assert whole.contexts == {int(line): frozenset(names) for line, names in CART_CONTEXTS.items()}


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        (b'{"meta": {"version": "7"}, "files": []}', "`files` is not an object"),
        (
            b'{"meta": {"version": "7"}, "files": {"x.py": {"executed_lines": {}}}}',
            "executed_lines of 'x.py' is not a list",
        ),
        (b'{"meta": {"version": "7"}, "files": {"x.py": {"executed_lines": [1, [2]]}}}', "is not a line number"),
        (b'{"meta": {"version": "7"}, "files": {"x.py": {"contexts": {"1": [2]}}}}', "are not a list of names"),
        (b'{"meta": {"version": "7"}, "files": {"x.py": ', "not valid JSON"),
        (b'{"meta": {"version": "7"}, "totals": ' + b"[" * 100 + b"]" * 100 + b"}", "nested deeper than 64"),
        (
            b'{"meta": {"version": "7"}, "files": {"x.py": {"functions": ' + b"[" * 100_000 + b"]" * 100_000 + b"}}}",
            "nested deeper than 64",
        ),
        (
            b'{"meta": {"version": "7"}, "files": {"x.py": {"executed_lines": [' + b"1" * 5_000 + b"]}}}",
            "a number of more than 4,300 digits",
        ),
        (
            # the number spans the reader's first two 256 KiB reads: ijson's C backend crashed here
            b'{"meta": {"version": "7"}, "files": {"other.py": {"excluded_lines": "'
            + b"x" * (256 * 1024 - 2_000)
            + b'"}, "x.py": {"executed_lines": ['
            + b"1" * 5_000
            + b"]}}}",
            "a number of more than 4,300 digits",
        ),
        (b'{"meta": {"version": "7"}, "files": {"x.py": {"executed_lines": [1e99999999999999999999]}}}', "exponent"),
    ],
)
def test_a_broken_coveragepy_json_report_is_unreadable_with_its_reason(
    tmp_path: Path, content: bytes, reason: str
) -> None:
    path = tmp_path / "coverage.json"
    path.write_bytes(content)
    with pytest.raises(UnreadableReport, match=reason):
        list(reader("coveragepy-json").read(path, lambda _: Sieve(changed=None)))


def _istanbul_entry(name: str, statements: int, *, path_first: bool = True) -> dict[str, object]:
    """A file of istanbul's `coverage-final.json`: one statement a line, each but every third run,
    each of the first ten held over the next line."""
    entry: dict[str, object] = {
        "statementMap": {
            str(n): {"start": {"line": 2 * n + 1, "column": 2}, "end": {"line": 2 * n + 2 if n < 10 else 2 * n + 1}}
            for n in range(statements)
        },
        "fnMap": {"0": {"name": "f", "loc": {"start": {"line": 1}}}},
        "branchMap": {},
        "s": {str(n): n % 3 for n in range(statements)},
        "f": {"0": 1},
        "b": {},
    }
    return {"path": name, **entry} if path_first else {**entry, "path": name}


def _istanbul(path: Path, files: int, *, path_first: bool = True) -> Path:
    with path.open("w") as handle:
        handle.write("{")
        for n in range(files):
            name = f"/w/src/mod{n}.js"
            handle.write(f"{json.dumps(name)}: {json.dumps(_istanbul_entry(name, 1_000))}, ")
        cart = _istanbul_entry("/w/src/cart.js", 20, path_first=path_first)
        handle.write(f'"/w/src/cart.js": {json.dumps(cart)}}}')
    return path


def test_an_istanbul_report_of_other_files_is_streamed_in_bounded_memory(tmp_path: Path) -> None:
    """Four times the files nobody changed, the same memory (a 37 MB report peaked at 317 MiB of
    Python's objects loaded whole, and near 650 MB in all); the changed file's statements are read
    whole, whether its `path` comes first, as istanbul writes it, or after its statements."""
    small, large = _istanbul(tmp_path / "small.json", 20), _istanbul(tmp_path / "large.json", 80)

    def changed_file(path: Path) -> list[FileHits]:
        wanted = Sieve(changed=(3, 4, 11, 12))
        events = reader("istanbul").read(path, lambda name: wanted if name == "/w/src/cart.js" else None)
        return [event for event in events if isinstance(event, FileHits) and event.hits]

    ratio = peak_bytes(lambda: changed_file(large)) / peak_bytes(lambda: changed_file(small))
    assert ratio < 1.5, f"four times the files cost {ratio:.1f} times the memory"
    last = _istanbul(tmp_path / "last.json", 2, path_first=False)
    for path in (large, last):
        (cart,) = changed_file(path)
        assert cart.hits == {2 * n + 1: n % 3 for n in range(20)}
        assert cart.statements == {4: Statement(3, 1), 12: Statement(11, 2)}  # the changed continuation lines


def _names(packages: int) -> tuple[PathMapper, list[str]]:
    files = frozenset(f"pkg{n}/sub/__init__.py" for n in range(packages))
    names: Iterable[str] = (
        name
        for n in range(packages)
        for name in (
            f"pkg{n}/sub/__init__.py",
            f"/elsewhere/build/pkg{n}/sub/__init__.py",
            *(f"other{k}/pkg{n}/sub/__init__.py" for k in range(10)),
        )
    )
    return PathMapper(files=files, top="/w"), list(names)


def test_mapping_many_files_of_one_name_is_linear() -> None:
    """Four times the `__init__.py` files and report names, about four times the time, not sixteen
    (the attack: 1,000 such files against 30,000 names compared every name with every file)."""

    def mapping(packages: int) -> float:
        mapper, names = _names(packages)
        files = mapper.files

        def every_name() -> None:
            mapper = PathMapper(files=files, top="/w")  # a fresh one each run: nothing cached
            for name in names:
                mapper.map(name, "")

        return fastest(every_name)

    ratio = mapping(1600) / mapping(400)
    assert ratio < 8, f"four times the files and names took {ratio:.1f} times as long"
    mapper, _ = _names(3)
    assert mapper.map("/elsewhere/pkg1/sub/__init__.py", "").path == "pkg1/sub/__init__.py"
    assert mapper.map("sub/__init__.py", "").reason == (
        "ambiguous: it matches 3 files (pkg0/sub/__init__.py, pkg1/sub/__init__.py, pkg2/sub/__init__.py)"
    )
    assert mapper.map("other/pkg1/sub/__init__.py", "").reason == "not a file of this repository"
