"""Files read and written on a pull request's behalf stay inside the workspace.

Everything in a pull request's checkout is the pull request's: a committed report can be a symlink to
`/proc/self/environ` (the token), to `.git/config` (the checkout's credential header) or to a FIFO
that blocks forever; a committed directory can be a symlink to `/`. So every such path is resolved
before it is touched and refused when it leaves the workspace, lies inside a `.git` directory, or is
not a regular file; the refusal says which, and nothing of the target is read. Files are opened
without following a symlink at the last step and checked again on the open descriptor, so a path
swapped after the check is refused too.

A path the user typed on the command line that lies outside the workspace is the user's own and is
read or written where it is; a path inside the workspace must not lead out of it. So is a `reports`
glob given on the command line or as the action's input (`may_leave`): it may be absolute or climb
with `..`. One from the repository's config file, which a pull request can edit, may not.
"""

from __future__ import annotations

import errno
import os
import re
import stat
import tempfile
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from evidence_gate.errors import EvidenceGateError, UsageError

MAX_MATCHED_FILES = 50_000
_MAGIC = re.compile(r"[*?\[]")
_READ_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC
_WRITE_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOCTTY | os.O_CLOEXEC


class Refused(EvidenceGateError):
    """A path the tool will not read or write; the message names it and says why."""

    def __init__(self, name: str, reason: str) -> None:
        super().__init__(f"{name}: {reason}")
        self.reason = reason


def display(path: Path | str) -> str:
    """A path as text that can be printed, written as UTF-8 and shown on GitHub: bytes that are not
    UTF-8 (kept by the file system as surrogate escapes) become U+FFFD."""
    return os.fsencode(path).decode("utf-8", "replace")


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def open_regular(path: Path, shown: str | None = None) -> BinaryIO:
    """`path` opened for reading, refusing a symlink at its last step and anything but a regular
    file (a FIFO would block, a device never ends). The check is made on the open descriptor."""
    name = shown or display(path)
    try:
        descriptor = os.open(path, _READ_FLAGS)
    except OSError as error:
        if error.errno == errno.ELOOP:  # the last step is a symlink, which O_NOFOLLOW refuses
            raise Refused(name, "a symlink; it is not followed") from error
        raise Refused(name, f"cannot read ({error.strerror or error})") from error
    mode = os.fstat(descriptor).st_mode
    if not stat.S_ISREG(mode):
        os.close(descriptor)
        raise Refused(name, f"{_kind(mode)}, not a regular file; nothing of it was read")
    return os.fdopen(descriptor, "rb")


def is_regular_file(path: Path) -> bool:
    """Whether `path` is a regular file itself: a symlink is not followed, only its name is asked."""
    try:
        return stat.S_ISREG(os.lstat(path).st_mode)
    except OSError:
        return False


READ_PIECE_BYTES = 1024 * 1024


def read_at_most(handle: BinaryIO, size: int) -> bytes:
    """At most `size` bytes of `handle`, read a piece at a time: `handle.read(size)` sets aside all
    `size` bytes before it reads one, so a cap of 256 MiB cost 256 MiB for an empty file."""
    pieces: list[bytes] = []
    left = size
    while left > 0 and (piece := handle.read(min(left, READ_PIECE_BYTES))):
        pieces.append(piece)
        left -= len(piece)
    return b"".join(pieces)


def open_resolved(path: Path) -> BinaryIO:
    """The file `path` names, symlinks followed, opened as `open_regular` does: for readers whose
    caller has already confined the path (`Workspace.check`), so only a regular file is read, and a
    last step swapped for a symlink after the check is refused."""
    return open_regular(Path(os.path.realpath(path)), display(path))


def _inside(path: Path, root: Path) -> bool:
    return path == root or root in path.parents


