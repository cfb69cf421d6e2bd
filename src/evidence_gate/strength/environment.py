"""The PATH a strength run's commands start with: the project's environment first, so the stack's
`python -m pytest` is the project's interpreter with its dependencies, not a bare one that happens
to be first on the caller's PATH.

In order: the active virtualenv (`VIRTUAL_ENV`, whether or not its scripts lead the caller's PATH:
`source .venv/bin/activate` in one CI step does not reach the next), then the project's own
`.venv/` or `venv/` (of the stack's folder, then of the top, as `Effects.tools_path` finds them),
then the caller's PATH. A virtualenv whose folder git tracks is never used: it is the pull
request's files, and its `bin/python` could be anything.
"""

from __future__ import annotations

import os
from pathlib import Path

from evidence_gate.effects import Effects
from evidence_gate.tool_lookup import VENV_DIRS


def run_path(effects: Effects, root: str) -> str:
    """`root` is the stack's project folder, relative to the top of the caller's checkout."""
    top = effects.top
    first = [_active(effects, top)]
    if root != ".":
        first += [top / root / name for name in VENV_DIRS if not _committed(effects, top, top / root / name)]
    project = [str(folder / "bin") for folder in first if folder is not None and (folder / "bin").is_dir()]
    rest = effects.tools_path.split(os.pathsep)
    return os.pathsep.join(dict.fromkeys(entry for entry in [*project, *rest] if entry))


def _active(effects: Effects, top: Path) -> Path | None:
    named = effects.environ.get("VIRTUAL_ENV", "")
    if not named or not Path(named).is_absolute():
        return None
    folder = Path(named)
    return None if _committed(effects, top, folder) else folder


def _committed(effects: Effects, top: Path, folder: Path) -> bool:
    """Whether git tracks `folder` or anything below it (a folder outside the checkout never is)."""
    try:
        relative = folder.resolve().relative_to(top.resolve())
    except ValueError:
        return False
    if effects.git is None:
        return False
    return relative.parts == () or effects.git.tracks_any(relative.as_posix())
