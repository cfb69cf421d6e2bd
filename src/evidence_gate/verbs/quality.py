"""`evidence-gate quality`: every numbered check on this machine, where the project's tools are,
printed as the quality-gate report.

It runs the type checker, the linter, the smoke commands and, with no `--reports`, the test
command itself, each under the capture protocol with tokens removed from its environment; then
judges every gate as `run` and the action do, and prints the report (or, with `--json`, the
ledger). With `--write-report DIR` the report is also written to
`DIR/gate-report-<stage>-<NNN>.md`, and the earlier reports there are the history STAGNATION is
read from.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import TextIO

from evidence_gate.base_config import base_config
from evidence_gate.effects import effects_for
from evidence_gate.errors import EXIT_CHECK_FAILED, EXIT_OK
from evidence_gate.event import load_context
from evidence_gate.facts import RunInputs
from evidence_gate.ledger.document import to_document
from evidence_gate.ledger.model import Verdict
from evidence_gate.ledger.quality_record import Stage
from evidence_gate.render import render_report
from evidence_gate.scrub import run_secrets
from evidence_gate.settings import resolve
from evidence_gate.verbs.common import print_json, table
from evidence_gate.verbs.quality_session import baseline_for, history, judged, report_path
from evidence_gate.workspace import write_user_file

EXIT_STAGNATION = 3
START_LINE = "Running quality gate checks against baseline metrics."
EXITS = {Verdict.PASS: EXIT_OK, Verdict.BLOCKED: EXIT_CHECK_FAILED, Verdict.STAGNATION: EXIT_STAGNATION}
EPILOG = (
    "Runs the type checker, the linter, the smoke commands and (without --reports) the test command, each as"
    ' `<command> 2>&1; echo "EXIT_CODE=$?"`. Exit codes: 0 PASS, 1 BLOCKED, 3 STAGNATION (the same check failed'
    " the same way on three consecutive runs: stop retrying), 2 usage or configuration error."
)


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--repo", default=".", help="the repository (default: .)")
    parser.add_argument("--base", help="the base revision")
    parser.add_argument("--head", help="the head revision, or `worktree` (default: HEAD)")
    parser.add_argument("--stage", choices=[str(stage) for stage in Stage], help="post-refactor runs checks 1-4 only")
    parser.add_argument(
        "--reports", nargs="+", metavar="GLOB", help="read these runner logs instead of running the tests"
    )
    given = parser.add_mutually_exclusive_group()
    given.add_argument("--baseline", metavar="F", help="a baseline file (`evidence-gate baseline --out F`)")
    given.add_argument(
        "--baseline-from", choices=["base"], help="run the checks at the base commit in a temporary worktree"
    )
    parser.add_argument("--write-report", metavar="DIR", help="also write DIR/gate-report-<stage>-<NNN>.md")
    parser.add_argument("--config", type=Path, help="the config file (default: .github/evidence-gate.yml)")
    parser.add_argument("--story", help="the story id of [story#n] tags for acceptance criteria")
    parser.add_argument("--gates-off", nargs="+", metavar="ID", help="gates to switch off, each shown as off")


def run(args: argparse.Namespace, out: TextIO, environ: Mapping[str, str]) -> int:
    # The run's first words, as the seed's gate prints them; on standard error, so the report (or the
    # JSON) is all of standard output.
    print(START_LINE, file=sys.stderr, flush=True)
    effects = effects_for(Path(args.repo), environ)
    flags = {
        "base": args.base,
        "head": args.head,
        "stage": args.stage,
        "reports": args.reports,
        "story": args.story,
        "gates-off": args.gates_off,
        "baseline": args.baseline_from or args.baseline,
    }
    # In a pull request's run the configuration is the base commit's, as for `run`: the pull request
    # cannot choose its own commands, scope or baseline.
    context = load_context(environ)
    base = base_config(effects, context.pull_request if context else None, args.base)
    settings = resolve(effects.repo, flags, environ, args.config, base)
    adapters = table(args)
    inputs = RunInputs(table=adapters, secrets=run_secrets(environ, settings.github_token))
    found, note = baseline_for(settings, effects, adapters, base, user_file=args.baseline is not None)
    inputs = replace(inputs, quality_baseline=found, baseline_source=note)
    folder = Path(args.write_report) if args.write_report else None
    number = 1
    if folder is not None:
        runs, note, number = history(folder, settings.stage)
        inputs = replace(inputs, history=runs, history_note=note)
    ledger = judged(settings, inputs, effects, adapters, own_tests=not args.reports)
    report = render_report(ledger, settings.templates_dir)
    if folder is not None:
        write_user_file(report_path(folder, settings.stage, number), report)
    if args.json:
        print_json(to_document(ledger), out)
    else:
        out.write(report)
    return EXITS[ledger.verdict]
