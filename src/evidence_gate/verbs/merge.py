"""`evidence-gate merge`: the ledgers of several jobs (a test matrix) as one.

This is how the tool scales past one machine: GitHub Actions' matrix runs the shards and uploads
each ledger as an artifact; one job downloads them, merges and publishes. Counts add up, test
identities union, annotations concatenate, the worst gate of each id wins and decides the verdict;
the strength gate's shards add up to one table, judged again. Every shard must name the same head
commit and check name.
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping
from pathlib import Path
from typing import TextIO

from evidence_gate.errors import EXIT_CHECK_FAILED, EXIT_OK
from evidence_gate.ledger.catalog import combine_shards
from evidence_gate.ledger.document import read_ledgers, to_document, write_ledger
from evidence_gate.ledger.model import Verdict, merge
from evidence_gate.verbs.common import existing_file, print_json

EPILOG = (
    "Exit codes: 0 the merged verdict is PASS; 1 BLOCKED or STAGNATION; 2 usage error (a ledger that does not "
    "validate, or ledgers that name different head commits or check names)."
)


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("ledgers", nargs="+", metavar="LEDGER", help="ledger files written with --ledger-out")
    parser.add_argument("-o", "--output", required=True, help="where to write the merged ledger")


def run(args: argparse.Namespace, out: TextIO, environ: Mapping[str, str]) -> int:
    merged = merge(read_ledgers(existing_file(name, environ) for name in args.ledgers), combine_shards)
    write_ledger(merged, Path(args.output))
    if args.json:
        print_json(to_document(merged), out)
    else:
        out.write(f"{merged.verdict}: merged {len(args.ledgers)} ledgers into {args.output}\n")
    return EXIT_OK if merged.verdict is Verdict.PASS else EXIT_CHECK_FAILED
