"""`evidence-gate detect`: which toolchains a repository uses, and their commands."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any, TextIO

from evidence_gate.console import line_safe
from evidence_gate.errors import EXIT_OK
from evidence_gate.model import Detection
from evidence_gate.stacks.detect import detect
from evidence_gate.verbs.common import print_json, table

EPILOG = (
    "Exit codes: 0 detected (an unrecognised tree is the 'unknown' stack, not an error); 2 usage error "
    "(no such directory, bad adapter table); 3 detected, but part of the tree or a manifest could not be "
    "read, so the result may be incomplete (warnings on stderr)."
)
EXIT_INCOMPLETE = 3


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("path", nargs="?", default=".", help="the repository (default: .)")


def detection_document(detection: Detection) -> dict[str, Any]:
    primary = detection.primary
    return {
        "primary": primary.adapter_id,
        "class": primary.stack_class,
        "language": primary.language,
        "root": primary.root,
        "commands": primary.commands,
        "tools": {name: choice.why for name, choice in primary.tools.items()},  # which evidence chose each
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


def run(args: argparse.Namespace, out: TextIO, environ: Mapping[str, str]) -> int:
    detection = detect(Path(args.path), table(args))
    if args.json:
        print_json(detection_document(detection), out)
    else:
        primary = detection.primary
        out.write(f"primary: {primary.adapter_id} ({primary.stack_class}, {primary.language}) at {primary.root}\n")
        for match in detection.matches:
            out.write(f"  {match.adapter_id:<13} {match.root:<24} {', '.join(match.evidence)}\n")
        for name, command in primary.commands.items():
            out.write(f"  {name}: {command}\n")
        for name, choice in primary.tools.items():
            out.write(f"  {name} chosen by: {line_safe(choice.why)}\n")
    for warning in detection.warnings:
        print(f"evidence-gate: warning: {line_safe(warning)}", file=sys.stderr)
    return EXIT_INCOMPLETE if detection.warnings else EXIT_OK
