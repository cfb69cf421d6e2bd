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
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, TextIO

from github import Github

from evidence_gate import __version__, policy
from evidence_gate.base_config import base_config, run_templates
from evidence_gate.console import error, mask_secrets, notice, warning
from evidence_gate.effects import Effects, effects_for
from evidence_gate.errors import EXIT_USAGE, EvidenceGateError
from evidence_gate.event import FORK_RECIPE, GitHubContext, load_context
from evidence_gate.facts import RunInputs
from evidence_gate.gates.coverage import ID as COVERAGE
from evidence_gate.gates.gate import Gate
from evidence_gate.gates.integrity import ID as INTEGRITY
from evidence_gate.gates.registry import GATES
from evidence_gate.github.client import WaitBudget, make_client
from evidence_gate.github.files import write_job_summary, write_outputs
from evidence_gate.github.publish import current_pull, publish_ledger, read_baseline, read_history
from evidence_gate.ledger.document import ledger_json, read_ledger
from evidence_gate.ledger.model import GateVerdict, Ledger
from evidence_gate.ledger.payloads.coverage import CoverageData
from evidence_gate.ledger.payloads.integrity import IntegrityData
from evidence_gate.ledger.quality_record import Baseline
from evidence_gate.model import PullRequest
from evidence_gate.pipeline import run_pipeline
from evidence_gate.render import (
    escape_markdown,
    render_job_summary,
    render_report,
)
from evidence_gate.runner_results import check_digest, check_runner_ledger, with_runner_results
from evidence_gate.scrub import run_secrets
from evidence_gate.settings import BaseConfig, CommentMode, Settings, resolve
from evidence_gate.stacks.table import default_table
from evidence_gate.verbs.quality_session import baseline_file
from evidence_gate.workspace import Refused, Workspace, write_private_file

DEFAULT_LEDGER_NAME = "evidence-gate-ledger.json"


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
    # The action always runs unattended, in a container without the project's toolchain.
    effects = replace(effects_for(repo, environ), in_ci=True, runs_tests=False)
    base = base_config(effects, context.pull_request if context else None, None)
    # `ledger-out` is the workspace's path, as a later step of the job names it (docs/usage.md).
    settings = resolve(repo, {}, environ, Path(config) if config else None, base, ledger_base=workspace_dir)
    if context is None:
        log.write("not running in GitHub Actions (no GITHUB_REPOSITORY): use `evidence-gate run` instead\n")
        return EXIT_USAGE
    secrets = run_secrets(environ, settings.github_token)
    mask_secrets(log, secrets)
    workspace = effects.workspace
    # RUNNER_TEMP is emptied after every job, so the base commit's templates are copied there.
    scratch = Path(tempfile.mkdtemp(prefix="evidence-gate-templates-", dir=environ.get("RUNNER_TEMP") or None))
    settings = run_templates(settings, base, workspace, scratch)
    budget = WaitBudget(settings.api_wait_seconds)
    client = make_client(settings.github_token, context.api_url, budget) if settings.github_token else None
    baseline, note = (None, "no token to read the base commit's check run")
    history: tuple[dict[int, str], ...] = ()
    history_note = "no token to read the sticky comment of the earlier runs"
    pull = context.pull_request
    if client is not None:
        baseline, note = read_baseline(client, context, settings.check_name)
        history, history_note = read_history(client, context, settings.check_name)
        pull = _labels_now(client, context, log) if budget.gave_up is None else context.pull_request
    given, source = _baseline_file(settings, base, effects)
    inputs = RunInputs(
        pull_request=pull,
        baseline=baseline,
        baseline_note=note,
        table=default_table(),
        secrets=secrets,
        history=history,
        history_note=history_note,
        quality_baseline=given,
        baseline_source=source,
    )
    ledger = run_pipeline(settings, inputs, effects, _gates(environ, repo, workspace, context, settings))
    progress.ledger = ledger
    text = ledger_json(ledger)
    try:
        ledger_path = workspace.write_text(settings.ledger_out, text) if settings.ledger_out else None
    except Refused as refusal:  # the result is never lost: it goes to the default place instead
        ledger_path = _write_default_ledger(environ, workspace, text)
        warning(log, f"ledger-out {refusal.one_line()}; the ledger is written to {ledger_path} instead")
    ledger_path = ledger_path or _write_default_ledger(environ, workspace, text)
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


def _write_default_ledger(environ: Mapping[str, str], workspace: Workspace, text: str) -> Path:
    """The ledger nobody placed: RUNNER_TEMP's, which is the job's own; without one (a container run
    by hand), a new private folder in the shared temp folder, where a planted file or link is no risk."""
    runner_temp = environ.get("RUNNER_TEMP")
    if runner_temp:
        return workspace.write_text(Path(runner_temp) / DEFAULT_LEDGER_NAME, text)
    return write_private_file(DEFAULT_LEDGER_NAME, text)


