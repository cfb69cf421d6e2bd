"""The one-scan log reader gives every parser the reading it gives when fed every line.

The reference is the plain reading (`feed_every_line`): every cleaned line of the log to every
parser. The scan feeds a parser only the lines its `LineFilter` selects, and every line while it
asks for them; these tests hold the two to the same readings on every captured runner log, as it
is and reshaped the ways real logs are (Windows line endings, colours, a byte order mark, several
runners in one log, blocks larger than the scan's, redraws and over-long lines the scan leaves to
the reference reading).
"""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from evidence_gate.summary.base import WHITESPACE, LineParser, Reading
from evidence_gate.summary.encoding import detect_encoding, text_reader
from evidence_gate.summary.line_scan import BLOCK_BYTES, MAX_LINE_CHARS, feed_every_line, feed_log
from evidence_gate.summary.registry import LINE_PARSERS, line_parser

if TYPE_CHECKING:
    from _typeshed import WriteableBuffer  # the buffer type BytesIO.readinto takes, in the stubs only

FIXTURES = Path(__file__).parent.parent / "fixtures" / "stack-logs"
LOGS = sorted(path for path in FIXTURES.rglob("*.log") if path.is_file())


def readings(data: bytes, *, scan: bool) -> list[Reading | None]:
    parsers: list[LineParser] = [line_parser(name) for name in LINE_PARSERS]
    encoding = detect_encoding(data[:65536])
    if scan:
        feed_log(io.BytesIO(data), encoding, parsers)
    else:
        feed_every_line(text_reader(io.BytesIO(data), encoding), parsers)
    return [parser.finish() for parser in parsers]


def assert_same(data: bytes) -> None:
    assert readings(data, scan=True) == readings(data, scan=False)


def test_every_line_parser_names_the_lines_it_reads() -> None:
    """A parser without a filter would send every log it is a candidate for down the slow path."""
    assert [name for name in LINE_PARSERS if line_parser(name).reads is None] == []


def test_whitespace_is_every_character_that_strip_and_backslash_s_take() -> None:
    everything = (chr(code) for code in range(0x110000))
    assert set(WHITESPACE) == {character for character in everything if character.isspace()}
    assert all(re.match(r"\s", character) for character in WHITESPACE)


def test_the_fixtures_are_there() -> None:
    assert len(LOGS) > 100


@pytest.mark.parametrize("path", LOGS, ids=[str(path.relative_to(FIXTURES)) for path in LOGS])
def test_a_captured_log_reads_alike(path: Path) -> None:
    data = path.read_bytes()
    assert_same(data)
    assert_same(data.replace(b"\n", b"\r\n"))
    assert_same(b"\xef\xbb\xbf" + data)


def test_several_runners_in_one_log_read_alike() -> None:
    """Every captured log after every other: a log may hold any runners' output, in any order."""
    data = b"".join(path.read_bytes() for path in LOGS)
    assert_same(data)
    assert_same(b"".join(path.read_bytes() for path in reversed(LOGS)))


def test_colours_on_every_line_read_alike() -> None:
    coloured = [
        re.sub(rb"(?m)^(\S+)", b"\x1b[1m\x1b[31m\\1\x1b[0m", path.read_bytes()) + b"\x1b]0;title\n" for path in LOGS
    ]
    assert_same(b"".join(coloured))


def test_a_log_of_many_blocks_reads_alike() -> None:
    """Lines cut by the scan's blocks, and a closing line far from its session's header."""
    pytest_log = (FIXTURES / "pytest" / "failure.log").read_bytes()
    filler = b"".join(b"tests/test_pad.py::test_pad[%d] PASSED [ 50%%]\n" % n for n in range(60_000))
    data = pytest_log[:200] + filler + pytest_log[200:]
    assert len(data) > 2 * BLOCK_BYTES
    assert_same(data)
    assert_same(data + b"=== 1 failed, 2 passed in 0.01s ===")  # a last line without its newline


