"""The command line: one sub-command per verb (see verbs/), `--json` on each, documented exit codes.

Exit codes shared by every verb: 0 ok, 1 the check failed, 2 usage or configuration error.
Codes 3 and 4 are defined per verb (see each verb's help).
"""

from __future__ import annotations

import argparse
import importlib
import io
import os
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TextIO

from evidence_gate import __version__
from evidence_gate.clean_start import restart_clean
from evidence_gate.console import commands_stopped, in_actions, line_safe, mask_secrets
from evidence_gate.errors import EXIT_USAGE, EvidenceGateError, UsageError
from evidence_gate.scrub import run_secrets
from evidence_gate.token_guard import refusal as refusal_for
from evidence_gate.token_guard import tokens_in_environment
from evidence_gate.verbs import VERBS


def build_parser(verb: str | None = None) -> argparse.ArgumentParser:
    """The parser, with every verb listed and `verb`'s flags added (every verb's, when None). A verb's
    module is imported only here, when its flags are needed: `--version` and `--help` import none."""
    parser = argparse.ArgumentParser(
        prog="evidence-gate",
        description="Decides whether a pull request's test evidence is real.",
        epilog="Exit codes: 0 ok, 1 the check failed, 2 usage or configuration error; 3 and 4 per verb.",
    )
    parser.add_argument("--version", action="version", version=f"evidence-gate {__version__}")
    subparsers = parser.add_subparsers(dest="verb", metavar="VERB", required=True)
    for name, help_text in VERBS.items():
        if verb is not None and name != verb:
            subparsers.add_parser(name, help=help_text, add_help=False)
            continue
        module = importlib.import_module(f"evidence_gate.verbs.{name}")
        sub = subparsers.add_parser(name, help=help_text, description=help_text, epilog=module.EPILOG)
        sub.add_argument("--json", action="store_true", help="machine-readable output")
        sub.add_argument("--adapters", type=Path, help="use this adapter table instead of the built-in one")
        module.configure(sub)
        sub.set_defaults(run=module.run, line_safe=getattr(module, "LINE_SAFE", False))
    return parser


def chosen_verb(argv: Sequence[str]) -> str | None:
    """The verb the arguments name: the first one that is not an option (the top level has no option
    that takes a value). None when there is none, or it is no verb: argparse then says so."""
    first = next((argument for argument in argv if not argument.startswith("-")), None)
    return first if first in VERBS else None


def main(argv: Sequence[str] | None = None, out: TextIO | None = None, environ: Mapping[str, str] | None = None) -> int:
    """The command line. `environ` defaults to this process's environment: the one place the
    command line reads it, and every verb gets it from here."""
    environ = os.environ if environ is None else environ
    stream = out or sys.stdout
    for standard in (sys.stdout, sys.stderr):
        if isinstance(standard, io.TextIOWrapper):
            standard.reconfigure(errors="backslashreplace")
    arguments = sys.argv[1:] if argv is None else argv
    args = build_parser(chosen_verb(arguments) or "").parse_args(arguments)
    # JSON is escaped instead, and so is every line of a verb that prints only line-safe text (LINE_SAFE):
    # its progress can then use workflow commands of its own (a folded group).
    machine_output = args.json or getattr(args, "format", None) == "json" or args.line_safe
    try:
        if getattr(args, "runner_step", False):
            _start_runner_step(environ, restart=argv is None)
    except EvidenceGateError as error:
        print(f"evidence-gate: error: {line_safe(error.one_line())}", file=sys.stderr)
        return error.exit_code
    if in_actions(environ):
        mask_secrets(sys.stderr, run_secrets(environ))
    try:
        with commands_stopped(stream, enabled=in_actions(environ) and not machine_output):
            exit_code: int = args.run(args, stream, environ)
    except EvidenceGateError as error:
        print(f"evidence-gate: error: {line_safe(error.one_line())}", file=sys.stderr)
        return error.exit_code
    except KeyboardInterrupt:
        return 130
    except Exception as error:  # the last line of defence: a one-line report, never a traceback
        if environ.get("EVIDENCE_GATE_DEBUG"):
            raise
        print(
            f"evidence-gate: internal error: {type(error).__name__}: {line_safe(' '.join(str(error).split()))} "
            "(set EVIDENCE_GATE_DEBUG=1 for the traceback, and please report it)",
            file=sys.stderr,
        )
        return EXIT_USAGE
    return exit_code


def _start_runner_step(environ: Mapping[str, str], *, restart: bool) -> None:
    """The runner step refuses a repository token in its environment before anything else, then,
    when this is the process's own command line (not a call from Python), starts again without
    the runner's tokens, so its environment block holds none for a test to read."""
    refusal = refusal_for(tokens_in_environment(environ))
    if refusal is not None:
        raise UsageError(refusal)
    if restart and environ is os.environ:
        restart_clean(environ)
