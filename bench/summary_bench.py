"""`summary` on a 1 GB JUnit report and on two console logs (a pytest -v log of about 64 MB and a
`go test -v` log of about 60 MB): CPU time, peak memory, and counts against the generator's truth.

The JUnit baseline is a plain lxml `iterparse` that counts <testcase> elements of the same file
(clearing as it goes). Target: summary at most 1.2x the baseline's CPU time, and memory flat (its
resident set rises at most 64 MB, whatever the report's size). The console logs' baseline is a plain
Python read of the file's text lines (`for line in open(p, encoding="utf-8", errors="replace",
newline="\\n")`), which any reader must at least do. Targets: summary at most 3x that read, and a
rise of at most 64 MB. Every count must equal what the generator wrote.

Each measurement runs in a fresh child process (forked), so that one's peak memory does not hide the
other's; each takes the least CPU time of `--repeat` children.

Run: python -m bench.summary_bench [--junit-mb 1024] [--pytest-mb 64] [--go-mb 60] [--repeat 3] [--quick]
"""

from __future__ import annotations

import argparse
import functools
import multiprocessing
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from lxml import etree

from bench.table import Row, render, rise_mb, seconds, start_peak
from evidence_gate.summary.read import read_source
from evidence_gate.summary.registry import ALL_PARSERS

CASE = (
    '    <testcase classname="com.example.billing.InvoiceCalculatorTest" name="computesTotal_{n}" time="0.004">\n'
    "      <system-out>rounding mode HALF_EVEN, scale 2, currency EUR</system-out>\n"
    "    </testcase>\n"
)
FAILED_CASE = (
    '    <testcase classname="com.example.billing.InvoiceCalculatorTest" name="rejectsNegative_{n}" time="0.002">\n'
    '      <failure message="expected: &lt;0&gt; but was: &lt;-1&gt;" type="java.lang.AssertionError">'
    "java.lang.AssertionError at InvoiceCalculatorTest.java:42</failure>\n"
    "    </testcase>\n"
)
PYTEST_HEADER = (
    "============================= test session starts ==============================\n"
    "platform linux -- Python 3.11.7, pytest-8.3.3, pluggy-1.5.0 -- /usr/bin/python3\n"
    "cachedir: .pytest_cache\n"
    "rootdir: /build/shop\n"
    "configfile: pyproject.toml\n"
    "plugins: cov-5.0.0\n"
    "collecting ... collected {total} items\n"
    "\n"
)
PYTEST_WIDTH = 80  # pytest right-aligns the progress to the terminal's width (80 when not a terminal)
SKIP_EVERY = 97  # every 97th test is skipped
GO_TESTS_PER_PACKAGE = 200
GO_TEST = (
    "=== RUN   TestInvoice{n}\n"
    "=== RUN   TestInvoice{n}/rounds_half_even\n"
    "    invoice_test.go:41: total 12.50 EUR, rounding HALF_EVEN, scale 2\n"
    "=== RUN   TestInvoice{n}/rejects_negative\n"
    "--- PASS: TestInvoice{n} (0.00s)\n"
    "    --- PASS: TestInvoice{n}/rounds_half_even (0.00s)\n"
    "    --- PASS: TestInvoice{n}/rejects_negative (0.00s)\n"
)
GO_SKIP = (
    "=== RUN   TestGateway{n}\n    gateway_test.go:18: no payment sandbox in CI\n--- SKIP: TestGateway{n} (0.00s)\n"
)

FULL = {"junit_mb": 1024, "pytest_mb": 64, "go_mb": 60}
QUICK = {"junit_mb": 64, "pytest_mb": 8, "go_mb": 8}
MEMORY_TARGET_MB = 64
JUNIT_TARGET = 1.2
CONSOLE_TARGET = 3.0
SHORT = "short of the target: see bench/README.md for where the time goes"
# The parser order of the stack each log's runner belongs to (adapters.yaml): what the action and
# `summary --stack` try, where a log given with no stack is tried with every parser.
STACK_PARSERS = {
    "pytest -v": ("python", ("pytest", "unittest", "junit")),
    "go test -v": ("go", ("go-test-json", "go-test", "junit")),
}

Truth = tuple[int, int, int]  # passed, failed, skipped


