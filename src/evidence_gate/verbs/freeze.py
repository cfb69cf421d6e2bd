"""`evidence-gate freeze`: prove test files red at HEAD, then freeze them (integrity/frozen.py).

Each file runs alone, through its stack's per-file command (`test_file`). It must fail on an
assertion: a file that cannot load (the stack's `load_error` markers, or no count read) is
unjudged, and a file whose tests pass is not red; either refuses the whole freeze, with the reason,
and nothing is written. With `--story`, a criterion whose tag stands in the files but on no failing
test is parked in the record, with why: it is not proven red.
"""

from __future__ import annotations

import argparse
import re
import tempfile
from collections.abc import Mapping
from pathlib import Path, PurePosixPath
from typing import TextIO

from evidence_gate.effects import Effects, effects_for
from evidence_gate.errors import EXIT_CHECK_FAILED, EXIT_OK, UsageError
from evidence_gate.gates.criteria import check_story
from evidence_gate.integrity.frozen import RECORD, FrozenRecord, Parked, record_json
from evidence_gate.markers import Claim, MarkerKind, markers_for, scan_log
from evidence_gate.stacks.detect import command_for, detect
from evidence_gate.stacks.table import Adapter, AdapterTable
from evidence_gate.summary.read import candidate_parsers, read_source
from evidence_gate.verbs.common import print_json, table

NAME = "freeze"
HELP = "prove test files red at HEAD and freeze them, so no later change edits them to reach green"
EPILOG = (
    f"Writes {RECORD} (commit it). From then on a change to a frozen file fails the gate-integrity gate (RH-14). "
    "Exit codes: 0 frozen; 1 a file is not red (its tests pass) or unjudged (it did not load), nothing written; "
    "2 usage error."
)
TIMEOUT_SECONDS = 1800.0


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("tests", nargs="+", metavar="TEST_PATH", help="test files, relative to the repository")
    parser.add_argument("--story", help="the story id of [story#n] tags: criteria not proven red are parked")
    parser.add_argument("--stack", help="the stack id, instead of the detected one")
    parser.add_argument("--repo", default=".", help="the repository (default: .)")
    parser.add_argument("--timeout", type=float, default=TIMEOUT_SECONDS, help="seconds per file (default 1800)")


def run(args: argparse.Namespace, out: TextIO, environ: Mapping[str, str]) -> int:
    effects = effects_for(Path(args.repo), environ)
    git = effects.checkout()
    story = check_story(args.story) if args.story else None
    adapters = table(args)
    adapter = adapters.get(args.stack) if args.stack else adapters.get(detect(git.top, adapters).primary.adapter_id)
    paths = [_relative(effects, name) for name in args.tests]
    refused: list[str] = []
    failed_names: list[str] = []
    with tempfile.TemporaryDirectory(prefix="evidence-gate-freeze-") as scratch:
        for number, path in enumerate(paths):
            log = Path(scratch) / f"file-{number}.log"
            verdict, names = _judge_file(effects, adapter, adapters, path, log, args.timeout)
            if verdict:
                refused.append(f"{path}: {verdict}")
            failed_names += names
    head = git.resolve_commit("HEAD", "head")
    parked = _parked(effects, story, paths, failed_names) if story else ()
    record = FrozenRecord(frozen=tuple(paths), commit=head, parked=parked)
    if args.json:
        print_json({**record.document(), "frozen": [] if refused else list(paths), "refused": refused}, out)
    else:
        out.writelines(f"not frozen: {line}\n" for line in refused)
    if refused:
        return EXIT_CHECK_FAILED
    effects.workspace.write_text(git.top / RECORD, record_json(record))
    if not args.json:
        out.write(
            f"froze {len(paths)} red test file{'s' if len(paths) != 1 else ''} at {head[:12]}: {git.top / RECORD}\n"
        )
        for item in parked:
            out.write(f"parked {item.criterion}: {item.why}\n")
    return EXIT_OK


def _relative(effects: Effects, name: str) -> str:
    """A test file named on the command line, as the record holds it: relative to the top, posix."""
    path = (Path.cwd() / name).resolve() if not Path(name).is_absolute() else Path(name).resolve()
    top = effects.top.resolve()
    if not path.is_file():
        raise UsageError(f"{name}: no such test file")
    if top not in path.parents:
        raise UsageError(f"{name}: not inside the repository {effects.top}")
    return PurePosixPath(path.relative_to(top).as_posix()).as_posix()


def _judge_file(
    effects: Effects, adapter: Adapter, adapters: AdapterTable, path: str, log: Path, timeout: float
) -> tuple[str | None, list[str]]:
    """None when the file is red (with the failed tests it names), else why not."""
    command = command_for(adapters, adapter.id, "test_file", effects.top, slots={"file": path})
    run = effects.commands(["sh", "-c", command], effects.top, log, timeout)
    summary = read_source(run.output, candidate_parsers(None, adapter.parsers))
    scan = scan_log(run.output, markers_for(adapters, Claim.TEST, (adapter,)))
    if scan.of(MarkerKind.LOAD_ERROR):  # failing to import or collect is not failing on an assertion
        return f"unjudged: it did not load ({scan.of(MarkerKind.LOAD_ERROR)[0].line.strip()[:200]})", []
    if summary.counts is None:
        return f"unjudged: no test count could be read from `{command}` ({summary.reason})", []
    if summary.counts.failed == 0:
        return f"not red: `{command}` ran {summary.counts.executed} tests and none failed", []
    return None, list(summary.failed_tests)


def _parked(effects: Effects, story: str, paths: list[str], failed: list[str]) -> tuple[Parked, ...]:
    """The story's criteria tagged in the frozen files that no failing test carries."""
    tags = re.compile(rf"\[{re.escape(story)}#\d{{1,3}}\]")
    found: dict[str, None] = {}
    for path in paths:
        text = (effects.top / path).read_text(encoding="utf-8", errors="replace")
        found.update(dict.fromkeys(tags.findall(text)))
    return tuple(
        Parked(criterion=tag, why="no failing test carries the tag: it is not proven red")
        for tag in found
        if not any(tag in name for name in failed)
    )