@dataclass(frozen=True, kw_only=True)
class Workspace:
    """The folder a run may read from (the checkout: GITHUB_WORKSPACE, or the repository) and the
    folders it may also write to (RUNNER_TEMP). Roots are kept resolved."""

    root: Path
    scratch: tuple[Path, ...] = ()

    @classmethod
    def at(cls, root: Path, scratch: tuple[Path, ...] = ()) -> Workspace:
        return cls(root=Path(os.path.realpath(root)), scratch=tuple(Path(os.path.realpath(p)) for p in scratch))

    @classmethod
    def from_environment(cls, repo: Path, environ: Mapping[str, str]) -> Workspace:
        """GitHub's workspace when the run is in Actions, else the repository; RUNNER_TEMP (else the
        system's temp folder) as scratch."""
        root = Path(environ.get("GITHUB_WORKSPACE") or repo)
        return cls.at(root, (Path(environ.get("RUNNER_TEMP") or tempfile.gettempdir()),))

    def _roots(self, scratch: bool) -> tuple[Path, ...]:
        return (self.root, *self.scratch) if scratch else (self.root,)

    def refusal(self, path: Path, *, scratch: bool = False) -> str | None:
        """Why `path` must not be touched on a pull request's behalf (without its name), or None. A path that does not
        lie in the workspace as written is the user's own (a command-line argument) and is allowed;
        one that does must stay inside after symlinks are resolved, and out of `.git`."""
        written = Path(os.path.abspath(path))  # noqa: PTH100 - lexical on purpose: resolve() follows the links checked here
        roots = self._roots(scratch)
        if not any(_inside(written, root) or _inside(Path(os.path.realpath(written.parent)), root) for root in roots):
            return None
        resolved = Path(os.path.realpath(written))
        home = next((root for root in roots if _inside(resolved, root)), None)
        if home is None:
            return "a symlink leading outside the workspace; refused, nothing of it was read"
        if ".git" in resolved.relative_to(home).parts:
            return "inside a .git directory; refused, nothing of it was read"
        return None

    def shown(self, path: Path) -> str:
        """`path` as reviewers read it: relative to the workspace when it lies there (no runner's
        absolute path in a comment), else as it is."""
        written = Path(os.path.abspath(path))  # noqa: PTH100 - lexical on purpose: the name, not the target
        return display(written.relative_to(self.root)) if _inside(written, self.root) else display(path)

    def check(self, path: Path, *, scratch: bool = False) -> Path:
        """`path` resolved, or Refused with the reason."""
        reason = self.refusal(path, scratch=scratch)
        if reason:
            raise Refused(self.shown(path), reason)
        return Path(os.path.realpath(path))

    def open(self, path: Path, *, scratch: bool = False) -> BinaryIO:
        """A file read on a pull request's behalf: confined, regular, not through a last-step symlink."""
        return open_regular(self.check(path, scratch=scratch), display(path))

    def read_bytes(self, path: Path, limit: int, *, scratch: bool = False) -> bytes:
        """At most `limit` bytes of a confined file; a larger file is refused, not cut."""
        with self.open(path, scratch=scratch) as handle:
            data = read_at_most(handle, limit + 1)
        if len(data) > limit:
            raise Refused(display(path), f"over {limit:,} bytes; refused")
        return data

    def directory(self, path: Path) -> Path:
        """A folder read on a pull request's behalf (templates-dir): confined and a real directory."""
        resolved = self.check(path)
        if not resolved.is_dir():
            raise Refused(display(path), "not a directory")
        return resolved

    def write_text(self, path: Path, text: str) -> Path:
        """Write an output named by the repository's config or the action's inputs: it must end up
        in the workspace or the scratch folder, outside `.git`, and no symlink is followed at its last
        step (a committed link cannot aim the write at a file of the runner's)."""
        target = Path(os.path.abspath(path))  # noqa: PTH100 - lexical on purpose: resolve() follows the links checked here
        parent = Path(os.path.realpath(target.parent))
        home = next((root for root in self._roots(True) if _inside(parent, root)), None)
        if home is None:
            raise Refused(display(path), "outside the workspace and RUNNER_TEMP; give a path inside the workspace")
        if ".git" in parent.relative_to(home).parts:
            raise Refused(display(path), "inside a .git directory; give another path")
        return _write(parent / target.name, text, display(path), os.O_NOFOLLOW)

    def glob(self, pattern: str, base: Path | None = None, *, may_leave: bool = False) -> list[Path]:
        """The files `pattern` matches below `base` (the root by default), in order. Symlinked directories are never
        entered and `.git` never searched, so a committed link to `/` cannot send the search through
        the machine; a matched symlink is returned, for `check` to refuse or allow. Only a pattern
        that `may_leave` (the user's own) may be absolute or use `..`; where it leads back into the
        workspace, the workspace's refusals hold."""
        parts = _pattern_parts(pattern, may_leave=may_leave)
        literal = list(_literal_prefix(parts))
        start = (base or self.root).joinpath(*literal)
        rest = parts[len(literal) :]
        if not rest:
            return [start] if os.path.lexists(start) else []
        reason = self.refusal(start) if os.path.lexists(start) else None
        if reason:
            raise Refused(display(start), reason)
        if not start.is_dir():
            return []
        matcher = re.compile(_translate(rest))
        depth = None if "**" in rest else len(rest)
        found: list[Path] = []
        for path in _walk(start, depth):
            if matcher.fullmatch(path.relative_to(start).as_posix()):
                found.append(path)
                if len(found) > MAX_MATCHED_FILES:
                    raise Refused("reports", f"{pattern!r} matches more than {MAX_MATCHED_FILES:,} files")
        return sorted(found)


