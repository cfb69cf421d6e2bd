"""`evidence-gate baseline`: what the checks measure at a revision, run in a temporary worktree of
it (the work tree itself for HEAD), written as a baseline file for `quality --baseline F`."""

from __future__ import annotations

import argparse
from collections.abc import Mapping
from pathlib import Path
from typing import TextIO

from evidence_gate.effects import effects_for
from evidence_gate.errors import EXIT_OK
from evidence_gate.ledger.quality_document import baseline_document, baseline_file
from evidence_gate.settings import resolve
from evidence_gate.verbs.common import print_json, table
from evidence_gate.verbs.quality_session import take_baseline
from evidence_gate.workspace import write_user_file

EPILOG = (
    "The file holds {type_check: {exit, errors}, lint: {exit, warnings}, test: {exit, passed, failed, skipped},"
    " coverage: {percent}, timestamp} (null for a tool not detected) and the tests run, by identity and name."
    " Exit codes: 0 written, 2 usage or configuration error."
)


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--repo", default=".", help="the repository (default: .)")
    parser.add_argument("--rev", default="HEAD", help="the revision to measure (default: HEAD)")
    parser.add_argument("--out", required=True, metavar="F", help="the baseline file to write")
    parser.add_argument("--config", type=Path, help="the config file (default: .github/evidence-gate.yml)")


def run(args: argparse.Namespace, out: TextIO, environ: Mapping[str, str]) -> int:
    effects = effects_for(Path(args.repo), environ)
    settings = resolve(effects.repo, {}, environ, args.config)
    commit = effects.checkout().resolve_commit(args.rev, "revision")
    baseline = take_baseline(settings, effects, table(args), commit)
    write_user_file(Path(args.out), baseline_file(baseline))
    if args.json:
        print_json(baseline_document(baseline, tests=False), out)
    else:
        out.write(f"wrote {args.out}: the checks at {commit[:12]}\n")
    return EXIT_OK
