"""Reading a generated 200 MB Cobertura report, against a plain lxml iterparse of the same file.

The reader streams the report through the hardened parser and keeps only the files the change
touches, mapped onto the repository; the baseline is `lxml.etree.iterparse` over the same bytes,
clearing each element, measured in the same process so the ratio holds on a shared, noisy machine.
Target: within 1.5x of the baseline's CPU time. Peak memory is the resident set of a fresh process that reads
the report (libxml2's allocations are outside tracemalloc's view): target at most 64 MB above the
resident set it had before (imports and the repository's file list excluded).

Then `evidence-gate coverage` on a 5 MB report of the same shape and a two-file change in a scratch
repository holding the report's files, against diff-cover (in the test extras) on the same
report and diff, each a command run as a user runs it (start-up included). Target: at most
diff-cover's CPU time.

Run: python -m bench.coverage_bench [--megabytes N] [--repeat K] [--quick]
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from lxml import etree

from bench.scratch_repo import git
from bench.table import Row, best_of, render, seconds
from evidence_gate.coverage.collect import CoverageReport, collect
from evidence_gate.coverage.paths import PathMapper

LINES_PER_CLASS = 200
CHANGED = frozenset({"src/pkg0/module_0.py", "src/pkg2/module_1000.py"})
FULL_MB, QUICK_MB = 200, 20
TARGET = 1.5
MEMORY_TARGET_MB = 64
ROOT = Path(__file__).parent.parent


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


def peak_mb(code: str) -> float:
    """How far a fresh interpreter's resident set rises while it runs `code`, in MB."""
    child = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True, cwd=ROOT)
    return float(child.stdout.strip())


# The child resets its peak once everything is imported and the file list built, then prints how far
# the peak rose above the resident set it had then, in MB (see bench.table.start_peak).
PEAK = """
from pathlib import Path
from bench import coverage_bench
from bench.table import rise_mb, start_peak
files = coverage_bench.names({count})
before = start_peak()
{body}
print(rise_mb(before))
"""


def rows(quick: bool = False, megabytes: int | None = None, repeat: int = 3) -> list[Row]:
    with tempfile.TemporaryDirectory(prefix="coverage-bench-") as scratch:
        path = Path(scratch) / "coverage.xml"
        count = generate(path, megabytes or (QUICK_MB if quick else FULL_MB))
        files = names(count)
        size = path.stat().st_size / 1_000_000
        plain = best_of(repeat, lambda: baseline(path))
        read = best_of(repeat, lambda: ours(path, files))
        body = f"coverage_bench.ours(Path({str(path)!r}), files)"
        reading = peak_mb(PEAK.format(count=count, body=body))
    label = f"Cobertura {size:,.0f} MB, {count:,} files"
    return [
        Row(
            "coverage",
            f"{label}: CPU time",
            seconds(read),
            f"iterparse {seconds(plain)}",
            read / plain,
            f"<= {TARGET}x",
            read / plain <= TARGET,
            reading,
        ),
        Row(
            "coverage",
            f"{label}: peak memory rise",
            f"{reading:.1f} MB",
            target=f"<= {MEMORY_TARGET_MB} MB",
            met=reading <= MEMORY_TARGET_MB,
            peak_mb=reading,
        ),
    ]


DIFF_COVER_MB = 5


def scratch_project(repo: Path, count: int) -> str:
    """A repository holding the report's `count` files, whose head changes two of them whole: the base."""
    git(repo, "init", "--quiet", "--initial-branch=main")
    for n in range(count):
        path = repo / name(n)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("".join(f"value_{line} = {line}\n" for line in range(1, LINES_PER_CLASS + 1)))
    git(repo, "add", "--all")
    git(repo, "commit", "--quiet", "-m", "base")
    base = git(repo, "rev-parse", "HEAD")
    for changed in (name(0), name(count // 2)):
        (repo / changed).write_text("".join(f"value_{line} = {line * 2}\n" for line in range(1, LINES_PER_CLASS + 1)))
    git(repo, "commit", "--quiet", "-am", "head")
    return base


def vs_diff_cover(quick: bool = False, repeat: int = 3) -> list[Row]:
    """`evidence-gate coverage` against diff-cover on a 5 MB report and a two-file change."""
    tool = shutil.which("diff-cover")
    if tool is None:
        raise RuntimeError("diff-cover is not installed: pip install -e '.[test]'")
    with tempfile.TemporaryDirectory(prefix="coverage-bench-") as scratch:
        repo = Path(scratch) / "repo"
        repo.mkdir()
        report = Path(scratch) / "coverage.xml"
        count = generate(report, DIFF_COVER_MB)
        base = scratch_project(repo, count)
        ours_command = [sys.executable, "-m", "evidence_gate", "coverage", "--base", base, "--report", str(report)]
        peer = [tool, str(report), f"--compare-branch={base}"]

        def run(command: list[str]) -> None:
            subprocess.run(command, cwd=repo, check=False, capture_output=True)

        theirs = best_of(repeat, lambda: run(peer))
        mine = best_of(repeat, lambda: run(ours_command))
    return [
        Row(
            "coverage",
            f"`evidence-gate coverage`, Cobertura {DIFF_COVER_MB} MB, a 2-file change: CPU time",
            seconds(mine),
            f"diff-cover {seconds(theirs)}",
            mine / theirs,
            "<= 1x",
            mine <= theirs,
            note=f"both as commands, start-up included; the report names {count:,} files",
        )
    ]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a small report, for a quick look")
    parser.add_argument("--megabytes", type=int)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    found = rows(args.quick, args.megabytes, args.repeat) + vs_diff_cover(args.quick, args.repeat)
    print(render(found))
    return 0 if all(row.met is not False for row in found) else 1


if __name__ == "__main__":
    sys.exit(main())
