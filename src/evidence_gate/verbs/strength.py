"""`evidence-gate strength`: does each changed test fail without the production change it comes
with? Each changed test file runs alone in a worktree of the head, then with the change's production
files taken back to the base (strength/): red covers the change, still-green does not."""

from __future__ import annotations

import argparse
import sys
import threading
from collections.abc import Mapping
from pathlib import Path
from typing import TextIO

from evidence_gate.changes import PathClassifier, collect_changes
from evidence_gate.console import in_actions
from evidence_gate.effects import effects_for
from evidence_gate.errors import UsageError
from evidence_gate.git import WORKTREE
from evidence_gate.model import parse_shard
from evidence_gate.stacks.commands import parse_template
from evidence_gate.stacks.detect import detect
from evidence_gate.strength.report import counts, document, exit_code, progress_line, text_lines
from evidence_gate.strength.session import Options, Stack, judge_change
from evidence_gate.strength.verdict import Judged
from evidence_gate.verbs.common import print_json, table

EPILOG = (
    "Runs every changed test twice (it belongs to unattended CI runs). Progress goes to standard error. "
    "Exit codes: 0 every changed test red; 1 a test is still-green; 4 anything else (unjudged, not-run, "
    "nothing to judge); 2 usage error."
)
DEFAULT_TIMEOUT_MS = 600_000
LINE_SAFE = True  # every line it prints goes through console.line_safe: no command needs stopping


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--base", required=True, help="the base revision (e.g. origin/main)")
    parser.add_argument(
        "--head", default="HEAD", help=f"the head revision, or '{WORKTREE}' for uncommitted changes (default: HEAD)"
    )
    parser.add_argument("--repo", default=".", help="the repository (default: .)")
    parser.add_argument("--stack", help="the stack id, instead of the detected one")
    parser.add_argument(
        "--timeout-ms", type=int, default=DEFAULT_TIMEOUT_MS, help="per run of one file (default 600000)"
    )
    parser.add_argument("--jobs", type=int, default=1, help="files run side by side, each job in its own worktree")
    parser.add_argument(
        "--test-command", metavar="TEMPLATE", help="the shell command for one file, with {file}, {dir}, {stem}"
    )
    parser.add_argument("--shard", metavar="I/N", help="judge only the I-th of N stable parts of the changed tests")
    parser.add_argument(
        "--install-command",
        metavar="COMMAND",
        help="run once in each worktree before its tests (npm ci, go mod download)",
    )


def run(args: argparse.Namespace, out: TextIO, environ: Mapping[str, str]) -> int:
    if args.jobs < 1 or args.timeout_ms < 1:
        raise UsageError("--jobs and --timeout-ms take a whole number of at least 1")
    if args.test_command is not None:
        parse_template(args.test_command, "--test-command")
    shard = parse_shard(args.shard) if args.shard else None
    effects = effects_for(Path(args.repo), environ)
    git = effects.checkout()
    adapters = table(args)
    detection = detect(git.top, adapters)
    classifier = PathClassifier(table=adapters, matches=detection.matches)
    if args.stack:
        stack = Stack(table=adapters, adapter=adapters.get(args.stack))
    else:
        primary = detection.primary
        stack = Stack(
            table=adapters, adapter=adapters.get(primary.adapter_id), root=primary.root, classifier=classifier
        )
    change = collect_changes(git, args.base, args.head, classifier)
    options = Options(
        timeout=args.timeout_ms / 1000,
        jobs=args.jobs,
        template=args.test_command,
        shard=shard,
        install=args.install_command,
    )
    reporter = _Reporter(grouped=in_actions(environ))
    try:
        outcome = judge_change(effects, change, stack, options, reporter.report)
    finally:
        reporter.close()
    if args.json:
        print_json(document(outcome, args.shard), out)
    else:
        out.writelines(line + "\n" for line in text_lines(outcome))
    return exit_code(outcome)


class _Reporter:
    """A progress line on standard error as each file's verdict is final, folded in Actions."""

    def __init__(self, grouped: bool) -> None:
        self._grouped, self._opened = grouped, False
        self._judged: list[Judged] = []
        self._lock = threading.Lock()

    def report(self, item: Judged, total: int) -> None:
        with self._lock:
            if self._grouped and not self._opened:
                print("::group::evidence-gate strength: progress", file=sys.stderr)
                self._opened = True
            self._judged.append(item)
            print(progress_line(item, len(self._judged), total, counts(tuple(self._judged))), file=sys.stderr)

    def close(self) -> None:
        if self._opened:
            print("::endgroup::", file=sys.stderr)
