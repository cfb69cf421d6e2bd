"""`evidence-gate changes`: what a change touched, as the diff model every check shares."""

from __future__ import annotations

import argparse
from collections.abc import Mapping
from dataclasses import asdict
from pathlib import Path
from typing import Any, TextIO

from evidence_gate.changes import PathClassifier, collect_changes
from evidence_gate.console import printable
from evidence_gate.effects import effects_for
from evidence_gate.errors import EXIT_OK
from evidence_gate.git import WORKTREE
from evidence_gate.model import Change, FileKind
from evidence_gate.stacks.detect import detect
from evidence_gate.verbs.common import print_json, table

EPILOG = (
    "The change is merge-base(BASE, HEAD)..HEAD, as GitHub shows a pull request. Exit codes: 0 ok; 2 usage "
    "error (not a git repository, a base or head that cannot be resolved, with the fetch command that fixes it)."
)


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--base", required=True, help="the base revision (e.g. origin/main)")
    parser.add_argument(
        "--head", default="HEAD", help=f"the head revision, or '{WORKTREE}' for uncommitted changes (default: HEAD)"
    )
    parser.add_argument("--repo", default=".", help="the repository (default: .)")


def change_document(change: Change) -> dict[str, Any]:
    document = asdict(change)
    for changed in document["files"]:
        changed["status"] = str(changed["status"])
        changed["kind"] = str(changed["kind"])
        inline = changed["inline_tests"]
        if inline is not None:  # the line numbers in a file's own tests, in order
            changed["inline_tests"] = {side: sorted(numbers) for side, numbers in inline.items()}
    return document


def run(args: argparse.Namespace, out: TextIO, environ: Mapping[str, str]) -> int:
    git = effects_for(Path(args.repo), environ).checkout()
    adapters = table(args)
    detection = detect(git.top, adapters)
    change = collect_changes(git, args.base, args.head, PathClassifier(table=adapters, matches=detection.matches))
    if args.json:
        print_json(change_document(change), out)
        return EXIT_OK
    out.write(f"{change.merge_base[:12]}..{change.head[:12]}: {len(change.files)} files changed\n")
    for changed in change.files:
        added, removed = changed.added_count, changed.removed_count
        origin = f" (from {printable(changed.old_path)})" if changed.old_path else ""
        counts = "binary" if changed.binary else f"+{added} -{removed}"
        tests = " (its own tests changed too)" if changed.inline_tests and changed.kind is not FileKind.TEST else ""
        out.write(f"  {changed.status:<11} {changed.kind:<11} {counts:<11} {printable(changed.path)}{origin}{tests}\n")
    return EXIT_OK
