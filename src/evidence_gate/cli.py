"""The command line: one sub-command per verb, `--json` on each, documented exit codes.

Exit codes shared by every verb: 0 ok, 1 the check failed, 2 usage or configuration error.
Codes 3 and 4 are defined per verb (see each verb's help).
"""

from __future__ import annotations

import argparse
import io
import json
import os
import sys
from collections.abc import Callable, Sequence
from dataclasses import asdict
from pathlib import Path
from typing import Any, TextIO

from evidence_gate import __version__
from evidence_gate.changes import PathClassifier, collect_changes
from evidence_gate.errors import EXIT_OK, EXIT_USAGE, EvidenceGateError
from evidence_gate.git import WORKTREE, Git
from evidence_gate.model import Change, Detection
from evidence_gate.stacks.detect import detect
from evidence_gate.stacks.table import AdapterTable, default_table, load_table

EXIT_DETECT_INCOMPLETE = 3

Handler = Callable[[argparse.Namespace, TextIO], int]


def _table(args: argparse.Namespace) -> AdapterTable:
    return load_table(args.adapters) if args.adapters else default_table()


def _print_json(document: Any, out: TextIO) -> None:
    # ensure_ascii keeps the output valid for any path git can hold (undecodable bytes included).
    out.write(json.dumps(document, indent=2, ensure_ascii=True) + "\n")


def detection_document(detection: Detection) -> dict[str, Any]:
    primary = detection.primary
    return {
        "primary": primary.adapter_id,
        "class": primary.stack_class,
        "language": primary.language,
        "root": primary.root,
        "commands": primary.commands,
        "matches": [
            {
                "id": match.adapter_id,
                "class": match.stack_class,
                "language": match.language,
                "root": match.root,
                "evidence": list(match.evidence),
                "commands": match.commands,
            }
            for match in detection.matches
        ],
        "warnings": list(detection.warnings),
    }


def run_detect(args: argparse.Namespace, out: TextIO) -> int:
    detection = detect(Path(args.path), _table(args))
    if args.json:
        _print_json(detection_document(detection), out)
    else:
        primary = detection.primary
        out.write(f"primary: {primary.adapter_id} ({primary.stack_class}, {primary.language}) at {primary.root}\n")
        for match in detection.matches:
            out.write(f"  {match.adapter_id:<13} {match.root:<24} {', '.join(match.evidence)}\n")
        for name, command in primary.commands.items():
            out.write(f"  {name}: {command}\n")
    for warning in detection.warnings:
        print(f"evidence-gate: warning: {warning}", file=sys.stderr)
    return EXIT_DETECT_INCOMPLETE if detection.warnings else EXIT_OK


def printable(text: str) -> str:
    """A path on one terminal line: control characters shown as escapes, the rest as it is."""
    return "".join(char if char.isprintable() or char == " " else repr(char)[1:-1] for char in text)


def change_document(change: Change) -> dict[str, Any]:
    document = asdict(change)
    for changed in document["files"]:
        changed["status"] = str(changed["status"])
        changed["kind"] = str(changed["kind"])
    return document


def run_changes(args: argparse.Namespace, out: TextIO) -> int:
    git = Git(Path(args.repo))
    table = _table(args)
    detection = detect(git.top, table)
    change = collect_changes(git, args.base, args.head, PathClassifier(table=table, matches=detection.matches))
    if args.json:
        _print_json(change_document(change), out)
        return EXIT_OK
    out.write(f"{change.merge_base[:12]}..{change.head[:12]}: {len(change.files)} files changed\n")
    for changed in change.files:
        added = sum(len(hunk.added) for hunk in changed.hunks)
        removed = sum(len(hunk.removed) for hunk in changed.hunks)
        origin = f" (from {printable(changed.old_path)})" if changed.old_path else ""
        counts = "binary" if changed.binary else f"+{added} -{removed}"
        out.write(f"  {changed.status:<11} {changed.kind:<11} {counts:<11} {printable(changed.path)}{origin}\n")
    return EXIT_OK


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="evidence-gate",
        description="Decides whether a pull request's test evidence is real.",
        epilog="Exit codes: 0 ok, 1 the check failed, 2 usage or configuration error; 3 and 4 per verb.",
    )
    parser.add_argument("--version", action="version", version=f"evidence-gate {__version__}")
    verbs = parser.add_subparsers(dest="verb", metavar="VERB", required=True)

    def verb(name: str, help_text: str, epilog: str, handler: Handler) -> argparse.ArgumentParser:
        sub = verbs.add_parser(name, help=help_text, description=help_text, epilog=epilog)
        sub.add_argument("--json", action="store_true", help="machine-readable output")
        sub.add_argument("--adapters", type=Path, help="use this adapter table instead of the built-in one")
        sub.set_defaults(handler=handler)
        return sub

    detect_parser = verb(
        "detect",
        "which toolchains (stacks) a repository uses, and their build/test commands",
        "Exit codes: 0 detected (an unrecognised tree is the 'unknown' stack, not an error); "
        "2 usage error (no such directory, bad adapter table); 3 detected, but part of the tree or "
        "a manifest could not be read, so the result may be incomplete (warnings on stderr).",
        run_detect,
    )
    detect_parser.add_argument("path", nargs="?", default=".", help="the repository (default: .)")

    changes_parser = verb(
        "changes",
        "what a change touched: files, their status and kind, and the added/removed lines",
        "The change is merge-base(BASE, HEAD)..HEAD, as GitHub shows a pull request. "
        "Exit codes: 0 ok; 2 usage error (not a git repository, a base or head that cannot be resolved, "
        "with the fetch command that fixes it).",
        run_changes,
    )
    changes_parser.add_argument("--base", required=True, help="the base revision (e.g. origin/main)")
    changes_parser.add_argument(
        "--head",
        default="HEAD",
        help=f"the head revision, or '{WORKTREE}' for uncommitted changes (default: HEAD)",
    )
    changes_parser.add_argument("--repo", default=".", help="the repository (default: .)")
    return parser


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    stream = out or sys.stdout
    for standard in (sys.stdout, sys.stderr):
        if isinstance(standard, io.TextIOWrapper):
            standard.reconfigure(errors="backslashreplace")
    args = build_parser().parse_args(argv)
    handler: Handler = args.handler
    try:
        return handler(args, stream)
    except EvidenceGateError as error:
        print(f"evidence-gate: error: {error.one_line()}", file=sys.stderr)
        return error.exit_code
    except KeyboardInterrupt:
        return 130
    except Exception as error:  # the last line of defence: a one-line report, never a traceback
        if os.environ.get("EVIDENCE_GATE_DEBUG"):
            raise
        print(
            f"evidence-gate: internal error: {type(error).__name__}: {' '.join(str(error).split())} "
            "(set EVIDENCE_GATE_DEBUG=1 for the traceback, and please report it)",
            file=sys.stderr,
        )
        return EXIT_USAGE
