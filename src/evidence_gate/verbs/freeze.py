"""`evidence-gate freeze`: prove test files red at HEAD, then freeze them (integrity/frozen.py).

Each file runs alone, through its stack's per-file command (`test_file`). It must fail on an
assertion, or not load yet: a file that fails to load (the stack's `load_error` markers) on names that
no file of the project but its tests and docs holds (the runtime-error table's `missing` patterns:
`cannot import name 'refund'`, `undefined: Refund`) is red, of the kind "does not load yet". A file
that cannot load for another reason (a syntax error, a missing dependency: a name the project's code
or manifest holds), or whose count cannot be read, is unjudged, and a file whose tests pass is not
red; either refuses the whole freeze, with the reason, and nothing is written. With `--story`, a
criterion whose tag stands in the files but on no failing test is parked in the record, with why: it
is not proven red.
"""

from __future__ import annotations

import argparse
import re
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import TextIO

from evidence_gate.changes import PathClassifier
from evidence_gate.effects import Effects, effects_for
from evidence_gate.errors import EXIT_CHECK_FAILED, EXIT_OK, UsageError
from evidence_gate.gates.criteria import check_story
from evidence_gate.integrity.frozen import NOT_LOADING_YET, RECORD, FrozenRecord, Parked, record_json
from evidence_gate.markers import Claim, MarkerKind, markers_for, scan_log
from evidence_gate.model import FileKind
from evidence_gate.runner import CommandRun
from evidence_gate.stacks.detect import command_for, detect
from evidence_gate.stacks.table import Adapter, AdapterTable
from evidence_gate.strength.evidence import errors_for, why_not_loaded
from evidence_gate.strength.units import unit_for
from evidence_gate.summary.read import candidate_parsers, read_source
from evidence_gate.verbs.common import print_json, table
from evidence_gate.workspace import open_resolved, read_at_most

EPILOG = (
    f"Writes {RECORD} (commit it). From then on a change to a frozen file fails the gate-integrity gate (RH-14). "
    "A file that does not load yet, on a name no file but the tests and docs holds, is red too. "
    "Exit codes: 0 frozen; 1 a file is not red (its tests pass) or unjudged (it did not load for another reason),"
    " nothing written; "
    "2 usage error."
)
TIMEOUT_SECONDS = 1800.0
MAX_TEST_BYTES = 1024 * 1024  # of a test file, read for the names of the tests it defines
# Where a name may stand without being written: the tests that call it, and the docs that describe it.
NOT_WRITTEN_IN = frozenset({FileKind.TEST, FileKind.TEST_HELPER, FileKind.TEST_DATA, FileKind.SNAPSHOT, FileKind.DOCS})


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
    detection = detect(git.top, adapters)
    adapter = adapters.get(args.stack) if args.stack else adapters.get(detection.primary.adapter_id)
    paths = [_relative(effects, name) for name in args.tests]
    kinds = PathClassifier(table=adapters, matches=detection.matches)
    refused: list[str] = []
    failed_names: list[str] = []
    not_loading: dict[str, str] = {}
    with tempfile.TemporaryDirectory(prefix="evidence-gate-freeze-") as scratch:
        for number, path in enumerate(paths):
            log = Path(scratch) / f"file-{number}.log"
            run = _judge_file(effects, adapter, adapters, path, log, args.timeout)
            judged = _not_written(effects, kinds, set(paths), run) if isinstance(run, _NotLoading) else run
            if isinstance(judged, str):
                refused.append(f"{path}: {judged}")
            elif isinstance(judged, _Unwritten):
                not_loading[path] = judged.why
            else:
                failed_names += judged
    head = git.resolve_commit("HEAD", "head")
    # a file that does not load yet carries its tags as red, as the tests in it are not written to run
    loaded = [path for path in paths if path not in not_loading]
    parked = _parked(effects, story, loaded, failed_names) if story else ()
    record = FrozenRecord(
        frozen=tuple(paths), commit=head, parked=parked, kinds=dict.fromkeys(not_loading, NOT_LOADING_YET)
    )
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
        for path, why in not_loading.items():
            out.write(f"{path}: red: {NOT_LOADING_YET}: {why}\n")
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


@dataclass(frozen=True, kw_only=True)
class _NotLoading:
    """A file that did not load: why (the line that says so) and the names the run found missing."""

    why: str
    names: tuple[str, ...]


@dataclass(frozen=True, kw_only=True)
class _Unwritten:
    """A file red because it does not load yet: it imports names no file of the project writes."""

    why: str


def _judge_file(
    effects: Effects, adapter: Adapter, adapters: AdapterTable, path: str, log: Path, timeout: float
) -> str | list[str] | _NotLoading:
    """The failed tests it names when the file is red; what the run found when it did not load; else
    why it is not red."""
    with open_resolved(effects.top / path) as handle:  # `_relative` confined it to the repository
        text = read_at_most(handle, MAX_TEST_BYTES).decode("utf-8", "replace")
    inline = adapter.inline_tests
    unit = unit_for(path, adapter.id, adapter.language, text, inline.functions if inline is not None else ())
    if unit.problem is not None:
        return f"unjudged: no unit runs this file's tests alone ({unit.problem})"
    command = command_for(adapters, adapter.id, unit.command, effects.top, slots=unit.slots)
    run = effects.commands(["sh", "-c", command], effects.top, log, timeout)
    summary = read_source(run.output, candidate_parsers(None, adapter.parsers))
    scan = scan_log(run.output, markers_for(adapters, Claim.TEST, (adapter,)))
    loads = scan.of(MarkerKind.LOAD_ERROR)
    if loads:  # failing to import or collect is not failing on an assertion: red only if it does not load *yet*
        return _not_loading(run, adapter, loads[0].line)
    if summary.counts is None:
        return f"unjudged: no test count could be read from `{command}` ({summary.reason})"
    if summary.counts.failed == 0:
        return f"not red: `{command}` ran {summary.counts.executed} tests and none failed"
    return list(summary.failed_tests)


def _not_loading(run: CommandRun, adapter: Adapter, marker_line: str) -> _NotLoading:
    line, names = why_not_loaded(run.output, errors_for(adapter.language))
    return _NotLoading(why=(line or marker_line.strip())[:200], names=names)


def _not_written(effects: Effects, kinds: PathClassifier, frozen: set[str], found: _NotLoading) -> str | _Unwritten:
    """Red when a name the run found missing stands in no file of the project but the tests and docs
    (and the files being frozen): the change has still to write it. Else why the file is unjudged."""
    refused = f"unjudged: it did not load ({found.why})"
    git = effects.checkout()
    for name in found.names:
        holders = [
            path for path in git.files_naming(name) if path not in frozen and kinds.kind(path) not in NOT_WRITTEN_IN
        ]
        if not holders:
            return _Unwritten(why=f"`{name}` is not written ({found.why})")
        refused += (
            f"; `{name}` is named by {holders[0]}, so it exists: a missing dependency or another error,"
            " not a name still to write"
        )
    return refused


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
