"""`evidence-gate coverage`: how much of the change's executable code the tests run, and how much
of it tests run that fail without the change (coverage/ reads, maps and measures; the coverage gate
decides)."""

from __future__ import annotations

import argparse
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any, TextIO

from evidence_gate.changes import PathClassifier, collect_changes
from evidence_gate.console import line_safe
from evidence_gate.coverage.collect import CoverageReport, report_directory
from evidence_gate.coverage.gathering import gather_coverage
from evidence_gate.coverage.measure import Measures
from evidence_gate.coverage.registry import coverage_format
from evidence_gate.documents import read_capped
from evidence_gate.effects import effects_for
from evidence_gate.errors import EXIT_CHECK_FAILED, EXIT_OK, UsageError
from evidence_gate.freshness import run_started, stale_reports
from evidence_gate.gates import coverage as gate
from evidence_gate.ledger.model import GateVerdict
from evidence_gate.ledger.payloads.coverage import CoverageData, shown
from evidence_gate.settings import CoverageFailOn, Settings
from evidence_gate.stacks.detect import detect
from evidence_gate.verbs.common import existing_file, print_json, table
from evidence_gate.workspace import open_resolved

EPILOG = (
    "Reports (Cobertura, LCOV, JaCoCo, Clover, Go coverprofile, coverage.py JSON, istanbul JSON) are "
    "recognised by content and merged. Value weighting needs --strength, the JSON of `evidence-gate strength "
    "--json`. Exit codes: 0 the gate passes; 1 it fails; 4 no percentage (skipped) or informational only; "
    "2 usage error, a report that cannot be read or that names no file of the repository. A report that git "
    "tracks or that is older than the run is stale: it is not used, and the gate is unavailable (exit 4)."
)
EXIT_NO_PERCENTAGE = 4
MAX_STRENGTH_BYTES = 64 * 1024 * 1024


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--base", required=True, help="the base revision (e.g. origin/main)")
    parser.add_argument("--head", default="HEAD", help="the head revision, or 'worktree' (default: HEAD)")
    parser.add_argument("--repo", default=".", help="the repository (default: .)")
    parser.add_argument("--report", action="append", required=True, metavar="F", help="a coverage report (repeat)")
    parser.add_argument("--minimum", type=int, default=60, help="percent below which coverage is critically low")
    parser.add_argument("--target", type=int, default=80, help="percent at or above which the gate passes")
    parser.add_argument("--min-changed-lines", type=int, default=0, help="fewer changed lines: informational only")
    parser.add_argument(
        "--fail-on",
        choices=[str(item) for item in CoverageFailOn],
        default="minimum",
        help="which outcome fails: below the minimum (default), below the target, or never",
    )
    parser.add_argument("--no-value-weighting", action="store_true", help="count lines run by any test")
    parser.add_argument("--strength", metavar="F", help="the JSON of `evidence-gate strength --json`")
    parser.add_argument("--label", action="append", default=[], help="a pull request label (coverage:override)")
    parser.add_argument(
        "--since", metavar="TIME", help="the run's start (epoch seconds or ISO 8601); default: HEAD's last checkout"
    )


