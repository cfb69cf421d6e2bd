"""Making sure a worktree's tests import the worktree's code, not the caller's checkout.

An editable install (`pip install -e .`), a linked package (`npm link`, a `node_modules` symlink)
or a Go `replace` to a local path points at the caller's checkout: a reverted worktree would then
silently test the head's code, and every test would look still-green. So the worktree's own source
goes first, and what the tests will load is checked before anything is judged (every command
starts with the project's environment first on PATH: environment.py):

- Python: the worktree's `src/` (a src layout) and its root go first on PYTHONPATH, entries that
  lead into the caller's checkout are dropped, and each changed top-level module is looked up with
  the same interpreter and environment: the file it loads from must lie in the worktree.
- Node: the caller's `node_modules` is linked in when no lockfile changed and no install command is
  given, and no package in it may be a link into the caller's checkout.

An install command (`strength-install`, `--install-command`: `npm ci`, `go mod download`) runs once
in each worktree before its first test; failing, it leaves that worktree's tests not-run.
- Go: no `replace` in go.mod may lead out of the worktree into the caller's checkout.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from evidence_gate.effects import Effects
from evidence_gate.strength.environment import run_path

LOCKFILES = frozenset(
    {"package-lock.json", "npm-shrinkwrap.json", "yarn.lock", "pnpm-lock.yaml", "bun.lock", "bun.lockb"}
)
_FIND_SPEC = """
import importlib.util, sys
for name in sys.argv[1:]:
    try:
        spec = importlib.util.find_spec(name)
    except Exception:
        continue
    if spec is not None and spec.origin not in (None, "namespace", "built-in", "frozen"):
        print("EVIDENCE_GATE_ORIGIN", name, spec.origin, sep="\\t")
"""
_REPLACE = re.compile(r"^\s*(?:replace\s+)?[^\s=]+(?:\s+v\S+)?\s*=>\s*(?P<target>\S+)\s*$")
MAX_MODULES = 5


@dataclass(frozen=True, kw_only=True)
class Setup:
    extra: Mapping[str, str] = field(default_factory=dict)  # set over the run's environment
    loaded_from: Mapping[str, str] = field(default_factory=dict)  # module -> the file it loads, in the worktree
    problem: str | None = None  # why the tests would not import the worktree's code


@dataclass(frozen=True, kw_only=True)
class Install:
    command: str | None  # run once in each worktree before any test (`npm ci`), or None
    link: bool  # link the caller's node_modules in (no install command, and no lockfile changed)
    timeout: float


def prepare(
    effects: Effects, tree: Path, root: str, language: str, production: Iterable[str], install: Install, log: Path
) -> Setup:
    """The worktree made ready (dependencies linked or installed), and what its tests will load
    checked. `root` is the stack's project folder, relative to the top of the worktree and the checkout."""
    caller = effects.top.resolve()
    project = tree / root
    if language == "javascript" and install.link:
        _link_node_modules(project, caller / root)
    extra = {"PATH": run_path(effects, root)}
    if language == "python":
        extra.update(_python_path(effects, project, caller))
    if install.command is not None:
        run = effects.commands(["sh", "-c", install.command], project, log, install.timeout, extra=extra)
        if run.exit_code != 0:
            why = "timed out" if run.timed_out else f"exited {run.exit_code}"
            return Setup(extra=extra, problem=f"the install command `{install.command}` {why} in the worktree")
    if language == "python":
        return _python(effects, tree, project, caller, production, extra, log)
    if language == "javascript":
        return Setup(extra=extra, problem=_node_links(project, caller))
    if language == "go":
        return Setup(extra=extra, problem=_go_replace(tree, project, caller))
    return Setup(extra=extra)


