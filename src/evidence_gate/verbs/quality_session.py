"""A quality run on the host, where the project's tools are: the checks judged at a revision (the
work tree, or any commit in a temporary worktree of its own, so a tool never reads another tree),
the test command run when no reports are given, the baseline taken, and the earlier reports of a
`--write-report` folder read for the history.
"""

from __future__ import annotations

import contextlib
import re
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path, PurePosixPath

from evidence_gate.effects import Effects, effects_for
from evidence_gate.errors import UsageError
from evidence_gate.facts import RunInputs
from evidence_gate.gates.registry import GATES
from evidence_gate.ledger.model import Ledger
from evidence_gate.ledger.quality_document import parse_baseline, read_baseline
from evidence_gate.ledger.quality_record import Baseline, Stage
from evidence_gate.ledger.stagnation import RUNS, report_signatures
from evidence_gate.model import ToolRow, ToolStatus
from evidence_gate.pipeline import run_pipeline
from evidence_gate.quality.capture import run_captured
from evidence_gate.settings import BaseConfig, Settings
from evidence_gate.stacks.detect import detect
from evidence_gate.stacks.table import AdapterTable
from evidence_gate.tool_lookup import find_tool
from evidence_gate.workspace import Workspace

REPORT_NAME = re.compile(r"^gate-report-(?P<stage>[a-z-]+)-(?P<number>\d{3,})\.md$")


@dataclass(frozen=True, kw_only=True)
class OwnTestRun:
    """Check 3's tool, and the log its run wrote (its exit code is the log's `EXIT_CODE=` line)."""

    row: ToolRow
    log: Path | None  # the captured output, for the summary parsers; None: not run


@contextlib.contextmanager
def at_revision(effects: Effects, rev: str | None) -> Iterator[Effects]:
    """The effects of a run at `rev`: the checkout itself for the work tree or HEAD, else a
    temporary worktree of that commit, removed after."""
    git = effects.checkout()
    if rev in (None, "worktree") or git.resolve_commit(rev, "head") == git.resolve_commit("HEAD", "head"):
        yield effects
        return
    with effects.worktree(git.resolve_commit(rev, "head")) as tree:
        yield replace(
            effects_for(tree, effects.environ, Workspace.at(tree)),
            commands=effects.commands,
            clock=effects.clock,
            in_ci=effects.in_ci,
            project=effects.project or effects.top,
        )


def run_tests(settings: Settings, effects: Effects, table: AdapterTable, scratch: Path) -> OwnTestRun:
    """Check 3's own run: the configured test command, else the stack's, under the capture protocol."""
    detection = detect(effects.top, table)
    match = detection.primary
    adapter = settings.stack or match.adapter_id
    path = effects.tools_path
    row = find_tool(
        check=3,
        tool="test runner",
        configured=settings.test_command,
        config_key="test-command",
        adapter_command=match.commands.get("test") if match.adapter_id == adapter else None,
        stack=adapter,
        cwd=effects.top / match.root,
        path=path,
        justification=None,
    )
    if row.status is not ToolStatus.DETECTED or row.command is None:
        return OwnTestRun(row=row, log=None)
    log = scratch / "test-command.log"
    run_captured(effects, row.command, effects.top / match.root, log, settings.command_timeout_seconds, {"PATH": path})
    return OwnTestRun(row=replace(row, reason=f"{row.reason}; run by quality"), log=log)


def judged(settings: Settings, inputs: RunInputs, effects: Effects, table: AdapterTable, *, own_tests: bool) -> Ledger:
    """The pipeline at the settings' head; with `own_tests`, the test command is run first and its
    log read with the configuration's reports."""
    with at_revision(effects, settings.head) as here, tempfile.TemporaryDirectory(prefix="evidence-gate-") as scratch:
        settings = replace(settings, repo=here.repo, head=None if here is not effects else settings.head)
        ran = None
        if own_tests:
            ran = run_tests(settings, here, table, Path(scratch))
            if ran.log is not None:
                settings = replace(settings, reports=(*settings.reports, str(ran.log)), reports_may_leave=True)
        inputs = replace(inputs, test_run=None if ran is None else ran.row)
        return run_pipeline(settings, inputs, here, GATES)


def take_baseline(settings: Settings, effects: Effects, table: AdapterTable, rev: str) -> Baseline:
    """What the checks measure at `rev`, run in a temporary worktree: a baseline."""
    plain = replace(settings, base=None, head=rev, stage=Stage.POST_REFACTOR, smoke=())
    ledger = judged(plain, RunInputs(table=table), effects, table, own_tests=True)
    return replace(ledger.quality.measured or Baseline(), outcomes=dict(ledger.tests), names=dict(ledger.test_names))


def baseline_for(
    settings: Settings, effects: Effects, table: AdapterTable, base: BaseConfig | None, *, user_file: bool
) -> tuple[Baseline | None, str]:
    """The baseline `settings.baseline` names, and where it came from: `base` runs the checks at the
    base commit in a temporary worktree; anything else is a baseline file (`baseline_file`)."""
    wanted = settings.baseline
    if wanted is None:
        return None, "no baseline was given (`--baseline F`, `--baseline-from base` or the `baseline` setting)"
    if wanted == "base":
        if settings.base is None:
            raise UsageError("baseline: `base` needs a base revision (--base)")
        commit = effects.checkout().resolve_commit(settings.base, "base")
        return take_baseline(settings, effects, table, commit), f"the checks run at the base {commit[:12]}"
    return baseline_file(wanted, base, effects, user_file=user_file)


def baseline_file(wanted: str, base: BaseConfig | None, effects: Effects, *, user_file: bool) -> tuple[Baseline, str]:
    """A baseline file and where it was read. One named on the command line is the user's. One the
    settings name is read, in a pull request, as the base commit has it, so the pull request cannot
    lower its own baseline; else from the work tree, which it must not leave. A file that cannot
    be read is a UsageError saying why."""
    if base is not None and not user_file:
        data = base.read(PurePosixPath(wanted))
        if data is None:
            raise UsageError(f"baseline: the base commit {base.commit[:12]} has no {wanted}")
        return parse_baseline(data, wanted), f"the baseline file {wanted} at the base commit {base.commit[:12]}"
    path = Path(wanted) if user_file else effects.workspace.check(effects.repo / wanted)
    if not path.is_file():
        raise UsageError(f"baseline: {wanted}: no such file")
    found = read_baseline(path, wanted)
    return found, f"the baseline file {wanted}" + (f" of {found.timestamp}" if found.timestamp else "")


def history(folder: Path, stage: Stage) -> tuple[tuple[dict[int, str], ...], str, int]:
    """The earlier reports of this stage in `folder`, oldest first, as their failed checks'
    signatures; what was read; and the next report's number."""
    found: list[tuple[int, Path]] = []
    highest = 0
    if folder.is_dir():
        for entry in folder.iterdir():
            name = REPORT_NAME.match(entry.name)
            if name is None:
                continue
            highest = max(highest, int(name["number"]))
            if name["stage"] == str(stage) and entry.is_file() and not entry.is_symlink():
                found.append((int(name["number"]), entry))
    found.sort()
    # Only the last runs can make a stagnation: the older reports are counted, not read.
    runs = tuple(report_signatures(path.read_text("utf-8", "replace")) for _, path in found[-(RUNS - 1) :])
    note = f"{len(found)} earlier {stage} reports in {folder}" if found else f"no earlier {stage} report in {folder}"
    return runs, note, highest + 1


def report_path(folder: Path, stage: Stage, number: int) -> Path:
    return folder / f"gate-report-{stage}-{number:03d}.md"
