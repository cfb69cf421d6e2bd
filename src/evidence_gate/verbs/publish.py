"""`evidence-gate publish`: publish a ledger made elsewhere.

This is the fork recipe's second half: a `pull_request` run from a fork has a read-only token, so it
uploads its ledger and its event as an artifact; a `workflow_run` job with a write token downloads
them and runs this verb. Both files are untrusted data: the ledger is validated against its schema,
only the pull request's number is read from the event, and the ledger must be about the pull
request's current head, as GitHub reports it, before anything is written.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import TextIO

from evidence_gate import policy
from evidence_gate.console import notice, warning
from evidence_gate.errors import UsageError
from evidence_gate.event import load_context
from evidence_gate.github.client import WaitBudget, make_client
from evidence_gate.github.files import write_job_summary
from evidence_gate.github.publish import checked_ledger, current_pull, publish_ledger
from evidence_gate.ledger.document import read_ledger
from evidence_gate.render import render_job_summary
from evidence_gate.settings import resolve
from evidence_gate.verbs.common import existing_file, print_json

EPILOG = (
    "Needs GITHUB_REPOSITORY, GITHUB_API_URL and a token (INPUT_GITHUB-TOKEN or GITHUB_TOKEN). The check name "
    "comes from this job's configuration, never from the ledger. Exit codes: 0 published, and the check run's "
    "conclusion is not a failure (see fail-on); 1 published, conclusion failure; 2 usage error (an invalid "
    "ledger, one that names no head or is not about the pull request's head, or made for another check name; a "
    "pull request GitHub does not know, or cannot be read)."
)


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--ledger", required=True, help="the ledger file (an artifact of the pull request's run)")
    parser.add_argument("--event", help="the pull request's event payload, saved by its run (untrusted)")
    parser.add_argument("--repo", default=".", help="where .github/evidence-gate.yml is read from (default: .)")


def run(args: argparse.Namespace, out: TextIO, environ: Mapping[str, str]) -> int:
    ledger = read_ledger(existing_file(args.ledger, environ))
    context = load_context({**environ, **({"GITHUB_EVENT_PATH": args.event} if args.event else {})})
    if context is None:
        raise UsageError("publish: GITHUB_REPOSITORY is not set: run it in a GitHub Actions job")
    settings = resolve(Path(args.repo), {}, environ, None)
    if not settings.github_token:
        raise UsageError("publish: no token (set INPUT_GITHUB-TOKEN or GITHUB_TOKEN)")
    budget = WaitBudget(settings.api_wait_seconds)
    client = make_client(settings.github_token, context.api_url, budget)
    if context.pull_request is not None:
        # The event is untrusted: only its number is used; the shas come from GitHub itself.
        context = replace(context, pull_request=current_pull(client, context, context.pull_request.number))
    ledger = checked_ledger(ledger, context, settings)
    if settings.job_summary:
        write_job_summary(environ.get("GITHUB_STEP_SUMMARY"), render_job_summary(ledger, settings.templates_dir))
    published = publish_ledger(client, context, settings, ledger)
    for problem in published.problems:
        warning(sys.stdout, problem)
    if budget.gave_up is not None:
        warning(sys.stdout, f"{budget.gave_up}: the result is in the job summary and the ledger")
    if args.json:
        print_json({"comment_url": published.comment_url, "check_run_url": published.check_run_url}, out)
    else:
        notice(out, f"published {ledger.verdict}: {published.check_run_url or 'no check run'}")
    return policy.exit_code(ledger.verdict, settings.fail_on)