def _python_path(effects: Effects, project: Path, caller: Path) -> dict[str, str]:
    inherited = [entry for entry in effects.environ.get("PYTHONPATH", "").split(os.pathsep) if entry]
    first = [str(project / "src")] if (project / "src").is_dir() else []
    kept = [entry for entry in inherited if not _inside(Path(entry), caller)]
    return {"PYTHONPATH": os.pathsep.join([*first, str(project), *kept])}


def _python(
    effects: Effects,
    tree: Path,
    project: Path,
    caller: Path,
    production: Iterable[str],
    extra: dict[str, str],
    log: Path,
) -> Setup:
    candidates = module_names(production)
    if not candidates:
        return Setup(extra=extra)
    effects.commands(["python", "-c", _FIND_SPEC, *candidates], project, log, 60.0, extra=extra)
    loaded: dict[str, str] = {}
    root = tree.resolve()
    for line in log.read_text("utf-8", "replace").splitlines():
        tag, _, rest = line.partition("\t")
        name, _, origin = rest.partition("\t")
        if tag != "EVIDENCE_GATE_ORIGIN" or name not in candidates:
            continue
        where = Path(origin).resolve()
        if not where.as_posix().endswith("/" + candidates[name]):
            continue  # another module of that name: not the changed file
        if _inside(where, root):
            loaded[name] = where.relative_to(root).as_posix()
        elif "." in name or _inside(where, caller):
            problem = f"the module `{name}` is loaded from {where}, outside the worktree (an editable install?)"
            return Setup(extra=extra, loaded_from=loaded, problem=problem)
    return Setup(extra=extra, loaded_from=loaded)


def module_names(production: Iterable[str]) -> dict[str, str]:
    """Each dotted name a changed Python file could be imported by, with the path suffix that name
    loads (`lib/shop/cart.py`: `shop.cart` is `shop/cart.py`, `cart` is `cart.py`), for a few files."""
    names: dict[str, str] = {}
    files = [path for path in production if path.endswith(".py")][:MAX_MODULES]
    for path in files:
        parts = list(PurePosixPath(path).with_suffix("").parts)
        for start in range(len(parts)):
            dotted = [part for part in parts[start:] if part != "__init__"]
            if dotted and all(part.isidentifier() for part in dotted):
                names.setdefault(".".join(dotted), "/".join(PurePosixPath(path).parts[start:]))
    return names


def _link_node_modules(tree: Path, caller: Path) -> None:
    source, target = caller / "node_modules", tree / "node_modules"
    if source.is_dir() and not target.exists():
        target.symlink_to(source, target_is_directory=True)


def _node_links(tree: Path, caller: Path) -> str | None:
    """Why the worktree's node_modules would load the caller's code: a package linked into its checkout."""
    target = tree / "node_modules"
    if not target.is_dir():
        return None
    linked = target.resolve()
    for entry in [*target.iterdir(), *(p for s in target.glob("@*") if s.is_dir() for p in s.iterdir())]:
        if entry.is_symlink() and _inside(entry.resolve(), caller) and not _inside(entry.resolve(), linked):
            return f"node_modules/{entry.relative_to(target)} links to the caller's checkout ({caller})"
    return None


def _go_replace(tree: Path, project: Path, caller: Path) -> str | None:
    for mod in [project / "go.mod", *project.glob("*/go.mod")]:
        if mod.is_symlink():  # the pull request's: a link may lead anywhere on the runner
            return f"{mod.relative_to(tree)} is a symbolic link: not followed, so its replacements cannot be checked"
        if not mod.is_file():
            continue
        for line in mod.read_text("utf-8", "replace").splitlines():
            found = _REPLACE.match(line.split("//", 1)[0])
            if not found or not found.group("target").startswith(("/", ".")):
                continue
            target = (mod.parent / found.group("target")).resolve()
            if not _inside(target, tree.resolve()) and _inside(target, caller):
                return f"{mod.relative_to(tree)} replaces a module with {target}, in the caller's checkout"
    return None


def _inside(path: Path, root: Path) -> bool:
    resolved = path.resolve()
    return resolved == root or root in resolved.parents