def run(args: argparse.Namespace, out: TextIO, environ: Mapping[str, str]) -> int:
    if not 0 <= args.minimum <= args.target <= 100:
        raise UsageError("--minimum and --target are percentages, 0 <= minimum <= target <= 100")
    effects = effects_for(Path(args.repo), environ)
    git = effects.checkout()
    adapters = table(args)
    classifier = PathClassifier(table=adapters, matches=detect(git.top, adapters).matches)
    change = collect_changes(git, args.base, args.head, classifier)
    named = {existing_file(name, environ): name for name in args.report}
    # Held to the test reports' rule: a report committed, or written before this run, is none of its evidence.
    stale = stale_reports(list(named), run_started(git, args.since)[0], git, named, now=effects.clock())
    found = None
    if stale:
        facts = gate.CoverageFacts(measures=None, stale=stale)
    else:
        found = gather_coverage(
            git, change.head, change, [_report(name, git.top, environ) for name in args.report], classifier
        )
        if found.map.problems:
            raise UsageError(found.map.problems[0])
        verdicts, reasons, unavailable = _strength(args.strength, environ)
        facts = gate.measured(found, verdicts, unavailable, frozenset(args.label), reasons)
    settings = Settings(
        repo=git.top,
        coverage_minimum=args.minimum,
        coverage_target=args.target,
        coverage_min_changed_lines=max(0, args.min_changed_lines),
        coverage_fail_on=CoverageFailOn(args.fail_on),
        coverage_value_weighting=not args.no_value_weighting,
    )
    result = gate.judge(facts, settings)
    if args.json:
        unmapped = found.map.unmapped if found else ()
        print_json(_document(facts.measures, result.data, result.verdict, result.headline, unmapped), out)
    else:
        out.write(line_safe(result.headline) + "\n")
        out.writelines(line_safe(detail) + "\n" for detail in result.details)
        out.writelines(
            f"{line_safe(note.path)}:{note.line}-{note.end_line}: {line_safe(note.message)}\n"
            for note in result.annotations
        )
    if result.verdict is GateVerdict.FAIL:
        return EXIT_CHECK_FAILED
    return EXIT_OK if result.verdict is GateVerdict.PASS else EXIT_NO_PERCENTAGE


def _report(name: str, top: Path, environ: Mapping[str, str]) -> CoverageReport:
    """A report named on the command line: anywhere, but one inside the workspace must stay inside it."""
    path = existing_file(name, environ).resolve()
    with open_resolved(path) as handle:
        kind = coverage_format(handle.read(64 * 1024))
    if kind is None:
        raise UsageError(f"{name}: not a coverage report this version reads (see `evidence-gate coverage --help`)")
    return CoverageReport(path=path, format=kind, shown=name, directory=report_directory(path, top))


def _strength(name: str | None, environ: Mapping[str, str]) -> tuple[dict[str, str] | None, dict[str, str], str | None]:
    """The verdicts of `evidence-gate strength --json` by test file, and their reasons; or why there are none."""
    if name is None:
        return None, {}, "no strength verdicts (give --strength, the JSON of `evidence-gate strength --json`)"
    path = existing_file(name, environ)
    try:
        document = json.loads(read_capped(path, MAX_STRENGTH_BYTES, UsageError, "--strength"))
        tests = document["tests"]
        verdicts = {str(row["path"]): str(row["verdict"]) for row in tests}
        reasons = {str(row["path"]): str(row["reason"]) for row in tests if row.get("reason")}
    except (ValueError, KeyError, TypeError, RecursionError):
        raise UsageError(f"{name}: not the JSON of `evidence-gate strength --json`") from None
    return (verdicts, reasons, None) if verdicts else (None, {}, "the strength run judged no test")


def _number(value: Any) -> float | None:
    return None if value is None else float(value)


def _document(
    measures: Measures | None, data: object, verdict: GateVerdict, message: str, unmapped: tuple[str, ...]
) -> dict[str, Any]:
    judged = data.number if isinstance(data, CoverageData) else None
    coverage = measures.coverage_pct if measures else None
    value = measures.value_pct if measures else None
    return {
        "coverage_pct": _number(shown(coverage)) if coverage is not None else None,
        "coverage_pct_value": _number(shown(value)) if value is not None else None,
        "gate_number": _number(judged),
        "changed_lines": {path: list(lines) for path, lines in (measures.changed_lines if measures else {}).items()},
        "covered_lines": {path: list(lines) for path, lines in (measures.covered_lines if measures else {}).items()},
        "continued_lines": {
            path: list(lines) for path, lines in (measures.continued_lines if measures else {}).items()
        },
        "gaps": [{"path": p.path, "start": p.start, "end": p.end} for p in (measures.gaps if measures else ())],
        "weak_gaps": [
            {"path": p.path, "start": p.start, "end": p.end, "tests": list(p.tests)}
            for p in (measures.weak_gaps if measures else ())
        ],
        "unmapped": list(unmapped),
        "gate": {"verdict": str(verdict), "message": message},
    }
