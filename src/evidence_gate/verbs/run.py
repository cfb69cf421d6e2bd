"""`evidence-gate run`: the whole pipeline on a laptop or in CI, printing the verdict.

In the action the same pipeline runs through action.py, which also publishes. Here nothing is
published: the rendered PR comment (`--format markdown`) or the ledger (`--format json`) is printed.
"""

from __future__ import annotations

import argparse
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import TextIO

from evidence_gate import policy
from evidence_gate.base_config import base_config, run_templates
from evidence_gate.effects import effects_for
from evidence_gate.event import load_context
from evidence_gate.facts import RunInputs
from evidence_gate.gates.registry import GATE_IDS
from evidence_gate.git import open_repository
from evidence_gate.ledger.document import ledger_json, to_document
from evidence_gate.ledger.quality_record import Stage
from evidence_gate.pipeline import run_pipeline
from evidence_gate.reaper import reaping
from evidence_gate.render import render_comment, render_report
from evidence_gate.scrub import run_secrets
from evidence_gate.settings import CommentMode, FailOn, resolve
from evidence_gate.token_guard import refuse_tokens_in_reach
from evidence_gate.verbs.common import print_json, table
from evidence_gate.workspace import write_user_file

EPILOG = (
    "Settings come from these flags, then the action's INPUT_* environment, then .github/evidence-gate.yml "
    "(in a pull request's run, as the base commit has it). "
    "Prints the PR comment (--format markdown) or the ledger (--format json). Exit codes: as the action's "
    "check run concludes, 1 when it would fail (BLOCKED or STAGNATION, unless --fail-on is never), "
    "else 0; 2 usage or configuration error."
)


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--repo", default=".", help="the repository (default: .)")
    parser.add_argument("--base", help="the base revision (default: the pull request's base)")
    parser.add_argument("--head", help="the head revision (default: HEAD)")
    parser.add_argument("--reports", nargs="+", metavar="GLOB", help="runner logs and reports, recognised by content")
    parser.add_argument("--config", type=Path, help="the config file (default: .github/evidence-gate.yml)")
    parser.add_argument("--ledger-out", metavar="F", help="also write the ledger to this file")
    parser.add_argument("--report-out", metavar="F", help="also write the full quality-gate report (Markdown)")
    parser.add_argument(
        "--format",
        choices=["markdown", "json"],
        default="markdown",
        help="print the PR comment (markdown, the default) or the ledger (json)",
    )
    parser.add_argument("--stack", help="the stack id, instead of the detected one")
    parser.add_argument("--stage", choices=[str(stage) for stage in Stage], help="post-refactor judges checks 1-4 only")
    parser.add_argument("--story", help="the story id of [story#n] tags for acceptance criteria")
    parser.add_argument("--check-name", help="the check run's name (default: Evidence Gate)")
    parser.add_argument("--templates-dir", help="templates overriding the built-in ones")
    parser.add_argument(
        "--comment-mode",
        choices=[str(mode) for mode in CommentMode],
        help="when the action writes the PR comment (default: always); run itself publishes nothing",
    )
    parser.add_argument(
        "--fail-on",
        choices=[str(level) for level in FailOn],
        help="which verdicts fail: stagnation or blocked (the default: BLOCKED and STAGNATION), or never",
    )
    parser.add_argument(
        "--runner-step",
        action="store_true",
        help="the run is the workflow's runner step: refuse to start while a token is in reach, and end every"
        " process the tests start",
    )
    parser.add_argument(
        "--gates-off",
        nargs="+",
        metavar="ID",
        help=f"gates to switch off, each shown as off ({', '.join(GATE_IDS)})",
    )


def flags(args: argparse.Namespace) -> dict[str, object]:
    return {
        "reports": args.reports,
        "base": args.base,
        "head": args.head,
        "stack": args.stack,
        "story": args.story,
        "check-name": args.check_name,
        "templates-dir": args.templates_dir,
        "ledger-out": args.ledger_out,
        "comment-mode": args.comment_mode,
        "fail-on": args.fail_on,
        "gates-off": args.gates_off,
        "stage": args.stage,
    }


def run(args: argparse.Namespace, out: TextIO, environ: Mapping[str, str]) -> int:
    if not args.runner_step:
        return _run(args, out, environ)
    # Before anything of the repository's runs: a token in reach is a refusal, not a warning.
    refuse_tokens_in_reach(environ, open_repository(Path(args.repo), environ))
    with reaping():
        return _run(args, out, environ)


def _run(args: argparse.Namespace, out: TextIO, environ: Mapping[str, str]) -> int:
    context = load_context(environ)
    effects = effects_for(Path(args.repo), environ)
    base = base_config(effects, context.pull_request if context else None, args.base)
    settings = resolve(effects.repo, flags(args), environ, args.config, base)
    with tempfile.TemporaryDirectory(prefix="evidence-gate-templates-") as scratch:
        if not args.templates_dir:  # a folder named here is the user's; one from the config is checked
            settings = run_templates(settings, base, effects.workspace, Path(scratch))
        # In a pull request's workflow, the event names the commits (its base and head SHAs, never a ref
        # the job could move) and the body the criteria come from, as in the action.
        inputs = RunInputs(
            pull_request=context.pull_request if context else None,
            table=table(args),
            secrets=run_secrets(environ, settings.github_token),
        )
        ledger = run_pipeline(settings, inputs, effects)
        if settings.ledger_out:
            # A path given here is the user's; one from the config or the action's inputs stays in the workspace.
            if args.ledger_out:
                write_user_file(settings.ledger_out, ledger_json(ledger))
            else:
                effects.workspace.write_text(settings.ledger_out, ledger_json(ledger))
        if args.report_out:
            write_user_file(Path(args.report_out), render_report(ledger, settings.templates_dir))
        if args.format == "json" or args.json:
            print_json(to_document(ledger), out)
        else:
            out.write(render_comment(ledger, settings.templates_dir))
    return policy.exit_code(ledger.verdict, settings.fail_on)
