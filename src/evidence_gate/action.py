"""The action: environment -> settings -> run -> ledger -> render -> publish.

Compute first, publish last: the ledger, the step outputs and the job summary are written before
any API call but the baseline's read, so a refused, failed or unanswered call never loses the
result. Branching on the event (a fork's read-only token, no token, no pull request) happens here,
not in the pipeline. A bug (any other exception) still ends in one `::error` line naming it, with
whatever outputs and job summary the run had not written yet, and the exit code of an error (2).
"""

from __future__ import annotations

import contextlib
import os
import sys
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from github import Github

from evidence_gate import __version__, policy
from evidence_gate.base_config import base_config, run_templates
from evidence_gate.console import mask_secrets
from evidence_gate.digest import encode
from evidence_gate.errors import EXIT_USAGE, EvidenceGateError, UsageError
from evidence_gate.github.client import WaitBudget, make_client
from evidence_gate.github.context import FORK_RECIPE, GitHubContext, load_context
from evidence_gate.github.files import write_job_summary, write_outputs
from evidence_gate.github.publish import Published, Publisher, read_baseline
from evidence_gate.ledger import Ledger, ledger_json, read_ledger
from evidence_gate.pipeline import RunInputs, run_pipeline
from evidence_gate.render import (
    escape_markdown,
    render_check_run,
    render_comment,
    render_job_summary,
    render_report,
    reveal_invisible,
)
from evidence_gate.scrub import Scrubber, run_secrets
from evidence_gate.settings import CommentMode, Settings, resolve
from evidence_gate.workspace import Refused, Workspace


@dataclass(kw_only=True)
class Progress:
    """What a run has made and written so far, filled in as it goes: after a bug, what is left to write."""

    ledger: Ledger | None = None
    ledger_path: Path | None = None
    outputs_written: bool = False
    summary_written: bool = False


def run_action(environ: Mapping[str, str], log: TextIO, progress: Progress | None = None) -> int:
    progress = progress or Progress()
    context = load_context(environ)
    workspace_dir = Path(environ.get("GITHUB_WORKSPACE") or ".")
    repo = workspace_dir / environ.get("INPUT_WORKING-DIRECTORY", "").strip()
    config = environ.get("INPUT_CONFIG", "").strip()
    base = base_config(repo, context.pull_request if context else None, environ, None)
    settings = resolve(repo, {}, environ, Path(config) if config else None, base)
    if context is None:
        log.write("not running in GitHub Actions (no GITHUB_REPOSITORY): use `evidence-gate run` instead\n")
        return EXIT_USAGE
    secrets = run_secrets(environ, settings.github_token)
    mask_secrets(log, secrets)
    workspace = Workspace.from_environment(repo, environ)
    # RUNNER_TEMP is emptied after every job, so the base commit's templates are copied there.
    scratch = Path(tempfile.mkdtemp(prefix="evidence-gate-templates-", dir=environ.get("RUNNER_TEMP") or None))
    settings = run_templates(settings, base, workspace, scratch)
    budget = WaitBudget(settings.api_wait_seconds)
    client = make_client(settings.github_token, context.api_url, budget) if settings.github_token else None
    made_elsewhere = environ.get("INPUT_LEDGER", "").strip()
    if made_elsewhere:
        ledger = checked_ledger(read_ledger(workspace.check(repo / made_elsewhere, scratch=True)), context, settings)
        ledger = Scrubber(secrets).value(ledger)
    else:
        baseline, note = (None, "no token to read the base commit's check run")
        if client is not None:
            baseline, note = read_baseline(client, context, settings.check_name)
        inputs = RunInputs(
            settings=settings,
            pull_request=context.pull_request,
            baseline=baseline,
            baseline_note=note,
            in_ci=True,
            workspace=workspace,
            secrets=secrets,
        )
        ledger = run_pipeline(inputs)
    default_path = Path(environ.get("RUNNER_TEMP") or tempfile.gettempdir()) / "evidence-gate-ledger.json"
    progress.ledger = ledger
    try:
        ledger_path = workspace.write_text(settings.ledger_out or default_path, ledger_json(ledger))
    except Refused as refusal:  # the result is never lost: it goes to the default place instead
        warning(log, f"ledger-out {refusal.one_line()}; the ledger is written to {default_path} instead")
        ledger_path = workspace.write_text(default_path, ledger_json(ledger))
    progress.ledger_path = ledger_path
    report_path = workspace.write_text(ledger_path.with_suffix(".md"), render_report(ledger, settings.templates_dir))
    write_outputs(environ.get("GITHUB_OUTPUT"), {**_outputs(ledger, ledger_path), "report": str(report_path)})
    progress.outputs_written = True
    if settings.job_summary:
        write_job_summary(environ.get("GITHUB_STEP_SUMMARY"), render_job_summary(ledger, settings.templates_dir))
    progress.summary_written = True  # written, or switched off: nothing is left to write after a bug
    exit_code = policy.exit_code(ledger.verdict, settings.fail_on)
    switched_off = surfaces_off(settings)
    if switched_off:
        notice(log, f"switched off: {', '.join(switched_off)}; not written")
    kept = (
        "the job summary, the step outputs and the ledger"
        if settings.job_summary
        else "the step outputs and the ledger"
    )
    if client is None:
        notice(log, f"no github-token: the result is in {kept}")
        return exit_code
    if context.read_only_token:
        notice(
            log,
            f"this pull request's token is read-only (a fork or Dependabot): the result is in {kept};"
            f" publish it with the workflow_run recipe in {FORK_RECIPE}",
        )
        return exit_code
    if budget.gave_up is None:
        published = publish_ledger(client, context, settings, ledger)
        write_outputs(
            environ.get("GITHUB_OUTPUT"),
            {"comment-url": published.comment_url or "", "check-run-url": published.check_run_url or ""},
        )
        for problem in published.problems:
            warning(log, problem)
    if budget.gave_up is not None:
        warning(log, f"{budget.gave_up}: the result is in {kept}")
    return exit_code


