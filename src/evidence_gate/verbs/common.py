"""What the verbs share: the adapter table a run uses, JSON output, file arguments, exit codes."""

from __future__ import annotations

import argparse
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any, TextIO

from evidence_gate.console import json_safe
from evidence_gate.errors import EXIT_CHECK_FAILED, EXIT_OK, UsageError
from evidence_gate.model import SummaryStatus
from evidence_gate.stacks.table import AdapterTable, default_table, load_table
from evidence_gate.workspace import Workspace

EXIT_NO_TESTS = 3
EXIT_UNPARSED = 4
SUMMARY_EXIT = {
    SummaryStatus.PASSED: EXIT_OK,
    SummaryStatus.FAILED: EXIT_CHECK_FAILED,
    SummaryStatus.NO_TESTS: EXIT_NO_TESTS,
    SummaryStatus.UNPARSED: EXIT_UNPARSED,
}


def table(args: argparse.Namespace) -> AdapterTable:
    return load_table(args.adapters) if args.adapters else default_table()


def print_json(document: Any, out: TextIO) -> None:
    # ensure_ascii keeps the output valid for any path git can hold (undecodable bytes included).
    out.write(json_safe(json.dumps(document, indent=2, ensure_ascii=True)) + "\n")


def existing_file(name: str, environ: Mapping[str, str]) -> Path:
    """A file named on the command line. One inside the workspace (GITHUB_WORKSPACE, else the current
    folder) is the pull request's: it must not lead outside it through a symlink, nor into `.git`."""
    path = Path(name)
    Workspace.from_environment(Path.cwd(), environ).check(path)
    if not path.is_file():
        raise UsageError(f"{name}: no such file" if not path.exists() else f"{name}: not a file")
    return path
