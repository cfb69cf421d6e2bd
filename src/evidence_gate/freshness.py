"""Is a report evidence of this run? A file that git tracks was committed, not produced; a file
older than the start of the run was produced by an earlier one. Either is stale.

The run's start is `--since` when given, else the moment HEAD last moved in this clone (a checkout,
a commit: git's reflog), else the HEAD commit's time. Evidence older than that cannot be about the
code at HEAD.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from pathlib import Path

from evidence_gate.errors import UsageError
from evidence_gate.git import Git

# File times and git's times come from the same clock, but git keeps whole seconds.
TOLERANCE_SECONDS = 1.0
FUTURE_TOLERANCE_SECONDS = 60.0  # a clock and a file system a little apart (a network mount) are not a forgery


def parse_since(text: str) -> float:
    """`--since`: seconds since the epoch, or an ISO 8601 time with its zone."""
    try:
        return float(text)
    except ValueError:
        pass
    try:
        moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError as error:
        raise UsageError(f"--since {text!r}: give seconds since the epoch or an ISO 8601 time") from error
    if moment.tzinfo is None:
        raise UsageError(f"--since {text!r}: give the time zone (e.g. 2026-11-29T10:00:00Z)")
    return moment.timestamp()


def run_started(git: Git | None, since: str | None) -> tuple[float | None, str]:
    """The start of the run, and where that time came from."""
    if since is not None:
        return parse_since(since), "--since"
    if git is None:
        return None, "not in a git repository, so the run's start is unknown"
    moved = git.head_moved_at()
    if moved is not None:
        return moved, "the last checkout or commit of HEAD"
    committed = git.head_committed_at()
    if committed is not None:
        return committed, "the HEAD commit's time"
    return None, "the repository has no commit, so the run's start is unknown"


def stale_reports(
    paths: Sequence[Path],
    started: float | None,
    git: Git | None,
    shown: Mapping[Path, str] | None = None,
    now: float | None = None,
) -> tuple[str, ...]:
    """One line per stale report, naming the file (as `shown` names it) and why."""
    return tuple(stale_by_report(paths, started, git, shown, now).values())


def stale_by_report(
    paths: Sequence[Path],
    started: float | None,
    git: Git | None,
    shown: Mapping[Path, str] | None = None,
    now: float | None = None,
) -> dict[Path, str]:
    """Each stale report, in order, with its line naming the file (as `shown` names it) and why.
    Only the checkout `git` holds is asked which reports it tracks, in one batch; a report outside
    it is judged by its time alone. A report dated after `now` (the clock's time) was not written by
    this run either: a file's time is set at will (`touch -d`), and a future one would pass any
    "written after" test."""
    where = {path: _in_checkout(path, git.top) for path in paths} if git else {}
    tracked = git.tracked(place for places in where.values() for place in places) if git else set()
    stale: dict[Path, str] = {}
    for path in paths:
        name = (shown or {}).get(path, str(path))
        if any(place in tracked for place in where.get(path, ())):
            stale[path] = f"{name} is committed to git, not produced by this run"
            continue
        written_at = path.stat().st_mtime
        written = datetime.fromtimestamp(written_at).astimezone().isoformat(timespec="seconds")
        if now is not None and written_at > now + FUTURE_TOLERANCE_SECONDS:
            stale[path] = f"{name} is dated {written}, in the future: its time was set, not written by this run"
        elif started is not None and written_at < started - TOLERANCE_SECONDS:
            stale[path] = f"{name} was written at {written}, before this run started"
    return stale


def _in_checkout(path: Path, top: Path) -> tuple[Path, ...]:
    """Where `path` is relative to the top: as named (a committed symlink is itself tracked) and as
    resolved (a symlink to a committed file); either being tracked makes the report committed."""
    root = top.resolve()
    places = []
    for candidate in (path.absolute().parent.resolve() / path.name, path.resolve()):
        if candidate.is_relative_to(root):
            places.append(candidate.relative_to(root))
    return tuple(places)