def write_junit(path: Path, megabytes: int) -> Truth:
    target = megabytes * 1024 * 1024
    cases = failed = 0
    with path.open("w", encoding="utf-8") as handle:
        handle.write('<?xml version="1.0" encoding="UTF-8"?>\n<testsuites>\n')
        written = 0
        suite = 0
        while written < target:
            handle.write(f'  <testsuite name="suite{suite}" tests="1000">\n')
            chunk = "".join((FAILED_CASE if n % 997 == 0 else CASE).format(n=n) for n in range(1000))
            handle.write(chunk)
            handle.write("  </testsuite>\n")
            written += len(chunk)
            cases += 1000
            failed += 2  # n = 0 and n = 997
            suite += 1
        handle.write("</testsuites>\n")
    return cases - failed, failed, 0


def _pytest_line(node: str, outcome: str, percent: int) -> str:
    progress = f"[{percent:3d}%]"
    text = f"{node} {outcome}"
    return f"{text}{' ' * max(1, PYTEST_WIDTH - len(text) - len(progress))}{progress}\n"


def write_pytest_log(path: Path, megabytes: int) -> Truth:
    """A pytest -v session as pytest prints it: one `path::test PASSED [ NN%]` line per test."""
    sample = _pytest_line("tests/billing/test_invoice_00.py::test_computes_total[100000]", "PASSED", 42)
    total = megabytes * 1024 * 1024 // len(sample)
    skipped = 0
    with path.open("w", encoding="utf-8") as handle:
        handle.write(PYTEST_HEADER.format(total=total))
        lines = []
        for n in range(total):
            outcome = "SKIPPED" if n % SKIP_EVERY == SKIP_EVERY - 1 else "PASSED"
            skipped += outcome == "SKIPPED"
            node = f"tests/billing/test_invoice_{n // 10_000:02d}.py::test_computes_total[{n}]"
            lines.append(_pytest_line(node, outcome, (n + 1) * 100 // total))
            if len(lines) == 10_000:
                handle.writelines(lines)
                lines.clear()
        handle.writelines(lines)
        closing = f" {total - skipped} passed, {skipped} skipped in 812.40s (0:13:32) "
        fill = PYTEST_WIDTH - len(closing)
        handle.write(f"\n{'=' * (fill // 2)}{closing}{'=' * (fill - fill // 2)}\n")
    return total - skipped, 0, skipped


def write_go_log(path: Path, megabytes: int) -> Truth:
    """`go test -v ./...`: per package, its tests (each with two subtests, some skipped), then `PASS`
    and `ok  \\t<pkg>\\t0.01s`. go counts a parent test and each subtest, as the reader does."""
    target = megabytes * 1024 * 1024
    passed = skipped = written = package = 0
    with path.open("w", encoding="utf-8") as handle:
        while written < target:
            block = []
            for n in range(package * GO_TESTS_PER_PACKAGE, (package + 1) * GO_TESTS_PER_PACKAGE):
                if n % SKIP_EVERY == 0:
                    block.append(GO_SKIP.format(n=n))
                    skipped += 1
                else:
                    block.append(GO_TEST.format(n=n))
                    passed += 3
            block.append(f"PASS\nok  \texample.com/shop/internal/billing{package}\t0.012s\n")
            text = "".join(block)
            handle.write(text)
            written += len(text)
            package += 1
    return passed, 0, skipped


def raw_count(path: Path) -> Truth:
    """The JUnit baseline: lxml's own iterparse, counting test cases and clearing as it goes."""
    count = 0
    for _, element in etree.iterparse(str(path), events=("end",), tag="testcase"):
        count += 1
        element.clear()
        while element.getprevious() is not None:
            del element.getparent()[0]  # type: ignore[union-attr]  # an element with a previous sibling has a parent
    return count, 0, 0


def raw_lines(path: Path) -> Truth:
    """The console baseline: reading every text line once, as any reader must."""
    count = 0
    with path.open(encoding="utf-8", errors="replace", newline="\n") as handle:
        for _ in handle:
            count += 1
    return count, 0, 0


def summarise(path: Path, parsers: tuple[str, ...] = ALL_PARSERS) -> Truth:
    counts = read_source(path, parsers).counts
    return (counts.passed, counts.failed, counts.skipped) if counts else (-1, -1, -1)


@dataclass(frozen=True)
class Measured:
    cpu: float  # the least CPU time of the repeats, in seconds
    rise_mb: float  # the most the resident set rose in any repeat
    result: Truth


Outcome = tuple[float, float, Truth]  # CPU seconds, rise in MB, result


def _child(function: Callable[[Path], Truth], path: Path, queue: multiprocessing.Queue[Outcome]) -> None:
    before = start_peak()
    started = time.process_time()
    result = function(path)
    queue.put((time.process_time() - started, rise_mb(before), result))


def measure(function: Callable[[Path], Truth], path: Path, repeat: int) -> Measured:
    """`function(path)` in `repeat` fresh processes: its least CPU time, its largest rise in memory."""
    runs = []
    for _ in range(repeat):
        queue: multiprocessing.Queue[Outcome] = multiprocessing.Queue()
        process = multiprocessing.get_context("fork").Process(target=_child, args=(function, path, queue))
        process.start()
        runs.append(queue.get())
        process.join()
    return Measured(cpu=min(run[0] for run in runs), rise_mb=max(run[1] for run in runs), result=runs[0][2])


def _rows(
    benchmark: str, label: str, truth: Truth, baseline: str, plain: Measured, ours: Measured, target: float, note: str
) -> list[Row]:
    ratio = ours.cpu / plain.cpu
    passed, failed, skipped = ours.result
    return [
        Row(
            benchmark,
            f"{label}: CPU time",
            seconds(ours.cpu),
            f"{baseline} {seconds(plain.cpu)}",
            ratio,
            f"<= {target}x",
            ratio <= target,
            ours.rise_mb,
            note if ratio > target else "",
        ),
        Row(
            benchmark,
            f"{label}: peak memory rise",
            f"{ours.rise_mb:.1f} MB",
            f"{baseline} {plain.rise_mb:.1f} MB",
            target=f"<= {MEMORY_TARGET_MB} MB",
            met=ours.rise_mb <= MEMORY_TARGET_MB,
            peak_mb=ours.rise_mb,
        ),
        Row(
            benchmark,
            f"{label}: counts",
            f"{passed:,} passed, {failed:,} failed, {skipped:,} skipped",
            target="= generated",
            met=ours.result == truth,
            note="" if ours.result == truth else f"the generator wrote {truth} (passed, failed, skipped)",
        ),
    ]


def junit_rows(quick: bool = False, junit_mb: int | None = None, repeat: int = 3) -> list[Row]:
    megabytes = junit_mb or (QUICK if quick else FULL)["junit_mb"]
    with tempfile.TemporaryDirectory(prefix="summary-bench-") as scratch:
        report = Path(scratch) / "report.xml"
        truth = write_junit(report, megabytes)
        plain = measure(raw_count, report, repeat)
        ours = measure(summarise, report, repeat)
        assert plain.result[0] == sum(truth), (plain.result, truth)
        size = report.stat().st_size / 2**20
    label = f"JUnit {size:,.0f} MB, {sum(truth):,} cases"
    return _rows("junit", label, truth, "iterparse", plain, ours, JUNIT_TARGET, SHORT)


def console_rows(
    quick: bool = False, pytest_mb: int | None = None, go_mb: int | None = None, repeat: int = 3
) -> list[Row]:
    sizes = QUICK if quick else FULL
    logs = (
        ("pytest -v", "pytest.log", write_pytest_log, pytest_mb or sizes["pytest_mb"]),
        ("go test -v", "go.log", write_go_log, go_mb or sizes["go_mb"]),
    )
    rows = []
    with tempfile.TemporaryDirectory(prefix="summary-bench-") as scratch:
        for name, file, write, megabytes in logs:
            log = Path(scratch) / file
            truth = write(log, megabytes)
            plain = measure(raw_lines, log, repeat)
            ours = measure(summarise, log, repeat)
            label = f"{name} log {log.stat().st_size / 2**20:,.0f} MB, {plain.result[0]:,} lines"
            rows += _rows("console", f"{label}, every parser", truth, "line read", plain, ours, CONSOLE_TARGET, SHORT)
            stack, parsers = STACK_PARSERS[name]
            narrowed = measure(functools.partial(summarise, parsers=parsers), log, repeat)
            rows += _rows(
                "console", f"{label}, {stack}'s parsers", truth, "line read", plain, narrowed, CONSOLE_TARGET, SHORT
            )[::2]
            log.unlink()
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small files, for a quick look")
    parser.add_argument("--junit-mb", type=int)
    parser.add_argument("--pytest-mb", type=int)
    parser.add_argument("--go-mb", type=int)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    rows = junit_rows(args.quick, args.junit_mb, args.repeat)
    rows += console_rows(args.quick, args.pytest_mb, args.go_mb, args.repeat)
    print(render(rows))
    return 0 if all(row.met is not False for row in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
