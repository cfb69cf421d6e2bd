"""`evidence-gate demo`: what the action would comment on a pull request, shown on an example the
tool builds, tests and judges for real (see evidence_gate/demo.py).

The demo exits 0 whenever it ran, whatever the verdict it shows. The example pull request is built
to be BLOCKED (a failing test, an unproven criterion): that is what is worth seeing, and it is the
demo working. Exiting 1 would break `pip install . && evidence-gate demo` under `set -e`, and would
say "the demo failed" when it did not. The verdict is in the output for whoever wants it.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import TextIO

from evidence_gate.demo import DemoRun, Runner, run_demo
from evidence_gate.errors import EXIT_OK, UsageError
from evidence_gate.ledger.document import to_document
from evidence_gate.render import render_comment
from evidence_gate.render.preview import preview_html
from evidence_gate.verbs.common import print_json, table

DEFAULT_PREVIEW = "evidence-gate-preview.html"
EPILOG = (
    "Builds a small git repository (a base commit and a pull request's head), runs its tests with pytest (or, "
    "without pytest, unittest, which writes no JUnit report: the acceptance-criteria gate is then unavailable), "
    "runs the pipeline, prints the PR comment (--json: the ledger) and writes it as an HTML page that works "
    f"offline (--preview, default ./{DEFAULT_PREVIEW}). The example is built to be BLOCKED. Exit codes: 0 the "
    "demo ran, whatever the verdict it shows (so `pip install . && evidence-gate demo` succeeds); 2 it could "
    "not (git missing, --runner pytest without pytest, the example's tests did not run, --keep not empty)."
)


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--preview", type=Path, default=Path(DEFAULT_PREVIEW), metavar="PATH", help="where to write the HTML preview"
    )
    parser.add_argument(
        "--keep", type=Path, metavar="DIR", help="build the example repository in DIR (new or empty) and keep it"
    )
    parser.add_argument(
        "--runner",
        choices=[str(runner) for runner in Runner],
        default=str(Runner.AUTO),
        help="what runs the example's tests (default: pytest when installed, else unittest)",
    )


def run(args: argparse.Namespace, out: TextIO, environ: Mapping[str, str]) -> int:
    runner = Runner(args.runner)
    if args.keep is None:
        with tempfile.TemporaryDirectory(prefix="evidence-gate-demo-") as scratch:
            demo = run_demo(Path(scratch) / "shop", runner, table(args), environ)
    else:
        _check_empty(args.keep)
        demo = run_demo(args.keep, runner, table(args), environ)
    comment = render_comment(demo.ledger)
    _write_preview(args.preview, preview_html(comment, f"Evidence Gate demo: {demo.ledger.verdict}"))
    if args.json:
        print_json(to_document(demo.ledger), out)
    else:
        out.write(comment)
    _report(demo, args)
    return EXIT_OK


def _check_empty(directory: Path) -> None:
    """--keep builds in DIR: refuse one that holds anything, rather than commit a user's files."""
    if directory.exists() and (not directory.is_dir() or any(directory.iterdir())):
        raise UsageError(f"--keep {directory}: give a new or empty directory; the demo builds a git repository in it")


def _write_preview(path: Path, page: str) -> None:
    try:
        path.write_text(page, encoding="utf-8")
    except OSError as error:
        raise UsageError(f"--preview {path}: cannot write ({error.strerror or error})") from error


def _report(demo: DemoRun, args: argparse.Namespace) -> None:
    """What the demo did, on stderr, so stdout is the comment alone (or the ledger) for a pipe."""
    if demo.runner is Runner.UNITTEST and args.runner == Runner.AUTO:
        print(
            "evidence-gate demo: pytest is not installed, so unittest ran the example's tests; it writes no JUnit "
            "report, so no test is named and the acceptance-criteria gate is unavailable (pip install pytest to see "
            "it)",
            file=sys.stderr,
        )
    kept = f"kept in {args.keep}" if args.keep is not None else "removed (--keep DIR keeps it)"
    print(
        f"evidence-gate demo: verdict {demo.ledger.verdict} (the example is built to be BLOCKED); tests run with "
        f"{demo.runner}; preview written to {args.preview}; example repository {kept}. The demo exits 0 whatever "
        "the verdict.",
        file=sys.stderr,
    )
