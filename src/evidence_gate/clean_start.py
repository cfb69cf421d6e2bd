"""The runner step's own process holds no token: it starts again without the runner's tokens.

A test can read its parent's environment block (`/proc/<pid>/environ`, readable by the same user),
and that block is the one the process was started with: deleting a name from `os.environ` changes
the process's copy, never the block. So when the runner step finds the runner's own tokens in its
environment (ACTIONS_RUNTIME_TOKEN, the OIDC request pair: a step cannot remove them), it replaces
itself (`execve`, the same interpreter and command line) with the environment every child gets
(child_env.py). The new block has nothing left to drop, so it does not start again; a marker
variable makes that sure whatever the environment holds. POSIX only: Windows has no `execve` that
keeps the process, nor a readable environment block of another process.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping

from evidence_gate.child_env import scrubbed_environment

RESTARTED = "EVIDENCE_GATE_CLEAN_START"


def clean_environment(environ: Mapping[str, str]) -> dict[str, str] | None:
    """The environment to start again with, or None when this one holds nothing to drop (or this
    process is already the restarted one)."""
    if environ.get(RESTARTED):
        return None
    clean = scrubbed_environment(environ)
    if clean == dict(environ):
        return None
    return {**clean, RESTARTED: "1"}


def restart_clean(environ: Mapping[str, str]) -> None:
    """Replace this process with itself under the clean environment, when there is anything to drop.
    Returns only when nothing was (or on a system without `execve` semantics)."""
    clean = clean_environment(environ)
    if clean is None or os.name != "posix":
        return
    sys.stdout.flush()
    sys.stderr.flush()
    os.execve(sys.executable, sys.orig_argv, clean)  # noqa: S606 -- this same program and command line, no shell wanted
