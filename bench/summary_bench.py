"""`summary` on a 1 GB JUnit report and a 200 MB console log: time and peak memory.

The JUnit baseline is a plain lxml `iterparse` that counts <testcase> elements of the same file
(clearing as it goes), measured in the same process, so the ratio holds on a noisy machine.
Targets: summary at most 1.5x the baseline's time, and peak RSS under 256 MB. The console log's
baseline is a plain read of its lines; its target is memory only, since every candidate parser sees
every line. Each measurement runs in a fresh child process so that one's peak memory does not hide
the other's.

Run: python bench/summary_bench.py [--junit-mb 1024] [--log-mb 200]
"""

from __future__ import annotations

import argparse
import multiprocessing
import resource
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from lxml import etree

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
LOG_BLOCK = (
    "tests/billing/test_invoice.py::test_computes_total[{n}] PASSED                      [ 42%]\n"
    "2026-11-29T10:00:00Z INFO  worker-3 processed batch {n} in 12 ms (queue depth 17)\n"
)


def write_junit(path: Path, megabytes: int) -> int:
    target = megabytes * 1024 * 1024
    cases = 0
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
            suite += 1
        handle.write("</testsuites>\n")
    return cases


def write_log(path: Path, megabytes: int) -> None:
    target = megabytes * 1024 * 1024
    with path.open("w", encoding="utf-8") as handle:
        handle.write("============================= test session starts ==============================\n")
        written = 0
        n = 0
        while written < target:
            block = "".join(LOG_BLOCK.format(n=n + i) for i in range(1000))
            handle.write(block)
            written += len(block)
            n += 1000
        handle.write(f"======================= {n} passed in 812.40s (0:13:32) =======================\n")


def raw_count(path: Path) -> int:
    count = 0
    for _, element in etree.iterparse(str(path), events=("end",), tag="testcase"):
        count += 1
        element.clear()
        while element.getprevious() is not None:
            del element.getparent()[0]  # type: ignore[union-attr]  # an element with a previous sibling has a parent
    return count


def raw_lines(path: Path) -> int:
    """The console baseline: reading every line once, as any reader must."""
    with path.open("rb") as handle:
        return sum(1 for _ in handle)


def summarise(path: Path) -> int:
    counts = read_source(path, ALL_PARSERS).counts
    return counts.executed + counts.skipped if counts else -1


def _child(function: Callable[[Path], int], path: Path, queue: multiprocessing.Queue[tuple[float, int, int]]) -> None:
    start = time.perf_counter()
    result = function(path)
    seconds = time.perf_counter() - start
    queue.put((seconds, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024, result))


def measure(function: Callable[[Path], int], path: Path) -> tuple[float, int, int]:
    """(seconds, peak RSS in MB, result) of `function(path)` in a fresh process."""
    queue: multiprocessing.Queue[tuple[float, int, int]] = multiprocessing.Queue()
    process = multiprocessing.get_context("fork").Process(target=_child, args=(function, path, queue))
    process.start()
    outcome = queue.get()
    process.join()
    return outcome


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--junit-mb", type=int, default=1024)
    parser.add_argument("--log-mb", type=int, default=200)
    args = parser.parse_args()
    ok = True
    with tempfile.TemporaryDirectory(prefix="evidence-gate-bench-") as scratch:
        report = Path(scratch) / "report.xml"
        cases = write_junit(report, args.junit_mb)
        raw_seconds, raw_mb, raw_cases = measure(raw_count, report)
        seconds, peak_mb, counted = measure(summarise, report)
        assert raw_cases == counted == cases, (raw_cases, counted, cases)
        ratio = seconds / raw_seconds
        print(f"junit: {report.stat().st_size / 2**20:.0f} MB, {cases} test cases")
        print(f"  plain iterparse count: {raw_seconds:.2f} s, peak RSS {raw_mb} MB")
        print(f"  summary:               {seconds:.2f} s, peak RSS {peak_mb} MB")
        print(f"  ratio summary/iterparse: {ratio:.2f} (target <= 1.5); peak RSS under 256 MB: {peak_mb < 256}")
        ok = ok and ratio <= 1.5 and peak_mb < 256
        report.unlink()

        log = Path(scratch) / "console.log"
        write_log(log, args.log_mb)
        raw_seconds, _, lines = measure(raw_lines, log)
        seconds, peak_mb, counted = measure(summarise, log)
        print(f"console log: {log.stat().st_size / 2**20:.0f} MB, {lines} lines, {counted} tests read")
        print(f"  plain line read:       {raw_seconds:.2f} s")
        print(f"  summary:               {seconds:.2f} s, peak RSS {peak_mb} MB (under 256 MB: {peak_mb < 256})")
        print(f"  ratio summary/read: {seconds / raw_seconds:.1f} (every parser sees every line; no target)")
        ok = ok and peak_mb < 256
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
