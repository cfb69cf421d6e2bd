"""Every benchmark, one table: `python -m bench [NAME ...] [--quick]`.

NAME is a benchmark or a group of them (see `--list`); none runs them all. `--quick` runs each at
small sizes, for a look in a minute or two; without it, each runs at the sizes its target is stated
for (several minutes). A benchmark that cannot run (a tool missing, an error) is a row that says so,
and the others still run. The exit status is 1 when any target is missed.
"""

from __future__ import annotations

import argparse
import sys
import time
import traceback
from collections.abc import Callable

from bench import (
    action_bench,
    coverage_bench,
    detect_bench,
    inventory_bench,
    startup_bench,
    strength_bench,
    summary_bench,
)
from bench.table import Row, machine, render

BENCHMARKS: dict[str, tuple[str, Callable[[bool], list[Row]]]] = {
    "junit": ("summary on a 1 GB JUnit report against lxml's iterparse", summary_bench.junit_rows),
    "console": ("summary on a pytest -v and a go test -v log against a line read", summary_bench.console_rows),
    "coverage": ("the coverage reader on a 200 MB Cobertura report against iterparse", coverage_bench.rows),
    "diff-cover": (
        "`evidence-gate coverage` on a 5 MB Cobertura report against diff-cover",
        coverage_bench.vs_diff_cover,
    ),
    "detect": ("stack detection on a 100,000-file tree against os.walk", detect_bench.rows),
    "inventory": ("the gate-edit inventory of a 10,000-file diff against git diff", inventory_bench.rows),
    "strength": ("test strength's overhead over its own test runs, and --jobs 2", strength_bench.rows),
    "run": ("evidence-gate run on 2,000 tests against the pytest run itself", action_bench.run_rows),
    "startup": ("evidence-gate --version against the bare interpreter", startup_bench.rows),
    "publish": ("render + publish of 20,000 tests, 5,000 failed, to the fake GitHub", action_bench.publish_rows),
}
GROUPS = {"summary": ("junit", "console"), "action": ("run", "publish")}


def selected(names: list[str]) -> list[str]:
    """The benchmarks `names` ask for, in the table's order; all of them for none."""
    if not names:
        return list(BENCHMARKS)
    wanted = {benchmark for name in names for benchmark in GROUPS.get(name, (name,))}
    unknown = sorted(wanted - BENCHMARKS.keys())
    if unknown:
        known = ", ".join([*BENCHMARKS, *GROUPS])
        raise SystemExit(f"unknown benchmark {unknown[0]!r} (known: {known})")
    return [name for name in BENCHMARKS if name in wanted]


def run(name: str, quick: bool) -> list[Row]:
    """One benchmark's rows, or one row saying why it could not run."""
    description, rows = BENCHMARKS[name]
    started = time.monotonic()
    print(f"running {name}: {description}{' (quick)' if quick else ''} ...", file=sys.stderr, flush=True)
    try:
        found = rows(quick)
    except Exception as error:  # one benchmark's failure is a row; the rest still run
        traceback.print_exc(file=sys.stderr)
        return [Row(name, "could not run", type(error).__name__, met=False, note=" ".join(str(error).split())[:300])]
    except BaseException as outcome:  # pytest.fail, which the test fixtures use to say a tool is missing
        if isinstance(outcome, KeyboardInterrupt | SystemExit):
            raise
        return [Row(name, "could not run", type(outcome).__name__, met=False, note=" ".join(str(outcome).split()))]
    print(f"  {name}: {time.monotonic() - started:.0f} s", file=sys.stderr, flush=True)
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", metavar="NAME", help="benchmarks or groups to run (default: all)")
    parser.add_argument("--quick", action="store_true", help="small sizes, for a quick look")
    parser.add_argument("--list", action="store_true", help="list the benchmarks and groups, and stop")
    args = parser.parse_args(argv)
    if args.list:
        for name, (description, _) in BENCHMARKS.items():
            print(f"{name:10} {description}")
        for group, members in GROUPS.items():
            print(f"{group:10} = {' + '.join(members)}")
        return 0
    names = selected(args.names)
    rows = [row for name in names for row in run(name, args.quick)]
    print(f"{'Quick' if args.quick else 'Full'} run on {machine()}\n")
    print(render(rows))
    return 0 if all(row.met is not False for row in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