def write_user_file(path: Path, text: str) -> Path:
    """Write an output the user named on the command line: wherever it is, but never over a folder."""
    return _write(path, text, display(path), 0)


def write_private_file(name: str, text: str, parent: Path | None = None) -> Path:
    """Write an output nobody named (a default artifact) into a new folder of its own, readable by
    this user only, made under `parent` (RUNNER_TEMP; else the system's temp folder). A fixed name
    in a shared temp folder is a name another user can plant a symlink or a file at first; a folder
    made afresh holds nothing planted, and the file is created new, no symlink followed."""
    folder = Path(tempfile.mkdtemp(prefix="evidence-gate-", dir=parent))
    return _write(folder / name, text, display(folder / name), os.O_NOFOLLOW | os.O_EXCL)


def _write(target: Path, text: str, shown: str, extra_flags: int) -> Path:
    if target.is_dir():
        raise UsageError(f"{shown}: a directory; give a file name")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        descriptor = os.open(target, _WRITE_FLAGS | extra_flags, 0o644)
    except OSError as error:
        if error.errno == errno.ELOOP:
            raise Refused(shown, "a symlink; outputs are never written through one") from error
        raise UsageError(f"{shown}: cannot write ({error.strerror or error})") from error
    with os.fdopen(descriptor, "w", encoding="utf-8", errors="replace") as handle:
        handle.write(text)
    return target


def _pattern_parts(pattern: str, *, may_leave: bool) -> list[str]:
    """A glob's path components, the first `/` for an absolute one. A glob that may not leave the
    repository (the config file's) is refused when absolute or using `..`."""
    text = pattern.strip()
    parts = [part for part in text.split("/") if part not in ("", ".")]
    absolute = text.startswith("/") or Path(text).is_absolute()
    if not parts:
        raise UsageError(f"reports: {pattern!r}: give a glob naming files")
    if not may_leave and (absolute or ".." in parts):
        raise UsageError(
            f"reports: {pattern!r}: a glob in the config file must stay inside the repository "
            "(no absolute path, no '..'); the command line and the action's input may name other files"
        )
    first_wildcard = next((index for index, part in enumerate(parts) if _MAGIC.search(part)), len(parts))
    if ".." in parts[first_wildcard:]:
        raise UsageError(f"reports: {pattern!r}: '..' may only come before the first wildcard")
    for part in parts:
        if "**" in part and part != "**":
            raise UsageError(f"reports: {pattern!r}: '**' must be a whole path component, as in 'build/**/*.xml'")
    return ["/", *parts] if absolute else parts


def _literal_prefix(parts: list[str]) -> Iterator[str]:
    for part in parts:
        if _MAGIC.search(part):
            return
        yield part


def _translate(parts: list[str]) -> str:
    """A glob below the walk's start as a regex over `/`-separated relative paths: `*` and `?` stay
    within a component, `**` spans any number of directories (none included)."""
    pieces: list[str] = []
    for index, part in enumerate(parts):
        last = index == len(parts) - 1
        if part == "**":
            pieces.append(".*" if last else "(?:[^/]+/)*")
            continue
        pieces.append(_component(part) + ("" if last else "/"))
    return "".join(pieces)


def _component(part: str) -> str:
    out: list[str] = []
    index = 0
    while index < len(part):
        char = part[index]
        if char == "*":
            out.append("[^/]*")
        elif char == "?":
            out.append("[^/]")
        elif char == "[" and (close := part.find("]", index + 2)) != -1:
            body = part[index + 1 : close]
            negate = body[:1] in ("!", "^")
            body = body[1:] if negate else body
            out.append("[" + ("^" if negate else "") + body.replace("\\", "\\\\").replace("/", "") + "]")
            index = close
        else:
            out.append(re.escape(char))
        index += 1
    return "".join(out)


def _walk(start: Path, depth: int | None) -> Iterator[Path]:
    """Files (and symlinks of any kind) below `start`, not entering symlinked directories or `.git`,
    and not deeper than `depth` components when given."""
    for folder, directories, files in os.walk(start, followlinks=False, onerror=None):
        here = Path(folder)
        level = 0 if here == start else len(here.relative_to(start).parts)
        linked = [name for name in directories if (here / name).is_symlink()]
        directories[:] = [
            name
            for name in directories
            if name != ".git" and name not in linked and (depth is None or level + 1 < depth)
        ]
        for name in (*files, *linked):
            if depth is None or level + 1 == depth:
                yield here / name
