"""`evidence-gate evidence`: is the claim "the build passed" / "the tests passed" backed by the log?"""

from __future__ import annotations

import argparse
from collections.abc import Mapping
from pathlib import Path
from typing import TextIO

from evidence_gate.claims import ClaimFacts, LogEvidence, judge_claim
from evidence_gate.effects import effects_for
from evidence_gate.errors import EXIT_CHECK_FAILED, EXIT_OK
from evidence_gate.freshness import run_started, stale_reports
from evidence_gate.markers import Claim, adapters_reading, markers_for, scan_log
from evidence_gate.summary.read import candidate_parsers, read_source
from evidence_gate.verbs.common import existing_file, print_json, table
from evidence_gate.verbs.summary import collect_summaries

EPILOG = (
    "A non-zero exit code echoed into the log (EXIT_CODE=N) and a failure marker are decisive; where a parser "
    "read counts from the log, only the runner's own verdict lines are, not what its tests printed. For a test "
    "claim the counts decide: the log and its reports are weighed as one run (the reports' counts stand, the "
    "side with more failures wins); zero tests executed fails, and so does a source that cannot be read, or "
    "a log whose counts cannot be read (unless --attended, outside CI, where the markers decide and the verdict "
    "says so). Without --stack the log is judged by the markers of the stacks whose parser read it. A report "
    "that git tracks or that is older than the run is stale and fails the claim. Exit codes: 0 the claim holds; "
    "1 it does not; 2 usage error (a misspelt --stack included)."
)


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--claim", required=True, choices=[str(claim) for claim in Claim], help="what the log is said to show"
    )
    parser.add_argument("log", metavar="LOG", help="the build or test log")
    parser.add_argument("--stack", help="judge with this stack's markers and parsers (an adapter id)")
    parser.add_argument("--junit", action="append", default=[], metavar="F", help="a JUnit XML report")
    parser.add_argument(
        "--xcresult-json", action="append", default=[], metavar="F", help="xcresulttool's JSON, captured on a Mac"
    )
    parser.add_argument("--success-pattern", metavar="RE", help="replaces the stack's success markers")
    parser.add_argument("--failure-pattern", metavar="RE", help="replaces the stack's failure markers")
    parser.add_argument(
        "--attended", action="store_true", help="outside CI, let markers decide when no count can be read"
    )
    parser.add_argument(
        "--repo",
        default=".",
        help="the checkout whose git says which reports are committed and when HEAD moved (default: .)",
    )
    parser.add_argument(
        "--since", metavar="TIME", help="the run's start (epoch seconds or ISO 8601); default: HEAD's last checkout"
    )


def run(args: argparse.Namespace, out: TextIO, environ: Mapping[str, str]) -> int:
    adapters = table(args)
    adapter = adapters.get(args.stack) if args.stack else None
    unknown = adapter is not None and adapter.id == adapters.unknown.id
    claim = Claim(args.claim)
    log = existing_file(args.log, environ)
    reports = [existing_file(name, environ) for name in (*args.junit, *args.xcresult_json)]
    candidates = candidate_parsers(None, adapter.parsers if adapter and not unknown else None)
    log_summary = read_source(log, candidates) if claim is Claim.TEST else None
    # Without --stack, the log is judged by the markers of the stacks whose parser read it.
    stacks = [adapter] if adapter else adapters_reading(adapters, log_summary.parser if log_summary else None)
    markers = markers_for(adapters, claim, stacks, args.success_pattern, args.failure_pattern)
    report_summaries = collect_summaries(environ, [], candidates, args.junit, args.xcresult_json)
    effects = effects_for(Path(args.repo), environ)
    git = effects.git
    started, _ = run_started(git, args.since)
    verdict = judge_claim(
        ClaimFacts(
            claim=claim,
            unknown_stack=unknown,
            logs=(LogEvidence(source=str(log), scan=scan_log(log, markers), summary=log_summary),),
            reports=tuple(report_summaries),
            stale=stale_reports([log, *reports], started, git, now=effects.clock()),
            attended=args.attended,
            in_ci=effects.in_ci,
        )
    )
    if args.json:
        print_json(verdict.document(), out)
    else:
        state = "not applicable" if verdict.not_applicable else ("ok" if verdict.ok else "FAILED")
        out.write(f"{claim} claim: {state}: {verdict.reason}\n")
        for detail in verdict.details:
            out.write(f"  {detail}\n")
    return EXIT_OK if verdict.ok else EXIT_CHECK_FAILED
