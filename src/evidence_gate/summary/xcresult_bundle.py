"""An .xcresult bundle read through Apple's `xcresulttool`, when this machine has it.

The bundle's format is private to Xcode; only `xcrun xcresulttool` reads it. Where the tool is
missing (every machine but a Mac with Xcode), the answer is `unparsed` with that reason, and users
pass the tool's JSON captured on the Mac with `--xcresult-json` instead.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path

from evidence_gate.errors import UsageError
from evidence_gate.model import TestSummary
from evidence_gate.summary.read import read_source

TIMEOUT_SECONDS = 300


def summarise_bundle(bundle: Path) -> TestSummary:
    if not bundle.exists():
        raise UsageError(f"--xcresult {bundle}: no such bundle")
    xcrun = shutil.which("xcrun")
    if xcrun is None:
        return TestSummary(
            counts=None,
            parser="xcresult",
            source=str(bundle),
            reason="xcrun xcresulttool is not available on this machine (it comes with Xcode on macOS);"
            " pass its JSON with --xcresult-json instead",
        )
    command = [xcrun, "xcresulttool", "get", "test-results", "summary", "--path", str(bundle), "--format", "json"]
    try:
        result = subprocess.run(command, capture_output=True, timeout=TIMEOUT_SECONDS, check=False)
    except (OSError, subprocess.TimeoutExpired) as error:
        return TestSummary(counts=None, parser="xcresult", source=str(bundle), reason=f"xcresulttool failed ({error})")
    if result.returncode != 0:
        message = " ".join(result.stderr.decode("utf-8", "replace").split())[:300]
        reason = f"xcresulttool exited {result.returncode}: {message}"
        return TestSummary(counts=None, parser="xcresult", source=str(bundle), reason=reason)
    with tempfile.TemporaryDirectory(prefix="evidence-gate-xcresult-") as scratch:
        captured = Path(scratch) / "summary.json"
        captured.write_bytes(result.stdout)
        return read_source(captured, ["xcresult"], label=str(bundle))
