"""Which commit's config file a run uses: in a pull request the base commit's, so that a pull
request cannot configure its own gate; elsewhere (a push, a laptop) none, and the work tree's file
applies as it is (see settings.py)."""

from __future__ import annotations

import functools
import os
from dataclasses import replace
from pathlib import Path, PurePosixPath

from evidence_gate.effects import Effects
from evidence_gate.errors import UsageError
from evidence_gate.git import Git
from evidence_gate.model import PullRequest
from evidence_gate.render.environment import TEMPLATE_FOLDERS, TEMPLATE_NAME
from evidence_gate.settings import BaseConfig, Settings, inputs_from_environment
from evidence_gate.workspace import Workspace


def base_config(effects: Effects, pull_request: PullRequest | None, base_flag: str | None) -> BaseConfig | None:
    """The base commit to read the config file at: `--base`, else the `base` input, else the pull
    request's base; None outside a pull request. Without git there is no reading it: an error,
    never the work tree's file in its place."""
    if pull_request is None:
        return None
    base = base_flag or inputs_from_environment(effects.environ).get("base") or pull_request.base_sha
    git = effects.checkout()
    commit = git.resolve_commit(base, "base")
    inside = PurePosixPath(Path(os.path.relpath(effects.repo.resolve(), git.top.resolve())).as_posix())
    return BaseConfig(
        commit=commit,
        read=functools.partial(_read, git, commit, inside),
        names=functools.partial(_names, git, commit, inside),
    )


def run_templates(settings: Settings, base: BaseConfig | None, workspace: Workspace, scratch: Path) -> Settings:
    """`settings` with the templates-dir a run renders with: in a pull request the base commit's
    templates, copied into `scratch`; elsewhere the work tree's folder, which must stay inside the
    workspace."""
    if settings.templates_dir is None:
        return settings
    if base is None:
        workspace.directory(settings.templates_dir)
        return settings
    return replace(settings, templates_dir=templates_at_base(base, settings.repo, settings.templates_dir, scratch))


def templates_at_base(base: BaseConfig, repo: Path, templates_dir: Path, into: Path) -> Path:
    """The templates of `templates_dir` as the base commit has them, written into `into`. Templates
    decide what reviewers read, so a pull request cannot restyle its own verdict (a comment saying
    PASS beside a failing check run): its changes to them apply once merged, like the config's."""
    relative = PurePosixPath(Path(os.path.relpath(templates_dir, repo)).as_posix())
    for folder in TEMPLATE_FOLDERS:
        (into / folder).mkdir(parents=True, exist_ok=True)
        for name in base.names(relative / folder):
            named = TEMPLATE_NAME.fullmatch(f"{folder}/{name}" if folder else name)
            data = base.read(relative / folder / name) if named else None
            if data is not None:
                (into / folder / name).write_bytes(data)
    return into


def _read(git: Git, commit: str, inside: PurePosixPath, relative: PurePosixPath) -> bytes | None:
    return git.file_at(commit, _at_top(inside, relative))


def _names(git: Git, commit: str, inside: PurePosixPath, relative: PurePosixPath) -> tuple[str, ...]:
    return git.files_in_at(commit, _at_top(inside, relative))


def _at_top(inside: PurePosixPath, relative: PurePosixPath) -> PurePosixPath:
    path = PurePosixPath(os.path.normpath(inside / relative))
    if path.parts[:1] == ("..",):
        raise UsageError(f"{relative}: outside the repository, so it cannot be read at the base commit")
    return PurePosixPath() if path == PurePosixPath(".") else path