def surfaces_off(settings: Settings) -> list[str]:
    """The publishing surfaces the settings switch off, as the run's one notice names them."""
    switches = [
        (settings.comment_mode is CommentMode.OFF, "the comment (comment-mode: off)"),
        (not settings.check_run, "the check run (check-run: false)"),
        (not settings.pr_body, "the PR body's section (pr-body: false)"),
        (not settings.job_summary, "the job summary (job-summary: false)"),
    ]
    return [name for off, name in switches if off]


def publish_ledger(client: Github, context: GitHubContext, settings: Settings, ledger: Ledger) -> Published:
    check_run = None
    if settings.check_run:
        digest = encode(ledger) or ""
        check_run = render_check_run(ledger, settings.templates_dir, reserve=len(digest.encode()) + 1)
        check_run = check_run.with_summary(f"{check_run.summary}\n{digest}" if digest else check_run.summary)
    publisher = Publisher(client, context, settings.check_name)
    return publisher.publish(
        ledger,
        render_comment(ledger, settings.templates_dir),
        check_run,
        settings.comment_mode,
        settings.fail_on,
        pr_body=settings.pr_body,
    )


def checked_ledger(ledger: Ledger, context: GitHubContext, settings: Settings) -> Ledger:
    """A ledger made elsewhere (on the runner, or by a fork's run) is published only when it is about
    this pull request's head commit and under this configuration's check name."""
    pull = context.pull_request
    if ledger.head is None:
        raise UsageError("the ledger names no head commit, so it cannot be tied to this pull request")
    expected = pull.head_sha if pull else context.sha
    if ledger.head != expected:
        raise UsageError(f"the ledger is about {ledger.head[:12]}, not {expected[:12]}; refusing to publish it here")
    if ledger.check_name != settings.check_name:
        raise UsageError(
            f"the ledger was made for the check {ledger.check_name!r}, not {settings.check_name!r}; refusing it"
        )
    return ledger


def _outputs(ledger: Ledger, ledger_path: Path) -> dict[str, str]:
    counts = ledger.counts
    return {
        "verdict": str(ledger.verdict),
        "executed": str(counts.executed) if counts else "",
        "passed": str(counts.passed) if counts else "",
        "failed": str(counts.failed) if counts else "",
        "skipped": str(counts.skipped) if counts else "",
        "ledger": str(ledger_path),
    }


def _escape(text: str) -> str:
    """Workflow-command data escaping, so a message cannot inject another command, with invisible
    characters shown."""
    return reveal_invisible(text).replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def notice(log: TextIO, message: str) -> None:
    log.write(f"::notice title=Evidence Gate::{_escape(message)}\n")


def warning(log: TextIO, message: str) -> None:
    log.write(f"::warning title=Evidence Gate::{_escape(message)}\n")


def main() -> int:
    progress = Progress()
    try:
        return run_action(os.environ, sys.stdout, progress)
    except EvidenceGateError as error:
        sys.stdout.write(f"::error title=Evidence Gate::{_escape(error.one_line())}\n")
        return error.exit_code
    except Exception as error:  # a bug: one line that names it, never a traceback
        message = " ".join(str(error).split())
        line = f"internal error in evidence-gate {__version__}: {type(error).__name__}"
        line = f"{line}: {message} — please report it" if message else f"{line} — please report it"
        _write_what_remains(os.environ, progress, line)
        sys.stdout.write(f"::error title=Evidence Gate::{_escape(line)}\n")
        return EXIT_USAGE


def _write_what_remains(environ: Mapping[str, str], progress: Progress, line: str) -> None:
    """After a bug: the step outputs, when the ledger was made, and a job summary that says what
    happened, each unless the run wrote it already. A runner file that cannot be written is left."""
    if progress.ledger is not None and progress.ledger_path is not None and not progress.outputs_written:
        with contextlib.suppress(OSError, ValueError):
            write_outputs(environ.get("GITHUB_OUTPUT"), _outputs(progress.ledger, progress.ledger_path))
    if not progress.summary_written:
        verdict = f"Verdict: **{progress.ledger.verdict}**. " if progress.ledger is not None else ""
        summary = f"### Evidence Gate\n\n{verdict}The run stopped on an {escape_markdown(line)}.\n"
        with contextlib.suppress(OSError, ValueError):
            write_job_summary(environ.get("GITHUB_STEP_SUMMARY"), summary)