class _Trickle(io.BytesIO):
    """A file that hands over at most a few thousand bytes a read, as a pipe or a slow disk may."""

    def readinto(self, buffer: WriteableBuffer) -> int:
        with memoryview(buffer) as room:
            return super().readinto(room[:4_099])


def test_a_file_that_hands_over_a_few_bytes_at_a_time_reads_alike() -> None:
    """The scan's one buffer holds a line's start until its end comes, however the reads fall."""
    pytest_log = (FIXTURES / "pytest" / "failure.log").read_bytes()
    filler = b"".join(b"tests/test_pad.py::test_pad[%d] PASSED [ 50%%]\n" % n for n in range(30_000))
    long_line = b"x" * (MAX_LINE_CHARS - 1) + b"=== 1 failed in 0.01s ===\n"
    for data in (pytest_log + filler + pytest_log, pytest_log + long_line + pytest_log):
        parsers: list[LineParser] = [line_parser(name) for name in LINE_PARSERS]
        feed_log(_Trickle(data), detect_encoding(data[:65536]), parsers)
        assert [parser.finish() for parser in parsers] == readings(data, scan=False)


def test_redraws_and_over_long_lines_are_read_the_reference_way() -> None:
    pytest_log = (FIXTURES / "pytest" / "failure.log").read_bytes()
    redraw = b"=== 3 failed in 0.10s ===\r=== 3 passed in 0.10s ===\n"
    assert_same(redraw + pytest_log)
    assert_same(pytest_log + redraw)
    long_line = b"x" * (MAX_LINE_CHARS - 1) + b"=== 1 failed in 0.01s ===\n"  # cut into pieces by the reference
    assert_same(long_line + pytest_log)
    assert_same(pytest_log + long_line + pytest_log)
    assert_same(pytest_log + b"y" * (3 * MAX_LINE_CHARS))  # a last line longer than a block, never ended


def test_a_parser_gets_the_line_right_after_the_one_its_filter_selects() -> None:
    """Mocha's pending and failing lines follow its passing line; only that one is the filter's."""
    data = b"  3 passing (10ms)\n  2 pending\n  1 failing\n"
    scanned = readings(data, scan=True)
    mocha = scanned[list(LINE_PARSERS).index("mocha")]
    assert mocha is not None and mocha.counts is not None
    assert (mocha.counts.passed, mocha.counts.skipped, mocha.counts.failed) == (3, 2, 1)
    assert scanned == readings(data, scan=False)


def test_a_go_test_log_of_many_blocks_reads_alike() -> None:
    """Passed and skipped tests are counted between the lines the go parser is fed, across blocks,
    and a package's build error is read on the line after its header, wherever a block ends."""
    packages = []
    for package in range(70):
        lines = []
        for test in range(400):
            lines.append(f"=== RUN   TestCase{test}\n    case_test.go:12: working on {test}\n")
            word = "FAIL" if test % 97 == 0 else "SKIP" if test % 31 == 0 else "PASS"
            lines.append(f"--- {word}: TestCase{test} ({test % 7}.0{test % 10}s)\n")
            lines.append(f"    --- PASS: TestCase{test}/sub ({test % 3}.00s)\n")
        verdict = (
            "FAIL\texample.com/p{0}\t0.1s" if any("FAIL" in line for line in lines) else "ok  \texample.com/p{0}\t0.1s"
        )
        packages.append("".join(lines) + verdict.format(package) + "\n")
    broken = "# example.com/broken\n\n./broken.go:3:1: syntax error\nFAIL\texample.com/broken [build failed]\n"
    # A header whose next line is a passed test's: fed to the parser as that line, and counted once.
    odd = "# example.com/odd\n--- PASS: TestOdd (0.00s)\nok  \texample.com/odd\t0.1s\n"
    data = ("".join(packages[:35]) + broken + odd + "".join(packages[35:])).encode()
    assert len(data) > 3 * BLOCK_BYTES
    assert_same(data)
    scanned = readings(data, scan=True)[list(LINE_PARSERS).index("go-test")]
    assert scanned is not None and "syntax error" in scanned.notes[0]