def _gates(
    environ: Mapping[str, str], repo: Path, workspace: Workspace, context: GitHubContext, settings: Settings
) -> list[Gate[Any]]:
    """The gates this run judges: the registry's, or, given the runner step's ledger (`ledger`), the
    registry's with the results only the runner could measure taken from it (runner_results.py)."""
    made_on_runner = environ.get("INPUT_LEDGER", "").strip()
    if not made_on_runner:
        return list(GATES)
    path = workspace.check(repo / made_on_runner, scratch=True)
    expected = environ.get("INPUT_LEDGER-SHA256", "").strip()
    if expected:
        check_digest(path, expected)
    ledger = read_ledger(path)
    check_runner_ledger(ledger, context.pull_request, context.sha, settings)
    return with_runner_results(ledger, settings)


def _labels_now(client: Github, context: GitHubContext, log: TextIO) -> PullRequest | None:
    """The event's pull request with its labels as GitHub has them now: a label added after the
    event (`coverage:accept-risk`) counts when the job is re-run. The commits stay the event's."""
    pull = context.pull_request
    if pull is None:
        return None
    try:
        labels = current_pull(client, context, pull.number).labels
    except EvidenceGateError as failure:
        warning(log, f"the pull request's labels are the event's: {failure.one_line()}")
        return pull
    return replace(pull, labels=labels)


def surfaces_off(settings: Settings) -> list[str]:
    """The publishing surfaces the settings switch off, as the run's one notice names them."""
    switches = [
        (settings.comment_mode is CommentMode.OFF, "the comment (comment-mode: off)"),
        (not settings.check_run, "the check run (check-run: false)"),
        (not settings.pr_body, "the PR body's section (pr-body: false)"),
        (not settings.job_summary, "the job summary (job-summary: false)"),
    ]
    return [name for off, name in switches if off]


def _outputs(ledger: Ledger, ledger_path: Path) -> dict[str, str]:
    counts = ledger.counts
    return {
        "verdict": str(ledger.verdict),
        "executed": str(counts.executed) if counts else "",
        "passed": str(counts.passed) if counts else "",
        "failed": str(counts.failed) if counts else "",
        "skipped": str(counts.skipped) if counts else "",
        "ledger": str(ledger_path),
        "gate-edits": _gate_edits(ledger),
        "coverage": _coverage(ledger),
    }


def _baseline_file(settings: Settings, base: BaseConfig | None, effects: Effects) -> tuple[Baseline | None, str | None]:
    """The `baseline` file (`verbs/quality_session.baseline_file`: in a pull request, as the base commit
    has it); None with why when it cannot be read, so the checks that compare say there is no
    baseline, which is stricter, never looser. `base` (or no setting) is the base commit's check
    run, read elsewhere."""
    wanted = settings.baseline
    if not wanted or wanted == "base":
        return None, None
    try:
        return baseline_file(wanted, base, effects, user_file=False)
    except (EvidenceGateError, OSError) as error:
        reason = error.one_line() if isinstance(error, EvidenceGateError) else str(error)
        return None, f"no baseline: {reason}"


def _coverage(ledger: Ledger) -> str:
    """The percentage the coverage gate judged (`79.99`); `skipped` without one, `unavailable`
    when a report could not be used, empty when the gate is off."""
    gate = ledger.gate(COVERAGE)
    if gate is None or gate.verdict is GateVerdict.OFF:
        return ""
    if isinstance(gate.data, CoverageData) and gate.data.number is not None:
        return gate.data.number
    return "unavailable" if gate.verdict is GateVerdict.UNAVAILABLE else "skipped"


def _gate_edits(ledger: Ledger) -> str:
    """The gate-integrity tags and their counts (`RH-1:2,RH-9:1`); `unavailable` when it could not run."""
    gate = ledger.gate(INTEGRITY)
    if gate is None or gate.verdict is GateVerdict.OFF:
        return ""
    if not isinstance(gate.data, IntegrityData):
        return "unavailable"
    return ",".join(f"{tag}:{count}" for tag, count in gate.data.tagged.items())


def main() -> int:
    """The action's entry point: the one place it reads the process's environment."""
    progress = Progress()
    environ = os.environ
    try:
        return run_action(environ, sys.stdout, progress)
    except EvidenceGateError as failure:
        error(sys.stdout, failure.one_line())
        return failure.exit_code
    except Exception as bug:  # a bug: one line that names it, never a traceback
        message = " ".join(str(bug).split())
        line = f"internal error in evidence-gate {__version__}: {type(bug).__name__}"
        line = f"{line}: {message} — please report it" if message else f"{line} — please report it"
        _write_what_remains(environ, progress, line)
        error(sys.stdout, line)
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
