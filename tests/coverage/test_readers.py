"""Every coverage reader on reports the real tools wrote (tests/fixtures/coverage/, made by
scripts/capture_fixtures/coverage.sh), mapped back onto the project each fixture folder stands for."""

from __future__ import annotations

import re
import tracemalloc
from pathlib import Path

import pytest

from evidence_gate.coverage.collect import CoverageReport, collect
from evidence_gate.coverage.model import FileHits, Sieve, UnreadableReport
from evidence_gate.coverage.paths import PathMapper
from evidence_gate.coverage.registry import coverage_format, reader

FIXTURES = Path(__file__).parent.parent / "fixtures" / "coverage"
SOURCES = frozenset({".py", ".js", ".go", ".java", ".php", ".mod"})

# (folder, report, format, source file, executed lines, measured but not executed)
CASES = [
    ("coveragepy", "coverage.json", "coveragepy-json", "shop/cart.py", {4, 6, 7, 8, 9, 12}, {14}),
    ("coveragepy", "coverage-dynamic.json", "coveragepy-json", "shop/cart.py", {4, 6, 7, 8, 9, 12}, {14}),
    ("coveragepy", "coverage.xml", "cobertura", "shop/cart.py", {4, 6, 7, 8, 9, 12}, {14}),
    (
        "c8",
        "lcov.info",
        "lcov",
        "packages/web/src/cart.js",
        {1, 2, 3, 4, 5, 6, 7, 8, 11, 12, 13, 14, 18, 19},
        {9, 10, 15, 16, 17},
    ),
    (
        "c8",
        "coverage-final.json",
        "istanbul",
        "packages/web/src/cart.js",
        {1, 2, 3, 4, 5, 6, 7, 8, 11, 12, 13, 14, 18, 19},
        {9, 10, 15, 16, 17},
    ),
    (
        "c8",
        "cobertura-coverage.xml",
        "cobertura",
        "packages/web/src/cart.js",
        {1, 2, 3, 4, 5, 6, 7, 8, 11, 12, 13, 14, 18, 19},
        {9, 10, 15, 16, 17},
    ),
    ("nyc", "lcov.info", "lcov", "src/cart.js", {7, 8, 11, 19}, {9, 16}),
    ("nyc", "coverage-final.json", "istanbul", "src/cart.js", {7, 8, 11, 19}, {9, 16}),
    ("nyc", "clover.xml", "clover", "src/cart.js", {7, 8, 11, 19}, {9, 16}),
    ("go", "cover.out", "gocover", "services/shop/cart/cart.go", {5, 6, 7, 8, 9, 10, 13}, {11, 12, 17, 18, 19}),
    ("go", "cover-count.out", "gocover", "services/shop/cart/cart.go", {5, 6, 7, 8, 9, 10, 13}, {11, 12, 17, 18, 19}),
    ("jacoco", "jacoco.xml", "jacoco", "src/main/java/com/example/shop/Cart.java", {10, 11, 12, 14, 17}, {15, 22}),
    # PHPUnit's Clover lists each method's signature line (type="method"); its Cobertura does not.
    ("phpunit", "clover.xml", "clover", "src/Cart.php", {11, 13, 14, 17}, {15, 21, 23}),
    ("phpunit", "cobertura.xml", "cobertura", "src/Cart.php", {13, 14, 17}, {15, 23}),
]


def every_file(name: str) -> Sieve:
    """A reader's `keep` that wants every file's lines."""
    return Sieve(changed=None)


def captured_root(folder: str) -> str:
    """Where the fixture's project lay when its tool ran (its README says), which absolute names use."""
    found = re.search(r"project root at capture: (\S+)", (FIXTURES / folder / "README.md").read_text())
    assert found, folder
    return found[1]


def mapper_for(folder: str, top: str | None = None) -> PathMapper:
    root = FIXTURES / folder
    files = frozenset(p.relative_to(root).as_posix() for p in root.rglob("*") if p.suffix in SOURCES)
    modules = {"example.com/shop": "services/shop"} if folder == "go" else {}
    return PathMapper(files=files, top=top or captured_root(folder), modules=modules)


@pytest.mark.parametrize(("folder", "report", "kind", "source", "executed", "missed"), CASES)
def test_a_real_report_is_recognised_read_and_mapped(
    folder: str, report: str, kind: str, source: str, executed: set[int], missed: set[int]
) -> None:
    path = FIXTURES / folder / report
    assert coverage_format(path.read_bytes()[:65536]) == kind
    found = collect([CoverageReport(path=path, format=kind, shown=report, directory="")], mapper_for(folder), {source})
    assert found.problems == ()
    lines = found.files[source]
    assert set(lines.covered) == executed
    assert set(lines.measured) - set(lines.covered) == missed


def test_reports_of_another_machine_map_by_their_longest_trailing_path() -> None:
    """A checkout elsewhere (the container's /github/workspace): absolute names still find their file."""
    path = FIXTURES / "nyc" / "coverage-final.json"
    found = collect(
        [CoverageReport(path=path, format="istanbul", shown="x", directory="")],
        mapper_for("nyc", top="/github/workspace"),
        {"src/cart.js"},
    )
    assert set(found.files["src/cart.js"].covered) == {7, 8, 11, 19}


