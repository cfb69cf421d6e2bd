"""Which commit's config file a run uses: in a pull request the base commit's, so that a pull
request cannot configure its own gate; elsewhere (a push, a laptop) none, and the work tree's file
applies as it is (see settings.py)."""

from __future__ import annotations

import functools
import os
from collections.abc import Mapping
from pathlib import Path, PurePosixPath

from evidence_gate.errors import UsageError
from evidence_gate.git import Git
from evidence_gate.pipeline import PullRequest
from evidence_gate.settings import BaseConfig, inputs_from_environment


def base_config(
    repo: Path, pull_request: PullRequest | None, environ: Mapping[str, str], base_flag: str | None
) -> BaseConfig | None:
    """The base commit to read the config file at: `--base`, else the `base` input, else the pull
    request's base; None outside a pull request. Without git there is no reading it: an error,
    never the work tree's file in its place."""
    if pull_request is None:
        return None
    base = base_flag or inputs_from_environment(environ).get("base") or pull_request.base_sha
    git = Git(repo)
    commit = git.resolve_commit(base, "base")
    inside = PurePosixPath(Path(os.path.relpath(repo.resolve(), git.top.resolve())).as_posix())
    return BaseConfig(commit=commit, read=functools.partial(_read, git, commit, inside))


def _read(git: Git, commit: str, inside: PurePosixPath, relative: PurePosixPath) -> bytes | None:
    path = PurePosixPath(os.path.normpath(inside / relative))
    if path.parts[:1] == ("..",):
        raise UsageError(f"{relative}: outside the repository, so it cannot be read at the base commit")
    return git.file_at(commit, path)
