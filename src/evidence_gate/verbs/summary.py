"""`evidence-gate summary`: test counts read from what the runners printed."""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import BinaryIO, TextIO

from evidence_gate.errors import UsageError
from evidence_gate.model import TestSummary
from evidence_gate.summary.read import candidate_parsers, read_source
from evidence_gate.summary.registry import ALL_PARSERS
from evidence_gate.summary.weigh import weigh
from evidence_gate.verbs.common import SUMMARY_EXIT, existing_file, print_json, table
from evidence_gate.verbs.xcresult_bundle import summarise_bundle

EPILOG = (
    "The format is recognised from content whatever the file is called; --stack narrows the parsers to the "
    "stack's order, --parser names one. executed excludes skipped tests; errors count as failed, xfail as "
    "skipped, xpass as passed. Several logs add up, and so do several reports; a log beside reports (--junit) "
    "is taken as the same run and not added to them: the reports' counts stand unless the log counts more "
    "failures, and a disagreement is noted. One input that cannot be read makes the total unparsed. "
    "Exit codes: 0 passed; 1 failed; 2 usage error; 3 no tests executed; 4 unparsed (no trustworthy count: "
    "the reason says why)."
)


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", nargs="*", metavar="FILE", help="runner output or report; '-' reads stdin")
    parser.add_argument("--stack", help="read with this stack's parsers (an adapter id, e.g. go)")
    parser.add_argument("--parser", help=f"read with this parser only ({', '.join(ALL_PARSERS)})")
    parser.add_argument("--junit", action="append", default=[], metavar="F", help="a JUnit XML report")
    parser.add_argument(
        "--xcresult", action="append", default=[], metavar="BUNDLE", help="an .xcresult bundle (needs xcrun)"
    )
    parser.add_argument(
        "--xcresult-json", action="append", default=[], metavar="F", help="xcresulttool's JSON, captured on a Mac"
    )


def collect_summaries(
    environ: Mapping[str, str],
    files: Sequence[str],
    candidates: Sequence[str],
    junit: Sequence[str] = (),
    xcresult_json: Sequence[str] = (),
    xcresult: Sequence[str] = (),
    stdin: BinaryIO | None = None,
) -> list[TestSummary]:
    """One summary per input: runner output (or `-`, standard input), JUnit reports, xcresult."""
    summaries: list[TestSummary] = []
    for name in files:
        if name == "-":
            summaries.append(_read_stdin(stdin or sys.stdin.buffer, candidates))
        else:
            summaries.append(read_source(existing_file(name, environ), candidates))
    summaries.extend(read_source(existing_file(name, environ), ["junit"]) for name in junit)
    summaries.extend(read_source(existing_file(name, environ), ["xcresult"]) for name in xcresult_json)
    summaries.extend(summarise_bundle(Path(name), environ) for name in xcresult)
    return summaries


def _read_stdin(stream: BinaryIO, candidates: Sequence[str]) -> TestSummary:
    """Standard input is spooled to a temp file, so it is read like any file: sniffed, streamed."""
    with tempfile.TemporaryDirectory(prefix="evidence-gate-stdin-") as scratch:
        spooled = Path(scratch) / "stdin"
        with spooled.open("wb") as handle:
            shutil.copyfileobj(stream, handle)
        return read_source(spooled, candidates, label="-")


def summary_line(summary: TestSummary) -> str:
    counts = summary.counts
    if counts is None:
        return f"{summary.status}: {summary.reason} [{summary.source}]"
    return (
        f"{summary.status}: {counts.executed} executed, {counts.passed} passed, {counts.failed} failed,"
        f" {counts.skipped} skipped ({summary.parser}) [{summary.source}]"
    )


def run(args: argparse.Namespace, out: TextIO, environ: Mapping[str, str]) -> int:
    if not (args.files or args.junit or args.xcresult_json or args.xcresult):
        raise UsageError("summary: give at least one input (a file, '-' for standard input, --junit or --xcresult)")
    stack_parsers = table(args).get(args.stack).parsers if args.stack else None
    candidates = candidate_parsers(args.parser, stack_parsers)
    summaries = collect_summaries(environ, args.files, candidates, args.junit, args.xcresult_json, args.xcresult)
    total = weigh(summaries)
    if args.json:
        document = total.document()
        if len(summaries) > 1:
            document["sources"] = [summary.document() for summary in summaries]
        print_json(document, out)
    else:
        out.write(summary_line(total) + "\n")
        if len(summaries) > 1:
            for summary in summaries:
                out.write(f"  {summary_line(summary)}\n")
        for note in total.notes:
            out.write(f"  note: {note}\n")
    return SUMMARY_EXIT[total.status]
