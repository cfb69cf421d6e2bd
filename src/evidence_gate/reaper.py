"""Every process a test starts ends with the step, daemons included.

`runner.run_command` starts each command as the leader of a session of its own and kills that
process group when the command ends. A daemon escapes it the usual way: fork, `setsid` (a session
and group of its own), fork again and `chdir /`; its parent exits and the kernel hands it to the
nearest subreaper, or to init. Inside `reaping()` (the runner step), this process is a child
subreaper (Linux's `PR_SET_CHILD_SUBREAPER`), so every such orphan becomes its child, and a sweep
kills them.

What a sweep kills, and why it cannot hit what it must not: the descendants of this process (its
children's children, found through /proc's parent links) reached through processes in another
session than its own that were not there when reaping began. Processes in this process's own
session are the ones it started without a session of their own (git, in another thread of a
strength run), and they are left with all they started; everything a command starts is in the
command's session or in one it made, since no process can move into a session it did not create,
and an orphan becomes this process's own child, never one of git's. A sweep runs only while no
command is running (the strength run's threads run commands side by side: a daemon of a command
still running is that command's, and may be in use), so after each command when it was the only
one, and once at the end of `reaping()`. Starting a command and a sweep hold one lock, so a sweep
never meets a command half started.

A process is signalled through a pidfd opened before checking it is still the one seen (its start
time), so a pid reused in between is never hit. A killed child of this process is waited for, so no
zombie is left; other children (a git call's) are never waited for here, since their owner reads
their exit status. Elsewhere than Linux there is no subreaper and no /proc: `reaping()` does
nothing, and killing the process group is all there is.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol, TypeVar

PR_SET_CHILD_SUBREAPER = 36
PR_GET_CHILD_SUBREAPER = 37
SWEEP_SECONDS = 10.0  # a sweep repeats until a round finds nothing (a process may fork while it is killed)
REAP_SECONDS = 1.0  # how long a killed child is waited for before the sweep reads /proc again
_PROC = Path("/proc")


class _Started(Protocol):
    @property
    def pid(self) -> int: ...


P = TypeVar("P", bound=_Started)


@dataclass(frozen=True)
class _Process:
    pid: int
    parent: int
    session: int
    started: int  # clock ticks after boot: with the pid, names one process for good
    zombie: bool


class _Reaper:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.active = False
        self.running: set[int] = set()  # the leaders of the commands running now
        self.spared: frozenset[tuple[int, int]] = frozenset()  # (pid, start time) there before reaping


_STATE = _Reaper()


@contextlib.contextmanager
def reaping() -> Iterator[bool]:
    """Within it, orphans become this process's children and every process the commands started
    is killed when the last running command ends, and on the way out. Yields whether it is in
    effect (Linux only)."""
    if not sys.platform.startswith("linux"):
        yield False
        return
    was = _subreaper(None)
    _subreaper(1)
    with _STATE.lock:
        _STATE.active = True
        _STATE.spared = frozenset((item.pid, item.started) for item in _descendants(_table()))
    try:
        yield True
    finally:
        with _STATE.lock:
            _sweep()
            _STATE.active = False
        _subreaper(was)


def launch(start: Callable[[], P]) -> P:
    """Start a command (`start` makes it the leader of a session of its own) and count it as
    running until `ended` is called with its pid."""
    with _STATE.lock:
        started = start()
        _STATE.running.add(started.pid)
        return started


def ended(leader: int) -> None:
    """The command led by `leader` is over and its group killed: when no other command is running,
    kill what any command left behind."""
    with _STATE.lock:
        _STATE.running.discard(leader)
        if _STATE.active and not _STATE.running:
            _sweep()


def _sweep() -> None:
    """Kill, and wait for, the descendants outside this session that reaping did not find (the lock is held)."""
    session = os.getsid(0)
    deadline = time.monotonic() + SWEEP_SECONDS
    while time.monotonic() < deadline:  # a process stuck in the kernel is left after that, not waited on forever
        targets = _descendants(
            _table(), lambda item: item.session != session and (item.pid, item.started) not in _STATE.spared
        )
        if not targets:
            return
        for item in targets:
            if not item.zombie:
                _kill(item)
        _wait_for([item.pid for item in targets if item.parent == os.getpid()])
        time.sleep(0.01)  # a zombie whose parent was killed reaches this process in a moment


def _table() -> dict[int, _Process]:
    table = {}
    with contextlib.suppress(OSError):
        for entry in _PROC.iterdir():
            if entry.name.isdigit():
                found = _read(int(entry.name))
                if found is not None:
                    table[found.pid] = found
    return table


def _read(pid: int) -> _Process | None:
    try:
        stat = (_PROC / str(pid) / "stat").read_bytes()
    except OSError:
        return None
    # `pid (comm) state ppid pgrp session ... starttime`: the name may hold spaces and parentheses.
    fields = stat[stat.rindex(b")") + 2 :].split()
    return _Process(
        pid=pid, parent=int(fields[1]), session=int(fields[3]), started=int(fields[19]), zombie=fields[0] == b"Z"
    )


def _descendants(table: dict[int, _Process], keep: Callable[[_Process], bool] = lambda item: True) -> list[_Process]:
    """This process's descendants that `keep` keeps, and theirs: a process it leaves out is left
    out with everything below it."""
    children: dict[int, list[_Process]] = {}
    for item in table.values():
        children.setdefault(item.parent, []).append(item)
    found, queue = [], [os.getpid()]
    while queue:
        for child in children.get(queue.pop(), []):
            if keep(child):
                found.append(child)
                queue.append(child.pid)
    return found


def _kill(item: _Process) -> None:
    """SIGKILL `item` if it is still the process seen: through a pidfd opened before checking."""
    try:
        pidfd = os.pidfd_open(item.pid)
    except OSError:  # gone, or a kernel without pidfds: signal by pid after the check
        pidfd = None
    try:
        again = _read(item.pid)
        if again is None or again.started != item.started:
            return
        with contextlib.suppress(OSError):
            if pidfd is None:
                os.kill(item.pid, signal.SIGKILL)
            else:
                signal.pidfd_send_signal(pidfd, signal.SIGKILL)
    finally:
        if pidfd is not None:
            os.close(pidfd)


def _wait_for(children: list[int]) -> None:
    deadline = time.monotonic() + REAP_SECONDS
    waiting = set(children)
    while waiting and time.monotonic() < deadline:
        for pid in list(waiting):
            try:
                done, _ = os.waitpid(pid, os.WNOHANG)
            except ChildProcessError:
                done = pid
            if done == pid:
                waiting.discard(pid)
        if waiting:
            time.sleep(0.01)


def _subreaper(value: int | None) -> int:
    """Set this process's child-subreaper flag to `value` (None: only read it); its value before."""
    libc = ctypes.CDLL(None, use_errno=True)
    flag = ctypes.c_int(0)
    libc.prctl(PR_GET_CHILD_SUBREAPER, ctypes.byref(flag), 0, 0, 0)
    if value is not None and libc.prctl(PR_SET_CHILD_SUBREAPER, value, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_CHILD_SUBREAPER) failed")
    return flag.value
