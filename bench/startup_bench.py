"""The command line's start: `evidence-gate --version`, `--help` and `detect --help`, against
the interpreter starting and doing nothing (`python -c pass`), each a child process whose CPU time
is counted (`cpu_seconds` counts waited-for children). A verb's modules are imported only when it
runs, so a start that prints a version must not pay for the gates, the sandbox or the GitHub client.
Target: `--version` and `--help` under 0.3 s of CPU each.

Run: python -m bench.startup_bench [--repeat K]
"""

from __future__ import annotations

import argparse
import subprocess
import sys

from bench.table import Row, best_of, render

TARGET_SECONDS = 0.3


def _run(*arguments: str) -> None:
    subprocess.run([sys.executable, *arguments], check=True, stdout=subprocess.DEVNULL)


def rows(quick: bool = False, repeat: int = 5) -> list[Row]:
    bare = best_of(repeat, lambda: _run("-c", "pass"))
    version = best_of(repeat, lambda: _run("-m", "evidence_gate", "--version"))
    whole_help = best_of(repeat, lambda: _run("-m", "evidence_gate", "--help"))
    verb_help = best_of(repeat, lambda: _run("-m", "evidence_gate", "detect", "--help"))
    return [
        Row(
            "startup",
            "`--version`: CPU time",
            f"{version * 1000:.0f} ms",
            f"python -c pass {bare * 1000:.0f} ms",
            version / bare,
            f"< {TARGET_SECONDS} s",
            version < TARGET_SECONDS,
        ),
        Row(
            "startup",
            "`--help`: CPU time",
            f"{whole_help * 1000:.0f} ms",
            f"python -c pass {bare * 1000:.0f} ms",
            whole_help / bare,
            f"< {TARGET_SECONDS} s",
            whole_help < TARGET_SECONDS,
        ),
        Row(
            "startup",
            "`detect --help`: CPU time",
            f"{verb_help * 1000:.0f} ms",
            f"python -c pass {bare * 1000:.0f} ms",
            verb_help / bare,
        ),
    ]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    found = rows(repeat=args.repeat)
    print(render(found))
    return 0 if all(row.met is not False for row in found) else 1


if __name__ == "__main__":
    sys.exit(main())
