"""An .xcresult bundle read through Apple's `xcresulttool`, when this machine has it (`summary
--xcresult`).

The bundle's format is private to Xcode; only `xcrun xcresulttool` reads it. Where the tool is
missing (every machine but a Mac with Xcode), the answer is `unparsed` with that reason, and users
pass the tool's JSON captured on the Mac with `--xcresult-json` instead. The tool runs as every
program the tool starts does (runner.py): no shell, no token in its environment, its output to a
file that is then read like any report.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Mapping
from pathlib import Path

from evidence_gate.errors import UsageError
from evidence_gate.model import TestSummary
from evidence_gate.runner import run_command
from evidence_gate.summary.read import read_source
from evidence_gate.summary.terminal import clean_line

TIMEOUT_SECONDS = 300


def summarise_bundle(bundle: Path, environ: Mapping[str, str]) -> TestSummary:
    if not bundle.exists():
        raise UsageError(f"--xcresult {bundle}: no such bundle")
    xcrun = shutil.which("xcrun", path=environ.get("PATH"))
    if xcrun is None:
        return TestSummary(
            counts=None,
            parser="xcresult",
            source=str(bundle),
            reason="xcrun xcresulttool is not available on this machine (it comes with Xcode on macOS);"
            " pass its JSON with --xcresult-json instead",
        )
    command = [xcrun, "xcresulttool", "get", "test-results", "summary", "--path", str(bundle), "--format", "json"]
    with tempfile.TemporaryDirectory(prefix="evidence-gate-xcresult-") as scratch:
        captured = Path(scratch) / "summary.json"
        run = run_command(command, Path(scratch), captured, TIMEOUT_SECONDS, environ=environ)
        if run.exit_code != 0:
            with captured.open("rb") as output:
                message = clean_line(output.read(300).decode("utf-8", "replace"))
            state = "ran over its time" if run.timed_out else f"exited {run.exit_code}"
            reason = f"xcresulttool {state}: {' '.join(message.split())}"
            return TestSummary(counts=None, parser="xcresult", source=str(bundle), reason=reason)
        return read_source(captured, ["xcresult"], label=str(bundle))