def test_lcov_written_inside_a_sub_project_maps_under_its_directory() -> None:
    """c8 ran in packages/web/ and names `src/cart.js`: the report's own directory is tried first."""
    mapper = PathMapper(files=frozenset({"packages/web/src/cart.js", "src/cart.js"}), top="/w")
    assert mapper.map("src/cart.js", "packages/web").path == "packages/web/src/cart.js"
    assert mapper.map("src/cart.js", "").path == "src/cart.js"


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("C:\\agent\\work\\app\\src\\shop\\cart.py", "src/shop/cart.py"),  # Windows separators and drive
        ("/w/src/shop/cart.py", "src/shop/cart.py"),
        ("file:///w/src/shop/cart.py", "src/shop/cart.py"),
        ("./src/shop/../shop/cart.py", "src/shop/cart.py"),
        ("example.com/app/shop/cart.go", "go/shop/cart.go"),  # the Go module path stripped
        ("com/example/Cart.java", "svc/src/main/java/com/example/Cart.java"),  # JaCoCo package path
    ],
)
def test_names_map_to_repository_files(name: str, expected: str) -> None:
    files = {"src/shop/cart.py", "go/shop/cart.go", "svc/src/main/java/com/example/Cart.java", "go/go.mod"}
    mapper = PathMapper(files=frozenset(files), top="/w", modules={"example.com/app": "go"})
    assert mapper.map(name, "").path == expected


def test_a_name_under_a_source_root_outside_the_checkout_keeps_the_roots_package_folder() -> None:
    """pytest-cov's `--cov tenacity` over the package installed in a virtualenv: the Cobertura
    `<source>` is `.../site-packages/tenacity` and the names are `wait.py`, which two files end in."""
    mapper = PathMapper(files=frozenset({"tenacity/wait.py", "tenacity/asyncio/wait.py"}), top="/w")
    root = "/home/runner/venv/lib/python3.12/site-packages/tenacity"
    assert mapper.map("wait.py", "evidence", [root]).path == "tenacity/wait.py"
    assert mapper.map("asyncio/wait.py", "evidence", [root]).path == "tenacity/asyncio/wait.py"
    assert mapper.map("wait.py", "evidence").path is None  # without the root: ambiguous, never guessed


def test_an_ambiguous_or_unknown_name_is_unmapped_with_the_reason() -> None:
    files = {"a/src/main/java/com/x/Cart.java", "b/src/main/java/com/x/Cart.java"}
    mapper = PathMapper(files=frozenset(files), top="/w")
    ambiguous = mapper.map("com/x/Cart.java", "")
    assert ambiguous.path is None
    assert "ambiguous: it matches 2 files" in ambiguous.reason
    assert mapper.map("/elsewhere/nothing.py", "").reason == "not a file of this repository"
    assert mapper.map("../../etc/passwd", "").path is None


def test_unmapped_files_are_listed_by_name_and_a_report_mapping_nothing_is_a_problem(tmp_path: Path) -> None:
    report = tmp_path / "lcov.info"
    report.write_text("SF:lib/gone.js\nDA:1,1\nend_of_record\nSF:src/cart.js\nDA:2,0\nend_of_record\n")
    given = CoverageReport(path=report, format="lcov", shown="lcov.info", directory="")
    some = collect([given], PathMapper(files=frozenset({"src/cart.js"}), top="/w"), {"src/cart.js"})
    assert some.unmapped == ("lib/gone.js (lcov.info): not a file of this repository",)
    assert some.problems == ()
    none = collect([given], PathMapper(files=frozenset({"other.js"}), top="/w"), set())
    assert none.problems[0].startswith("lcov.info: none of its 2 files is a file of this repository")


def test_reports_merge_a_line_covered_by_any_of_them(tmp_path: Path) -> None:
    first, second = tmp_path / "a.info", tmp_path / "b.info"
    first.write_text("SF:x.js\nDA:1,0\nDA:2,0\nend_of_record\n")
    second.write_text("SF:x.js\nDA:2,3\nDA:3,0\nend_of_record\n")
    reports = [CoverageReport(path=p, format="lcov", shown=p.name, directory="") for p in (first, second)]
    lines = collect(reports, PathMapper(files=frozenset({"x.js"}), top="/w"), {"x.js"}).files["x.js"]
    assert lines.measured == {1, 2, 3}
    assert lines.covered == {2}


