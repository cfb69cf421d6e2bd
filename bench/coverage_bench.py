"""Reading a generated 200 MB Cobertura report, against a plain lxml iterparse of the same file.

The reader streams the report through the hardened parser and keeps only the files the change
touches, mapped onto the repository; the baseline is `lxml.etree.iterparse` over the same bytes,
clearing each element, measured in the same process so the ratio holds on a shared, noisy machine.
Target: within 1.5x of the baseline. Peak memory is the resident set of a fresh process that reads
the report (libxml2's allocations are outside tracemalloc's view): target at most 64 MB above the
resident set it had before (imports and the repository's file list excluded).

Run: python bench/coverage_bench.py [--megabytes N] [--repeat K]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from lxml import etree

from evidence_gate.coverage.collect import CoverageReport, collect
from evidence_gate.coverage.paths import PathMapper

LINES_PER_CLASS = 200
CHANGED = frozenset({"src/pkg0/module_0.py", "src/pkg2/module_1000.py"})


def name(n: int) -> str:
    return f"src/pkg{n // 500}/module_{n}.py"


def names(count: int) -> frozenset[str]:
    """The repository's files: every file the report names."""
    return frozenset(name(n) for n in range(count))


def generate(path: Path, megabytes: int) -> int:
    """A Cobertura report of about `megabytes` MB: classes of LINES_PER_CLASS lines, every fourth
    missed; how many files it names."""
    n = 0
    with path.open("w", encoding="utf-8") as out:
        out.write('<?xml version="1.0" ?>\n<coverage version="7.6" line-rate="0.75" timestamp="1">\n')
        out.write("  <sources>\n    <source>/build/checkout/app</source>\n  </sources>\n  <packages>\n")
        while out.tell() < megabytes * 1_000_000:
            out.write(f'    <package name="pkg{n}"><classes><class name="m{n}" filename="{name(n)}" line-rate="0.75">')
            out.write("<methods/><lines>\n")
            out.writelines(
                f'      <line number="{line}" hits="{0 if line % 4 == 0 else line}"/>\n'
                for line in range(1, LINES_PER_CLASS + 1)
            )
            out.write("    </lines></class></classes></package>\n")
            n += 1
        out.write("  </packages>\n</coverage>\n")
    return n


def baseline(path: Path) -> None:
    for _, element in etree.iterparse(str(path), events=("end",)):
        element.clear(keep_tail=False)


def ours(path: Path, files: frozenset[str]) -> None:
    mapper = PathMapper(files=files, top="/build/checkout/app")
    report = CoverageReport(path=path, format="cobertura", shown=path.name, directory=None)
    found = collect([report], mapper, CHANGED)
    assert set(found.files) == CHANGED, found.problems


def best_of(repeat: int, function: Callable[[], object]) -> float:
    timings = []
    for _ in range(repeat):
        started = time.perf_counter()
        function()
        timings.append(time.perf_counter() - started)
    return min(timings)


def peak_mb(code: str) -> float:
    """How far a fresh interpreter's resident set rises while it runs `code`, in MB."""
    child = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True)
    return float(child.stdout.strip()) / 1024


# The child resets its peak (Linux: `5` into /proc/self/clear_refs) once everything is imported and
# the file list built, then prints how far the peak rose above the resident set it had then, in kB.
PEAK = """
import re, sys
sys.path.insert(0, {bench!r})
from pathlib import Path
import coverage_bench
files = coverage_bench.names({count})
status = lambda field: int(re.search(field + r":\\s+(\\d+)", open("/proc/self/status").read())[1])
open("/proc/self/clear_refs", "w").write("5")
before = status("VmRSS")
{body}
print(status("VmHWM") - before)
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--megabytes", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="coverage-bench-") as scratch:
        path = Path(scratch) / "coverage.xml"
        count = generate(path, args.megabytes)
        files = names(count)
        size = path.stat().st_size / 1_000_000
        print(f"report: {size:.0f} MB, {len(files):,} files, {len(files) * LINES_PER_CLASS:,} lines")
        plain = best_of(args.repeat, lambda: baseline(path))
        read = best_of(args.repeat, lambda: ours(path, files))
        print(
            f"lxml iterparse: {plain:.2f} s; coverage reader: {read:.2f} s; ratio {read / plain:.2f}x (target <= 1.5x)"
        )
        bench = str(Path(__file__).parent)
        reading = peak_mb(
            PEAK.format(bench=bench, count=count, body=f"coverage_bench.ours(Path({str(path)!r}), files)")
        )
        print(f"peak memory while reading: {reading:.1f} MB (target <= 64 MB)")


if __name__ == "__main__":
    main()
