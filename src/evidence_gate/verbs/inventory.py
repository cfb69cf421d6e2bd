"""`evidence-gate inventory`: every edit of a change that touches a gate, and the hunks that relax
one, tagged RH-1 to RH-15 (docs/integrity.md). It inventories and tags; it never judges."""

from __future__ import annotations

import argparse
import json
import shlex
from collections.abc import Mapping
from pathlib import Path
from typing import TextIO

from evidence_gate import __version__
from evidence_gate.changes import PathClassifier, collect_changes
from evidence_gate.console import line_safe
from evidence_gate.effects import effects_for
from evidence_gate.errors import EXIT_OK, EXIT_USAGE, GitError
from evidence_gate.event import load_context
from evidence_gate.integrity.idioms import default_idioms
from evidence_gate.integrity.report import DEFAULT_READ_CAP, artifact, sarif, text_lines
from evidence_gate.integrity.survey import survey
from evidence_gate.stacks.detect import detect
from evidence_gate.verbs.common import print_json, table
from evidence_gate.workspace import write_private_file, write_user_file

ARTIFACT_NAME = "evidence-gate-inventory.json"
EPILOG = (
    "The first line is GATE_SUMMARY: listed (every gate edit), eligible (hunks that carry a tag or remove "
    "lines), inspected (shown below, at most --read-cap), unread (the rest), tagged counts, unmatched (listed "
    "hunks without a tag), coverage (the languages whose idioms applied), languages_unlisted, candidate (a "
    "fingerprint of base, head and diff) and artifact (the JSON with every hunk's text). Then one line per hunk "
    "read. Exit codes: 0 inventoried (tags are for review: the gate decides); 2 usage error, or "
    "GATE_ERROR=no_base when the base cannot be resolved, with the fetch that fixes it."
)


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--base", help="the base revision (default: the pull request's base)")
    parser.add_argument("--head", default="HEAD", help="the head revision (default: HEAD)")
    parser.add_argument("--repo", default=".", help="the repository (default: .)")
    parser.add_argument(
        "--read-cap", type=int, default=DEFAULT_READ_CAP, help=f"hunks shown at most (default {DEFAULT_READ_CAP})"
    )
    parser.add_argument(
        "--artifact",
        metavar="F",
        help="where to write the JSON artifact (default: a new folder of its own in the temp folder)",
    )
    parser.add_argument("--sarif", metavar="F", help="also write the tags as SARIF 2.1.0, for code scanning")


def run(args: argparse.Namespace, out: TextIO, environ: Mapping[str, str]) -> int:
    effects = effects_for(Path(args.repo), environ)
    git = effects.checkout()
    context = load_context(environ)
    pull = context.pull_request if context else None
    base = args.base or (pull.base_sha if pull else None)
    if base is None:
        out.write("GATE_ERROR=no_base ref=none fix=" + shlex.quote("evidence-gate inventory --base origin/main") + "\n")
        return EXIT_USAGE
    try:
        git.resolve_commit(base, "base")
    except GitError:
        fix = "git fetch --no-tags --unshallow origin" if git.is_shallow() else f"git fetch --no-tags origin {base}"
        out.write(f"GATE_ERROR=no_base ref={line_safe(shlex.quote(base))} fix={line_safe(shlex.quote(fix))}\n")
        return EXIT_USAGE
    adapters = table(args)
    classifier = PathClassifier(table=adapters, matches=detect(git.top, adapters).matches)
    change = collect_changes(git, base, args.head, classifier)
    found = survey(git, change, default_idioms(), max(0, args.read_cap))
    document = artifact(found.inventory, found.summary)
    document["frozen"] = {"failures": list(found.frozen.failures)}
    text = json.dumps(document, indent=2, ensure_ascii=True) + "\n"
    if args.artifact:
        path = write_user_file(Path(args.artifact), text)
    else:  # a folder of its own under RUNNER_TEMP (else the system's temp folder): no planted link is followed
        path = write_private_file(
            ARTIFACT_NAME, text, Path(environ["RUNNER_TEMP"]) if environ.get("RUNNER_TEMP") else None
        )
    if args.sarif:
        write_user_file(Path(args.sarif), json.dumps(sarif(found.inventory, __version__), indent=2) + "\n")
    if args.json:
        print_json(document, out)
    else:
        out.writelines(line + "\n" for line in text_lines(found.inventory, found.summary, str(path)))
        out.writelines(f"FAIL {line_safe(failure)}\n" for failure in found.frozen.failures)
    return EXIT_OK