@pytest.mark.parametrize(
    ("content", "kind", "reason"),
    [
        (b"SF:x.js\nDA:1,1\n", "lcov", "the last record has no end_of_record"),
        (b"SF:x.js\nDA:one,1\nend_of_record\n", "lcov", "is not a whole number"),
        (b"mode: set\nx.go:1.1,2.2 1\n", "gocover", "line 2 is not a coverage block"),
        # A block of a few bytes over two billion lines: gigabytes of lines, were they kept.
        pytest.param(
            b"mode: set\nx.go:1.1,2000000000.1 1 1\n",
            "gocover",
            "ends at line 2000000000, past any Go file's",
            id="go-block-of-2e9-lines",
        ),
        # Past the 4,300 digits Python's int() takes from text.
        pytest.param(
            b"mode: set\nx.go:1.1," + b"1" * 5_000 + b".1 1 1\n",
            "gocover",
            "line 2 is not a coverage block",
            id="go-5000-digits",
        ),
        (
            b'<?xml version="1.0"?><coverage line-rate="1"><packages><class filename="x"><line number="1" hits="1"/>',
            "cobertura",
            "malformed XML",
        ),
        (
            b'<?xml version="1.0"?><!DOCTYPE coverage [<!ENTITY a "aaaa">]><coverage line-rate="1"><sources>'
            b"<source>&a;</source></sources><packages/></coverage>",
            "cobertura",
            "internal subset",
        ),
        (
            b'{"meta": {"version": "7", "coverage": 1}, "files": {"x.py": {"executed_lines": ["1"]}}}',
            "coveragepy-json",
            "is not a line number",
        ),
        (b"[" * 100_000 + b'"statementMap"', "istanbul", "the JSON report is not an object"),
        (
            b'{"/src/a.js": {"path": "/src/a.js", "fnMap": ' + b"[" * 100_000 + b"]" * 100_000 + b"}}",
            "istanbul",
            "nested deeper than 64 levels",
        ),
        (
            b'{"/src/a.js": {"path": "/src/a.js", "statementMap": {"0": {"start": {"line": '
            + b"1" * 5_000
            + b'}}}, "s": {}}}',
            "istanbul",
            "a number of more than 4,300 digits",
        ),
        pytest.param(
            '{"meta": {"version": "7"}, "files": {"x.py": {"contexts": {"\u00b2": ["t"]}}}}'.encode(),
            "coveragepy-json",
            "a context line of 'x.py' is not a line number: '-1'",
            id="context-line-superscript-two",
        ),
        pytest.param(
            b'{"meta": {"version": "7"}, "files": {"x.py": {"contexts": {"' + b"1" * 5_000 + b'": ["t"]}}}}',
            "coveragepy-json",
            "a number of more than 4,300 digits",
            id="context-line-of-5000-digits",
        ),
    ],
)
def test_a_broken_or_hostile_report_is_unreadable_with_its_reason(
    tmp_path: Path, content: bytes, kind: str, reason: str
) -> None:
    path = tmp_path / "report"
    path.write_bytes(content)
    with pytest.raises(UnreadableReport, match=re.escape(reason)):
        list(reader(kind).read(path, every_file))


def test_a_report_in_utf16_is_recognised_and_read(tmp_path: Path) -> None:
    path = tmp_path / "coverage.xml"
    text = (FIXTURES / "coveragepy" / "coverage.xml").read_text("utf-8")
    path.write_bytes(text.encode("utf-16"))
    assert coverage_format(path.read_bytes()[:4096]) == "cobertura"
    hits = [event for event in reader("cobertura").read(path, every_file) if isinstance(event, FileHits)]
    assert {event.name for event in hits} == {"shop/__init__.py", "shop/cart.py"}


def test_formats_are_told_apart_by_content_never_by_name() -> None:
    assert coverage_format(b"TN:\nSF:a.js\n") == "lcov"
    assert coverage_format(b"mode: atomic\n") == "gocover"
    assert coverage_format(b'<?xml version="1.0"?><testsuites><testsuite/></testsuites>') is None
    assert coverage_format(b"============ 3 passed in 0.1s ============") is None
    # go test -json whose test output happens to name the words a JSON coverage report holds
    go_json = (
        b'{"Time":"2026-01-01T00:00:00Z","Action":"output","Output":"\\"meta\\" \\"files\\" coverage statementMap"}\n'
    )
    assert coverage_format(go_json) is None


@pytest.mark.parametrize(("folder", "report", "kind", "source", "executed", "missed"), CASES)
def test_a_file_not_wanted_is_named_without_its_lines(
    folder: str, report: str, kind: str, source: str, executed: set[int], missed: set[int]
) -> None:
    """A reader asks `keep` as each file starts and skips the lines of one that is not wanted, so a
    report costs the memory of the change's files; the file is still named, for the unmapped list."""
    asked: list[str] = []

    def keep(name: str) -> Sieve | None:
        asked.append(name)
        return None

    events = [event for event in reader(kind).read(FIXTURES / folder / report, keep) if isinstance(event, FileHits)]
    assert [event.name for event in events] == asked
    assert all(not event.hits and event.contexts is None for event in events)


@pytest.mark.parametrize("kind", ["istanbul", "coveragepy-json"])
def test_a_small_json_report_costs_its_size_not_the_cap(tmp_path: Path, kind: str) -> None:
    """The JSON readers read up to 256 MiB; reading a report of a few bytes set all of it aside."""
    path = tmp_path / "coverage.json"
    path.write_bytes(b"[]")
    tracemalloc.start()
    try:
        with pytest.raises(UnreadableReport):
            list(reader(kind).read(path, every_file))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 8 * 1024 * 1024, f"{peak:,} bytes to read 2"
