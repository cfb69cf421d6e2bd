"""Literal facts for a gate's `judge`: what `facts.gather` would have read, written out by hand."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from evidence_gate.changes import PathClassifier
from evidence_gate.claims import LogEvidence
from evidence_gate.facts import Facts, ReportedCases, Reports
from evidence_gate.markers import MarkerScan
from evidence_gate.model import Counts, Detection, StackMatch, TestSummary
from evidence_gate.stacks.table import default_table

TABLE = default_table()
PYTHON = StackMatch(
    adapter_id="python",
    stack_class="python",
    language="python",
    root=".",
    depth=0,
    order=0,
    evidence=("pyproject.toml",),
)


def counted(passed: int, failed: int = 0, skipped: int = 0, source: str = "build/pytest.log") -> TestSummary:
    return TestSummary(counts=Counts(passed=passed, failed=failed, skipped=skipped), parser="pytest", source=source)


def log(summary: TestSummary, exit_code: int | None = None) -> LogEvidence:
    return LogEvidence(source=summary.source, scan=MarkerScan(hits=(), exit_code=exit_code, lines=20), summary=summary)


def facts(*logs: LogEvidence, **changes: Any) -> Facts:
    """A python project's facts with these logs read (one passing pytest log by default), no base,
    no pull request, no baseline; `changes` replaces any field."""
    logs = logs or (log(counted(3)),)
    paths = tuple(Path("/checkout") / item.source for item in logs)
    value = Facts(
        top=Path("/checkout"),
        detection=Detection(primary=PYTHON, matches=(PYTHON,), warnings=()),
        adapter=TABLE.get("python"),
        unknown_stack=False,
        head="a" * 40,
        base=None,
        change=None,
        reports=Reports(
            given=True, logs=paths, shown={path: item.source for path, item in zip(paths, logs, strict=True)}
        ),
        logs=logs,
        documents=(),
        counts=None,
        excerpts=(),
        cases=ReportedCases(),
        stale=(),
        fresh_after="the last checkout or commit of HEAD",
        pull_request=None,
        baseline=None,
        baseline_note="not looked up",
        in_ci=True,
        classifier=PathClassifier(table=TABLE, matches=(PYTHON,)),
    )
    return replace(value, **changes)
